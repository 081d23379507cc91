"""A reply that says which visit to a question asking when, through the websocket and the
real CRM stub.

tests/data/conversations_which_after_when.jsonl: "I need to reschedule my appointment" →
"When would you like to move it to?" → "the dentist one" listed every appointment, and
the time said next ("thursday at 2pm") was refused: the thread was lost. First run
1/3. The reply names the visit (by its service), the time is asked again, and the time
moves that visit; a reply that asks something else is answered, and nothing moves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

WHICH: Path = DATA / "conversations_which_after_when.jsonl"


async def test_the_visit_named_in_a_reply_is_the_one_moved(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: the visit named in the reply is moved at the time said next,
    the other one is not, and a question in between moves nothing."""
    assert len(read_cases(WHICH)) == 3
    share, failed = await score(make_assistant, crm_admin, WHICH, capsys)
    assert share == 1.0, failed
