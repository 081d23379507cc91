"""Conversations nobody tuned for: a fifteenth set, calls about the account and support cases.

FIRST RUN: (to be recorded)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN15: Path = DATA / "conversations_unseen15.jsonl"

KNOWN_OPEN: list[str] = []


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the fifteenth unseen set passes: nothing is written unasked, on a
    wrong day, lost or doubled."""
    assert len(read_cases(UNSEEN15)) == 27
    _, failed = await score(make_assistant, crm_admin, UNSEEN15, capsys)
    assert failed == KNOWN_OPEN
