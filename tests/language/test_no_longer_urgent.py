"""A to-do said to be urgent no longer is put back to normal priority (it read the list
out: "Your high-priority task is Renew car insurance"); a visit said so is no to-do, and a
question whether it is urgent changes nothing. Probed before the rule was written: both
ways of saying it below were missed."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.language.intents import detect_intents

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))


@pytest.mark.parametrize(
    "said",
    [
        "the insurance task is not urgent anymore",
        "the insurance one doesn't need to be high priority",
        "ok the insurance task is no longer a priority",
        "the insurance reminder isn't important any more",
    ],
)
def test_a_to_do_no_longer_urgent_is_normal_priority(said: str) -> None:
    (intent,) = detect_intents(said, NOW, TZ)
    assert intent.kind == "update_task"
    assert dict(intent.arguments) == {"priority": "normal"}
    assert intent.target is not None and "insurance" in intent.target.words


@pytest.mark.parametrize(
    "said", ["my haircut is not urgent", "is the insurance task urgent?", "nothing is urgent"]
)
def test_what_is_no_to_do_or_only_asks_changes_nothing(said: str) -> None:
    assert not any(intent.writes for intent in detect_intents(said, NOW, TZ))
