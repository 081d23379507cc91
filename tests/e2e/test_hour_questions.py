"""Hours that are asked, not guessed, through the websocket and the real CRM stub.

tests/data/conversations_hours.jsonl: a move to "saturday afternoon" or to "saturday at
7" of the appointment in focus asks the hour (or morning or evening) and the reply then
moves it; a booking "friday at 7" asks too; "7pm" and "afternoon at 3" are written at once.
A booking "tomorrow morning" asks the hour (a part of the day is not one); a reply that
names another day, or asks which times are free, is met with the question again. "Push
it back by two days" moves the visit two days at its own hour (it was moved to 2 PM:
"by two" was read as an hour).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

HOURS: Path = DATA / "conversations_hours.jsonl"


async def test_an_unsure_hour_is_asked_and_the_reply_is_written(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: nothing is written at a guessed hour, the reply's hour is."""
    assert len(read_cases(HOURS)) == 10
    share, failed = await score(make_assistant, crm_admin, HOURS, capsys)
    assert share == 1.0, failed
