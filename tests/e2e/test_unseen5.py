"""Conversations nobody tuned for: a fifth set written from what customers of a salon or
clinic say, before the language rules were read. Through the websocket and the real CRM stub.

tests/data/conversations_unseen5.jsonl (35 sessions, 71 turns): conditional and hedged
destructive asks ("if my dentist appointment is before 10, please cancel it", "I might have
to cancel my haircut, I need to check with work first"), dates said every way ("a week from
tuesday at half past two", "the 3rd at noon", "the end of next month", "this friday at
quarter to eleven", "the 1st of next month"), contact changes said in part ("my number ends
in 42 now", "use my work email instead"), two asks in one message, changes of mind, and
questions about what was just done. Every turn states what the CRM must hold after it.

First run, on the code as it was: 15/35 sessions (49/71 turns), with 5 WRONG WRITES: a task
titled "Pay it" ("remind me to pay it on friday" after "do I owe anything?"); a task titled
"Send the signed consent form, could you note that down"; "make it the end of next month"
made a task due the 1st of February; "could I just move it to the same time next week
instead?" during a pending cancel of the dentist moved the HAIRCUT; and "could I also get a
haircut that same day at 2?" after asking about Wednesday's cleaning booked it today.
One check of the set's own was then corrected before any rule changed: "is that before or
after my cleaning?" answered by a listing that shows both times (9:00 and 10:00) is a true
answer, not only one that says "before". On the code as it was: 16/35 (50/71 turns).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN5: Path = DATA / "conversations_unseen5.jsonl"

KNOWN_OPEN: list[str] = []


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the fifth unseen set passes: nothing is written unasked or wrong."""
    assert len(read_cases(UNSEEN5)) == 35
    _, failed = await score(make_assistant, crm_admin, UNSEEN5, capsys)
    assert failed == KNOWN_OPEN
