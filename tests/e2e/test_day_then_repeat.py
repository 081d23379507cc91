"""A to-do's first day said before it, and a repeat said after it
(tests/data/conversations_day_then_repeat.jsonl): "remind me on the 1st to pay rent, and
every month after".

Found by probing: that request added a to-do titled "On the 1st to pay rent, and every
month after", with no due day. The four sessions were written before the rules were read.
FIRST RUN: 0 of 4, each a WRONG WRITE: the
to-do was titled with the day and the repeat ("Tomorrow to take my vitamins, daily") and had
no due day. Fixed as a rule (language/task_rules.py `_DAY_THEN_TODO`): the day said first
is the due day, what to do is the title, and the repeat stays in it ("Pay rent every
month", due February 1), as a to-do said to repeat keeps it (no to-do repeats).
`bench.decisions --dump`: no decision changed. 4/4.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

DAY_THEN_REPEAT: Path = DATA / "conversations_day_then_repeat.jsonl"


async def test_a_first_day_said_before_a_repeat_is_the_due_day(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session adds the to-do due on the first day said, titled with what to do."""
    assert len(read_cases(DAY_THEN_REPEAT)) == 4
    share, failed = await score(make_assistant, crm_admin, DAY_THEN_REPEAT, capsys)
    assert share == 1.0, failed
