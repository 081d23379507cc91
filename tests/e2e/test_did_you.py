"""Asked whether a change was made, with its verb ("did you book it?", "did you add
that", "so did you actually move it") (tests/data/conversations_did_you.jsonl).

Found by probing. FIRST RUN: 0 of 5 (the last written after the fix): each was told
"Sorry, I can't help with that", so the customer could not hear that the change was made
("did that go through?" was answered). Now the verb of any change, asked of "it", "that"
or "them", is answered from what was done (retries._ASKS_IF_DONE), or that nothing was
changed yet. `bench.decisions --dump`: the same decisions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

DID_YOU: Path = DATA / "conversations_did_you.jsonl"


async def test_did_you_is_answered_from_what_was_done(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: what was done is said, nothing is written again."""
    assert len(read_cases(DID_YOU)) == 5
    share, failed = await score(make_assistant, crm_admin, DID_YOU, capsys)
    assert share == 1.0, failed
