"""Values as people say them: dates, times, money, counts, lists, phone numbers.

For a voice and for a chat alike: "Tuesday, March 3 at 2:00 PM", "tomorrow at 9 AM",
"$150.00", "three tasks", "A, B, C, and 3 more". No markdown, no ids.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime, time

from assistant.language.lexicon import MONTHS, WEEKDAYS
from assistant.zones import zone_named

_NUMBER_WORDS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)
# English names, looked up: strftime's %A and %B cost 3 µs a date, and every listed
# appointment is said with its day and month (the process's C locale gave these same
# names). The words are the grammar's own (one list of them in the project).
_DAY_NAMES = tuple(day.capitalize() for day in WEEKDAYS)
_MONTH_NAMES = tuple(month.capitalize() for month in MONTHS)
_CURRENCY_SYMBOLS = {"USD": "$", "CAD": "CA$", "AUD": "A$", "EUR": "€", "GBP": "£", "JPY": "¥"}


def number(n: int) -> str:
    """Small counts in words ("three"), larger ones in digits ("14")."""
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


def count(n: int, noun: str, plural: str | None = None) -> str:
    """ "one task", "three tasks", "no tasks"."""
    if n == 0:
        return f"no {plural or noun + 's'}"
    return f"{number(n)} {noun if n == 1 else plural or noun + 's'}"


def money(cents: int, currency: str = "USD") -> str:
    """ "$150.00"; other currencies with their symbol or code ("€12.50", "12.50 CHF")."""
    sign = "-" if cents < 0 else ""
    amount = f"{abs(cents) // 100:,}.{abs(cents) % 100:02d}"
    symbol = _CURRENCY_SYMBOLS.get(currency.upper())
    if symbol:
        return f"{sign}{symbol}{amount}"
    return f"{sign}{amount} {currency.upper()}"


def percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "0%"


def join_and(items: Sequence[str], conjunction: str = "and") -> str:
    """ "A", "A and B", "A, B, and C" (the serial comma, as the acknowledgement uses)."""
    items = [item for item in items if item]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return f"{items[0]} {conjunction} {items[1]}"
    return ", ".join(items[:-1]) + f", {conjunction} {items[-1]}"


def spoken_list(items: Sequence[str], limit: int = 3) -> str:
    """The first `limit` items, then "and N more" for the rest."""
    if len(items) <= limit + 1:
        return join_and(items)
    rest = len(items) - limit
    return ", ".join(items[:limit]) + f", and {number(rest)} more"


def clock(moment: time | datetime) -> str:
    """ "2:00 PM", "9:30 AM"."""
    hour = moment.hour % 12 or 12
    return f"{hour}:{moment.minute:02d} {'AM' if moment.hour < 12 else 'PM'}"


def short_clock(moment: time | datetime) -> str:
    """ "9 AM", "2:30 PM", "noon"."""
    if moment.hour == 12 and moment.minute == 0:
        return "noon"
    hour = moment.hour % 12 or 12
    minutes = f":{moment.minute:02d}" if moment.minute else ""
    return f"{hour}{minutes} {'AM' if moment.hour < 12 else 'PM'}"


def calendar_date(day: date, today: date | None = None) -> str:
    """ "Tuesday, March 3" (with the year when it is not this year's)."""
    text = f"{_DAY_NAMES[day.weekday()]}, {_MONTH_NAMES[day.month - 1]} {day.day}"
    if today is not None and day.year != today.year:
        text += f", {day.year}"
    return text


def spoken_day(day: date, today: date) -> str:
    """ "today", "tomorrow", "yesterday", or "Tuesday, March 3"."""
    offset = (day - today).days
    if offset == 0:
        return "today"
    if offset == 1:
        return "tomorrow"
    if offset == -1:
        return "yesterday"
    return calendar_date(day, today)


def due_day(day: date, today: date, at: datetime | None = None) -> str:
    """A due date: "today", "tomorrow", "Friday" within the week, else "March 15". Near
    midnight (`at`, the local time, from 11 PM to 1 AM) "tomorrow" may be read as either
    day, so the date is said with it: "tomorrow, Tuesday, January 15"."""
    offset = (day - today).days
    if -1 <= offset <= 1:
        near = spoken_day(day, today)
        if at is not None and (at.hour >= _LATE or at.hour < _EARLY):
            return dated_day(day, today)
        return near
    if 1 < offset < 7:
        return _DAY_NAMES[day.weekday()]
    text = f"{_MONTH_NAMES[day.month - 1]} {day.day}"
    return text if day.year == today.year else f"{text}, {day.year}"


# The hours around midnight when "today" and "tomorrow" may each be read as either day.
_LATE, _EARLY = 23, 1


def dated_day(day: date, today: date) -> str:
    """A day a write lands on, its date always said: "tomorrow, Tuesday, January 15",
    "Friday, January 18" ("next tuesday" said on a Monday is tomorrow: the customer hears
    which day was used)."""
    near = spoken_day(day, today)
    dated = calendar_date(day, today)
    return dated if near == dated else f"{near}, {dated}"


def dated_datetime(moment: datetime, now: datetime) -> str:
    """ "tomorrow, Tuesday, January 15 at 3 PM", "Friday, January 18 at 10:00 AM"."""
    spoken = spoken_datetime(moment, now)
    if not spoken.startswith(("today", "tomorrow")):
        return spoken
    if now.tzinfo is not None and moment.tzinfo is not None:
        moment = moment.astimezone(now.tzinfo)
    return f"{dated_day(moment.date(), now.date())} at {short_clock(moment)}"


def spoken_datetime(moment: datetime, now: datetime) -> str:
    """ "today at 4 PM", "tomorrow at 9 AM", "Tuesday, March 3 at 2:00 PM".

    `moment` is shown in `now`'s timezone (the customer's).
    """
    if now.tzinfo is not None and moment.tzinfo is not None:
        moment = moment.astimezone(now.tzinfo)
    offset = (moment.date() - now.date()).days
    if offset in (0, 1):
        return f"{spoken_day(moment.date(), now.date())} at {short_clock(moment)}"
    return f"{calendar_date(moment.date(), now.date())} at {clock(moment)}"


def parse_moment(value: object) -> datetime | None:
    """An ISO 8601 timestamp from the CRM, or None when absent or malformed."""
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


def parse_day(value: object) -> date | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        return None


def local_now(now: datetime | None, timezone: str | None) -> datetime:
    """`now` in the customer's timezone (the current time when not given)."""
    zone = zone_named(timezone)
    return (now or datetime.now(zone)).astimezone(zone)


def phone(e164: str) -> str:
    """ "+14155550199" → "415-555-0199" (North American numbers), else as stored."""
    digits = re.sub(r"\D", "", e164)
    if len(digits) == 11 and digits.startswith("1"):
        return f"{digits[1:4]}-{digits[4:7]}-{digits[7:]}"
    return e164


def article(noun: str) -> str:
    """ "a haircut", "an eye exam"."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def lower_first(text: str) -> str:
    """ "Dental cleaning" → "dental cleaning" (but "MRI scan" and "X-ray" stay)."""
    if len(text) > 1 and text[1].isupper():
        return text
    return text[:1].lower() + text[1:]
