"""A day counted from the one just said (tests/data/conversations_that_day.jsonl): "move
my haircut to saturday" then "and the cleaning to the day before that".

Found by probing: that moved the cleaning to the day before ITS OWN day (Tuesday), not to
Friday. The other seven were written before the rules were read. FIRST RUN, on the code
before (b00f44c): 2 of 8, with TWO WRONG WRITES (the cleaning moved to the day before its own
day, after "move my haircut to saturday" and after "when is my haircut?"); the rest asked
when though the day was said ("and a facial the day after that at 11" after a booking; "the
week before that" after a move was read as a past time).

Fixed as a rule (models/embedded/task_anchored.py, which already counted a to-do's day so):
"the day/week before/after that" is counted from the day the last change set, a visit's as
a to-do's, else from the day of the visit or to-do talked of since. 8/8.

Two more (td-b-), found after: the same said in ONE message, "book a massage for thursday
at 2 and a facial the day after that at 11", BOOKED THE FACIAL ON THURSDAY ("after that"
was read as "and then"), and "move my cleaning from wednesday to friday and my haircut to
the day after that" moved the haircut to Thursday (counted from the first day said). Both
were wrong writes on the code before; the day said last before it is the one counted from
(language/intents.py `_from_the_day_said`). `bench.decisions --dump`: no decision changed.
10/10.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

THAT_DAY: Path = DATA / "conversations_that_day.jsonl"


async def test_the_day_before_that_counts_from_the_day_just_said(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Each day "before/after that" is counted from the day the last change set or just told."""
    assert len(read_cases(THAT_DAY)) == 10
    share, failed = await score(make_assistant, crm_admin, THAT_DAY, capsys)
    assert share == 1.0, failed
