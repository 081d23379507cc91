"""Questions about the customer's own data, answered with the fact asked for.

Through the websocket and the real CRM stub.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

ASKED: Path = DATA / "conversations_asked.jsonl"

KNOWN_OPEN: list[str] = []


async def test_questions_are_answered_with_what_was_asked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: the fact asked is said, nothing misleading, nothing written."""
    assert len(read_cases(ASKED)) == 37
    _, failed = await score(make_assistant, crm_admin, ASKED, capsys)
    assert failed == KNOWN_OPEN
