"""Replacing a visit with another service ("swap the cleaning for a checkup, same time",
"replace my haircut with a massage on friday at 3", "instead of my haircut can i have a
massage") (tests/data/conversations_replace.jsonl).

Written before the rules they exercise were read. FIRST RUN, on the code as it was: 0 of 10
sessions (3/20 turns). WRONG WRITES: twice the yes cancelled the visit and the booking
asked for with it was lost ("cancel the cleaning and book a checkup in its place" asked
"When would you like your annual checkup? Are you sure you want to cancel…", and the yes
only cancelled). Five were told "I can't change which service a booking is for", or
refused, or listed the visits, and the yes after them found nothing waiting.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

REPLACE: Path = DATA / "conversations_replace.jsonl"


async def test_a_replacement_is_asked_once_and_done_whole(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: one question names both, the yes cancels and books, a no
    does neither."""
    assert len(read_cases(REPLACE)) == 10
    share, failed = await score(make_assistant, crm_admin, REPLACE, capsys)
    assert share == 1.0, failed
