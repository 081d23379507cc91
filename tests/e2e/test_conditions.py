"""A change asked for only if something holds, through the websocket and the real CRM stub.

tests/data/conversations_conditions.jsonl (written before the rules were read; first run
4/6): "check if I have anything next week and if not book a haircut for Tuesday at 4pm"
booked the haircut without regard to the "if not" (and for tomorrow, a Tuesday of this
week); "…and if it's more than 100 dollars add a task to call the billing office" added
the task. A change said on a condition is now asked about after the lookups ("I
haven't changed anything yet. Would you like me to book…?") and made only on a yes;
"if possible", "if that's okay" are only polite, and the change is made.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

CONDITIONS: Path = DATA / "conversations_conditions.jsonl"


async def test_a_change_on_a_condition_is_asked_about_not_made(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: nothing is written on an "if" the customer has not seen
    settled; a yes to the question writes it; a polite "if possible" writes at once."""
    assert len(read_cases(CONDITIONS)) == 6
    share, failed = await score(make_assistant, crm_admin, CONDITIONS, capsys)
    assert share == 1.0, failed
