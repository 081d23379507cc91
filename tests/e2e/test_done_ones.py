"""The to-dos already done, named as such ("delete my completed tasks", "remove everything
I've finished from my list"): those, never the ones still open
(tests/data/conversations_done_ones.jsonl).

Found by probing. FIRST RUN of the first three: 0 of 3. "remove everything I've finished
from my list" ASKED TO DELETE THE THREE OPEN TASKS, so a yes would have deleted every task
still to do and kept the done one; "delete my completed tasks" and "delete the tasks I have
finished" asked which of the open ones. Now "completed/done/finished" in the target, or
"I've finished…" said after it, with "all" or a plural, is every done one (resolve.py
resolve_all); "I'm done with this list" says nothing of which. The two controls were
written with the fix. All pass; `bench.decisions --dump` gives the same decisions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

DONE_ONES: Path = DATA / "conversations_done_ones.jsonl"


async def test_the_done_ones_are_the_done_ones(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: only the completed to-do is asked about and deleted."""
    assert len(read_cases(DONE_ONES)) == 5
    share, failed = await score(make_assistant, crm_admin, DONE_ONES, capsys)
    assert share == 1.0, failed
