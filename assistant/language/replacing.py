"""One visit replaced by another service: "swap the cleaning for a checkup, same time",
"replace my haircut with a massage on friday at 3", "instead of my haircut can I have a
massage", "cancel my haircut and book a massage in its place".

No tool changes which service a booking is for, so a replacement is two changes: the
visit cancelled, and the other service booked at its start (or at the time said). It is
said to the grammar as those two ("cancel my haircut and book a massage at the same time
as my haircut", which assistant.models.embedded.anchored counts from the visit), and the
engine holds the booking with the cancel under one question (assistant/integrity.py), so
that both are made after the yes, or neither.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.language.patterns import rx
from assistant.language.slots import _SERVICE, services_named

# Nearly every message says none of these: the patterns below are not tried.
_GATE = re.compile(
    r"swap|switch|chang|replac|instead|in its place|in place of|exchang|trade|slot|spot|rather"
)

_THING = r"(?:[a-z]+ ){0,2}?[a-z]+?"
_VISIT_WORD = r"(?: (?:appointment|booking|visit|one))?"
_A = r"(?:(?:a|an|the|my|one) )?"
# "swap the cleaning for a checkup", "change my haircut to a massage", "replace my
# haircut with a massage", "switch my haircut to a massage instead"
_SWAPPED = rx(
    rf"\b(?:swap|switch|change|replace|exchange|trade)(?: out)? (?:my|the) (?P<old>{_THING})"
    rf"{_VISIT_WORD} (?:for|with|to|into|over to) {_A}(?P<new>{_THING}){_VISIT_WORD}"
    r"(?=[ ,.!?]|$)"
)
# "instead of my haircut can I have a massage", "instead of the cleaning, book me a checkup"
_INSTEAD_OF_FIRST = rx(
    rf"\binstead of (?:my|the) (?P<old>{_THING}){_VISIT_WORD},? (?:can|could|may) (?:i|you)"
    rf" (?:please )?(?:have|get|book(?: me)?|do|give me|put me in for) {_A}(?P<new>{_THING})"
    rf"{_VISIT_WORD}(?=[ ,.!?]|$)"
    rf"|\binstead of (?:my|the) (?P<old2>{_THING}){_VISIT_WORD},? (?:please )?book(?: me)?"
    rf" {_A}(?P<new2>{_THING}){_VISIT_WORD}(?=[ ,.!?]|$)"
)
# "book me a massage instead of my haircut", "can I have a massage in place of my haircut"
_INSTEAD_OF_AFTER = rx(
    rf"\b(?:book(?: me)?|have|get|do|give me) {_A}(?P<new>{_THING}){_VISIT_WORD}"
    rf" (?:instead of|in place of) (?:my|the) (?P<old>{_THING}){_VISIT_WORD}(?=[ ,.!?]|$)"
)
# "i'd rather have a facial than my haircut": the visit replaced
_RATHER_THAN = rx(
    rf"\b(?:i'?d|id|i would) rather (?:have|get|do) {_A}(?P<new>{_THING}){_VISIT_WORD}"
    rf" (?:than|over|instead of) (?:my|the) (?P<old>{_THING}){_VISIT_WORD}(?=[ ,.!?]|$)"
)
# "cancel my haircut and book a massage in its place", "…and book me a massage instead",
# "scrap the dentist on the 16th and put a facial in that slot", "cancel my sunday haircut
# i'd rather have a massage in that slot"; the visit by its day ("my wednesday appointment")
_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_CANCEL_AND_BOOK = rx(
    rf"\b(?:cancel|scrap|drop|call off),? (?:(?:you know|like|um|uh|er|erm),? )*(?:my|the)"
    rf" (?P<old>{_THING}){_VISIT_WORD}"
    r"(?P<day> on (?:the \d{1,2}(?:st|nd|rd|th)|" + _WEEKDAY + r"))?,?"
    rf" (?:(?:and|then) (?:can you )?(?:book|get|give|schedule|put)(?: me)?(?: in for)?"
    rf"|(?:and |but )?(?P<rather>(?:i'?d|id|i would) rather) (?:have|get|do)) {_A}(?P<new>{_THING})"
    rf"{_VISIT_WORD}(?=[ ,.!?]|$)"
)
_A_WEEKDAY = re.compile(rf"^{_WEEKDAY}$")
# Said of the booking's time: at the visit's own ("in its place", "same time", "instead").
_ITS_PLACE = rx(
    r"\b(?:in its place|in place of it|in (?:the|that) (?:same )?(?:slot|spot)"
    r"|(?:at )?the same (?:time|slot)|same time|instead)\b"
)
_VISIT_AFTER = re.compile(r"(?: (?:appointment|booking|visit|one)\b)?")


@dataclass(frozen=True, slots=True)
class Replacement:
    """A replacement read from a message: the visit, the service, where it was said, the
    words after it, and whether "in its place", "same time" or "instead" was said."""

    old: str
    new: str
    start: int
    end: int
    rest: str
    same_said: bool
    day: str = ""  # the day the visit replaced was said by ("on the 16th")


def _read(text: str) -> Replacement | None:
    if _GATE.search(text) is None:
        return None
    for pattern, needs_place in (
        (_SWAPPED, False),
        (_INSTEAD_OF_FIRST, False),
        (_INSTEAD_OF_AFTER, False),
        (_RATHER_THAN, False),
        (_CANCEL_AND_BOOK, True),
    ):
        found = pattern.search(text)
        if found is None:
            continue
        groups = {k: v for k, v in found.groupdict().items() if v}
        old = groups.get("old") or groups.get("old2") or ""
        new = groups.get("new") or groups.get("new2") or ""
        key = "new" if found.group("new") else "new2"
        # The service said whole ("an eye exam", not "an eye"), and the words after it.
        named = _SERVICE.match(text, found.start(key))
        olds, news = services_named(old), services_named(named.group(0) if named else new)
        if pattern is _CANCEL_AND_BOOK and not olds and _A_WEEKDAY.match(old):
            old, olds = f"{old} appointment", frozenset({"by its day"})  # "my wednesday …"
        if named is None or len(olds) != 1 or len(news) != 1 or olds == news:
            continue  # not two services ("change my haircut to friday" is a move)
        new = named.group(0)
        end = max(found.end(), named.end())
        if pattern not in (_INSTEAD_OF_AFTER, _RATHER_THAN):
            visit_word = _VISIT_AFTER.match(text, named.end())
            end = visit_word.end() if visit_word else named.end()
        rest = text[end:]
        same = (
            pattern in (_INSTEAD_OF_FIRST, _INSTEAD_OF_AFTER) or _ITS_PLACE.search(text) is not None
        )
        if needs_place and not same and not groups.get("rather"):
            # ("cancel my haircut, i'd rather have a massage on saturday at 2": the other
            # service said in its place, at the time said; was: the haircut MOVED there)
            continue  # "cancel my haircut and book a massage friday": two changes of their own
        day = (groups.get("day") or "") if pattern is _CANCEL_AND_BOOK else ""
        return Replacement(old, new, found.start(), end, rest, same, day)
    return None


def replaces(text: str) -> bool:
    """Whether `text` asks one visit replaced by another service."""
    return _read(text.lower()) is not None


def time_left_open(text: str) -> bool:
    """Whether a replacement `text` asks says neither a time nor "in its place", "same
    time", "instead": the question asks the time too."""
    found = _read(text.lower())
    return found is not None and not found.same_said and not _CLOCK_SAID.search(found.rest)


# An hour said ("at 3", "4 pm", "noon", "in the morning"), not a day alone ("on saturday").
_CLOCK_SAID = rx(
    r"\d(?::\d\d)? ?(?:am|pm|a\.m|p\.m)|\bat \d|\d:\d\d|\b(?:noon|midday|o'?clock|morning"
    r"|afternoon|evening)\b|\bat (?:one|two|three|four|five|six|seven|eight|nine|ten|eleven"
    r"|twelve)\b"
)


def as_two_changes(text: str) -> str:
    """`text` with a replacement said as the cancel and the booking it is ("cancel my
    haircut and book a massage at the same time as my haircut", or at the time said);
    else `text` as it was."""
    lowered = text.lower()
    if len(lowered) != len(text):
        return text
    found = _read(lowered)
    if found is None:
        return text
    rest = _ITS_PLACE.sub("", found.rest)
    rest = re.sub(r"^[ ,]*(?:please|for me|then)?[ ,]*", " ", rest).rstrip()
    new = next(iter(services_named(found.new))).lower()
    article = "an" if new[0] in "aeiou" else "a"
    # A day said without an hour ("…instead of my haircut on sunday", "…with a massage on
    # friday"): the visit's hour on that day, and the question asks the time too.
    timed = _CLOCK_SAID.search(rest) is not None
    when = rest if timed else f" at the same time as my {found.old}{rest}"
    said = f"cancel my {found.old}{found.day} and book {article} {new}{when}"
    return f"{text[: found.start]}{said}"


__all__ = ["as_two_changes", "replaces", "time_left_open"]
