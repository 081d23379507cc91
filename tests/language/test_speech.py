"""Values as people say them: dates, times, money, counts and lists."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from assistant import speech

NY = ZoneInfo("America/New_York")
NOW = datetime(2025, 3, 1, 12, 0, tzinfo=NY)  # Saturday


def test_dates_far_off_are_said_in_full() -> None:
    """An appointment next week: "Tuesday, March 4 at 2:00 PM"."""
    moment = datetime(2025, 3, 4, 14, 0, tzinfo=NY)
    assert speech.spoken_datetime(moment, NOW) == "Tuesday, March 4 at 2:00 PM"


def test_today_and_tomorrow_are_said_relatively() -> None:
    """Close times are "tomorrow at 9 AM" and "today at 4:30 PM"."""
    assert speech.spoken_datetime(datetime(2025, 3, 2, 9, 0, tzinfo=NY), NOW) == (
        "tomorrow at 9 AM"
    )
    assert speech.spoken_datetime(datetime(2025, 3, 1, 16, 30, tzinfo=NY), NOW) == (
        "today at 4:30 PM"
    )


def test_times_are_shown_in_the_customers_timezone() -> None:
    """A UTC timestamp from the CRM is said in the customer's local time."""
    utc = datetime(2025, 3, 4, 19, 0, tzinfo=ZoneInfo("UTC"))
    assert speech.spoken_datetime(utc, NOW) == "Tuesday, March 4 at 2:00 PM"


def test_money_has_its_currency() -> None:
    """Amounts in cents are said with the currency: "$150.00", "$1,234.50", "€12.00"."""
    assert speech.money(15000) == "$150.00"
    assert speech.money(123450, "USD") == "$1,234.50"
    assert speech.money(1200, "EUR") == "€12.00"
    assert speech.money(990, "CHF") == "9.90 CHF"


def test_small_counts_are_words() -> None:
    """Counts are words where natural ("three tasks"), digits when large."""
    assert speech.count(1, "task") == "one task"
    assert speech.count(3, "task") == "three tasks"
    assert speech.count(0, "task") == "no tasks"
    assert speech.count(14, "task") == "14 tasks"


def test_long_lists_give_the_first_three_then_how_many_more() -> None:
    """Six items: the first three, "and three more"; four or fewer are all said."""
    six = ["A", "B", "C", "D", "E", "F"]
    assert speech.spoken_list(six) == "A, B, C, and three more"
    assert speech.spoken_list(["A", "B"]) == "A and B"
    assert speech.spoken_list(["A", "B", "C", "D"]) == "A, B, C, and D"


def test_due_days_are_short() -> None:
    """A due date this week is its weekday; further off, the month and day."""
    today = date(2025, 3, 1)
    assert speech.due_day(date(2025, 3, 2), today) == "tomorrow"
    assert speech.due_day(date(2025, 3, 7), today) == "Friday"
    assert speech.due_day(date(2025, 3, 21), today) == "March 21"
    assert speech.due_day(date(2026, 1, 5), today) == "January 5, 2026"


def test_every_day_is_said_with_its_english_weekday_and_month() -> None:
    """Eight years of days, each named as a calendar names it ("Saturday, February 29")."""
    weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    months = ["January", "February", "March", "April", "May", "June", "July", "August"]
    months += ["September", "October", "November", "December"]
    first = date(2024, 1, 1).toordinal()
    for ordinal in range(first, first + 8 * 365):
        day = date.fromordinal(ordinal)
        weekday, month = weekdays[day.weekday()], months[day.month - 1]
        assert speech.calendar_date(day, day) == f"{weekday}, {month} {day.day}"
        assert speech.due_day(day, date.fromordinal(ordinal - 3)) == weekday
        if day.month > 1:
            assert speech.due_day(day, date(day.year, 1, 1)) == f"{month} {day.day}"


def test_phone_numbers_are_said_in_groups() -> None:
    """ "+14155550199" is said "415-555-0199"."""
    assert speech.phone("+14155550199") == "415-555-0199"
    assert speech.phone("+442079460958") == "+442079460958"
