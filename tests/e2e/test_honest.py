"""Questions about what happened, answered from what the CRM holds: "did you cancel my
haircut?", "did I already book a massage?", "am I all paid up?", "where is my refund?".
Through the websocket and the real CRM stub.

tests/data/conversations_honest.jsonl, written before the rules were read. First run 7/10:
"did you cancel my haircut?" was answered with a listing, not that it is still booked;
"did I already book a massage?" with the whole visit history, not that there is none;
"where is my refund?" with "I can't help with that". Now 10/10. The last four sessions
were written after the fixes: 2/4 first ("did someone cancel…" and "what happened to my
refund" missed the same way), now 4/4.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

HONEST: Path = DATA / "conversations_honest.jsonl"


async def test_what_happened_is_told_as_the_crm_has_it(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: nothing claimed done that was not, what is still booked or
    owed said so, and what no tool can see said plainly."""
    assert len(read_cases(HONEST)) == 14
    share, failed = await score(make_assistant, crm_admin, HONEST, capsys)
    assert share == 1.0, failed
