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
Written afterwards, first run: 1 probe, held: a yes that arrives 0.2 s before the
question's time is up, whose delete is still in flight when it is, deletes once and is
told done. (Its first version waited for a second read of the tasks that the yes does
not make, and timed out: the probe's mistake; it now waits for the delete.)
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


# --- written afterwards -----------------------------------------------------------------


async def test_a_question_expiring_while_its_yes_is_applied_is_told_done(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The yes arrives 0.2 s before the question's time runs out; the delete it starts
    is still in flight at the end of that time (the clock moved past it meanwhile): the
    task is deleted once and the customer is told it was, not that the question expired."""
    start = datetime(2030, 1, 14, 12, 0, tzinfo=HOME)
    NOW[0] = start
    assistant = await make_assistant(clock=lambda: NOW[0], confirmation_ttl_s=60)
    chat = await assistant.connect()
    assert (await chat.say("delete the buy groceries task"))[-1]["awaiting_confirmation"]
    route = "/v1/customers/*/tasks/*"
    await crm_admin.add_fault(method="DELETE", path=route, latency_ms=300, times=1)
    NOW[0] = start + timedelta(seconds=59.8)
    await chat.send_message("yes")
    await crm_admin.wait_until_seen("DELETE /v1/customers/{cid}/tasks/{tid}")
    NOW[0] = start + timedelta(seconds=61)
    events = await chat.events_until("turn.done")
    said = answer(events).lower()
    _, body = await crm_admin.get("/v1/customers/cust_001/tasks?status=all")
    assert "Buy groceries" not in [t["title"] for t in body["tasks"]], said
    assert "delet" in said and "not " not in said and "expired" not in said, said
    stats = await crm_admin.stats()
    assert stats["requests"].get("DELETE /v1/customers/{cid}/tasks/{tid}") == 1
