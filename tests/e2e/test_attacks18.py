"""A change said again in the same conversation, or taken up with "try again", after it
was made (tests/data/conversations_attacks18.jsonl), with the embedded models: the
conversation side of tests/integrity/test_resend_attacks18.py. Nothing is made twice
without a question, and a question says what the CRM holds.

FIRST RUN (written after that file's fixes, on its last commit): 6 of 6 sessions; on the
base (015fca3) 5 of 6, the add asked again after its undo said "I already added 'Call
the plumber' a few minutes ago" with the to-do gone. `bench.said_around --sets` on this
set: 78 variants, none wrote more or less (once the bench forgets the app's memory of
the customer's recent writes between the sessions it plays, as it resets the CRM: else
each variant's shift met the one before's "I already moved that appointment").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

ATTACKS18: Path = DATA / "conversations_attacks18.jsonl"


async def test_a_change_said_again_is_made_once_unless_asked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session makes each change once, and asks before a second."""
    assert len(read_cases(ATTACKS18)) == 6
    share, failed = await score(make_assistant, crm_admin, ATTACKS18, capsys)
    assert share == 1.0, failed
