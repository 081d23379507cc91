"""Conversations nobody tuned for: a sixteenth set, keeping the thread.

Through the websocket and the real CRM stub.

FIRST RUN: (to be recorded)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN16: Path = DATA / "conversations_unseen16.jsonl"

KNOWN_OPEN: list[str] = []


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the sixteenth unseen set passes: nothing is written unasked, on a
    wrong day, lost or doubled."""
    assert len(read_cases(UNSEEN16)) == 21
    _, failed = await score(make_assistant, crm_admin, UNSEEN16, capsys)
    assert failed == KNOWN_OPEN
