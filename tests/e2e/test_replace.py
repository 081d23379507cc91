"""Replacing a visit with another service ("swap the cleaning for a checkup, same time",
"replace my haircut with a massage on friday at 3", "instead of my haircut can i have a
massage") (tests/data/conversations_replace.jsonl).

Written before the rules they exercise were read. FIRST RUN, on the code as it was: 0 of 10
sessions (3/20 turns). WRONG WRITES: twice the yes cancelled the visit and the booking
asked for with it was lost ("cancel the cleaning and book a checkup in its place" asked
"When would you like your annual checkup? Are you sure you want to cancel…", and the yes
only cancelled). Five were told "I can't change which service a booking is for", or
refused, or listed the visits, and the yes after them found nothing waiting.

Now a replacement is read as the cancel and the booking at the visit's start (or the time
said) (language/replacing.py); the booking waits with the cancel under one question naming
both (integrity.py, confirmation.py), and the yes cancels first and books only when the
cancel went through (replacement.py); a time in the reply answers the question's "at that
time or at another?". `bench.decisions --dump`: the same decisions. 10/10.

Four more (rp-b-…) written after, not tuned on, FIRST RUN 3/4 sessions (6/8 turns): "could
I get a facial instead of my haircut on sunday" cancelled the haircut and LOST THE FACIAL
(a WRONG WRITE: the day said without an hour left the booking asking its hour while the
cancel waited alone). Fixed for its kind: a day said without an hour keeps the visit's hour
on that day, and the question asks the time too. 14/14. The CRM's refusals (of the cancel,
of the booking after it) are played by the tests below, which the written sessions cannot.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import NOW, read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.e2e.test_failed_writes import awaiting, said
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import appointments, writes_applied

REPLACE: Path = DATA / "conversations_replace.jsonl"


async def test_a_replacement_is_asked_once_and_done_whole(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: one question names both, the yes cancels and books, a no
    does neither."""
    assert len(read_cases(REPLACE)) == 14
    share, failed = await score(make_assistant, crm_admin, REPLACE, capsys)
    assert share == 1.0, failed


CANCEL = "/v1/customers/*/appointments/*/cancel"
APPOINTMENTS = "/v1/customers/*/appointments"


async def _asked_to_replace(make_assistant: MakeAssistant) -> Any:
    chat = await (await make_assistant(clock=lambda: NOW)).connect()
    events = await chat.say("replace my haircut with a massage, same time")
    assert sorted(awaiting(events)) == ["crm.bookAppointment", "crm.cancelAppointment"]
    return chat


async def test_a_refused_cancel_books_nothing_and_says_so(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The CRM refuses the cancel after the yes: the massage is not booked, and the
    answer says the haircut stays and nothing was booked in its place."""
    chat = await _asked_to_replace(make_assistant)
    await crm_admin.add_fault(method="POST", path=CANCEL, status=403)
    told = said(await chat.say("yes"))
    assert "couldn't" in told and "haven't booked the massage" in told, told
    assert "you're booked" not in told
    held = await appointments(crm_admin)
    assert [a["service"] for a in held if a["service"] in ("Haircut", "Massage")] == ["Haircut"]


async def test_a_refused_booking_after_the_cancel_is_said_plainly(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The cancel goes through and the CRM refuses the booking: the answer says the
    haircut is cancelled and the massage could not be booked (what the CRM holds)."""
    chat = await _asked_to_replace(make_assistant)
    await crm_admin.add_fault(method="POST", path=APPOINTMENTS, status=403)
    told = said(await chat.say("yes"))
    assert "haircut" in told and "cancelled" in told, told
    assert "couldn't book" in told and "no massage is booked" in told, told
    held = await appointments(crm_admin)
    assert not [a for a in held if a["service"] in ("Haircut", "Massage")]


async def test_the_cancel_is_made_before_the_booking(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """After the yes the CRM sees the cancel first, then the booking, once each."""
    chat = await _asked_to_replace(make_assistant)
    await chat.say("yes")
    writes = [r for r in await crm_admin.requests() if r.get("method") in ("POST", "PATCH")]
    paths = [str(r.get("path")) for r in writes]
    assert len(paths) == 2 and paths[0].endswith("/cancel"), paths
    assert await writes_applied(crm_admin) == {
        "POST /v1/customers/{cid}/appointments/{aid}/cancel": 1,
        "POST /v1/customers/{cid}/appointments": 1,
    }


async def test_a_time_said_with_a_no_writes_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """ "no, keep my haircut at 2:30" to the replacement's question is no answer with a
    time: the haircut stays, no massage is booked."""
    chat = await _asked_to_replace(make_assistant)
    events = await chat.say("no, keep my haircut at 2:30")
    assert not [c for c in events[-1]["tool_calls"] if c["tool"] != "crm.listUpcomingAppointments"]
    held = await appointments(crm_admin)
    assert [a["service"] for a in held if a["service"] in ("Haircut", "Massage")] == ["Haircut"]
