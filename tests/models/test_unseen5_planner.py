"""Readings against the conversation that the fifth unseen set's probes showed wrong."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from assistant.dialogue_state import Dialogue
from assistant.models.embedded.references import read_intents

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))  # a Monday
HAIRCUT = {
    "id": "appt_9",
    "service": "Haircut",
    "starts_at": "2030-01-18T10:00:00-08:00",
    "status": "upcoming",
}


def test_the_same_day_is_the_day_of_the_visit_just_talked_about() -> None:
    """ "and a cleaning the same day at 2" after booking a Friday haircut: Friday at 2, not
    today (the hour alone reads as today)."""
    state = Dialogue(focus_kind="appointment", focus=HAIRCUT)
    (intent,) = read_intents([], "and a cleaning the same day at 2", NOW, TZ, state)
    assert intent.kind == "book_appointment"
    assert intent.arguments == {
        "service": "Dental cleaning",
        "starts_at": "2030-01-18T14:00:00-08:00",
    }


def test_a_to_do_for_that_day_is_due_on_the_day_of_the_visit_talked_about() -> None:
    """ "add a task to bring my insurance card that day" after moving the haircut: due on
    the haircut's day, and "that day" is not in the title (found by hand)."""
    state = Dialogue(focus_kind="appointment", focus=HAIRCUT)
    text = "and add a task to bring my insurance card that day"
    (intent,) = read_intents([], text, NOW, TZ, state)
    assert intent.kind == "add_task"
    assert intent.arguments == {"title": "Bring my insurance card", "due_on": "2030-01-18"}


def test_the_same_day_with_nothing_talked_about_is_asked() -> None:
    """With no visit in focus, "a cleaning the same day at 2" asks the day."""
    (intent,) = read_intents([], "and a cleaning the same day at 2", NOW, TZ, Dialogue())
    assert "starts_at" not in intent.arguments and "when" in intent.missing
