"""Asked for what no tool does, next to what one does: a message for the salon, a note or
more time on a visit, another service in a booking's place, an invoice taken off, an
account closed, a slot given to someone else, a reminder call. Through the websocket and
the real CRM stub.

tests/data/conversations_outside.jsonl, written before the rules were read. First run as
written (writes and confirmations only): 21/25. Two were wrong writes: "move my next
appointment to sunday at 2:30pm" moved the dental cleaning onto the haircut's hour
unasked, since a visit found by getNextAppointment had no listing to check against. One
would have been, on a yes: "please cancel the dental cleaning invoice" offered to cancel
the dental cleaning itself. One was a refusal ("call me the day before … to remind me").

Reading the answers showed ten more that answered something else: a listing of the visits
for "I'm going to be 15 minutes late", "add a note to my dentist appointment", "make my
haircut an hour longer" and "put me on the waitlist"; "when would you like to move it
to?" for "change my haircut to a massage instead" (a time said next would have moved the
haircut and left it a haircut); a task search for "take the dental cleaning off my bill";
the profile read out for "close my account". Those turns were then given what they must
say (that it can't be done here), still before the rules were read: 14/25, with the
overlap check already fixed.

Now 25/25. The move is checked against the visits, fetched when the turn has no listing
(assistant/guard.py); what no tool does is said plainly (limits.py): a message or a note
for the business, a visit's length, its service, an invoice changed, an account closed, a
booking in someone else's name, a waiting list, reminder calls; a day counted from a
visit is not worked out for those; and a day and time said with nothing asked asks what
for. Ten more written after the fixes, not tuned for: 7/10 on their first run (a late
arrival said with "probably", a two-word service swapped, "if an earlier haircut opens
up"; none wrote anything); the three rules were then widened: 35/35.

haircut-to-massage was then corrected when a visit replaced by another service became two
changes asked as one (tests/e2e/test_replace.py): "can you change my haircut to a massage
instead" is asked "Are you sure you want to cancel your haircut … and book a massage in its
place at that time?" (it was told "I can't change which service a booking is for"), and
"friday at 3pm" next answers that question: the haircut cancelled, the massage booked then.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

OUTSIDE: Path = DATA / "conversations_outside.jsonl"

KNOWN_OPEN: list[str] = []


async def test_what_no_tool_does_is_said_plainly_and_nothing_else_is_written(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: what no tool does is said so, no nearby write is made or
    offered in its place, and a move onto another visit's hour is asked about."""
    assert len(read_cases(OUTSIDE)) == 35
    _, failed = await score(make_assistant, crm_admin, OUTSIDE, capsys)
    assert failed == KNOWN_OPEN
