"""Two changes of two turns undone at once, through the websocket and the real CRM stub
(tests/data/conversations_undo_both.jsonl): "undo both" after adding milk, then bread;
"can you undo the last two please" after a booking and a move; "actually reverse them
both".

Probed first: "undo both" after two adds asked only "Are you sure you want to delete the
task 'Buy bread'?" (the milk was left, said as nothing). FIRST RUN of the 3 sessions on
the code as it was: 0 of 3 passed (7 of 12 turns). WRONG WRITE: "can you undo the last
two please", after a booking and a move of the haircut to Saturday at 10, MOVED THE
HAIRCUT TO SATURDAY AT 2 PM ("two" read as the hour) and left the booking; "actually
reverse them both" was not caught. Now the last two changes of the conversation are each
made the other way (models/embedded/undo.py _undo_both: an added task deleted and a
booking cancelled, both asked first; a move put back), or, when one cannot be, which to
undo is asked. All 3 pass.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

BOTH: Path = DATA / "conversations_undo_both.jsonl"


async def test_both_changes_are_undone_each_asked_as_it_would_be(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: both changes undone (deletes and cancels asked first)."""
    assert len(read_cases(BOTH)) == 3
    share, failed = await score(make_assistant, crm_admin, BOTH, capsys)
    assert share == 1.0, failed
