"""Actions on several things at once, or on one named by its place among them: "all my
appointments next week", "everything except the dentist", "the one after the dentist",
"my morning appointment", "no, just the haircut". Through the websocket and the CRM stub.

tests/data/conversations_scoped.jsonl, written before the rules were read. First run: 7 of
its first 16 sessions (one of the nine failures was the set's own mistake, corrected).
Wrong writes among them: "cancel all my appointments except the dentist" and "cancel the
appointment after the dentist" asked to cancel the dentist; "complete all my tasks except
the eye exam" completed the eye exam; "cancel all my appointments next week" asked to
cancel this week's two. Now 16/16. The last six sessions were written after the fixes:
first run 5/6 ("mark every task as done apart from the car insurance" completed all three,
the exception said after the action's words), now 6/6.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

SCOPED: Path = DATA / "conversations_scoped.jsonl"


async def test_what_is_left_out_or_out_of_range_is_never_changed(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: only the items the description picks out are changed, the
    destructive ones on one yes, and a narrowed no holds only what is left."""
    assert len(read_cases(SCOPED)) == 22
    share, failed = await score(make_assistant, crm_admin, SCOPED, capsys)
    assert share == 1.0, failed
