""" "Remind me to pay it the day before": a day said relative to something not named in
the clause, kept as a shift for the conversation to anchor (or the day is asked)."""

from __future__ import annotations

import re
from datetime import timedelta

from assistant.language.patterns import rx

# A day said relative to something not named here ("the day before", "a week after it").
RELATIVE_DAY = rx(
    r"(?i),? (?:on |by )?(?:the|a|one|two|three|\d+) (?:day|days|week|weeks) (?:before|after"
    r"|prior|earlier|later)(?: (?:it|that|then|hand|(?:it|that)(?:'s| is) due|the due date"
    # "…three days before my haircut": a visit named (the day asked, or anchored by it)
    r"|(?:my|the|our) (?:[a-z]+ ){0,2}(?:appointment|visit|booking|haircut|cleaning|checkup"
    r"|check-up|consultation|exam|therapy|physio|dentist)))?$"
)


# The same said first: "remind me the day before to find my glasses".
RELATIVE_DAY_FIRST = rx(
    r"^(?:on |by )?(?:the|a|one|two|three|\d+) (?:day|days|week|weeks) (?:before|after|prior"
    r"|earlier|later)(?: (?:it|that|then|hand))?,?\s+(?:to )?(?=\w)"
    # ("remind me the day after tomorrow to…": a day counted from one said, read as a day)
    r"(?!(?:tomorrow|today|tonight)\b)"
)


# The same said before the time it is at: "remind me to call the bank the day before at 3pm"
# (not "before 3pm", and not title words).
RELATIVE_DAY_THEN_TIME = rx(
    r",? (?:on |by )?(?:the|a|one|two|three|\d+) (?:day|days|week|weeks) (?:before|after"
    r"|prior|earlier|later)(?: (?:it|that|then|hand))?(?=,? (?:at|around|by|about) \S)"
)


# "add a task to celebrate that day": the day of something said before, not title words;
# with nothing in view it names no day, and the day is asked.
SAME_DAY = rx(r",? (?:on |for |by )?(?:the same|that same|that very|that) day$")


_COUNT_AND_UNIT = rx(r"(the|a|one|two|three|\d+) (day|week)")
_COUNTS = {"the": 1, "a": 1, "one": 1, "two": 2, "three": 3}


def relative_days(words: str) -> timedelta:
    """ "the day before" → -1 day, "two weeks after" → +14 days."""
    said = _COUNT_AND_UNIT.search(words)
    if said is None:
        return timedelta(0)
    count_word, unit = said.groups()
    count = int(count_word) if count_word.isdigit() else _COUNTS[count_word]
    days = count * (7 if unit == "week" else 1)
    return timedelta(days=days if re.search(r"after|later", words) else -days)


__all__ = [
    "RELATIVE_DAY",
    "RELATIVE_DAY_FIRST",
    "RELATIVE_DAY_THEN_TIME",
    "SAME_DAY",
    "relative_days",
]
