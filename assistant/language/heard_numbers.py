"""Numbers and times as a speech recogniser writes them, put back where only they can stand.

A phone transcript spells the half of the day as two letters ("ten a m", "four fifteen
p m") and writes a number as the word that sounds like it: "at ate thirty", "at won",
"at to thirty", "book a haircut four friday", "make it hi priority". Read as written,
the hour is lost: a move kept the visit's old hour, a booking asked the time again.

Each word is only rewritten where the word it sounds like could not stand: after "at"
or before minutes ("at ate", "ate thirty" — nobody "ate thirty"), "four" before a day
that no hour leads ("four friday"), "a m" after a number.
"""

from __future__ import annotations

import re

from assistant.language.lexicon import WEEKDAYS
from assistant.language.patterns import rx

_SOUNDS_LIKE = {"ate": "eight", "won": "one", "to": "two", "too": "two", "tree": "three"}
_UNITS = "one|two|three|four|five|six|seven|eight|nine"
_NUMBER = (
    rf"\d{{1,2}}|{_UNITS}|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen"
    r"|eighteen|nineteen|twenty|thirty|forty|fifty|o'?clock"
)
# "ten a m", "four fifteen p m", "nine a. m.": the half of the day after a number.
# (The dot after "p m." ends the sentence, which says what is corrected after it; only
# "p. m." is written with dots of its own.)
_SPACED_MERIDIEM = rx(rf"\b({_NUMBER}) ([ap])(?:\. ?m\b\.?| ?m\b)", re.IGNORECASE)
# Minutes, or the half of the day, after an hour: what makes a word before them an hour.
_AFTER_HOUR = rf"(?:fifteen|thirty|forty[ -]five|o'?clock|(?:oh|o) (?:{_UNITS})|[ap]\.? ?m\b|[ap]m)"
_DAY = rf"(?:on|this|next|tomorrow|today|tonight|{'|'.join(WEEKDAYS)})"
# "at ate thirty", "at won on friday", "at to thirty", "to ate thirty", "won o'clock".
_HOUR_HEARD_AS_WORD = rx(
    rf"\b(?:(?<=\bat )(ate|won|to|too)(?= (?:{_AFTER_HOUR}|{_DAY})\b|\s*[.!?]?\s*$)"
    # ("too thirty", "tree thirty": nothing is "too" or "tree" a number of minutes; "to
    # thirty" may count them.)
    rf"|(ate|won|too|tree)(?= {_AFTER_HOUR}))",
    re.IGNORECASE,
)
# "book a haircut four friday": "for" heard as "four" before a day no hour word leads.
_FOR_HEARD_AS_FOUR = rx(
    r"(?<!\bat )(?<!\bby )(?<!\bfor )(?<!\baround )(?<!\buntil )(?<!\btill )(?<!\bfrom )"
    rf"(?<!\bbefore )(?<!\bafter )(?<=[a-z] )four (?=(?:{'|'.join(WEEKDAYS)}|tomorrow|today"
    r"|tonight)\b)",
    re.IGNORECASE,
)
_HIGH_HEARD_AS_HI = rx(r"\bhi (?=priority\b)", re.IGNORECASE)
# "the groceries won can you make it due friday", "the eye exam won": "one" heard as "won"
# after the thing it names ("the X one"), where nothing was won: at the end, or before an
# ask or what is asked of it ("we won", "who won" keep theirs: a subject leads them).
_ONE_HEARD_AS_WON = rx(
    r"\b((?:the|that|this) (?:(?!(?:i|we|you|they|he|she|who|it)\b)[a-z]+ ){1,3})won\b"
    r"(?= (?:can|could|would|will|please|make|move|set|mark|change|push|put|delete|remove"
    r"|cancel|is|due|to|for|on|at|as)\b|\s*[,.!?]?\s*$)",
    re.IGNORECASE,
)
# "at fourteen hundred", "for oh nine hundred", "at ten hundred hours": an hour said the
# way a 24-hour clock is read out. Only where an hour goes (after "at", "for"…), and only
# what cannot be a sum: an hour past noon, one led by "oh"/"zero" or followed by "hours"
# ("for twelve hundred dollars", "a charge for fourteen hundred and fifty" keep theirs).
_CLOCK_HOURS = {
    word: n
    for n, word in enumerate(
        (
            *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"),
            *("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen"),
            *("seventeen", "eighteen", "nineteen", "twenty", "twenty one", "twenty two"),
            "twenty three",
        )
    )
}
_HUNDRED_HOURS = rx(
    r"\b(at|for|to|by|around|about|from|till|until|before|after) (?:(oh|zero) )?"
    r"(twenty[ -](?:one|two|three)|zero|one|two|three|four|five|six|seven|eight|nine|ten"
    r"|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)"
    r" hundred( hours)?\b(?! (?:dollars?|bucks|and|euros?|pounds?)\b)",
    re.IGNORECASE,
)


def _hundred_hours(match: re.Match[str]) -> str:
    hour = _CLOCK_HOURS[match.group(3).lower().replace("-", " ")]
    if hour < 13 and match.group(2) is None and match.group(4) is None:
        return match.group(0)  # ("for ten hundred": a sum as likely as an hour)
    return f"{match.group(1)} {hour}:00"


# Cheap tests that let almost every message skip these patterns.


_HEARD_GATE = frozenset({"ate", "won", "too", "tree"})


def _hour(match: re.Match[str]) -> str:
    word = match.group(1) or match.group(2)
    return _SOUNDS_LIKE[word.lower()]


def heard_as_said(text: str, words: list[str], lower: str) -> str:
    """`text` with the numbers a recogniser wrote as other words written as numbers
    (`words` and `lower`: its lower-case words and text, to skip what it cannot hold)."""
    if "a m" in lower or "p m" in lower or ". m" in lower:
        text = _SPACED_MERIDIEM.sub(lambda m: f"{m.group(1)} {m.group(2)}m", text)
    if "at to" in lower or not _HEARD_GATE.isdisjoint(words):
        text = _HOUR_HEARD_AS_WORD.sub(_hour, text)
    if "four" in words:
        text = _FOR_HEARD_AS_FOUR.sub("for ", text)
    if "hi" in words:
        text = _HIGH_HEARD_AS_HI.sub("high ", text)
    if "won" in words:
        text = _ONE_HEARD_AS_WON.sub(r"\1one", text)
    if "hundred" in words:
        text = _HUNDRED_HOURS.sub(_hundred_hours, text)
    return text
