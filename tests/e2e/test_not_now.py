"""A yes for later, or on a condition, or with a question in it is no yes to the change now.

Found after the session's frame fixes, by saying to "Are you sure you want to cancel your
haircut…?" what a caller says when not ready: "do it later", "go ahead tomorrow", "do it
after my dentist appointment", "yes once I check with my wife", "yes if it's free", "sure,
but is it refundable?". First run: six of the seven CANCELLED THE HAIRCUT at once. And "I
tried to move my haircut to saturday on the app" (offered) → "the app said it was done, did
you do it?" MOVED IT: "do it" in a question whether it was done was read as the yes. Now
neither is a yes (language/confirm.py); "ok, do it when you can", "yes please, if you can",
"yes, if that's ok", "yes, and after that tell me my balance" still are (the controls).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

NOT_NOW: Path = DATA / "conversations_not_now.jsonl"


async def test_a_yes_for_later_or_on_a_condition_changes_nothing_now(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    assert len(read_cases(NOT_NOW)) == 15
    share, failed = await score(make_assistant, crm_admin, NOT_NOW, capsys)
    assert share == 1.0, failed
