"""A to-do's priority said as what it may or now is ("the groceries can be low priority",
"the groceries task is low priority now"): a change of it.

Found by probing. FIRST RUN: 1 of 4 ("should be" was read; "can be", "could be" and
"is … now" listed the low-priority tasks, and one told "Your low-priority task is
Schedule eye exam" for "the groceries can be low priority").
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.language import detect_intents

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))


@pytest.mark.parametrize(
    ("said", "level"),
    [
        ("the groceries can be low priority", "low"),
        ("groceries should be low priority", "low"),
        ("the eye exam one could be high priority", "high"),
        ("the groceries task is low priority now", "low"),
    ],
)
def test_a_priority_said_as_a_state_changes_it(said: str, level: str) -> None:
    found = [i for i in detect_intents(said, NOW, TZ) if i.kind == "update_task"]
    assert [i.arguments.get("priority") for i in found] == [level]


@pytest.mark.parametrize(
    "said", ["which tasks are low priority", "is the groceries task low priority?"]
)
def test_asking_a_priority_changes_none(said: str) -> None:
    assert not [i for i in detect_intents(said, NOW, TZ) if i.writes]
