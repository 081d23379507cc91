"""A yes to "Are you sure…?" through the websocket and the real CRM stub: what is said
with it is heard, and a yes that points elsewhere confirms nothing.

tests/data/conversations_yes.jsonl: "yes the other one" and "sure, a different one" deleted
the task asked about (now nothing is deleted); "yes and another thing, what's my balance"
deleted it and dropped the question; "yep, oh and by the way when is my haircut" answered
the question without saying the task was deleted (now both are told). "yes please" is the
control.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

YES: Path = DATA / "conversations_yes.jsonl"


async def test_a_yes_is_heard_whole_and_never_confirms_another_target(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: the held delete runs only on a yes to it, and what is said
    after the yes is answered beside the telling of what the yes did."""
    assert len(read_cases(YES)) == 5
    share, failed = await score(make_assistant, crm_admin, YES, capsys)
    assert share == 1.0, failed
