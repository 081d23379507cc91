"""A question asked a minute before the customer's midnight and answered a minute after
it: "tomorrow" said at 23:59 is the next day, and the yes at 00:01 (when "tomorrow"
has become another day) applies the day that was asked about. The service's clock and
the CRM's are pinned and moved together; the customer lives in Los Angeles while the
server's clock (UTC) has long passed midnight. Embedded models, the real CRM stub.

First run (written before any fix): 2 probes, both held once a check of the probe was
put right: the due-date check counted the seeded "Buy groceries" task (due on the
seed's next day, 2030-01-16) as the new one; it now counts only the task added. The
booking is made on Tuesday at 10 AM as asked at 23:59 Monday, and the task added at
00:01 is due "today, Tuesday, January 15", the day that was "tomorrow" when asked.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from aiohttp import web

from crm_stub.app import create_app
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, appointments

HOME = ZoneInfo("America/Los_Angeles")
BEFORE = datetime(2030, 1, 14, 23, 59, tzinfo=HOME)
AFTER = BEFORE + timedelta(minutes=2)
NOW = [BEFORE]


@pytest.fixture
def crm_app(crm_token: str) -> web.Application:
    NOW[0] = BEFORE
    return create_app(token=crm_token, today=BEFORE.astimezone(UTC).date(), clock=lambda: NOW[0])


async def test_a_booking_asked_at_2359_and_confirmed_at_0001_keeps_the_day_asked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """A consultation on Tuesday the 15th at 10 AM; at 23:59 on Monday 'book a haircut
    tomorrow at 10am' is asked about (it overlaps); at 00:01 on Tuesday 'yes' books it on
    Tuesday the 15th at 10 AM, not on Wednesday."""
    tuesday_ten = datetime(2030, 1, 15, 10, 0, tzinfo=HOME)
    status, body = await crm_admin.post(
        "/v1/customers/cust_001/appointments",
        {"service": "Consultation", "starts_at": tuesday_ten.isoformat()},
    )
    assert status == 201, body
    assistant = await make_assistant(clock=lambda: NOW[0])
    chat = await assistant.connect()
    asked = await chat.say("book a haircut tomorrow at 10am")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    NOW[0] = AFTER
    yes = await chat.say("yes")
    booked = [
        datetime.fromisoformat(a["starts_at"]).astimezone(HOME)
        for a in await appointments(crm_admin)
        if a["service"] == "Haircut"
    ]
    assert tuesday_ten in booked, (answer(yes), booked)
    assert datetime(2030, 1, 16, 10, 0, tzinfo=HOME) not in booked, (answer(yes), booked)
    assert "wednesday" not in answer(yes).lower(), answer(yes)


async def test_a_due_date_asked_at_2359_and_confirmed_at_0001_keeps_the_day_asked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """At 23:59 on Monday 'add a task to buy groceries due tomorrow' is asked about (one
    is pending); at 00:01 'yes' adds it due Tuesday the 15th, not Wednesday."""
    _, body = await crm_admin.get("/v1/customers/cust_001/tasks?status=pending")
    seeded = [t["due_on"] for t in body["tasks"] if t["title"] == "Buy groceries"]
    assistant = await make_assistant(clock=lambda: NOW[0])
    chat = await assistant.connect()
    asked = await chat.say("add a task to buy groceries due tomorrow")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    NOW[0] = AFTER
    yes = await chat.say("yes")
    _, body = await crm_admin.get("/v1/customers/cust_001/tasks?status=pending")
    dues = [t["due_on"] for t in body["tasks"] if t["title"] == "Buy groceries"]
    for due in seeded:
        dues.remove(due)
    assert dues == ["2030-01-15"], (answer(yes), dues)
