"""A question about the change just made, through the websocket and the real CRM stub.

tests/data/conversations_what_was_done.jsonl (its first six sessions written before the
rules were read; first run 2/6): "wait, what time did you put it at?", "sorry, what day
did you move it to?" and "what did you call it?" were refused, and "what time did you
book it for?" was read as a new booking ("When would you like your massage?"), so the
time said next would have booked a second one. The change is told again from what the
CRM answered, and never made again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

DONE: Path = DATA / "conversations_what_was_done.jsonl"


async def test_the_change_just_made_is_told_again_not_made_again(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: the booking's time, the move's day, the task's title are
    told; a time said after the question books nothing more."""
    assert len(read_cases(DONE)) == 8
    share, failed = await score(make_assistant, crm_admin, DONE, capsys)
    assert share == 1.0, failed
