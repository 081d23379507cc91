"""The kinds of phrasing the sixth held-out set found read wrongly (tests/data/heldout6.jsonl),
each in wordings beyond the set's own: a to-do put off "until" a day, said of the thing; a
bill paid, said with what it was for; closed or every-ever history asked with more words."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.language import detect_intents

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))  # a Monday


def _kinds(text: str) -> list[str]:
    return [intent.kind for intent in detect_intents(text, NOW, TZ)]


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("the groceries can wait until saturday", date(2030, 1, 19)),
        ("my pharmacy reminder can wait till friday", date(2030, 1, 18)),
        ("the car insurance will have to wait until the 25th", date(2030, 1, 25)),
    ],
)
def test_a_to_do_that_can_wait_until_a_day_is_due_that_day(text: str, due: date) -> None:
    (intent,) = detect_intents(text, NOW, TZ)
    assert intent.kind == "update_task"
    assert dict(intent.arguments) == {"due_on": due.isoformat()}


@pytest.mark.parametrize(
    "text",
    [
        "my haircut can wait till friday",
        "the dental cleaning appointment can wait until next week",
        "the groceries can wait",
    ],
)
def test_a_visit_or_no_day_that_can_wait_changes_no_task(text: str) -> None:
    assert "update_task" not in _kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        "I paid the dental cleaning invoice yesterday, has it come through",
        "i paid my annual checkup bill this morning",
        "paid the haircut invoice last week, did you get it?",
    ],
)
def test_a_bill_paid_is_never_a_task_done(text: str) -> None:
    assert "complete_task" not in _kinds(text)
