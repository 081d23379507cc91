"""What a customer tells that asks for no lookup: someone else's details, a detail that is
out of date, a complaint. Through the websocket and the real CRM stub.

tests/data/conversations_told.jsonl, written before the rules were read. First run: 10 of
its first 23 sessions (the phone number on file read back to "my husband's number is…",
"I waited forty minutes…" and "please stop texting me reminders" answered with listings,
"the email you have for me is wrong" not asking for the new one, "my new number is 555
0199" blamed on the country, "my old number was 415 555 0101, it's changed" offering to
set the old number). Now 23/23; the last six sessions were written after the fixes and
passed on their first run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

TOLD: Path = DATA / "conversations_told.jsonl"


async def test_what_is_told_changes_nothing_unasked_and_is_answered(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: no detail on file changes but the customer's own new one, on a
    yes; complaints are heard; a part of a number or address is asked for in full."""
    assert len(read_cases(TOLD)) == 29
    share, failed = await score(make_assistant, crm_admin, TOLD, capsys)
    assert share == 1.0, failed
