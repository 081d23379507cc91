"""A to-do said as repeating ("remind me every monday to…", "a weekly task to…"): no task
repeats in the CRM, so the words of the repeat stay in the title, after what is to be done,
and no day of it is made the due date.

Found by probing. FIRST RUN of these cases: 1 of 5: "remind me every monday to take out the
bins" was titled "Every monday to take out the bins", "remind me daily to take my pills"
"Daily to take my pills", and "add a weekly task to water the plants" and "set up a
monthly reminder to pay rent" added nothing (the task list was read out).
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.language import detect_intents

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))  # a Monday


@pytest.mark.parametrize(
    ("said", "title"),
    [
        ("remind me every monday to take out the bins", "Take out the bins every monday"),
        ("remind me daily to take my pills", "Take my pills daily"),
        ("add a weekly task to water the plants", "Water the plants weekly"),
        ("set up a monthly reminder to pay rent", "Pay rent monthly"),
        ("remind me to take the bins out every tuesday", "Take the bins out every tuesday"),
    ],
)
def test_a_repeating_to_do_is_titled_by_what_is_to_be_done(said: str, title: str) -> None:
    adds = [i for i in detect_intents(said, NOW, TZ) if i.kind == "add_task"]
    assert [i.arguments.get("title") for i in adds] == [title]
    assert "due_on" not in adds[0].arguments
