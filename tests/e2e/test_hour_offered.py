"""An hour offered as a question in reply to "what time?" ("how about 4", "can we do 5",
"hmm what about 11"): the answer, never a question of the customer's own
(tests/data/conversations_hour_offered.jsonl).

Found by probing ("hi I'd like to book a massage" → "thursday" → "how about 4" was told
"Sorry, I didn't catch that", then "actually can we do 5" "I can't help with that", and the
massage was never booked). FIRST RUN of the 5 sessions (two of them rewritten once, as a
move made at once is not a question asked): 3 of 5; "how about 4" and "can we do 5", each
in reply to "What time on … works for you?", were not heard as the hour. Now an hour after
"how about", "what about", "let's say", "can we do", "could you do" answers the question
(models/embedded/followup.py _BARE_HOUR_REPLY); "how late are you open on friday" is still
a question of the customer's own. All pass; `bench.decisions --dump` gives the same
decisions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

HOUR_OFFERED: Path = DATA / "conversations_hour_offered.jsonl"


async def test_an_hour_offered_answers_the_question(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: the visit asked about is booked or moved at the hour offered."""
    assert len(read_cases(HOUR_OFFERED)) == 5
    share, failed = await score(make_assistant, crm_admin, HOUR_OFFERED, capsys)
    assert share == 1.0, failed
