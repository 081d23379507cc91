"""Dates and times as customers say them, read in their timezone with a fixed clock."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from assistant.language import find_when
from assistant.language.text import normalize

TZ = "America/New_York"
# Saturday, March 1, 2025, noon in New York.
NOW = datetime(2025, 3, 1, 12, 0, tzinfo=ZoneInfo(TZ))


def when(text: str, now: datetime = NOW) -> tuple[date | None, time | None]:
    found = find_when(normalize(text).text, now)
    assert found is not None, f"no date read in {text!r}"
    return found.day, found.clock


@pytest.mark.parametrize(
    ("text", "day", "clock"),
    [
        ("next Tuesday at 3pm", date(2025, 3, 4), time(15, 0)),
        ("tomorrow morning", date(2025, 3, 2), time(9, 0)),
        ("the 15th at 10am", date(2025, 3, 15), time(10, 0)),
        ("Friday at 10am", date(2025, 3, 7), time(10, 0)),
        ("in two weeks", date(2025, 3, 15), None),
        ("March 20th at 2:30 pm", date(2025, 3, 20), time(14, 30)),
        ("3/20 at noon", date(2025, 3, 20), time(12, 0)),
        ("2025-04-02 at 14:00", date(2025, 4, 2), time(14, 0)),
        ("tmrw @ 4", date(2025, 3, 2), time(16, 0)),
        ("friday at 10 in the morning", date(2025, 3, 7), time(10, 0)),
        ("monday at three thirty", date(2025, 3, 3), time(15, 30)),
        ("tuesday next week", date(2025, 3, 4), None),
        ("the day after tomorrow at 9", date(2025, 3, 3), time(9, 0)),
        ("on the fifteenth", date(2025, 3, 15), None),
        # A day of next month, not the next such day to come (which is this month's).
        ("the 2nd of next month at noon", date(2025, 4, 2), time(12, 0)),
        ("next month on the 15th", date(2025, 4, 15), None),
        ("the second of next month", date(2025, 4, 2), None),
        # A weekday counted within a month (not "the first": today, the 1st).
        ("the first monday of april at 9am", date(2025, 4, 7), time(9, 0)),
        ("the last friday of the month", date(2025, 3, 28), None),
        ("the second tuesday of next month", date(2025, 4, 8), None),
        ("two weeks from now at 10am", date(2025, 3, 15), time(10, 0)),
        ("January 5", date(2026, 1, 5), None),
        ("a week from tomorrow at 11am", date(2025, 3, 9), time(11, 0)),
        ("a week tomorrow", date(2025, 3, 9), None),
        ("two days after friday", date(2025, 3, 9), None),
        ("friday at like 9", date(2025, 3, 7), time(9, 0)),
        ("monday at about nine", date(2025, 3, 3), time(9, 0)),
        ("tuesday at 10ish", date(2025, 3, 4), time(10, 0)),
    ],
)
def test_common_phrases_give_the_day_and_time_meant(
    text: str, day: date, clock: time | None
) -> None:
    """The phrases customers use for appointments become the right day and time."""
    assert when(text) == (day, clock)


def test_a_time_alone_is_today_while_ahead_and_tomorrow_once_passed() -> None:
    """ "at 3pm" at noon is this afternoon; "at 9am" at noon is tomorrow morning."""
    assert when("at 3pm") == (date(2025, 3, 1), time(15, 0))
    assert when("at 9am") == (date(2025, 3, 2), time(9, 0))


@pytest.mark.parametrize(
    ("text", "unread"),
    [
        ("on thanksgiving at 10am", True),
        ("on my birthday at 2pm", True),
        ("to my day off at 9am", True),
        ("the morning of my wedding at 10am", True),
        ("on main street at 4pm", True),
        ("at 4pm on the same day", False),
        ("at 3pm, I'll be on time", False),
        ("at 10am", False),
        ("on friday at 10am", False),  # a day read: nothing implied, nothing unread
    ],
)
def test_a_day_named_but_not_read_is_marked(text: str, unread: bool) -> None:
    """A time whose day was named in words not read ("on thanksgiving") says so, so that
    a booking asks the day rather than take today's or tomorrow's."""
    when = find_when(text, NOW)
    assert when is not None
    assert when.day_unread is unread


def test_the_15th_after_the_15th_is_next_month() -> None:
    """A day of the month already past this month means next month's."""
    later = datetime(2025, 3, 20, 12, 0, tzinfo=ZoneInfo(TZ))
    assert when("the 15th", later)[0] == date(2025, 4, 15)


def test_a_bare_weekday_is_never_today_but_this_weekday_may_be() -> None:
    """On a Saturday "Saturday" is next week's; "this Saturday" is today."""
    assert when("saturday")[0] == date(2025, 3, 8)
    assert when("this saturday")[0] == date(2025, 3, 1)


def test_bare_hours_follow_business_hours() -> None:
    """ "at 3" means 3 PM and "at 9" means 9 AM, unless the words say otherwise."""
    assert when("monday at 3")[1] == time(15, 0)
    assert when("monday at 9")[1] == time(9, 0)
    assert when("monday at 7 in the evening")[1] == time(19, 0)


def test_start_time_is_iso_with_the_customers_offset() -> None:
    """The start time sent to the CRM carries the offset of the customer's zone on that day."""
    found = find_when("next tuesday at 3pm", NOW)
    assert found is not None
    assert found.iso(TZ) == "2025-03-04T15:00:00-05:00"
    # After the switch to daylight saving time the offset changes.
    later = find_when("the 15th at 10am", NOW)
    assert later is not None
    assert later.iso(TZ) == "2025-03-15T10:00:00-04:00"


def test_a_weekday_name_is_remembered_as_such() -> None:
    """ "Tuesday" says which weekday, so any Tuesday can be matched when resolving."""
    found = find_when("my tuesday appointment", NOW)
    assert found is not None
    assert found.weekday == 1


def test_text_without_a_date_gives_none() -> None:
    """Nothing that looks like a date is read into a plain request."""
    assert find_when(normalize("show me my tasks").text, NOW) is None


def test_british_half_two_is_half_past_two() -> None:
    """ "a trim on thursday at half two" is at 2:30 PM."""
    when = find_when("a trim on thursday at half two", NOW)
    assert when is not None and when.clock == time(14, 30)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        # A weekday said beside a date: the date says which one (not the next Friday).
        ("Friday March 14 at 9am", date(2025, 3, 14)),
        ("on tuesday the 18th at 10", date(2025, 3, 18)),
        ("Monday, 3/31", date(2025, 3, 31)),
    ],
)
def test_a_date_beside_its_weekday_names_that_day(text: str, day: date) -> None:
    """'Friday March 14' is March 14, not the next Friday; nothing is flagged."""
    found = find_when(normalize(text).text, NOW)
    assert found is not None
    assert found.day == day
    assert not found.weekday_conflict


def test_a_weekday_that_disagrees_with_the_date_is_flagged() -> None:
    """'Thursday March 14' (a Friday) keeps the date and the weekday said, to ask about."""
    found = find_when(normalize("Thursday March 14 at 9am").text, NOW)
    assert found is not None
    assert found.day == date(2025, 3, 14)
    assert found.weekday_conflict
    assert found.weekday_said == 3


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Feb 30 at 3pm", "February 30"),
        ("the 31st of April", "April 31"),
        ("13/45/2026 at 3pm", "13/45/2026"),
    ],
)
def test_a_date_not_on_the_calendar_is_never_replaced(text: str, said: str) -> None:
    """An impossible date gives no day (not today or tomorrow) and is read back as said."""
    found = find_when(normalize(text).text, NOW)
    assert found is not None
    assert found.day is None
    assert found.no_such_date == said


@pytest.mark.parametrize("text", ["yesterday at 3pm", "last tuesday", "March 3 2024 at 2pm"])
def test_days_gone_are_in_the_past(text: str) -> None:
    """'yesterday', 'last Tuesday' and a past year are read as the past, not moved ahead."""
    found = find_when(normalize(text).text, NOW)
    assert found is not None
    assert found.day is not None and found.day < NOW.date()
    assert found.in_past(NOW, TZ)


@pytest.mark.parametrize("text", ["sometime next week", "this weekend", "next month"])
def test_a_stretch_of_days_is_flagged_as_naming_no_day(text: str) -> None:
    """ "next week" gives a day for a task's due date, but says it named no one day."""
    found = find_when(normalize(text).text, NOW)
    assert found is not None and found.vague_day


def test_a_named_day_is_not_vague() -> None:
    """ "tuesday next week" names its day."""
    found = find_when(normalize("tuesday next week").text, NOW)
    assert found is not None and not found.vague_day


def test_this_morning_is_today_even_once_gone() -> None:
    """ "this morning at 8" at noon is today's 8 AM (in the past, so asked about), never
    tomorrow's."""
    found = find_when(normalize("book a haircut for this morning at 8").text, NOW)
    assert found is not None and found.day == NOW.date() and not found.day_implied
    assert found.in_past(NOW, TZ)


def test_an_hour_with_o_clock_and_no_at_is_a_time() -> None:
    """ "3 oclock" (typed without the apostrophe) and "3 o'clock" are 3 PM, like "at 3"."""
    assert when("3 oclock")[1] == time(15, 0)
    assert when("friday 10 o'clock") == (date(2025, 3, 7), time(10, 0))


def test_an_hour_and_its_minutes_in_words_are_a_time_without_at() -> None:
    """ "three thirty" is 3:30 PM; "three thirty minute sessions" is no time at all."""
    assert when("three thirty")[1] == time(15, 30)
    assert find_when(normalize("book three thirty minute sessions").text, NOW) is None


@pytest.mark.parametrize(
    ("text", "unsure"),
    [
        ("friday at 7", True),
        ("seven o'clock", True),
        ("at 6:30", True),
        ("at 7pm", False),
        ("at 7 in the morning", False),
        ("at 3", False),
        ("at 18:00", False),
    ],
)
def test_six_or_seven_alone_may_be_morning_or_evening(text: str, unsure: bool) -> None:
    """ "at 7" with no am, pm or part of the day is marked unsure (a write asks which)."""
    found = find_when(normalize(text).text, NOW)
    assert found is not None and found.hour_unsure is unsure


@pytest.mark.parametrize(
    ("said", "clock"),
    [
        ("three in the afternoon", time(15, 0)),
        ("nine in the morning", time(9, 0)),
        ("seven thirty in the evening", time(19, 30)),
        ("ten at night", time(22, 0)),
        ("3 in the afternoon", time(15, 0)),
        ("friday 3:30 in the afternoon", time(15, 30)),
        ("eleven o'clock in the morning", time(11, 0)),
    ],
)
def test_an_hour_said_with_its_part_of_the_day_is_that_hour(said: str, clock: time) -> None:
    """ "Three in the afternoon" is 3 PM, said: it was read as the afternoon's usual hour
    (2 PM, asked about), the three ignored."""
    when = find_when(normalize(said).text, NOW)
    assert when is not None and when.clock == clock and not when.vague_time


# A leap day, Sunday 29 February 2032, in Los Angeles; and a Thursday just after midnight.
_LEAP_DAY = datetime(2032, 2, 29, 11, 0, tzinfo=ZoneInfo("America/Los_Angeles"))
_THURSDAY = datetime(2030, 4, 18, 0, 20, tzinfo=ZoneInfo("America/Los_Angeles"))


@pytest.mark.parametrize(
    ("text", "now", "day"),
    [
        # a year on (a leap day's is asked about: test_a_year_from_a_leap_day_is_asked)
        ("in two years", NOW, date(2027, 3, 1)),
        ("this time next year", NOW, date(2026, 3, 1)),
        ("a year from march 3", NOW, date(2026, 3, 3)),
        # a part of a month named: its first, its 15th, its last day (next year's once gone)
        ("early january", NOW, date(2026, 1, 1)),
        ("mid-march", NOW, date(2025, 3, 15)),
        ("late feb", NOW, date(2026, 2, 28)),
        ("by the end of april", NOW, date(2025, 4, 30)),
        ("the beginning of may", NOW, date(2025, 5, 1)),
        # the weekday today is, said with "today": today, not a week on
        ("I mean thursday, today", _THURSDAY, date(2030, 4, 18)),
        ("thursday", _THURSDAY, date(2030, 4, 25)),
    ],
)
def test_days_counted_in_years_parts_of_months_and_today_by_name(
    text: str, now: datetime, day: date
) -> None:
    assert when(text, now)[0] == day


@pytest.mark.parametrize(
    ("text", "now"),
    [
        ("a year from today at 10am", _LEAP_DAY),
        ("in a year", _LEAP_DAY),
        ("same day next year", _LEAP_DAY),
        ("a year from tomorrow", _LEAP_DAY - timedelta(days=1)),
        (
            "a year from feb 29",
            datetime(2032, 2, 16, 12, 0, tzinfo=ZoneInfo("America/Los_Angeles")),
        ),
        ("a year after the 29th of february", NOW),
    ],
)
def test_a_year_from_a_leap_day_is_asked(text: str, now: datetime) -> None:
    """A year from February 29 has no 29th: which day is asked ("There's no February 29
    in 2033…"), where the 28th was taken unasked (tests/e2e/test_leftopen10.py)."""
    found = find_when(normalize(text).text, now)
    assert found is not None and found.day is None
    assert found.no_such_date is not None and found.no_such_date.startswith("February 29, 20")


def test_a_part_of_a_month_is_a_stretch_a_booking_asks_about() -> None:
    found = find_when("sometime mid march", NOW)
    assert found is not None and found.vague_day
    assert find_when("march 15", NOW).vague_day is False  # type: ignore[union-attr]
