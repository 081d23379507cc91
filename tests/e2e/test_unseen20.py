"""Conversations nobody tuned for: a twentieth set, confirmations and answers to questions.

FIRST RUN, on the code as it was: 18/27 sessions (72/88 turns), no wrong write.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN20: Path = DATA / "conversations_unseen20.jsonl"

# The first run's failures, until fixed.
KNOWN_OPEN: list[str] = [
    "u20-cleaning-sure-why-not",
    "u20-groceries-hmm-i-guess",
    "u20-haircut-what-will-that-do",
    "u20-two-asked-just-the-task",
    "u20-two-tasks-both",
    "u20-two-asked-haircut-yes-task-no",
    "u20-haircut-saturday-same-as-before",
    "u20-new-request-what-i-owe-then-yes",
    "u20-phone-never-mind-then-yes",
]


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the twentieth unseen set passes: a held change is made only on a
    clear yes, once, and only the part said yes to."""
    assert len(read_cases(UNSEEN20)) == 27
    _, failed = await score(make_assistant, crm_admin, UNSEEN20, capsys)
    assert failed == KNOWN_OPEN
