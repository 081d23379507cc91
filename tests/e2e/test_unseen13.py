"""Conversations nobody tuned for: a thirteenth set, about money, cases and contact details.

Through the websocket and the real CRM stub.

tests/data/conversations_unseen13.jsonl (29 sessions, 97 turns, 2-7 turns each).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN13: Path = DATA / "conversations_unseen13.jsonl"

KNOWN_OPEN: list[str] = []


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the thirteenth unseen set passes: no case, detail or bill is
    written unasked or wrong."""
    assert len(read_cases(UNSEEN13)) == 35
    _, failed = await score(make_assistant, crm_admin, UNSEEN13, capsys)
    assert failed == KNOWN_OPEN
