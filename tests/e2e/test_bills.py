"""What is owed and what a visit is, told as the CRM has it: amounts, due days, where and
how long, "what's that one for?" after the balance. Through the websocket and the real
CRM stub.

tests/data/conversations_bills.jsonl, written before the rules were read. First run: 8/10;
one failure was the set's own (its `not` "0.00" is in "$150.00", corrected to "$0.00").
The miss: "what's that one for?" after "what do I owe" was refused. A question of what
"it" is for, asked with the bill in view, now reads the open invoices out: 10/10.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

BILLS: Path = DATA / "conversations_bills.jsonl"


async def test_what_is_owed_and_booked_is_told_as_the_crm_has_it(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: amounts, days and places as on file, nothing refused."""
    assert len(read_cases(BILLS)) == 10
    _, failed = await score(make_assistant, crm_admin, BILLS, capsys)
    assert failed == []
