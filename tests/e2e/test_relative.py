"""A day told by another appointment ("the day after my dentist", "the same time as my
haircut", "the day before my haircut at 11am"), and a move onto a time another visit
holds. Through the websocket and the real CRM stub.

tests/data/conversations_relative.jsonl, written before the rules were read. First run:
2/10, and six of the eight failures were wrong writes: each day was read from the words
around it ("the day after" as tomorrow, "the same day as my dentist at 4pm" as today, "two
days before my dentist" as two days before the haircut itself, "the morning after my
haircut" then "9am" on the dentist's own day), and "move the haircut to 10am on
wednesday" moved it onto the dental cleaning's hour. One expectation of the set was
corrected: the dental cleaning moved "to the week after my haircut" keeps its weekday and
hour in that week, a fair reading.

Now nothing is written on a guessed day: a day told by another appointment is asked
(KNOWN_OPEN: working it out from the listing is not built yet), and a move onto another
visit's hour is asked about, as a booking already was. 5/10 passed; none of the open five
wrote anything. Since the chains work (models/embedded/anchored.py), "the day after / the
day before / the same day as / the morning after my X" is counted from X, looked up first
(and the message before a reply is read the same way): 9/10. The one open asks the day
(an hour taken from another visit).

Now "the same time as my X" and "N days before my X" are counted too: 10/10 (none open).
Two expectations written while the count was not built (it was asked) were corrected to
the outcome now made: "book a haircut at the same time as my dentist" is asked about as
an overlap, still written nothing ("That overlaps your dental cleaning at the same time.
Do you want me to book it anyway?"); "move my haircut to two days before my dentist"
(Wednesday's) moves it to today, Monday, at its own 2:30 PM, still ahead at noon.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

RELATIVE: Path = DATA / "conversations_relative.jsonl"

# None open: each day is worked out from the other appointment.
KNOWN_OPEN: list[str] = []


async def test_a_day_told_by_another_appointment_is_never_guessed(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session but the known open passes, and those write nothing: no day is read
    from words that tell it by another appointment, and no visit is moved onto another's."""
    assert len(read_cases(RELATIVE)) == 10
    _, failed = await score(make_assistant, crm_admin, RELATIVE, capsys)
    assert failed == KNOWN_OPEN
