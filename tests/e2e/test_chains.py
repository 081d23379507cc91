"""Several asks in one message that depend on each other, and what "it", "the other one",
"the first" point at across them and across turns, through the websocket and the real
CRM stub.

tests/data/conversations_chains.jsonl, written before the planner's rules were read. First
run: 12/32 sessions (32/56 turns). Two wrong writes: "move the first to friday at 11am and
cancel the second" moved both visits to Friday and cancelled none, and "book an eye exam
the day after my haircut at 10am" booked it tomorrow. "Cancel my dentist appointment and
book a new one for friday at 3pm" lost the booking; "mark the insurance task as done and
then delete it" asked which task to delete; "move my haircut to 3", "moved up by a day",
"push it to the afternoon" → "2pm", "if groceries is still there mark it done", "cancel my
haircut, no wait, I mean move it to saturday", "undo that", "ok pay it" and "now the
insurance one" were asked about, refused or answered beside the point.

Then: each position is read in its own ask; "it" in a later ask is what the ask before
acted on (also a task just added, found among this turn's adds); a day counted from
another visit is counted from it (looked up first); a bare hour for a named visit is the
grammar's hour on its own day; a condition that only names the target is the target;
an ask corrected in the same breath is replaced; "undo that" makes the last change the
other way (a cancel or delete of something made is confirmed first). Two checks of the
first run were wrong (a listing the customer asked for names every item) and were
corrected. Now 31/32; the one left open is below (no write: the visits are listed).

The last seven sessions (ch2-…) were written after the fixes, untuned: first run 7/7.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

CHAINS: Path = DATA / "conversations_chains.jsonl"
# "Do the same for my other appointment" after a move said relative to the visit's own time
# moves the other by as much (models/embedded/same_again.py); after a move to a time said
# outright it is not repeated (both at one hour is rarely meant).
KNOWN_OPEN: list[str] = []


async def test_dependent_asks_and_references_write_what_was_asked_or_ask(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: each ask acts on the one it names or
    points at, destructive ones wait for a yes naming exactly that, and nothing else is
    written."""
    assert len(read_cases(CHAINS)) == 39
    _, failed = await score(make_assistant, crm_admin, CHAINS, capsys)
    assert failed == KNOWN_OPEN
