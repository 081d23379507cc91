"""Questions about one day, through the websocket and the real CRM stub: the answer is
that day's bookings, or that nothing is booked then and what comes next.

tests/data/conversations_days.jsonl: "am I free on Friday?" and "is Wednesday clear for
me?" were refused ("Sorry, I can't help with that"); "do I have anything on Sunday?" and
"have I got anything tomorrow?" listed every appointment, leaving the customer to find
the day. A listing asked without a day still lists them all. "What slots are free on
Friday for a massage?" says the open times cannot be seen here (it read out the
customer's own bookings as if they answered it), and "ok book me in at 11am Friday then"
books the massage it asked about; after "when is my haircut?" the same words ask which
service (a move may be meant).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

DAYS: Path = DATA / "conversations_days.jsonl"


async def test_a_question_about_one_day_is_answered_for_that_day(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: that day's visits, or none and the next one after; the open
    times asked about are said to be unknown, and the service asked about is booked."""
    assert len(read_cases(DAYS)) == 7
    share, failed = await score(make_assistant, crm_admin, DAYS, capsys)
    assert share == 1.0, failed
