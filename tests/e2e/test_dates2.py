"""Days and hours said the way people say them ("a week from Thursday", "quarter to 5",
"push it back three days", "due in a fortnight"), through the websocket and the real CRM stub.

tests/data/conversations_dates2.jsonl, written before the date rules were read. First run:
25/32 sessions (28/37 turns). Two wrong writes: "move my haircut to first thing
monday" moved it to Monday at its old 2:30 PM, and "book a haircut thursday at 8" booked
8 AM unasked (then "in the morning" was refused). "Same time next week" and "early next
week" asked "when" (the second is right: that check wrongly wanted the word "day"), "2pm"
after "push it to the afternoon" forgot the visit, "due in a fortnight" listed appointments
and "remove the due date" was refused.

Then: "first thing" is a morning whose hour is asked; "same time next week" is a week on
at the visit's hour (it had moved a named visit to next Monday once read as a shift);
a task "due in a fortnight" is read as a new task's due date is. "Thursday at 8" is 8 AM
by the grammar's convention (8 to 11 alone is the morning), so that case now says 7.
Now 31/32 ("2pm" after "push it to the afternoon" moves the visit in focus since the
chains work); the one left open is below (a clear refusal: no wrong write).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

DATES2: Path = DATA / "conversations_dates2.jsonl"
# Not fixed yet: a due date cannot be taken off a task (said plainly, nothing written).
KNOWN_OPEN = ["d2-remove-the-due-date"]


async def test_days_and_hours_as_people_say_them_are_written_exactly_or_asked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session but the one known open passes: the day and hour written are the ones
    said, and a day or hour not said (early next week, the afternoon, 7) is asked."""
    assert len(read_cases(DATES2)) == 32
    _, failed = await score(make_assistant, crm_admin, DATES2, capsys)
    assert failed == KNOWN_OPEN
