"""Times said relative to something already there: "an hour later", "the day after",
"push it back a week", "bring it forward a day", "same time", "make that 11".

They only mean something against an appointment or task in focus (assistant.dialogue),
so they are read apart from `find_when`, which reads times that stand on their own.
"""

from __future__ import annotations

import re
from datetime import date, time, timedelta
from functools import lru_cache

from assistant.language.patterns import rx

_AMOUNT = r"(?P<n>a|an|one|two|three|four|five|six|\d{1,2}|half an?|a couple of|a few|couple of)"
# "an hour and a half", "two and a half hours": half a unit more
_UNIT = (
    r"(?:(?P<half_before>and a half) )?(?P<u>minutes?|mins?|hours?|hrs?|days?|weeks?|fortnights?)"
    r"(?P<half_after> and a half)?"
)
_NUMBERS = {
    "a": 1.0,
    "an": 1.0,
    "one": 1.0,
    "two": 2.0,
    "three": 3.0,
    "four": 4.0,
    "five": 5.0,
    "six": 6.0,
    "half a": 0.5,
    "half an": 0.5,
    "a couple of": 2.0,
    "couple of": 2.0,
    "a few": 3.0,
}
_UNITS = {"m": timedelta(minutes=1), "h": timedelta(hours=1), "d": timedelta(days=1)}
_LATER = r"later|back|after|on|out|afterwards|further"
_EARLIER = r"earlier|forward|before|sooner|ahead|up"
# "an hour later", "two days earlier", "half an hour later"
_AMOUNT_THEN_WAY = rx(rf"\b{_AMOUNT} {_UNIT} (?P<way>{_LATER}|{_EARLIER})\b")
# "back an hour", "forward by a day", "back by two hours"
_WAY_THEN_AMOUNT = rx(
    rf"\b(?P<way>back|forward|later|earlier|ahead|out|up)(?: by)? {_AMOUNT} {_UNIT}\b"
)
# "push it a week", "delay my dental cleaning by an hour": the verb says which way. What is
# moved may take a few words, none of them a preposition: "bring the kids in two days" is
# not a shift.
_VERB_THEN_AMOUNT = rx(
    rf"\b(?P<way>push|delay|postpone|put off|bring|pull)\b"
    rf"(?: (?!(?:in|within|to|for|at|on|until|till|from|after|before|and)\b)[\w'-]+){{0,5}}?"
    rf"(?: back| forward| out)?(?: by)? {_AMOUNT} {_UNIT}\b"
)
# "same time next week", "this time next week": a week on, at the hour it has.
SAME_DAY_NEXT_WEEK = rx(
    r"\b(?:next week,? (?:on )?(?:the )?same (?:days?|times?)"
    r"|(?:the )?same (?:days?|times?)(?:,)? (?:the )?(?:next|following) week"
    r"|this time next week"
    # "actually make that next week" of a visit just booked or moved, no day said: a week
    # on, its day and hour kept (was: not understood, "next week" a stretch to ask a day of)
    r"|make (?:it|that|this)(?: one)? next week(?= instead\W*$| please\W*$|\W*$))"
)
_DAYS = (
    (SAME_DAY_NEXT_WEEK, 7),
    (rx(r"\b(?:the )?(?:day after|following day|next day)\b"), 1),
    (rx(r"\b(?:the )?day before\b"), -1),
    (rx(r"\b(?:a week later|the week after(?! next\b)|the following week|the next week)\b"), 7),
    (rx(r"\b(?:the )?week before\b"), -7),
    (rx(r"\b(?:a fortnight later|the fortnight after)\b"), 14),
)
_SAME_TIME = rx(r"\b(?:same time|at the same time|same hour|same slot)\b")


def _amount(word: str) -> float:
    if word.isdigit():
        return float(word)
    return _NUMBERS.get(word, 1.0)


def _unit(word: str) -> timedelta:
    if word.startswith("fortnight"):
        return timedelta(days=14)
    if word.startswith("week"):
        return timedelta(days=7)
    return _UNITS[word[0]]


@lru_cache(maxsize=1024)
def whole_days(shift: timedelta | None) -> bool:
    """A shift a due date can take: whole days, not none ("push it back a day")."""
    return shift is not None and bool(shift) and not shift % timedelta(days=1)


@lru_cache(maxsize=1024)
def find_shift(text: str) -> timedelta | None:
    """The relative move said in `text` (positive: later), or None.

    Kept per text: a turn's planner rounds and narrator ask about the same message."""
    text = text.lower()
    for pattern in (_AMOUNT_THEN_WAY, _WAY_THEN_AMOUNT, _VERB_THEN_AMOUNT):
        if match := pattern.search(text):
            size = _unit(match.group("u")) * _amount(match.group("n"))
            if match.group("half_before") or match.group("half_after"):
                size += _unit(match.group("u")) / 2
            way = match.group("way")
            earlier = re.fullmatch(_EARLIER, way) or way in ("bring", "pull")
            return -size if earlier else size
    for pattern, days in _DAYS:
        if pattern.search(text):
            return timedelta(days=days)
    return None


# Where one move ends and the next begins: "…an hour earlier, and the haircut…".
_PART_END = rx(r"\s*(?:[,;.!?]\s*(?:and\b|then\b)?|\band\b|\bthen\b|\bbut\b)\s*")


def shifts_by_part(text: str) -> list[tuple[str, timedelta]] | None:
    """Each part of `text` that says a shift of its own ("an hour earlier for the cleaning
    and an hour later for the haircut"): (the part's words, its shift), or None when the
    shifts said are one (said once, or the same twice): a single shift is the message's."""
    text = text.lower()
    if len(_WAY_WORD.findall(text)) < 2:
        return None  # two shifts say two ways: most messages hold at most one
    parts = [part for part in _PART_END.split(text) if part.strip()]
    found = [(part, shift) for part in parts if (shift := find_shift(part)) is not None]
    if len(found) < 2 or len({shift for _, shift in found}) < 2:
        return None
    return found


_WAY_WORD = rx(r"\b(?:earlier|later|sooner|back|forward|ahead|push|bring|pull|delay|postpone)\b")


_IN_SOME_DAYS = rx(
    rf"\b(?:(?:due|by|for) )?(?:in|within) {_AMOUNT} (?P<u>days?|weeks?|fortnights?)(?: time)?\b"
    r"|\b(?:(?:due|by|for) )?(?:in )?a fortnight(?:'s time)?\b"
)


def relative_day(text: str, today: date) -> tuple[date, tuple[int, int]] | None:
    """ "in a fortnight", "due in three days": the day meant, and where it was said."""
    match = _IN_SOME_DAYS.search(text.lower())
    if match is None:
        return None
    if match.group("u") is None:
        return today + timedelta(days=14), match.span()
    return today + _unit(match.group("u")) * _amount(match.group("n")), match.span()


_WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WD = r"(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
# British weeks ahead: "Friday week", "a week on Friday", "a fortnight on Tuesday",
# "next week Wednesday", "Wednesday next week", "Tuesday after next".
# (pattern, days added, counted from the coming Monday rather than the next such weekday)
_WEEKS_AHEAD = (
    (rx(rf"\b{_WD} week\b"), 7, False),
    (rx(rf"\b(?:a|one) week (?:on|from) {_WD}\b"), 7, False),
    (rx(rf"\b{_WD} fortnight\b"), 14, False),
    (rx(rf"\b(?:a|one) fortnight (?:on|from) {_WD}\b"), 14, False),
    # "the week after next on tuesday", "tuesday the week after next": the week after the
    # coming one (read before "next week…", whose words these hold)
    (rx(rf"\b(?:the )?week after next,? (?:on )?(?:the )?{_WD}\b"), 7, True),
    (rx(rf"\b{_WD},? (?:of |in )?the week after next\b"), 7, True),
    (rx(rf"\bnext week,? (?:on )?{_WD}\b"), 0, True),
    (rx(rf"\b{_WD},? next week\b"), 0, True),
    (rx(rf"\b{_WD} after next\b"), 7, False),
)


def weeks_ahead(text: str, today: date) -> tuple[date, int, tuple[int, int]] | None:
    """ "Friday week": (the day, its weekday, where it was said), or None."""
    if "week" not in text and "fortnight" not in text and "after next" not in text:
        return None  # every pattern holds one of these: most dates say none of them
    for pattern, extra, from_monday in _WEEKS_AHEAD:
        match = pattern.search(text)
        if match is None:
            continue
        index = _WEEKDAY_NAMES.index(match.group("wd"))
        ahead = (index - today.weekday()) % 7 or 7
        day = today + timedelta(days=ahead + extra)
        if from_monday:
            # "next week Wednesday": the Wednesday of the coming Monday-to-Sunday week.
            monday = today + timedelta(days=7 - today.weekday())
            day = monday + timedelta(days=index + extra)
        return day, index, match.span()
    return None


_WEEKDAY_AFTER = rx(rf"\bthe {_WD} (?:after|following)\b(?! next)")


def weekday_after(text: str, day: date) -> date | None:
    """ "the Monday after" (an appointment on `day`): the first Monday after that day."""
    match = _WEEKDAY_AFTER.search(text.lower())
    if match is None:
        return None
    index = _WEEKDAY_NAMES.index(match.group("wd"))
    return day + timedelta(days=(index - day.weekday()) % 7 or 7)


_WEEKDAY_BEFORE = rx(rf"\bthe {_WD} (?:before|prior|just before)\b(?! (?:that|next|last)\b)")


def weekday_before(text: str, day: date) -> date | None:
    """ "the Friday before" (an appointment on `day`): the last Friday before that day."""
    match = _WEEKDAY_BEFORE.search(text.lower())
    if match is None:
        return None
    index = _WEEKDAY_NAMES.index(match.group("wd"))
    return day - timedelta(days=(day.weekday() - index) % 7 or 7)


def weekday_beside(text: str, day: date) -> date | None:
    """ "the Monday after", "the Friday before" an appointment on `day`."""
    return weekday_after(text, day) or weekday_before(text, day)


def same_time(text: str) -> bool:
    return bool(_SAME_TIME.search(text.lower()))


# "make that 11", "at 3", "9:30", "to 11 instead of 9": an hour said without am/pm.
_BARE_CLOCK = rx(
    r"\b(?:make (?:it|that|this)(?: one)?|to|at|for|say|said|how about|what about|meant|mean"
    # "a bit later, like 11", "maybe 11": an hour offered as the new one
    r"|do|try|like|maybe|(?:it|that) be)\s+"
    r"(?P<h>\d{1,2})(?::(?P<m>\d\d))?"
    r"(?:\s*(?P<ampm>am|pm|a\.m\.|p\.m\.))?(?![\d:])"
    # "4", "no, 4 (not 5)": the hour alone, after a word that corrects at most.
    r"|^(?:(?:no|nope|sorry|oops|actually|wait)\b[\s,.!]*)*"
    r"(?P<h2>\d{1,2})(?::(?P<m2>\d\d))?\s*(?P<ampm2>am|pm)?[\s,.!]*$"
)
_INSTEAD_OF = rx(r"\b(?:instead of|not|rather than)\b.*$")


_HOUR_WORDS = {
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "eleven": "11",
    "twelve": "12",
}
_HOUR_WORD = rx(r"\b(" + "|".join(_HOUR_WORDS) + r")\s*$")
# "one" is an hour only after a word that introduces a time ("make it one", "at one"):
# "cancel the friday one", "the other one" point at an item.
_ONE_AS_HOUR = rx(r"\b(?:at|to|for|till|until|by|about|around|it|be)\s+one\s*$")


def bare_clock(text: str, near: time) -> time | None:
    """An hour said on its own, read on the same side of noon as `near` when it fits."""
    text = _INSTEAD_OF.sub("", text.lower())
    # "make the cleaning ten": an hour in words, at the end.
    if not text.rstrip().endswith("one") or _ONE_AS_HOUR.search(text):
        text = _HOUR_WORD.sub(lambda m: "at " + _HOUR_WORDS[m.group(1)], text)
    match = _BARE_CLOCK.search(text)
    if match is None:
        return None
    hour = int(match.group("h") or match.group("h2"))
    minute = int(match.group("m") or match.group("m2") or 0)
    ampm = match.group("ampm") or match.group("ampm2")
    if hour > 23 or minute > 59:
        return None
    if ampm and ampm.startswith("p") and hour < 12:
        hour += 12
    elif ampm is None and hour < 12 and ((near.hour >= 12 and hour + 12 <= 21) or hour < 7):
        # "make it 3" about a 2 pm visit is 3 pm; about a 9 am one, "11" is 11 am.
        hour += 12
    return time(hour, minute)
