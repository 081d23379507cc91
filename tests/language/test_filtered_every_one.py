"""A change asked of every item a filter names carries the filter to its target: a level,
a span of days ("before the weekend": from today until it), "no due date" said as "that
don't have a due date", and a filter said after "done" (tests/e2e/test_filtered_bulk.py
plays the sessions; assistant/resolve.py applies the filters to "every one")."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from assistant.language.intents import detect_intents
from assistant.language.targets import TargetRef

ZONE = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, tzinfo=ZoneInfo(ZONE))  # a Monday


def _one(text: str) -> tuple[str, TargetRef]:
    intents = detect_intents(text, NOW, ZONE)
    assert len(intents) == 1 and intents[0].target is not None, intents
    return intents[0].kind, intents[0].target


def test_a_filter_said_after_done_narrows_every_one() -> None:
    kind, target = _one("mark everything done that's due this week")
    assert kind == "complete_task"
    assert target.within == (date(2030, 1, 14), date(2030, 1, 20))


def test_done_that_are_high_priority_completes_them_and_sets_no_level() -> None:
    kind, target = _one("mark all my tasks done that are high priority")
    assert kind == "complete_task" and target.priority == "high"


def test_tasks_that_dont_have_a_due_date_are_the_undated_ones() -> None:
    kind, target = _one("delete all tasks that don't have a due date")
    assert kind == "delete_task" and target.undated and not target.words


def test_before_the_weekend_is_from_today_until_it() -> None:
    kind, target = _one("cancel all my appointments before the weekend")
    assert kind == "cancel_appointment"
    assert target.within == (date(2030, 1, 14), date(2030, 1, 18))
    assert "before" not in target.words


def test_after_a_day_is_the_days_on_from_it() -> None:
    kind, target = _one("cancel every appointment after wednesday")
    assert kind == "cancel_appointment" and target.day is None
    assert target.within is not None and target.within[0] == date(2030, 1, 17)
    assert "after" not in target.words
