"""'Both', 'all of them' after a listing, through the websocket and the real CRM stub.

tests/data/conversations_both.jsonl: "what appointments do I have?" → "cancel both" (and
"cancel all of them") answered "I couldn't find an appointment like that": both
cancellations are now held for one yes, and a no leaves both. "Delete both" with three
tasks listed asks which, and deletes nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

BOTH: Path = DATA / "conversations_both.jsonl"


async def test_both_means_the_two_listed_and_only_when_there_are_two(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: both listed visits are cancelled on one yes, none on a no,
    and "both" of three is asked about."""
    assert len(read_cases(BOTH)) == 4
    share, failed = await score(make_assistant, crm_admin, BOTH, capsys)
    assert share == 1.0, failed
