"""Readings behind the cases the ninth session left open: a near service, a task's time.

Written after the fixes, to hold the rules in place; the conversations that failed first
(0/11 on the code as it was) are tests/e2e/test_leftopen.py."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.language import detect_intents, slots

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))  # a Monday


@pytest.mark.parametrize(
    ("said", "apart"),
    [
        ("reschedule my dental surgery to friday at 10am", "dental surgery"),
        ("i need to cancel the dental x-ray", "dental x-ray"),
        ("book a dental implant on friday", "dental implant"),
        ("move my dental appointment to friday", None),
        ("the dental one", None),
        ("book me a dental checkup monday", None),
        ("i paid the dental bill", None),
        ("move the dental on friday to 3", None),
    ],
)
def test_a_service_said_with_a_noun_of_its_own_is_apart(said: str, apart: str | None) -> None:
    """ "dental surgery" names no offered service: never read as the dental cleaning."""
    found = slots.service_said_apart(said)
    assert (found[0] if found else None) == apart


@pytest.mark.parametrize(
    "said",
    ["book a dental surgery for friday at 10am", "book a knee surgery for friday at 10am"],
)
def test_a_booking_of_a_service_not_offered_waits(said: str) -> None:
    """A service not offered, or named apart from one, is asked about before any booking."""
    (intent,) = detect_intents(said, NOW, TZ)
    assert intent.kind == "book_appointment"
    assert intent.missing[:1] == ("offered",)


@pytest.mark.parametrize(
    ("said", "note"),
    [
        ("remind me to call the bank at quarter to nine on thursday", "Time said: 8:45 AM"),
        ("add a task to water the plants at 7 on friday", "Time said: 7"),
        ("add a task to pick up the dry cleaning tomorrow morning", "Time said: the morning"),
        ("remind me to call the bank on thursday", None),
    ],
)
def test_a_tasks_time_is_kept_in_its_note(said: str, note: str | None) -> None:
    """A task keeps a day; the time said with it is kept in its note, not dropped."""
    (intent,) = detect_intents(said, NOW, TZ)
    assert intent.kind == "add_task"
    assert intent.arguments.get("description") == note
    assert "due_on" in intent.arguments


def test_that_day_with_nothing_in_view_is_asked() -> None:
    """ "celebrate that day": the day is asked, and "that day" is not in the title."""
    (intent,) = detect_intents("add a task to celebrate that day", NOW, TZ)
    assert intent.kind == "add_task"
    assert intent.missing == ("when",)
    assert intent.arguments == {"title": "Celebrate"}
