"""Asks taken back in the same message, with a reason after the words that take them
back (tests/data/conversations_attacks17.jsonl), with the embedded models: the
embedded planner's side of tests/integrity/test_model_attacks17.py.

FIRST RUN (written before the rules were read): 2 of 4 sessions. "mark the groceries
task done, no wait, don't, I still need to go" and "cancel my haircut. no wait, don't, I
still want it" were read as the reason alone ("Sorry, I can't help with that", and a
listing of the visits): the correction rule took "I still need to go" for the ask put
right. Fixed: a reason after the "don't" is part of the take-back
(language/confirm.py `_TAKEN_BACK`), and such a message is not put right
(language/put_right.py). `bench.decisions --dump`: no decision changed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

ATTACKS17: Path = DATA / "conversations_attacks17.jsonl"


async def test_an_ask_taken_back_with_a_reason_changes_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session leaves things as they were (or makes only the change still asked)."""
    assert len(read_cases(ATTACKS17)) == 4
    share, failed = await score(make_assistant, crm_admin, ATTACKS17, capsys)
    assert share == 1.0, failed
