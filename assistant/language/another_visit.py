"""A second visit like one just asked for or booked: "…and another on wednesday at the
same time", "same again on friday", "one more the week after", "book me one more for the
following wednesday". Said beside a booking, or just after one was made, it is a booking of
the same service on the day it says; the hour is the first one's when "same" says so, or when
the day is told from the first one's ("the week after", "the following wednesday") and no
hour is said; else the hour said, else it is asked (it was dropped
without a word, or refused as not understood).

The reading here gives the words of that booking as the grammar reads a whole one, so the
booking rules (what is offered, opening hours, a time passed) apply to it as to any.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from assistant.language.dates import When, find_when
from assistant.language.lexicon import BOOKING_VERBS
from assistant.language.patterns import rx

# The words that say one more of the same ("again" alone is the customer's own verb:
# "book it again" is a rebooking, read elsewhere).
_ANOTHER = rx(
    r"\b(?:another(?: one)?|one more|(?:the )?same again|(?:the )?same thing again|as well|too"
    r"|also"
    # just after a booking: "ok book it again for saturday same time", "can you do the same
    # on friday at the same time" (was: the one booked MOVED to Friday)
    r"|(?:" + BOOKING_VERBS + r") (?:it|that|one) again|do (?:the same|that again|it again))\b"
    # "and again on saturday at the same time"
    r"|^(?:(?:and|then|ok|okay)\W+)*again\b"
)
_SAME_HOUR = rx(r"\b(?:at )?(?:the )?same (?:time|hour)\b|\bsame again\b|\bsame thing again\b")
_WEEK_AFTER = rx(
    r"\b(?:the|a) (?:week|one) after\b|\ba week later\b|\bthe (?:following|next) week\b"
)
# "and again next week", "one more next week same time": a week on from the first, as "the
# week after" is, when "again" or "same" says it is the first one repeated and no weekday
# is named (was: BOOKED on the Monday that starts next week).
_NEXT_WEEK = rx(r"\bnext week\b")
_REPEATED = rx(r"\bagain\b|\bsame\b")
_A_WEEKDAY = rx(r"\b(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\b")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_FOLLOWING_DAY = rx(
    r"\bthe (?:following|next) (?P<day>" + "|".join(_WEEKDAYS) + r")\b"
    r"|\bthe (?P<after>" + "|".join(_WEEKDAYS) + r") after(?: that)?\b"
)
# What is left of the words once the day and hour are read: nothing but these.
_SPARE = rx(
    r"\b(?:and|then|plus|oh|great|ok|okay|perfect|thanks|please|can you|could you|book|get"
    r"|make|put|me|in|for|on|at|it|that|another|one|more|the|same|again|thing|as well|too"
    r"|also|time|hour|week|after|later|following|next|a|an|one|down|of|those|them|please"
    r"|instead|do|possibly|kindly|just|maybe|would you|will you|you)\b"
)


def another_visit(clause: str, service: str, first: datetime, now: datetime) -> str | None:
    """The words of a booking of `service` that `clause` asks for as one more like the one
    at `first` (in the customer's zone), or None when it asks for no such thing."""
    if not _ANOTHER.search(clause):
        return None
    hour = first.time() if _SAME_HOUR.search(clause) else None
    day: date | None = None
    rest = clause
    after = _WEEK_AFTER.search(clause)
    if after is None and "next week" in clause and _REPEATED.search(clause):
        after = None if _A_WEEKDAY.search(clause) else _NEXT_WEEK.search(clause)
    if after is not None:
        day, hour = first.date() + timedelta(days=7), hour or first.time()
        rest = clause[: after.start()] + clause[after.end() :]
    elif (following := _FOLLOWING_DAY.search(clause)) is not None:
        wanted = _WEEKDAYS.index(following.group("day") or following.group("after"))
        day = first.date() + timedelta(days=(wanted - first.weekday() - 1) % 7 + 1)
        hour = hour or first.time()
        rest = clause[: following.start()] + clause[following.end() :]
    when = find_when(rest, now)
    if when is not None and when.clock is not None:
        hour = when.clock
    if day is None and when is not None and when.day is not None and not when.day_implied:
        day = when.day
    left = _SPARE.sub(" ", _said_when(rest, when))
    if day is None or _without_the_service(left, service).strip(" ,.!?"):
        return None  # no day, or words of another ask beside it
    booked = f"book {service.lower()} on {day:%B} {day.day} {day.year}".lower()
    return booked if hour is None else f"{booked} at {hour:%H:%M}"


def _without_the_service(text: str, service: str) -> str:
    """`text` without the words of the service's name: "another haircut the week after"
    names the one it repeats (was: read as words of another ask, and the booking dropped)."""
    for word in service.lower().split():
        if word in text:
            text = re.sub(rf"\b{re.escape(word)}s?\b", " ", text)
    return text


def _said_when(text: str, when: When | None) -> str:
    """`text` without the words a date or hour was read from."""
    for start, end in sorted(when.spans if when is not None else (), reverse=True):
        text = text[:start] + " " + text[end:]
    return text


__all__ = ["another_visit"]
