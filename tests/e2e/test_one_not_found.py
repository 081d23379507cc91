"""Two cancels asked at once, one of them not found ("…and the haircut on the 21st", with
the haircut on the 20th): the one found is asked about, the other told as not found that
day, never dropped unsaid nor said not to exist (tests/data/conversations_one_not_found.jsonl).

Found by probing. FIRST RUN: 0 of 3. "cancel the cleaning on the 16th and the haircut on
the 21st" asked about the cleaning only and said NOTHING OF THE HAIRCUT; "cancel my haircut
and my pedicure" said nothing of the pedicure; "cancel the haircut on the 21st" was told
"I DON'T SEE AN UPCOMING HAIRCUT ON YOUR ACCOUNT" (there is one, on the 20th). Now an ask
not found beside one held is told, without a second question (models/embedded/narrator.py
_unanswered), and one named with a day is told not found that day (replies._none_of_that).
All pass.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

ONE_NOT_FOUND: Path = DATA / "conversations_one_not_found.jsonl"


async def test_an_ask_not_found_is_told_beside_the_one_asked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: what was not found is said, truly, and the yes cancels only
    the one asked about."""
    assert len(read_cases(ONE_NOT_FOUND)) == 3
    share, failed = await score(make_assistant, crm_admin, ONE_NOT_FOUND, capsys)
    assert share == 1.0, failed
