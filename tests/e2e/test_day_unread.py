"""A booking whose day is said in words no date is read from ("mid february", "late
february", "the first week of march", "after the 20th", "next month"): asked which day,
never booked today or tomorrow at the hour said (tests/data/conversations_day_unread.jsonl).

Found by probing. FIRST RUN: 3 of 8 passed (two controls and "next month", which asked).
WRONG WRITES: "book a haircut mid february at 10" and "book a massage the first week of
march at 11" BOOKED TOMORROW, "book a massage late february at 3" and "can you book me a
massage in march at 4pm" BOOKED TODAY (the month was no day read, so the hour alone was
taken for the next such hour); "book a haircut after the 20th at 2" BOOKED THE 20TH.

Now a month named with no day of it, and "after" before a day read, leave the day unread
(language/dates.py _DAY_UNREAD, _QUALIFIER_UNREAD): the day is asked, and the words of it
give way to the day said in reply (_UNREAD_DAY_PHRASE: "february 14", "the 22nd" then
book at the hour said first; these replies were written after the fix, and passed).
"may" is the month only after "in", "of", "mid"… ("may I book…" asks). All pass;
`bench.decisions --dump` gives the same decisions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

DAY_UNREAD: Path = DATA / "conversations_day_unread.jsonl"


async def test_a_day_not_read_is_asked_not_guessed(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: nothing is booked on a day the customer did not say."""
    assert len(read_cases(DAY_UNREAD)) == 8
    share, failed = await score(make_assistant, crm_admin, DAY_UNREAD, capsys)
    assert share == 1.0, failed
