"""Dates and times as people say them, in the customer's timezone.

"next Tuesday at 3pm", "tomorrow morning", "the 15th at 10am", "Friday at 10am",
"in two weeks", "March 15th", "3/15", "at half past two", "noon". A small grammar of
compiled patterns, with python-dateutil's `relativedelta` doing the calendar
arithmetic. (dateparser was measured at about a millisecond a parse and cannot find a
date inside a sentence; this grammar costs tens of microseconds.)

Conventions, chosen to match how customers book: a bare weekday or "next <weekday>"
is the next one after today ("this Friday" may be today); "the 15th" is the next 15th;
a time without a day is today if still ahead, else tomorrow; a bare hour from 1 to 7
means the afternoon ("at 3" is 3 PM), from 8 to 11 the morning, and 6 or 7 alone is also
marked `hour_unsure` (morning and evening are both likely: a booking or a move asks).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from dateutil.relativedelta import relativedelta, weekday

from assistant.language.lexicon import (
    MONTH_ABBREVIATIONS,
    MONTHS,
    NUMBER_WORDS,
    ORDINAL_WORDS,
    WEEKDAYS,
)
from assistant.language.patterns import GatedPattern, Tried, rx
from assistant.language.shifts import weeks_ahead

Span = tuple[int, int]

_PARTS_OF_DAY = {
    "morning": time(9, 0),
    # "first thing Monday": the morning, its hour not said (a booking or a move asks it)
    "first thing": time(9, 0),
    "afternoon": time(14, 0),
    "evening": time(18, 0),
    "night": time(19, 0),
    "tonight": time(19, 0),
    "lunchtime": time(12, 0),
    "lunch time": time(12, 0),
    "lunch": time(12, 0),
    "end of day": time(17, 0),
    "end of the day": time(17, 0),
}
_MONTH_NUMBERS = {name: index for index, name in enumerate(MONTHS, start=1)}
_MONTH_NUMBERS.update(MONTH_ABBREVIATIONS)
_HOUR_WORDS = {word: n for word, n in NUMBER_WORDS.items() if word.isalpha() and len(word) > 2}
# The minutes said after a spoken hour: "nine oh five", "two ten", "four forty five". Tens
# take only a five ("twenty five"): "two thirty three thirty" is two times, not 2:33.
_UNIT_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_MINUTE_WORDS = {"o'clock": 0, "oclock": 0, "ten": 10, "fifteen": 15}
for _n, _unit in enumerate(_UNIT_WORDS, 1):
    _MINUTE_WORDS.update({f"oh {_unit}": _n, f"o {_unit}": _n})
for _tens, _word in ((20, "twenty"), (30, "thirty"), (40, "forty"), (50, "fifty")):
    _MINUTE_WORDS.update({_word: _tens, f"{_word} five": _tens + 5})
_MINW = "|".join(sorted((w.replace(" ", "[ -]") for w in _MINUTE_WORDS), key=len, reverse=True))
# Said without "at", only minutes of five letters or more ("three forty"), so that the
# pattern is tried only on a text holding one of them (assistant.language.patterns);
# "nine oh five" is looked for apart, on a text that says "oh" or "o".
_MINW_ALONE = "|".join(w for w in _MINW.split("|") if w.startswith(("f", "t")) and w != "ten")
# Minutes are not followed by what makes the number an amount ("two fifty dollars").
_NOT_MINUTES = r"(?! (?:minutes?|mins?|dollars?|bucks|percent|people)\b)"
# Minutes said before the hour: "ten past nine", "twenty-five to four".
_PAST_MINUTE_WORDS = {"five": 5, "ten": 10, "twenty": 20, "twenty five": 25, "twenty-five": 25}
_PAST_MINUTES = "|".join(sorted(_PAST_MINUTE_WORDS, key=len, reverse=True))

_WD = "|".join(WEEKDAYS)
_MON = "|".join(sorted(_MONTH_NUMBERS, key=len, reverse=True))
_ORD = "|".join(sorted(ORDINAL_WORDS, key=len, reverse=True))
_NUM = r"\d{1,2}|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
_HOURW = "|".join(sorted(_HOUR_WORDS, key=len, reverse=True))
_OH_CLOCK = rx(rf"\b({_HOURW}) ((?:oh|o) (?:{'|'.join(_UNIT_WORDS)}))\b(?: ?([ap]m)\b)?")
# "at like 9", "at about nine": the hour is still said (spoken filler before it).
_ROUGHLY = r"(?:like |about |maybe |roughly |say |approximately |approx )"

_DAY_PATTERNS: tuple[tuple[str, GatedPattern], ...] = tuple(
    (name, rx(pattern))
    for name, pattern in (
        # "the first monday of april", "the last friday of the month": a weekday counted
        # within a month (before "the first" alone, which is a day of the month).
        (
            "nth_weekday",
            rf"\b(?:on )?(?:the )?(first|second|third|fourth|last|1st|2nd|3rd|4th) ({_WD})"
            rf" (?:of|in) (?:({_MON})|(?:the |this )?month|(next) month)\b",
        ),
        ("after_tomorrow", r"\b(?:the )?day after tomorrow\b"),
        # Holidays on a fixed date ("on new year's eve"): that date (the movable ones,
        # "thanksgiving", "easter", stay unread and are asked about), but not a day counted
        # from one or a span around one ("the day after christmas", "the week of christmas",
        # "over christmas"), which stays unread too.
        (
            "holiday",
            r"\b(?:on )?(?<!after )(?<!before )(?<!of )(?<!around )(?<!over )(?<!near )"
            r"(?<!till )(?<!until )(?<!since )(?<!past )(?<!after the )(?<!before the )"
            r"(new year'?s eve|new year'?s(?: day)?|christmas eve|christmas(?: day)?"
            r"|xmas eve|xmas|halloween|valentine'?s(?: day)?|independence day"
            r"|(?:the )?fourth of july)\b",
        ),
        # British "tomorrow week", "today fortnight": a week (two) on from that day; and
        # "a fortnight today", "in a fortnight", "a fortnight from now": two weeks on.
        ("day_week", r"\b(today|tomorrow) (week|fortnight)\b"),
        (
            "fortnight",
            r"\b(?:(?:a|one) )?fortnight(?:'s time)?,? (?:from )?(today|tomorrow|now)\b"
            r"|\bin (?:a |one )?fortnight(?:'s time)?\b",
        ),
        ("relative_day", r"\b(today|tonight|tomorrow|yesterday)\b"),
        ("last_weekday", rf"\b(?:on )?last ({_WD})\b"),
        ("weekday_next_week", rf"\b(?:on )?({_WD}) (?:of )?next week\b"),
        # "next next tuesday": the one a week after next tuesday
        (
            "weekday",
            rf"\b(?:on )?(?:(this|next next|next|coming|upcoming|the following) )?({_WD})s?\b",
        ),
        ("in_span", rf"\bin (?:about )?({_NUM}) (day|week|month|year)s?\b"),
        ("span_from_now", rf"\b({_NUM}) (day|week|month|year)s? from (?:now|today)\b"),
        # "the same day next year", "this time next year": a year on from today (a leap
        # day's is the 28th of February).
        (
            "next_year_today",
            r"\b(?:(?:on )?the )?same (?:day|date) next year\b|\bthis time next year\b",
        ),
        # "a year from feb 29", "a year after the 29th of february": a year on from that
        # date (a leap day's has no 29th: asked, see _counted_past_months_end).
        (
            "year_from_date",
            rf"\b(?:a|one) year (?:from|after) (?:the )?(?:(?P<m1>{_MON})\.? (?:the )?"
            rf"(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?|(?P<d2>\d{{1,2}})(?:st|nd|rd|th)? (?:of )?"
            rf"(?P<m2>{_MON})\b)",
        ),
        # "a week from tomorrow", "two days after friday", British "a week tomorrow",
        # "a week on tuesday": a span counted from another day, not from today.
        (
            "span_from_day",
            rf"\b({_NUM}) (day|week|month|year)s? (?:from |after |on )?(?:this |next |the )?"
            rf"(tomorrow|today|{_WD})\b",
        ),
        # "the 2nd of next month", "next month on the 15th": that day of next month (the
        # ordinal alone would be the next 2nd to come, which may be this month's).
        (
            "next_month_day",
            rf"\b(?:on )?(?:the )?(\d{{1,2}}(?:st|nd|rd|th)?|{_ORD}) of next month\b"
            rf"|\bnext month,? (?:on )?the (\d{{1,2}}(?:st|nd|rd|th)?|{_ORD})\b",
        ),
        (
            "week_word",
            r"\b(next week|this week|(?:the )?week after next|end of (?:the |this )?week"
            r"|(?:this|the) weekend"
            r"|next weekend|next month|end of (?:the |this )?month,? (?:on )?the (?:very )?last day"
            r"|end of (?:the |this )?month|end of next (?:week|month)"
            r"|(?:the )?last day of (?:the |this )?month|(?:the )?last day of next month"
            r"|end of (?:the |this )?year|(?:the )?last day of (?:the |this )?year)\b",
        ),
        # "early january", "mid-march", "the end of february": a part of a month named
        # (its first, its 15th, its last day), a stretch of days as "next week" is.
        (
            "part_of_month",
            r"\b(?:in )?(?:the )?(early|mid|late|beginning of|start of|middle of|end of)[ -]"
            rf"(?:the month of )?({_MON})\b(?!\.? ?\d)",
        ),
        ("month_day", rf"\b(?:on )?({_MON})\.? (\d{{1,2}})(?:st|nd|rd|th)?\b(?:,? (\d{{4}}))?"),
        ("day_month", rf"\b(?:on )?(?:the )?(\d{{1,2}})(?:st|nd|rd|th)? (?:of )?({_MON})\b"),
        ("month_ordinal", rf"\b(?:on )?({_MON}) (?:the )?({_ORD})\b"),
        ("ordinal_of_month", rf"\b(?:on )?the ({_ORD}) of ({_MON})\b"),
        ("iso", r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b"),
        ("slash", r"\b(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?\b"),
        ("ordinal_day", r"\b(?:on )?(?:the )?(\d{1,2})(?:st|nd|rd|th)\b"),
        ("ordinal_word_day", rf"\bon the ({_ORD})\b"),
    )
)

# Without the spans counted from a day: most messages say no span, and that pattern is
# the dearest to search ("a week from tomorrow" needs " day", "week" or "month").
_DAY_PATTERNS_NO_SPAN = tuple((n, p) for n, p in _DAY_PATTERNS if n != "span_from_day")


_DAY_TRIES = Tried(_DAY_PATTERNS)
_DAY_TRIES_NO_SPAN = Tried(_DAY_PATTERNS_NO_SPAN)


def _day_patterns(text: str) -> Tried[str]:
    if " day" in text or "week" in text or "month" in text or "year" in text:
        return _DAY_TRIES
    return _DAY_TRIES_NO_SPAN


# The day patterns that name a calendar date (so the date can be wrong, or disagree
# with a weekday said beside it).
_DATE_NAMES = frozenset(
    {"month_day", "day_month", "month_ordinal", "ordinal_of_month", "iso", "slash"}
    | {"next_month_day"}
    | {"ordinal_day", "ordinal_word_day"}
)
_DATE_PATTERNS = tuple((name, p) for name, p in _DAY_PATTERNS if name in _DATE_NAMES)
_MONTH_NAMES = {number: MONTHS[number - 1].capitalize() for number in range(1, 13)}


def _as_said(name: str, m: re.Match[str]) -> str:
    """A date that is not on the calendar, as it should be read back ("February 30")."""
    g = m.groups()
    if name in ("month_day", "month_ordinal"):
        day_ = g[1] if g[1].isdigit() else str(ORDINAL_WORDS[g[1]])
        return f"{_MONTH_NAMES[_MONTH_NUMBERS[g[0]]]} {int(day_)}"
    if name in ("day_month", "ordinal_of_month"):
        day_ = g[0] if g[0].isdigit() else str(ORDINAL_WORDS[g[0]])
        return f"{_MONTH_NAMES[_MONTH_NUMBERS[g[1]]]} {int(day_)}"
    return m.group(0).removeprefix("on ").removeprefix("the ").strip()


_NOT_AFTER_A_MONTH = "".join(
    f"(?<!{month} )"
    for month in (
        *("january", "february", "march", "april", "may", "june", "july", "august"),
        *("september", "october", "november", "december", "jan", "feb", "mar", "apr"),
        *("jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"),
    )
)
_TIME_PATTERNS: tuple[tuple[str, GatedPattern], ...] = tuple(
    (name, rx(pattern))
    for name, pattern in (
        ("in_hours", rf"\bin (?:about )?({_NUM}|half an) (hour|minute)s?\b"),
        # "2.15pm", "at 9.30": the minutes after a dot too (they were dropped: 2 PM, 9 AM).
        ("meridiem", r"\b(?:at |around |by |for |@ ?)?(\d{1,2})(?:[:.](\d{2}))? ?([ap]m)\b"),
        ("clock", r"\b(?:at |around |by |for |from |@ ?)?(\d{1,2}):(\d{2})\b"),
        ("clock", r"\b(?:at|around|by|from|until|till) (\d{1,2})\.(\d{2})\b(?!\.\d)"),
        # "thursday at 1430", "at 0930 hours": a 24-hour clock said without its colon (was:
        # not read, and the move kept the visit's own hour); a street number is no hour
        (
            "clock",
            r"\b(?:at|around|by|from|until|till|@) ?(1\d|2[0-3]|0\d(?=\d\d ?h(?:ou)?rs))([0-5]\d)"
            r"(?: ?h(?:ou)?rs)?\b"
            r"(?! (?:[a-z]+ )?(?:st|street|rd|road|ave|avenue|blvd|lane|ln|drive|dr|way|place"
            r"|pl|court|ct|park|square|sq)\b)",
        ),
        # "half past two", "quarter to three", "ten past nine", "20 minutes past 4": the
        # minutes are said before the hour (digits only with "past", "2 to 3" is a span).
        (
            "half_past",
            rf"\b(?:at )?(half|quarter|{_PAST_MINUTES}|\d{{1,2}}(?= minutes? | (?:past|after) ))"
            rf"(?: minutes?)? (past|after|to) (\d{{1,2}}|{_HOURW})\b",
        ),
        # British "half two": half past two.
        ("half_hour", rf"\b(?:at |around |by )?half (\d{{1,2}}|{_HOURW})\b(?! (?:an|a) )"),
        (
            "word_hour",
            rf"\b(?:(?:at|around|by) )(?:{_ROUGHLY})?({_HOURW})"
            # "push it back by two days", "by three hours": an amount, not an hour
            r"(?! (?:more |extra |whole |full )?(?:days?|weeks?|months?|hours?|hrs?|minutes?"
            r"|mins?)\b)"
            rf"(?: ({_MINW}))?\b{_NOT_MINUTES}"
            r"(?: ?([ap]m))?\b",
        ),
        # "three in the afternoon", "nine o'clock in the morning": an hour said without
        # "at", whose part of the day says the half
        (
            "word_hour",
            rf"\b({_HOURW})(?: ({_MINW}))?(?: ?([ap]m))?"
            r"(?= (?:in the (?:morning|afternoon|evening)|at night|tonight)\b)",
        ),
        (
            "hour_part",
            # (not a day of a month: "january 21 in the morning" is the 21st, not 9 PM)
            r"(?<![\d/:.-])" + _NOT_AFTER_A_MONTH + r"\b(1[0-2]|0?[1-9])(?::(\d{2}))?(?: o'?clock)?"
            r"(?= (?:in the (?:morning|afternoon|evening)|at night|tonight)\b)",
        ),
        # "three thirty", "five fifteen": an hour and its minutes, said without "at".
        # "four fifteen pm": with its half of the day when said.
        ("word_clock", rf"\b({_HOURW}) ({_MINW_ALONE})\b{_NOT_MINUTES}(?: ?([ap]m)\b)?"),
        # "for four on saturday", "for 10 tomorrow", "move it to 9 on friday", "9 on friday":
        # an hour given with "for" or "to" or first, when a day follows it (otherwise "for
        # two" may count people or things; "to 9 on friday" kept the visit's old hour).
        (
            "word_hour",
            rf"(?:\b(?:for|to) |^)({_HOURW})(?: ({_MINW}))?(?: ?([ap]m))?"
            rf"(?= (?:on|this|next|tomorrow|today|tonight|{_WD})\b)",
        ),
        (
            "for_hour",
            rf"(?:\b(?:for|to) |^)(\d{{1,2}})(?::(\d{{2}}))?(?: ?([ap]m))?"
            rf"(?= (?:on|this|next|tomorrow|today|tonight|{_WD})\b)",
        ),
        # "three o'clock", "3 oclock" (typed without the apostrophe).
        ("word_meridiem", rf"\b(\d{{1,2}}|{_HOURW}) ?([ap]m|o'?clock)\b"),
        (
            "bare_hour",
            rf"\b(?:at|around|@) ?(?:{_ROUGHLY})?(\d{{1,2}})(?:ish)?"
            r"(?! ?(?:(?:st|nd|rd|th|days?|weeks?|months?|hours?|hrs?|minutes?|mins?)\b|/|-|\d))\b",
        ),
        # "the morning of the 19th, like 10", "saturday, say 10": an hour offered after a
        # comma, the last thing said ("…, like 10 of them" counts things)
        ("bare_hour", r", ?(?:like|say|maybe|ideally) (\d{1,2})(?:ish)?(?=\s*(?:[?.!]|$))"),
        # "tomorrow 3ish", "friday 10-ish": "-ish" says an hour, whatever is before it
        ("bare_hour", r"\b(1[0-2]|0?[1-9])[- ]?ish\b"),
        # "friday, five-ish", "at four thirty-ish": said in words, as about that hour too (was:
        # no hour, and the move kept the visit's own)
        ("word_hour", rf"\b({_HOURW})(?: ({_MINW}))?(?: ?([ap]m))?[- ]?ish\b"),
        ("noon", r"\b(noon|midday|midnight)\b"),
        (
            "part",
            r"\b(?:in the |this |tomorrow )?(morning|afternoon|evening|night|tonight|lunch ?time"
            r"|lunch|end of (?:the )?day|first thing(?! in the morning))\b",
        ),
    )
)


@dataclass(frozen=True, slots=True)
class When:
    """A day and/or a time said in a message, and where it was said."""

    day: date | None
    clock: time | None
    spans: tuple[Span, ...]
    # The time came from "morning", "afternoon"… rather than a number.
    vague_time: bool = False
    # The day was only a weekday name ("Tuesday"), so any Tuesday may be meant.
    weekday: int | None = None
    # The day was not said: it was chosen because the time is still ahead today.
    day_implied: bool = False
    # "at 7" with no am or pm and no part of the day: morning and evening are both
    # likely, so a booking or a move asks which (the clock holds the evening).
    hour_unsure: bool = False
    # The day stands for a stretch ("next week", "this weekend", "next month"): fine
    # for a task's due date, but a booking or a move must ask which day.
    vague_day: bool = False
    # A date was said that is not on the calendar ("February 30", "13/45/2026"), as
    # it should be read back; `day` is then None and no day is implied.
    no_such_date: str | None = None
    # A weekday and a date that disagree ("Thursday December 11" when the 11th is a
    # Friday): the weekday said. `day` is the date said.
    weekday_said: int | None = None
    # An hour was said that could not be read whole ("at nine fifty two", "at ate"):
    # a booking or a move asks the time rather than keep or guess one.
    time_unread: bool = False
    # A day was named that is not read here ("on thanksgiving at 10am", "on my birthday"):
    # `day` is then only implied, and a booking or a move asks which day is meant.
    day_unread: bool = False

    @property
    def weekday_conflict(self) -> bool:
        return (
            self.weekday_said is not None
            and self.day is not None
            and (self.day.weekday() != self.weekday_said)
        )

    def in_past(self, now: datetime, timezone: str) -> bool:
        """True when the day (or, with a time, the moment) said has already gone."""
        if self.day is None:
            return False
        moment = self.moment(timezone)
        if moment is not None:
            return moment <= now
        return self.day < now.date()

    def moment(self, timezone: str) -> datetime | None:
        """The aware start time, when both day and time are known."""
        if self.day is None or self.clock is None:
            return None
        return datetime.combine(self.day, self.clock, tzinfo=ZoneInfo(timezone))

    def iso(self, timezone: str) -> str | None:
        moment = self.moment(timezone)
        return None if moment is None else moment.isoformat()


def _number(word: str) -> int:
    return int(word) if word.isdigit() else NUMBER_WORDS.get(word, _HOUR_WORDS.get(word, 0))


def _next_weekday(today: date, index: int, *, include_today: bool) -> date:
    step = relativedelta(weekday=weekday(index)(+1))
    return today + step if include_today else today + timedelta(days=1) + step


def _valid(year: int, month: int, day_: int) -> date | None:
    try:
        return date(year, month, day_)
    except ValueError:
        return None


def _upcoming_month_day(today: date, month: int, day_: int, year: int | None) -> date | None:
    if year is not None:
        return _valid(year, month, day_)
    found = _valid(today.year, month, day_)
    if found is not None and found < today:
        found = _valid(today.year + 1, month, day_)
    return found


def _upcoming_day_of_month(today: date, day_: int) -> date | None:
    for months_ahead in range(0, 13):
        first = today.replace(day=1) + relativedelta(months=months_ahead)
        found = _valid(first.year, first.month, day_)
        if found is not None and found >= today:
            return found
    return None


def _day(name: str, m: re.Match[str], today: date) -> tuple[date | None, int | None, time | None]:
    """(day, weekday-only index, implied time) for one matched day expression."""
    g = m.groups()
    if name == "after_tomorrow":
        return today + timedelta(days=2), None, None
    if name == "day_week":
        weeks = 2 if g[1] == "fortnight" else 1
        return today + timedelta(days=(g[0] == "tomorrow") + 7 * weeks), None, None
    if name == "fortnight":
        return today + timedelta(days=(g[0] == "tomorrow") + 14), None, None
    if name == "relative_day":
        offset = {"today": 0, "tonight": 0, "tomorrow": 1, "yesterday": -1}[g[0]]
        return today + timedelta(days=offset), None, time(19, 0) if g[0] == "tonight" else None
    if name == "last_weekday":
        index = WEEKDAYS.index(g[0])
        return today - relativedelta(days=1, weekday=weekday(index)(-1)), None, None
    if name == "weekday_next_week":
        monday = _next_weekday(today, 0, include_today=False)
        return monday + timedelta(days=WEEKDAYS.index(g[0])), None, None
    if name == "weekday":
        index = WEEKDAYS.index(g[1])
        found = _next_weekday(today, index, include_today=g[0] == "this")
        if g[0] == "next next":
            found += timedelta(days=7)
        return found, (index if g[0] is None else None), None
    if name in ("in_span", "span_from_now"):
        count, unit = _number(g[0]), g[1]
        delta = {
            "day": relativedelta(days=count),
            "week": relativedelta(weeks=count),
            "month": relativedelta(months=count),
            "year": relativedelta(years=count),
        }[unit]
        return today + delta, None, None
    if name == "next_year_today":
        return today + relativedelta(years=1), None, None
    if name == "year_from_date":
        start = _year_from_start(m, today)
        return (start + relativedelta(years=1) if start else None), None, None
    if name == "part_of_month":
        return _part_of_month(today, g[0], _MONTH_NUMBERS[g[1]]), None, None
    if name == "span_from_day":
        count, unit, base = _number(g[0]), g[1], g[2]
        if base in ("today", "tomorrow"):
            start = today + timedelta(days=base == "tomorrow")
        else:
            start = _next_weekday(today, WEEKDAYS.index(base), include_today=False)
        step = {
            "day": relativedelta(days=count),
            "week": relativedelta(weeks=count),
            "year": relativedelta(years=count),
        }
        return start + step.get(unit, relativedelta(months=count)), None, None
    if name == "holiday":
        month, dom = _HOLIDAYS[g[0].removeprefix("the ").replace("'", "").split(" day")[0]]
        return _upcoming_month_day(today, month, dom, None), None, None
    if name == "nth_weekday":
        return _nth_weekday(today, g[0], WEEKDAYS.index(g[1]), g[2], bool(g[3])), None, None
    if name == "next_month_day":
        said = g[0] or g[1]
        digits = said.rstrip("stndrh")  # "2nd" → "2"
        number = int(digits) if digits.isdigit() else ORDINAL_WORDS[said]
        first = today.replace(day=1) + relativedelta(months=1)
        return _valid(first.year, first.month, number), None, None
    if name == "week_word":
        return _week_word(g[0], today), None, None
    if name == "month_day":
        year = int(g[2]) if g[2] else None
        return _upcoming_month_day(today, _MONTH_NUMBERS[g[0]], int(g[1]), year), None, None
    if name == "day_month":
        return _upcoming_month_day(today, _MONTH_NUMBERS[g[1]], int(g[0]), None), None, None
    if name == "month_ordinal":
        month, ordinal = _MONTH_NUMBERS[g[0]], ORDINAL_WORDS[g[1]]
        return _upcoming_month_day(today, month, ordinal, None), None, None
    if name == "ordinal_of_month":
        month, ordinal = _MONTH_NUMBERS[g[1]], ORDINAL_WORDS[g[0]]
        return _upcoming_month_day(today, month, ordinal, None), None, None
    if name == "iso":
        return _valid(int(g[0]), int(g[1]), int(g[2])), None, None
    if name == "slash":
        year = None if g[2] is None else _full_year(g[2], today)
        return _upcoming_month_day(today, int(g[0]), int(g[1]), year), None, None
    if name == "ordinal_day":
        return _upcoming_day_of_month(today, int(g[0])), None, None
    if name == "ordinal_word_day":
        return _upcoming_day_of_month(today, ORDINAL_WORDS[g[0]]), None, None
    return None, None, None


_SLASH = rx(r"\b(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?\b")


def either_way_round(text: str, today: date) -> tuple[date, date] | None:
    """The two days a date like "1/4" may be (month first, then day first), when it is
    one whose reading is asked (see _either_way_round), else None."""
    if "/" not in text or (match := _SLASH.search(text)) is None:
        return None
    first, second, _ = match.groups()
    day = _upcoming_month_day(today, int(first), int(second), None)
    if day is None or not _either_way_round(match, today, day):
        return None
    other = _valid(today.year, int(second), int(first))
    return (day, other) if other is not None else None


def _either_way_round(match: re.Match[str], today: date, day: date) -> bool:
    """ "1/4" said on March 1: January 4 is next year's, April 1 a month away. Read month
    first, the date rolls over a year while the other way round it is weeks ahead: which
    was meant is asked, never guessed (it was due next January)."""
    first, second, year = match.groups()
    if year is not None or day.year == today.year or first == second:
        return False
    other = _valid(today.year, int(second), int(first))  # day first
    return other is not None and other >= today


def _full_year(said: str, today: date) -> int:
    """A year said with its century, or two digits read as the year of that ending
    nearest today: "2/3/31" in 2030 is 2031, "2/3/90" is 1990 (a day gone, asked about;
    it was 2090, a to-do added sixty years on), as anyone writing a date would mean."""
    if len(said) != 2:
        return int(said)
    ending = int(said)
    century = today.year - today.year % 100
    return min(
        (century - 100 + ending, century + ending, century + 100 + ending),
        key=lambda year: abs(year - today.year),
    )


# The holidays read as days: (month, day), by their name without "'" or " day".
_HOLIDAYS = {
    "new years eve": (12, 31),
    "new years": (1, 1),
    "christmas eve": (12, 24),
    "christmas": (12, 25),
    "xmas eve": (12, 24),
    "xmas": (12, 25),
    "halloween": (10, 31),
    "valentines": (2, 14),
    "independence": (7, 4),
    "fourth of july": (7, 4),
}
_NTH = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}


def _nth_weekday(
    today: date, nth: str, index: int, month_name: str | None, next_month: bool
) -> date | None:
    """The first (…, last) such weekday of the month named, of this month, or of next."""
    if month_name is not None:
        month = _MONTH_NUMBERS[month_name]
        year = today.year + (month < today.month)
    else:
        first = today.replace(day=1) + relativedelta(months=1 if next_month else 0)
        year, month = first.year, first.month
    start = date(year, month, 1)
    if nth == "last":
        return start + relativedelta(day=31, weekday=weekday(index)(-1))
    return start + relativedelta(weekday=weekday(index)(+_NTH[nth]))


_COUNTED = frozenset({"in_span", "span_from_now", "span_from_day"})


def _year_from_start(m: re.Match[str], today: date) -> date | None:
    """The date "a year from feb 29" counts from: the next one to come (today's too)."""
    month = _MONTH_NUMBERS[(m.group("m1") or m.group("m2")).lower()]
    dom = int(m.group("d1") or m.group("d2"))
    for year in range(today.year, today.year + 8):
        found = _valid(year, month, dom)
        if found is not None and found >= today:
            return found
    return None


def _counted_past_months_end(
    name: str, m: re.Match[str], today: date, day: date | None
) -> str | None:
    """The day a count of months names, as it should be read back ("February 31"), when
    the month it lands in is too short for it and relativedelta gave the month's last day
    instead; else None. A year from a leap day is asked about the same way ("February 29,
    2033": the 28th or March 1st is the customer's to say; it was the 28th unasked)."""
    if (
        day is not None
        and day.month == 2
        and day.day == 28
        and (leap := _year_from_a_leap_day(name, m, today)) is not None
    ):
        return f"February 29, {day.year}" if leap else None
    if name not in _COUNTED or day is None or m.group(2) != "month":
        return None
    start = today
    if name == "span_from_day":
        if m.group(3) not in ("today", "tomorrow"):
            return None  # from a weekday: "two months after friday" is not read so far
        start = today + timedelta(days=m.group(3) == "tomorrow")
    return None if day.day >= start.day else f"{_MONTH_NAMES[day.month]} {start.day}"


def _year_from_a_leap_day(name: str, m: re.Match[str], today: date) -> bool | None:
    """Whether a count in whole years starts on a 29th of February (None: not a count in
    years at all)."""
    if name == "next_year_today":
        start = today
    elif name == "year_from_date":
        start = _year_from_start(m, today) or today
    elif name in _COUNTED and m.group(2) == "year":
        start = today
        if name == "span_from_day":
            if m.group(3) not in ("today", "tomorrow"):
                return None
            start = today + timedelta(days=m.group(3) == "tomorrow")
    else:
        return None
    return start.month == 2 and start.day == 29


def _part_of_month(today: date, part: str, month: int) -> date | None:
    """The first (early), the 15th (mid) or the last day (late, end) of the month named,
    this year's while that day is still ahead, else next year's."""
    dom = 1 if part in ("early", "beginning of", "start of") else 15
    year = today.year
    for _ in range(2):
        found = date(year, month, 1) + relativedelta(day=31 if part in ("late", "end of") else dom)
        if found >= today:
            return found
        year += 1
    return None


def _week_word(phrase: str, today: date) -> date:
    if phrase == "next week":
        return _next_weekday(today, 0, include_today=False)
    if phrase.endswith("week after next"):
        return _next_weekday(today, 0, include_today=False) + timedelta(days=7)
    if phrase == "next month":
        return today.replace(day=1) + relativedelta(months=1)
    if phrase.endswith("of next month"):  # "the end of next month", "its last day"
        return today + relativedelta(months=1, day=31)
    if (phrase.endswith("month") and ("end of" in phrase or "last day" in phrase)) or (
        phrase.endswith("last day")  # "the end of the month, the last day"
    ):
        return today + relativedelta(day=31)
    if phrase.endswith("year"):  # "by the end of the year": its last day, December 31
        return date(today.year, 12, 31)
    if phrase == "end of next week":
        return _next_weekday(today, 0, include_today=False) + timedelta(days=4)
    if phrase == "next weekend":
        return _next_weekday(today, 0, include_today=False) + timedelta(days=5)
    if "weekend" in phrase:
        return _next_weekday(today, 5, include_today=True)
    # "this week", "end of the week": this week's Friday (today once it has passed).
    return max(today, today + relativedelta(weekday=weekday(4)(+1)))


def _hour_for(hour: int, minute: int, meridiem: str | None, part: str | None) -> time | None:
    if meridiem == "pm" and hour < 12:
        hour += 12
    elif meridiem == "am" and hour == 12:
        hour = 0
    elif meridiem is None and hour <= 12:
        if part in ("afternoon", "evening", "night", "tonight"):
            hour = hour + 12 if hour < 12 else hour
        elif part == "morning":
            hour = 0 if hour == 12 else hour
        elif 1 <= hour <= 7:
            # "at 3" for an appointment means the afternoon.
            hour += 12
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        return None
    return time(hour, minute)


def _clock(
    name: str, m: re.Match[str], part: str | None, now: datetime
) -> tuple[time | None, datetime | None]:
    """(time of day, or an exact moment for "in two hours") for one matched time."""
    g = m.groups()
    if name == "in_hours":
        count = 30 if g[0] == "half an" else _number(g[0])
        delta = timedelta(hours=count) if g[1] == "hour" else timedelta(minutes=count)
        moment = (now + delta).replace(second=0, microsecond=0)
        return moment.time(), moment
    if name in ("meridiem", "for_hour"):
        return _hour_for(int(g[0]), int(g[1] or 0), g[2], part), None
    if name == "clock":
        return _hour_for(int(g[0]), int(g[1]), None, part), None
    if name == "half_hour":
        return _hour_for(_number(g[0]), 30, None, part), None
    if name == "half_past":
        hour = _number(g[2])
        if g[0] == "half":
            return _hour_for(hour, 30, None, part), None
        said = {"quarter": 15, **_PAST_MINUTE_WORDS}
        minutes = said[g[0]] if g[0] in said else int(g[0])
        if not 0 < minutes < 60:
            return None, None
        if g[1] == "to":
            return _hour_for(hour - 1 if hour > 1 else 12, 60 - minutes, None, part), None
        return _hour_for(hour, minutes, None, part), None
    if name == "word_hour":
        minute = _MINUTE_WORDS.get((g[1] or "o'clock").replace("-", " "), 0)
        return _hour_for(_HOUR_WORDS[g[0]], minute, g[2], part), None
    if name == "word_clock":
        minute = _MINUTE_WORDS.get(g[1].replace("-", " "), 0)
        return _hour_for(_HOUR_WORDS[g[0]], minute, g[2], part), None
    if name == "word_meridiem":
        meridiem = None if g[1].endswith("clock") else g[1]
        return _hour_for(_number(g[0]), 0, meridiem, part), None
    if name == "bare_hour":
        return _hour_for(int(g[0]), 0, None, part), None
    if name == "hour_part":
        return _hour_for(int(g[0]), int(g[1] or 0), None, part), None
    if name == "noon":
        return (time(0, 0) if g[0] == "midnight" else time(12, 0)), None
    return None, None


# Hours said alone that are as likely in the morning as in the evening.
_EITHER_END = frozenset({6, 7})


def _either_end_of_day(name: str, m: re.Match[str]) -> bool:
    """ "at 7", "seven o'clock", "7:30": an hour that may be a.m. or p.m."""
    if name in ("in_hours", "noon", "meridiem") or any(g in ("am", "pm") for g in m.groups()):
        return False
    said = m.groups()[0] if name not in ("half_past",) else m.groups()[2]
    if said is None:
        return False
    hour = int(said) if said.isdigit() else _HOUR_WORDS.get(said, 0)
    return hour in _EITHER_END


# The hours (from, to) each part of the day may hold, an hour alone read into it.
_PART_HOURS = {
    "morning": (5, 11),
    "first thing": (5, 11),
    "afternoon": (12, 18),
    "lunch": (11, 14),
    "lunchtime": (11, 14),
    "lunch time": (11, 14),
    "end of day": (15, 19),
    "end of the day": (15, 19),
    "evening": (16, 23),
    "night": (18, 23),
    "tonight": (16, 23),
}


def _said_together(text: str, hour: re.Match[str], part: re.Match[str] | None) -> bool:
    """ "two in the morning", "9 o'clock tonight": the part of the day right after the
    hour says which half of the day it is in, as "am" or "pm" would."""
    if part is None or part.start() < hour.end():
        return False
    return text[hour.end() : part.start()].strip() in ("", "o'clock", "oclock", "o clock")


def _fits(part: str, clock: time, name: str, m: re.Match[str], together: bool) -> bool:
    """The hour read in `part` is one that part of the day holds, or its am or pm was
    said (which then wins, as it always has). Said right after the hour, "in the
    morning" is its "am", from midnight on ("quarter past two in the morning")."""
    if name in ("in_hours", "noon") or any(g in ("am", "pm") for g in m.groups()):
        return True
    hours = _PART_HOURS.get(part.replace("  ", " "))
    if hours is not None and together and part == "morning":
        hours = (0, hours[1])
    return hours is None or hours[0] <= clock.hour <= hours[1]


def _first(patterns: Tried[str], text: str) -> tuple[str, re.Match[str]] | None:
    """The earliest match of any pattern; at one position the pattern listed first wins."""
    return patterns.earliest(text)


_DATE_TRIES = Tried(_DATE_PATTERNS)
_TIME_TRIES = Tried(_TIME_PATTERNS[:-1])


# A word that says a number of the clock: what is left of an hour read only in part.
_CLOCK_WORD = (
    r"\d{1,2}(?::\d{2})?(?! ?(?:st|nd|rd|th|%|days?|weeks?|months?|hours?|mins?|minutes?)\b)"
    r"|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen"
    # ("o" of "at 10 o'clock" is no more of the hour: the hour was read whole)
    r"|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|oh|o(?!')|[ap]m"
)
_CLOCK_NEXT = rx(rf"\s*(?:{_CLOCK_WORD})\b")
# "at ate", "at nine": "at" before a number, wherever no time was read.
_AT_CLOCK = rx(
    rf"\b(?:at|around) (?:about |like )?(?:{_CLOCK_WORD})\b|\bat [a-z]+ (?:[ap]m)\b"
    # "at 1430", "at 2545": a clock of four digits, read or not
    r"|\b(?:at|around) \d{3,4}(?: ?h(?:ou)?rs)?(?= *(?:[,.!?]|$|on|this|next|tomorrow|today|please"
    r"|instead|then|and|mon|tue|wed|thu|fri|sat|sun))"
)


# "25:00", "13pm", "10:75": shaped as an hour, read as none (was: the move kept the visit's
# own hour, and the day said beside it was taken alone)
_CLOCK_SHAPED = rx(r"\b\d{1,2}:\d{2}\b|\b\d{1,2} ?[ap]\.?m\b")


def _clock_shaped_unread(text: str, spans: list[Span]) -> bool:
    return any(
        not any(start <= found.start() < end for start, end in spans)
        for found in _CLOCK_SHAPED.finditer(text)
    )


# "noonish", "lunchish", "at teatime": about an hour said with no number, read as none (a
# move kept the visit's own hour: "move my haircut to friday at noonish" went to 2:30)
_ROUGH_HOUR = rx(
    r"\b(?:noon|midday|lunch|lunchtime|tea ?time|dinner ?time)[- ]?ish\b"
    r"|\b(?:tea|dinner|supper) ?time\b"
)


def _rough_hour_unread(text: str, spans: list[Span]) -> bool:
    return any(
        not any(start <= found.start() < end for start, end in spans)
        for found in _ROUGH_HOUR.finditer(text)
    )


def _time_unread(text: str, time_span: Span | None, spans: list[Span]) -> bool:
    """An hour said but not read whole: more of it right after the time read, or "at"
    and a number where no time was read."""
    if time_span is not None and _CLOCK_NEXT.match(text, time_span[1]):
        return True
    return any(
        not any(start <= found.start() < end for start, end in spans)
        for found in _AT_CLOCK.finditer(text)
    )


# A day pointed back at ("that same day", "the same day", "that day"): told by what was
# said before it (assistant.language.intents puts it in), not implied by the hour.
# So is "on it" before an hour ("could you put a consultation on it at 9", after "have I
# got anything on the 23rd?"): a day talked about, never tomorrow by default.
# "Same day" said bare ("haircut 4pm same day", a chat's shorthand) points back just the
# same: it booked a haircut today at 4.
_DAY_REFERRED = rx(
    r"\b(?:(?:(?:the|that) )?same (?:day|date)|that (?:day|date))\b|\bon it (?:at|around|for) \d"
).search


# Words that make the day read another one, left beside it unread: "easter monday" is no
# next Monday, "the 1st of the month after next" no 1st of next month, "a fortnight
# from friday" no Friday (each was written so). Looked for only outside what was read.
_QUALIFIER_UNREAD = rx(
    r"\b(?:easter|passover|ramadan|diwali|eid|hanukkah|thanksgiving|memorial|labou?r"
    r"|boxing|fortnight|mid-? ?week|(?:week|month|year) after next|after next)\b"
    # "a haircut after the 20th at 2": some day after it, not the 20th (the day read is
    # blanked out when this is looked for: "after" then the blank where it was)
    r"|\bafter(?:  | the \d)"
    # "between the 10th and the 12th": any day of a span (blanked: "between" then "and")
    r"|\bbetween (?: +|(?:the )?\d{1,2}(?:st|nd|rd|th) )(?:and|&) "
)


# The words of a day not read, with the words that lead to it: "on easter", "of the
# month after next", "a fortnight from now", "on my birthday", "the morning of my
# wedding". Taken out of a title, and out of a request when the customer's answer to
# "which day?" says the day instead.
_UNREAD_DAY_WORDS = (
    r"(?:easter|passover|ramadan|diwali|eid|hanukkah|thanksgiving|memorial|labou?r|boxing"
    r"|christmas|xmas|new year'?s|halloween|valentine'?s|independence|mother'?s|father'?s"
    r"|birthday|anniversary|holidays?|days? off|wedding|payday|pay day|graduation|vacation"
    r"|trip|fortnight|mid-? ?week|(?:the )?(?:week|month|year) after next|after next)"
)
_UNREAD_DAY_PHRASE = rx(
    r"\s*\b(?:(?:on|for|by|until|till|before|after|of|in) )?(?:(?:the|my|a|an) )?"
    r"(?:(?:day|morning|afternoon|evening|night|week|weekend) (?:of|after|before) "
    r"(?:(?:the|my) )?)?"
    rf"{_UNREAD_DAY_WORDS}(?: (?:from (?:now|today|tomorrow)|day|eve|sunday|monday))?\b"
    # "mid february", "the first week of march", "after the 20th": read as no day
    r"|\s*\b(?:(?:in|of|for|during) )?(?:(?:the )?(?:(?:first|second|third|last) week of"
    r"|early|mid-?|late|end of|beginning of|start of) ?)?(?:january|february|march|april|june"
    r"|july|august|september|october|november|december|jan|feb|apr|jun|jul|aug|sept?|oct|nov"
    r"|dec)\b"
    r"|\s*\b(?:any ?time |sometime |some time )?after the \d{1,2}(?:st|nd|rd|th)?\b",
    re.IGNORECASE,
)


def without_unread_day(text: str) -> str:
    """`text` without the words of a day not read ("Call my mum on easter" → "Call my
    mum"; "book a haircut on thanksgiving at 3pm" → "book a haircut at 3pm")."""
    held = "week after next" in text
    if held:
        # a week that is read (asked which day of), though "next" alone is no day
        text = text.replace("week after next", "week_after_next")
    left = " ".join(_UNREAD_DAY_PHRASE.sub(" ", text).split()).strip(" ,")
    left = _LEAD_LEFT_AT_END.sub("", left)
    return left.replace("week_after_next", "week after next") if held else left


# "move my cleaning to" (its day not read, taken out): the word that led to it goes too.
_LEAD_LEFT_AT_END = rx(r"\s+(?:to|on|for|by|until|till|before|after|of|in)$")


def _qualifier_unread(text: str, spans: list[Span]) -> bool:
    """A word beside the day read that makes it another day, outside every span read."""
    found = _QUALIFIER_UNREAD.search(text)
    if found is None:
        return False  # most texts: none of the words at all
    blanked = list(text)
    for start, end in spans:
        blanked[start:end] = " " * (end - start)
    return _QUALIFIER_UNREAD.search("".join(blanked)) is not None


_TODAY_SAID = re.compile(r"\b(?:today|tonight)\b")


# An hour given as a limit, not a time: "sometime after 3", "before 11", "no earlier than
# 4", "not after noon", "by 11". Any hour on one side of it would do, so which one is the
# customer's to say: it is asked (a move kept the old hour, or took the limit itself).
_HOUR_LIMIT = rx(
    r"\b(?:after|before|(?:no|not|any) (?:earlier|later|sooner) than|earlier than|later than"
    # ("no later than 11" is read as "by 11" before this: an hour to be there by)
    r"|not (?:before|after|until|till)|by)"
    rf" (?:about |around |like )?(?:\d{{1,2}}(?::\d{{2}})? ?[ap]\.?m\b"
    rf"|(?:{_CLOCK_WORD})\b(?! (?:hours?|hrs?|minutes?|mins?|days?|weeks?)\b)"
    r"|noon\b|midday\b|lunch(?: ?time)?\b"
    # "after work", "before school": an hour of the customer's own day, not known here (a
    # move kept the visit's own)
    r"|work\b|school\b|dinner\b|breakfast\b)"
    # "sometime between 2 and 4": any hour of a span (it kept the visit's own hour)
    rf"|\bbetween (?:about |around )?(?:{_CLOCK_WORD}|noon|midday)(?: ?[ap]\.?m)? ?(?:and|&|-)"
    rf" ?(?:{_CLOCK_WORD}|noon|midday)(?: ?[ap]\.?m)?\b"
    r"(?! (?:days?|weeks?|months?)\b)"
)


_WEEKDAY_AFTER = re.compile(rf",? (?:on )?(?:the )?({_WD})\b")
_WEEKDAY_BEFORE = re.compile(rf"\b({_WD}),? (?:of |in |on )?(?:the )?$")
# "the week of the 21st", "the week starting monday the 28th": the week that day is in.
_WEEK_OF = re.compile(r"\b(?:the )?week (?:of|starting|beginning|commencing)(?: on)? ")


def find_when(text: str, now: datetime) -> When | None:
    """The first day and the first time said in `text` (normalized), relative to `now`.

    `now` must be aware and in the customer's timezone: "tomorrow" is the customer's.
    """
    today = now.date()
    spans: list[Span] = []
    day: date | None = None
    weekday_only: int | None = None
    implied_clock: time | None = None
    no_such_date: str | None = None
    weekday_said: int | None = None
    found_day = _first(_day_patterns(text), text)
    if found_day is not None and found_day[0] == "weekday":
        # "Friday December 11": the date says which Friday; a weekday that disagrees
        # with it is kept so that the customer is asked which one they meant.
        dated = _first(_DATE_TRIES, text)
        if dated is not None:
            weekday_said = WEEKDAYS.index(found_day[1].group(2))
            spans.append(found_day[1].span())
            found_day = dated
    if (british := weeks_ahead(text, today)) is not None:
        # "Friday week", "next week Wednesday": read whole (assistant.language.shifts).
        day, _, span = british  # one day is meant, not any of that weekday
        spans.append(span)
        found_day = None
    vague_day = False
    slash_unsure = False
    if found_day is not None:
        name, match = found_day
        # "the last day of the month" is one day; "the end of the month" a few.
        vague_day = (name == "week_word" and "last day" not in match.group(0)) or (
            name == "part_of_month"
        )
        day, weekday_only, implied_clock = _day(name, match, today)
        week_of = None
        if (
            day is not None
            and "week" in text
            and (week_of := _WEEK_OF.search(text, 0, match.start()))
        ):
            # "the week of the 21st": the days of that week, Monday to Sunday, as "next
            # week" is (was: the 21st alone, "nothing booked on Monday")
            between = text[week_of.end() : match.start()].strip(" ,")
            if not between or between.removeprefix("on ") in WEEKDAYS:
                day, weekday_only, vague_day = day - timedelta(days=day.weekday()), None, True
                spans.append(week_of.span())
        a_week = week_of is not None or (
            name == "week_word" and match.group(0).endswith(("week", "week after next"))
        )
        if a_week and vague_day and day is not None and day.weekday() == 0:
            # "the week of the 28th, thursday at 11", "the week after next, on friday":
            # that week's day (was: the week alone, and it was asked when)
            # (right beside it: not "next week, any day but tuesday")
            said_from = week_of.start() if week_of is not None else match.start()
            named = _WEEKDAY_AFTER.match(text, match.end()) or _WEEKDAY_BEFORE.search(
                text, 0, said_from
            )
            if named is not None:
                day += timedelta(days=WEEKDAYS.index(named.group(1)))
                vague_day = False
                spans.append(named.span())
        if (counted := _counted_past_months_end(name, match, today, day)) is not None:
            # "a month from today" on 31 January names 31 February: not on the calendar
            # (relativedelta gave the 28th), so it is asked about like "February 30".
            day, no_such_date = None, counted
            spans.append(match.span())
        if (
            name == "weekday"
            and match.group(1) in (None, "this")
            and ("today" in text or "tonight" in text)
            and WEEKDAYS.index(match.group(2)) == today.weekday()
            and (also := _TODAY_SAID.search(text)) is not None
        ):
            # "I mean thursday, today" said on a Thursday: today, as both say (a bare
            # weekday alone is the next one after today).
            day, weekday_only = today, None
            spans.append(also.span())
        if name == "slash" and day is not None and _either_way_round(match, today, day):
            slash_unsure = True
        if day is not None:
            spans.append(match.span())
        elif name in _DATE_NAMES:
            no_such_date = _as_said(name, match)
            spans.append(match.span())
    part_match = _TIME_PATTERNS[-1][1].search(text)
    part = part_match.group(1) if part_match else None
    clock: time | None = None
    vague = False
    found_time = _first(_TIME_TRIES, text)
    oh = _OH_CLOCK.search(text) if " oh " in text or " o " in text else None
    if oh is not None and (found_time is None or oh.start() < found_time[1].start()):
        found_time = ("word_clock", oh)
    hour_unsure = False
    time_span: Span | None = None
    if found_time is not None:
        name, match = found_time
        clock, moment = _clock(name, match, part, now)
        time_span = match.span() if clock is not None else None
        hour_unsure = clock is not None and (
            _either_end_of_day(name, match)
            if part is None
            # "friday afternoon at 11", "tomorrow morning at 3": an hour the part of the day
            # said apart from it cannot hold is a slip of one or the other (it was booked at
            # 11 PM); "quarter past two in the morning" says its half of the day
            else not _fits(part, clock, name, match, _said_together(text, match, part_match))
        )
        if clock is not None:
            spans.append(match.span())
            if moment is not None and day is None:
                day = moment.date()
    if day is None and part_match is not None and part_match.group(0).startswith("this "):
        day = today  # "this morning at 8": today's, even once it has gone (it is asked)
    if clock is None and part is not None and part_match is not None:
        clock, vague = _PARTS_OF_DAY[part.replace("  ", " ")], True
        spans.append(part_match.span())
    elif clock is not None and part_match is not None:
        spans.append(part_match.span())  # "at 3 in the afternoon": both said it
    if clock is None and implied_clock is not None:
        clock, vague = implied_clock, True
    said_at = text.startswith(("at ", "around ")) or " at " in text or " around " in text
    unread = (said_at or time_span is not None) and _time_unread(text, time_span, spans)
    if not unread and (":" in text or "m" in text):
        unread = _clock_shaped_unread(text, spans)
    if not unread and clock is None and ("ish" in text or "time" in text):
        unread = _rough_hour_unread(text, spans)
    if not unread and (
        "after " in text
        or "before " in text
        or " than " in text
        or "by " in text
        or "between " in text
    ):
        unread = _HOUR_LIMIT.search(text) is not None
    if day is None and clock is None and no_such_date is None and not unread:
        return None
    implied = False
    if day is None and clock is not None and no_such_date is None and not _DAY_REFERRED(text):
        # "…a haircut that same day at 2": a day said before, never today by default.
        day = today if clock > now.time() else today + timedelta(days=1)
        implied = True
    day_unread = (
        slash_unsure
        or (implied and _DAY_UNREAD.search(text) is not None)
        or (day is not None and not implied and _qualifier_unread(text, spans))
    )
    return When(
        day=day,
        clock=clock,
        spans=tuple(sorted(spans)),
        vague_time=vague,
        weekday=weekday_only,
        day_implied=implied,
        vague_day=vague_day,
        hour_unsure=hour_unsure,
        no_such_date=no_such_date,
        weekday_said=weekday_said,
        time_unread=unread,
        day_unread=day_unread,
    )


# A day named in words no pattern here reads: a holiday, a day of one's own ("my day
# off", "the morning of my wedding"), or "on …" before anything but the few things one
# is "on" that are not days ("on time", "on the phone"). Only asked about when no day
# was read at all.
_DAY_UNREAD = rx(
    # "mid february", "in march", "the first week of march", "late feb": a month, no day of
    # it ("may" only where it is the month: "may I book…" asks)
    r"\b(?:january|february|march|april|june|july|august|september|october|november"
    r"|december|jan|feb|apr|jun|jul|aug|sept?|oct|nov|dec)\b"
    r"|\b(?:in|of|mid|early|late|end of|beginning of|start of) may\b|"
    r"\b(?:fortnight|mid-? ?week)\b|"
    r"\b(?:christmas|xmas|thanksgiving|easter|new year'?s|halloween|valentine'?s|hanukkah"
    r"|passover|diwali|eid|boxing day|memorial day|labou?r day|independence day|fourth of july"
    r"|mother'?s day|father'?s day|birthday|anniversary|holidays?|days? off|wedding|payday"
    r"|pay day|graduation|vacation|trip)\b"
    r"|\bthe (?:day|morning|afternoon|evening|night|weekend|week) (?:of|after|before)\b"
    r"|\bon (?!(?:time|it|that|this|me|you|us|them|the phone|the line|the call|hold|my way"
    r"|your end|the list|file|record|the books|the calendar|the schedule|my account|top"
    r"|the same|the day|that day|the one)\b)"
    r"(?:the |my |our |a )?[a-z][a-z'-]+"
)

_THIS_WEEKDAY = re.compile(
    r"\bthis (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", re.IGNORECASE
)
_WEEKDAY_NUMBER = {
    name: number
    for number, name in enumerate(
        ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
    )
}


def this_weekday_bare(text: str, now: datetime) -> str:
    """`text` with "this friday" said "friday" when today is not a Friday: the same day
    by the convention above, said as every rule reads a day ("keep it on this sunday" kept
    the hour just given, not the visit's own; "the one on this sunday" was not that one).
    Today's own weekday stays "this …" (today)."""
    if "this " not in text.lower():
        return text
    return _THIS_WEEKDAY.sub(
        lambda said: (
            said.group(0)
            if _WEEKDAY_NUMBER[said.group(1).lower()] == now.weekday()
            else said.group(1)
        ),
        text,
    )


__all__ = ["When", "either_way_round", "find_when", "this_weekday_bare"]
