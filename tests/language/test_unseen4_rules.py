"""Readings the fourth unseen set showed wrong, where a misreading writes what was not asked."""

from __future__ import annotations

from datetime import datetime, time
from zoneinfo import ZoneInfo

import pytest

from assistant.language import detect_intents, is_affirmative
from assistant.language.dates import find_when
from assistant.language.text import normalize

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))  # a Monday


@pytest.mark.parametrize(
    ("said", "clock"),
    [
        ("at ten past nine", time(9, 10)),
        ("at 20 past 4", time(16, 20)),
        ("twenty-five to four", time(15, 35)),
        ("quarter to three", time(14, 45)),
        ("half past 3", time(15, 30)),
    ],
)
def test_minutes_said_before_the_hour_are_read_as_said(said: str, clock: time) -> None:
    """ "ten past nine" is 9:10, never 10:00 (the first number said)."""
    when = find_when(normalize(said).text, NOW)
    assert when is not None and when.clock == clock


def test_a_booking_every_week_asks_instead_of_booking_the_first() -> None:
    """ "book me physio every monday at 8am" books nothing: which visit is asked."""
    intents = detect_intents("book me physio every monday at 8am", NOW, TZ)
    assert [i.kind for i in intents] == ["book_appointment"]
    assert "starts_at" not in intents[0].arguments and intents[0].missing == ("repeat",)


def test_book_me_in_names_no_service() -> None:
    """ "book me in at 11am friday" books no service called "Me": the service is asked."""
    intents = detect_intents("ok book me in at 11am friday then", NOW, TZ)
    assert [i.missing for i in intents] == [("service",)]


def test_ok_with_instead_is_not_a_yes() -> None:
    """ "ok make it 2pm instead" changes what was asked; it does not agree to it."""
    assert not is_affirmative("ok make it 2pm instead")
    assert is_affirmative("ok go ahead")


def test_a_visit_that_can_be_earlier_is_a_move() -> None:
    """ "can my haircut be half an hour earlier" moves the haircut; nothing is booked."""
    assert [i.kind for i in detect_intents("can my haircut be half an hour earlier", NOW, TZ)] == [
        "reschedule_appointment"
    ]
