"""Conversations nobody tuned for: a sixth set written from what customers of a salon or
clinic say, before the language rules were read. Through the websocket and the real CRM stub.

FIRST RUN: pending.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN6: Path = DATA / "conversations_unseen6.jsonl"

KNOWN_OPEN: list[str] = []


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the sixth unseen set passes: nothing is written unasked or wrong."""
    assert len(read_cases(UNSEEN6)) == 48
    _, failed = await score(make_assistant, crm_admin, UNSEEN6, capsys)
    assert failed == KNOWN_OPEN
