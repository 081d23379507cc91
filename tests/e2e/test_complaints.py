"""A customer who wants to complain (tests/data/conversations_complaints.jsonl): the complaint
becomes a support case, or what it is about is asked; it is never refused.

Found by probing ("the receptionist was rude to me yesterday, I want to complain" answered
"Sorry, I can't help with that"); the six sessions were written after that probe, before
its rule was written, and first run on the code before it: 4 of 6 (5/7 turns). WRONG
WRITE: "my neighbour wants to complain about your parking lot" opened a case "Your parking
lot" in the customer's name, unasked. Miss: the refusal above. Fixed: "I want / I'd like /
I need to complain (about|that|: …)" asks for a case, the words said before it its
subject (language/account_rules.py); another person's wish relayed ("my <person> wants
to …") is asked about, never done (language/others.py `_REPORTED`, grammar.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

COMPLAINTS: Path = DATA / "conversations_complaints.jsonl"


async def test_a_complaint_said_becomes_a_case_or_is_asked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """A complaint is opened as a case (or asked about), never refused; nothing else is written."""
    assert len(read_cases(COMPLAINTS)) == 6
    share, failed = await score(make_assistant, crm_admin, COMPLAINTS, capsys)
    assert share == 1.0, failed
