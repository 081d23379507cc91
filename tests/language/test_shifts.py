"""Times said relative to something already there, and British weeks ahead."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from assistant.language import find_when
from assistant.language.shifts import bare_clock, find_shift, relative_day

# A Sunday afternoon in Los Angeles.
NOW = datetime(2026, 11, 22, 17, 0, tzinfo=ZoneInfo("America/Los_Angeles"))


@pytest.mark.parametrize(
    ("text", "shift"),
    [
        ("move it an hour later", timedelta(hours=1)),
        ("move the haircut an hour earlier", timedelta(hours=-1)),
        ("push it back a week", timedelta(days=7)),
        ("bring my haircut forward by a day", timedelta(days=-1)),
        ("ah make it half an hour later", timedelta(minutes=30)),
        ("could you pop it back an hour", timedelta(hours=1)),
        ("can u make it the day after same time", timedelta(days=1)),
        ("could i have it the day before instead", timedelta(days=-1)),
        ("make it two hours later", timedelta(hours=2)),
        ("postpone my dental cleaning by two days", timedelta(days=2)),
        ("could you delay the renew car insurance task by a week", timedelta(days=7)),
    ],
)
def test_a_relative_move_is_read_with_its_direction(text: str, shift: timedelta) -> None:
    """Later, back and after move on; earlier, forward and before move back."""
    assert find_shift(text) == shift


def test_a_day_said_after_a_verb_and_in_is_not_a_shift() -> None:
    """ "bring the kids in two days" says when, not a move of something by two days."""
    assert find_shift("bring the kids in two days") is None


def test_no_relative_move_in_a_plain_time() -> None:
    """ "move it to friday at 3" says no relative move."""
    assert find_shift("move it to friday at 3") is None


@pytest.mark.parametrize(
    ("text", "near", "expected"),
    [
        ("actually make that 11 instead of 9", time(9), time(11)),
        ("oh no make it 9:30", time(9), time(9, 30)),
        ("make it 3", time(14), time(15)),
        ("move it to 11", time(10), time(11)),
    ],
)
def test_an_hour_without_am_or_pm_is_read_beside_the_one_it_replaces(
    text: str, near: time, expected: time
) -> None:
    """A bare hour keeps the side of noon of the time it corrects; 'instead of 9' is not it."""
    assert bare_clock(text, near) == expected


def test_in_a_fortnight_is_two_weeks_on() -> None:
    """ "due in a fortnight" and "in three days" are days from today."""
    today = date(2026, 11, 22)
    found = relative_day("buy a gift, due in a fortnight", today)
    assert found is not None and found[0] == date(2026, 12, 6)
    found = relative_day("call the bank in 3 days", today)
    assert found is not None and found[0] == date(2026, 11, 25)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("friday week at 3pm", date(2026, 12, 4)),
        ("a fortnight on friday", date(2026, 12, 11)),
        ("next week wednesday at 2", date(2026, 11, 25)),
        ("tuesday after next", date(2026, 12, 1)),
        ("friday at 3", date(2026, 11, 27)),
    ],
)
def test_british_weeks_ahead_name_one_day(text: str, day: date) -> None:
    """ "Friday week" is the Friday after the coming one; a plain "Friday" is the coming one."""
    when = find_when(text, NOW)
    assert when is not None and when.day == day
