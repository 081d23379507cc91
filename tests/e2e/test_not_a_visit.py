"""A support case asked to be cancelled, and the messages the business sends, are no visit
and no contact detail (tests/data/conversations_not_a_visit.jsonl).

Found by probing. FIRST RUN: 1 of 5 (the control "cancel my haircut"): "cancel my ticket"
and "delete that complaint I made" were looked for among the visits ("I couldn't find an
appointment like that… Which one should I cancel?"); "unsubscribe me from your emails" was
told "I can only change your own phone number and email on file" ("your email" read as
someone else's); "please stop texting me about appointments" failed too. Now a case is
said not to be closed from here (limits.py, as "close my case" was) and the messages sent
are the team's to change (limits._MESSAGES_SENT), a case offered. Nothing was written
either way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

NOT_A_VISIT: Path = DATA / "conversations_not_a_visit.jsonl"


async def test_a_case_or_the_messages_sent_are_no_visit_or_detail(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: nothing is written, and what is said is about the thing meant."""
    assert len(read_cases(NOT_A_VISIT)) == 5
    share, failed = await score(make_assistant, crm_admin, NOT_A_VISIT, capsys)
    assert share == 1.0, failed
