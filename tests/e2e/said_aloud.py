"""The customer's words as a voice platform's speech-to-text delivers them, meaning the same:
numbers and times in words, a word said twice or a start said again, a filler inside the
sentence, contractions written out or their apostrophes dropped.

Each rewrite keeps the meaning exactly, so a written conversation's checks stand for it
unchanged. What a rewrite leaves alone (`aloud`): words in quotes, an email, the digits of
a phone number or an address (said digit by digit, a transcript writes them as digits),
and a word the turn's own checks look for (a title's words it must not hold, an answer's
words that echo what was said).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from typing import Any

_ONES = [
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
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_ORDINAL_ONES = [
    "_",
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
]
_ORDINAL_TENS = {20: "twentieth", 30: "thirtieth"}


def in_words(number: int) -> str:
    """ "twenty five", "one hundred and fifty" (0 to 999)."""
    if number < 20:
        return _ONES[number]
    if number < 100:
        tens, ones = divmod(number, 10)
        return _TENS[tens] + (f" {_ONES[ones]}" if ones else "")
    hundreds, rest = divmod(number, 100)
    head = f"{_ONES[hundreds]} hundred"
    return head + (f" and {in_words(rest)}" if rest else "")


def ordinal_in_words(number: int) -> str:
    """ "first", "twenty fifth", "thirtieth" (1 to 31)."""
    if number < 20:
        return _ORDINAL_ONES[number]
    tens, ones = divmod(number, 10)
    if not ones:
        return _ORDINAL_TENS[number]
    return f"{_TENS[tens]} {_ORDINAL_ONES[ones]}"


# ---------------------------------------------------------------------------------------
# What a rewrite leaves alone.

_QUOTED = re.compile(r"\"[^\"]*\"|(?<![\w'])'[^']+'(?![\w'])")
_EMAIL = re.compile(r"\S+@\S+")
# A turn giving a phone number or an address: its digits are said one by one or as a
# house number, and a transcript writes them as digits.
_DIGITS_SAID = re.compile(
    r"(?i)\b(?:phone|number|digits|ends? in|address|street|lane|road|avenue|zip|postcode)\b"
)
# A phone number however it is grouped ("415 555 0177", "(415) 555-0177", "07700 900123").
_PHONE = re.compile(r"\+?\(?\d+\)?(?:[\s.-]+\(?\d+\)?){1,4}(?=\W|$)")
# A masked span is one character of Unicode's private use area (neither a letter nor a
# digit to the rewrites), its index in the spans.
_FIRST_MASK = 0xE000
_MASKED = re.compile("[\ue000-\uf8ff]")


def _mask(text: str, keep: list[str]) -> tuple[str, list[str]]:
    spans: list[str] = []

    def hide(match: re.Match[str]) -> str:
        spans.append(match.group(0))
        return chr(_FIRST_MASK + len(spans) - 1)

    text = _QUOTED.sub(hide, text)
    text = _EMAIL.sub(hide, text)
    text = _PHONE.sub(lambda m: hide(m) if len(re.sub(r"\D", "", m[0])) >= 7 else m[0], text)
    if _DIGITS_SAID.search(text):
        text = re.sub(r"\d+", hide, text)
    for word in sorted(keep, key=len, reverse=True):
        text = re.sub(rf"(?i)(?<![\w']){re.escape(word)}(?![\w'])", hide, text)
    return text, spans


def _unmask(text: str, spans: list[str]) -> str:
    while _MASKED.search(text):  # a span masked inside another is shown in its turn
        text = _MASKED.sub(lambda m: spans[ord(m.group(0)) - _FIRST_MASK], text)
    return text


def aloud(text: str, rewrite: Callable[[str], str], keep: list[str] | None = None) -> str:
    """`rewrite` applied to `text` with what must stay as written masked."""
    masked, spans = _mask(text, keep or [])
    return _unmask(rewrite(masked), spans)


def _said_words(turn: dict[str, Any]) -> set[str]:
    return set(re.findall(r"[\w':]+", turn["say"].lower()))


def kept_words(turn: dict[str, Any]) -> list[str]:
    """The words of a turn its own checks look for: those a new title must not hold, and
    those an answer must (or must not) echo ("what's the …" said back), a check of two
    words or more of which another was said too."""
    said = _said_words(turn)
    kept: set[str] = set()
    for check in turn.get("crm", []):
        kept.update(w.lower() for w in check.get("without", []))
        for key in ("task", "task_like"):
            if key in check:
                kept.update(re.findall(r"[\w':]+", check[key].lower()))
    for wanted in [*turn.get("has", []), *turn.get("not", [])]:
        for option in [wanted] if isinstance(wanted, str) else wanted:
            words = re.findall(r"[\w':]+", option.lower())
            if len(words) > 1 and sum(word in said for word in words) > 1:
                kept.update(word for word in words if word in said)
    # A token holding a kept number ("5:30pm" where "30" may not be in a title) is kept.
    tokens = re.findall(r"[\w':.$]+", turn["say"])
    return sorted(
        {
            token.strip(".")
            for token in tokens
            for word in kept
            if re.search(rf"(?i)(?<![\w']){re.escape(word)}(?![\w'])", token)
        }
    )


# ---------------------------------------------------------------------------------------
# Times: "3pm", "2:30", "10 o'clock", "at 3".

_CLOCK = re.compile(
    r"(?i)(?<![\w:$.])(\d{1,2})(?::(\d\d))?(?:\s?([ap])(?:\.m\.?|m)(?![\w])|(?=\s?o'?clock\b))"
    r"|(?<![\w:$.])(\d{1,2}):(\d\d)(?![\w:])"
)
# A bare hour ("at 3", "make it 11.", "sorry, 5 not 4"): a number to 12 alone, not a
# count, a date, an amount or a task's number.
_BARE_HOUR = re.compile(
    r"(?i)(?<![\w$:./,-])(?<!task )(?<!number )(?<!# )(\d{1,2})(?![\w:/]|[.,]\d)"
    r"(?!\s*(?:st|nd|rd|th|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|dollars?"
    r"|bucks|tasks?|of them|people|times)\b)"
)


def _minutes_read(minutes: int) -> str:
    if minutes == 0:
        return ""
    return f" oh {_ONES[minutes]}" if minutes < 10 else f" {in_words(minutes)}"


def _part_of_day(hour: int, half: str | None) -> str:
    """ "in the afternoon" for a 24-hour or marked hour, "" when not said."""
    if half is None:
        return ""
    if half == "a":
        return " in the morning" if 5 <= hour <= 11 else " a m"
    if hour == 12:
        return " p m"
    return " in the afternoon" if hour <= 5 else " in the evening"


def _clock_parts(match: re.Match[str]) -> tuple[int, int, str | None]:
    if match.group(4):
        hour, minutes, half = int(match.group(4)), int(match.group(5)), None
    else:
        hour, minutes = int(match.group(1)), int(match.group(2) or 0)
        mark = match.group(3)
        half = mark.lower() if mark else None
    if half is None and hour > 12:
        hour, half = hour - 12, "p"
    return hour, minutes, half


def _read_time(match: re.Match[str]) -> str:
    """ "three p m", "two thirty", "ten oh five p m"."""
    if match.group(4) and int(match.group(4)) > 12:
        hour, minutes = int(match.group(4)), int(match.group(5))
        return in_words(hour) + (f" {in_words(minutes)}" if minutes else " hundred")
    hour, minutes, half = _clock_parts(match)
    marked = match.group(3)
    tail = f" {half} m" if marked and half else ""
    return f"{in_words(hour)}{_minutes_read(minutes)}{tail}"


# A time naming a visit ("my 4pm appointment", "the 2:30 one") is read as it is written.
_NAMING = re.compile(r"(?i)(?:\b(?:my|the|this|that)|day|'s)\s$")


def _told_time(match: re.Match[str]) -> str:
    """ "three in the afternoon", "half past two", "quarter past ten"."""
    if _NAMING.search(match.string[max(0, match.start() - 12) : match.start()]):
        return _read_time(match)
    hour, minutes, half = _clock_parts(match)
    named = {15: "quarter past ", 30: "half past "}.get(minutes)
    said = f"{named}{in_words(hour)}" if named else f"{in_words(hour)}{_minutes_read(minutes)}"
    return said + _part_of_day(hour, half)


def _bare_hour(match: re.Match[str]) -> str:
    hour = int(match.group(1))
    return in_words(hour) if 1 <= hour <= 12 else match.group(0)


def times_read(text: str) -> str:
    """ "three p m", "two thirty", "ten fifteen", "nine a m", "at three"."""
    return _BARE_HOUR.sub(_bare_hour, _CLOCK.sub(_read_time, text))


def times_told(text: str) -> str:
    """ "three in the afternoon", "half past two", "quarter past ten", "nine in the
    morning"."""
    return _BARE_HOUR.sub(_bare_hour, _CLOCK.sub(_told_time, text))


# ---------------------------------------------------------------------------------------
# Other numbers: "the 25th", "$40", "2 hours", "task 2", "april 15", "150 dollars".

_MONTHS = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_ORDINAL = re.compile(r"(?i)(?<![\w$])(\d{1,2})(?:st|nd|rd|th)\b")
_AFTER_MONTH = re.compile(rf"(?i)\b({_MONTHS})\s(\d{{1,2}})\b(?![:\w])")
_DOLLARS = re.compile(r"\$(\d{1,3})(?:\.(\d\d))?(?![\d,])")
_NUMBER_ALONE = re.compile(r"(?<![\w$:./,-])(\d{1,3})(?![\w:/]|[.,]\d)")


def _dollars(match: re.Match[str]) -> str:
    amount = int(match.group(1))
    said = f"{in_words(amount)} {'dollar' if amount == 1 else 'dollars'}"
    cents = int(match.group(2) or 0)
    return said + (f" and {in_words(cents)} cents" if cents else "")


def numbers_said(text: str) -> str:
    """ "the twenty fifth", "forty dollars", "two hours", "task two"."""
    text = _ORDINAL.sub(
        lambda m: ordinal_in_words(int(m.group(1))) if 1 <= int(m.group(1)) <= 31 else m[0],
        text,
    )
    text = _AFTER_MONTH.sub(
        lambda m: (
            f"{m.group(1)} {ordinal_in_words(int(m.group(2)))}"
            if 1 <= int(m.group(2)) <= 31
            else m[0]
        ),
        text,
    )
    text = _DOLLARS.sub(_dollars, text)
    if _CLOCK.search(text) or _BARE_HOUR.search(text):
        # A time is the times' ways to say; the numbers around it are left as they are.
        return text
    return _NUMBER_ALONE.sub(lambda m: in_words(int(m.group(1))), text)


# ---------------------------------------------------------------------------------------
# A word said twice, a start said again.

# ("to morrow" is a transcript's "tomorrow", "a m" the morning's hours: their "to" and
# "a" are no words of their own to repeat.)
_SHORT = re.compile(
    r"(?i)(?<![\w'])(my|the|a|an|to|it|this|that|i)(?=\s+[a-z])(?!\s+(?:morrow|night|day|m)\b)"
)
_PLAIN = re.compile(r"[A-Za-z]+")


def repeated(text: str) -> str:
    """ "move my my haircut", "cancel the the dentist"."""
    match = _SHORT.search(text)
    if match:
        return f"{text[: match.end()]} {match.group(1)}{text[match.end() :]}"
    words = text.split(" ", 1)
    if _PLAIN.fullmatch(words[0]) and len(words) > 1:
        return f"{words[0]} {text}"
    return text


def restarted(text: str) -> str:
    """ "can you can you cancel it": the first two words said again."""
    words = text.split(" ")
    if len(words) >= 4 and all(_PLAIN.fullmatch(word) for word in words[:2]):
        return " ".join([*words[:2], *words])
    return text


# ---------------------------------------------------------------------------------------
# Fillers inside the sentence.

_DETERMINER = re.compile(r"(?i)(?<![\w'])(a|an|the|my)\s(?=[a-z])")
# (Not inside a time: "quarter to 5".)
_TIME_AFTER = re.compile(
    r"(?i)(?<!quarter )(?<!half )(?<!ten )(?<!twenty )(?<!five )\b(at|to|on|for|around|by)\s"
    r"(?=(?:\d|(?:mon|tues|wednes|thurs|fri|satur|sun)day\b"
    r"|tomorrow\b|next\b|the \d))"
)


def uh_filled(text: str) -> str:
    """ "book a uh haircut", "cancel my uh dentist appointment"."""
    match = _DETERMINER.search(text)
    if match:
        return f"{text[: match.end()]}uh {text[match.end() :]}"
    words = text.split(" ")
    if len(words) >= 3 and _PLAIN.fullmatch(words[0]):
        return " ".join([words[0], "uh", *words[1:]])
    return text


def liked(text: str) -> str:
    """ "move it to like friday", "book it at like 3pm"."""
    return _TIME_AFTER.sub(lambda m: f"{m.group(1)} like ", text, count=1)


_PHRASE = re.compile(r"(?i)(?<=[a-z] )(my|the|a|an|that|this)\s(?=[a-z])")
# After a question's verb "you know" is asked ("do you know the same…", "did you know…"),
# after "if" or "let me" it is said ("let me know if you know…").
_ASKING = re.compile(
    r"(?i)\b(?:do|does|did|can|could|would|will|is|are|am|was|were|have|has|had|should|if"
    r"|whether|how|what|when|let me|let)\s$"
)


def you_know(text: str) -> str:
    """ "cancel you know my haircut", "can you move you know the dentist": said before
    the first thing named, past the first word (not right after a question's verb)."""
    for match in _PHRASE.finditer(text):
        if not _ASKING.search(text[: match.start()]):
            return f"{text[: match.start()]}you know {text[match.start() :]}"
    return text


# ---------------------------------------------------------------------------------------
# Contractions written out, or their apostrophes dropped.

_WRITTEN_OUT = {
    "don't": "do not",
    "doesn't": "does not",
    "didn't": "did not",
    "can't": "cannot",
    "couldn't": "could not",
    "won't": "will not",
    "wouldn't": "would not",
    "shouldn't": "should not",
    "isn't": "is not",
    "aren't": "are not",
    "wasn't": "was not",
    "haven't": "have not",
    "hasn't": "has not",
    "i'm": "i am",
    "i've": "i have",
    "i'll": "i will",
    "you're": "you are",
    "you've": "you have",
    "let's": "let us",
    "what's": "what is",
    "when's": "when is",
    "where's": "where is",
    "that's": "that is",
    "there's": "there is",
    "it's": "it is",
}
_HAS = re.compile(r"(?i)\b(it|what|that|there)'s\s(?=been\b|got\b|changed\b|gone\b|moved\b)")
_WOULD = re.compile(r"(?i)\bi'd\b(?=\s+(?:like|rather|love|prefer|want|be)\b)")
_CONTRACTION = re.compile(
    r"(?i)(?<![\w'])(" + "|".join(re.escape(c) for c in _WRITTEN_OUT) + r")(?![\w'])"
)
_DROPPED = re.compile(
    r"(?i)(?<![\w'])(" + "|".join(re.escape(c) for c in [*_WRITTEN_OUT, "i'd"]) + r")(?![\w'])"
)


def written_out(text: str) -> str:
    """ "what is my balance", "i would like…", "it has been moved"."""
    text = _HAS.sub(lambda m: f"{m.group(1)} has ", text)
    text = _WOULD.sub("i would", text)
    return _CONTRACTION.sub(lambda m: _WRITTEN_OUT[m.group(1).lower()], text)


def apostrophes_dropped(text: str) -> str:
    """ "whats my balance", "dont cancel it", "id like…"."""
    return _DROPPED.sub(lambda m: m.group(1).replace("'", "").lower(), text)


SPOKEN: dict[str, Callable[[str], str]] = {
    "times_read": times_read,
    "times_told": times_told,
    "numbers_said": numbers_said,
    "repeated": repeated,
    "restarted": restarted,
    "uh_filled": uh_filled,
    "liked": liked,
    "you_know": you_know,
    "written_out": written_out,
    "apostrophes_dropped": apostrophes_dropped,
}


# ---------------------------------------------------------------------------------------
# Written after the rules were fixed for the ways above, and not tuned on (their first run
# is in tests/e2e/test_said_aloud.py).

_ON_THE_HOUR = re.compile(
    r"(?i)(?<![\w:$.])(\d{1,2})(?::00)?(?:\s?([ap])(?:\.m\.?|m)(?![\w])|(?=\s?o'?clock\b)"
    r"(?:\s?o'?clock)?)"
)
_BARE_AT = re.compile(
    r"(?i)\b(at|to)\s(\d{1,2})(?![\w:/.,]|\s*(?:o'?clock|[ap]\.?m)\b)(?=\s|$|[?!])"
)


def _on_the_hour(match: re.Match[str]) -> str:
    hour, half = int(match.group(1)), (match.group(2) or "").lower()
    if not 1 <= hour <= 12:
        return match.group(0)
    if hour == 12 and half:
        return "noon" if half == "p" else "midnight"
    said = f"{in_words(hour)} o'clock"
    if half == "a":
        return f"{said} in the morning"
    if half == "p":
        return f"{said} in the {'afternoon' if hour < 6 else 'evening'}"
    return said


def on_the_hour(text: str) -> str:
    """ "three o'clock in the afternoon", "nine o'clock in the morning", "noon", "at
    eleven o'clock": an hour on the hour as it is said."""
    text = _ON_THE_HOUR.sub(_on_the_hour, text)
    return _BARE_AT.sub(
        lambda m: (
            f"{m.group(1)} {in_words(int(m.group(2)))} o'clock"
            if 1 <= int(m.group(2)) <= 12
            else m.group(0)
        ),
        text,
    )


_TO_THE_HOUR = re.compile(
    r"(?i)(?<![\w:$.])(\d{1,2}):(40|45|50|55)(?:\s?([ap])(?:\.m\.?|m)(?![\w]))?"
)
_MINUTES_TO = {40: "twenty to", 45: "a quarter to", 50: "ten to", 55: "five to"}


def _to_the_hour(match: re.Match[str]) -> str:
    hour, minutes = int(match.group(1)), int(match.group(2))
    if not 1 <= hour <= 12:
        return match.group(0)
    half = (match.group(3) or "").lower()
    after = hour % 12 + 1
    said = f"{_MINUTES_TO[minutes]} {in_words(after)}"
    if half == "a":
        return f"{said} in the morning"
    if half == "p":
        return f"{said} in the {'afternoon' if hour < 6 else 'evening'}"
    return said


def to_the_hour(text: str) -> str:
    """ "a quarter to three", "ten to five in the afternoon": minutes before the hour."""
    return _TO_THE_HOUR.sub(_to_the_hour, text)


# The day of the month said with its weekday ("friday the twenty fifth"), from the pinned
# moment the sets are played at (Monday 14 January 2030): the next such date to come.
_PINNED = date(2030, 1, 14)
_THE_DAY = re.compile(r"(?i)(?<![\w$])the (\d{1,2})(?:st|nd|rd|th)\b")
_WEEKDAY_BEFORE = re.compile(r"(?i)(?:mon|tues|wednes|thurs|fri|satur|sun)day,? $")
_MONTH_SAID = re.compile(rf"(?i)\b{_MONTHS}\b|\bnext month\b|\bthis month\b")
_WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _dated(match: re.Match[str]) -> str:
    day_ = int(match.group(1))
    if day_ == _PINNED.day or not 1 <= day_ <= 31:
        return match.group(0)
    if _WEEKDAY_BEFORE.search(match.string[: match.start()]):
        return match.group(0)
    when = (
        _PINNED.replace(day=day_)
        if day_ > _PINNED.day
        else date(2030, 2, day_)
        if day_ <= 28
        else None
    )
    if when is None:
        return match.group(0)
    return f"{_WEEKDAY_NAMES[when.weekday()]} the {ordinal_in_words(day_)}"


def weekday_dated(text: str) -> str:
    """ "on friday the twenty fifth": a day of the month said with its weekday (not where
    a month or a weekday is said with it already)."""
    if _MONTH_SAID.search(text):
        return text
    return _THE_DAY.sub(_dated, text)


def no_month_said(says: list[str]) -> bool:
    """No turn of the conversation names a month: "the 28th" after "february 30th" is
    February's (corrected after the first run: "monday the twenty eighth" was January's)."""
    return not any(_MONTH_SAID.search(say) for say in says)


# A way that fits only some conversations, told from all their turns.
FITS: dict[str, Callable[[list[str]], bool]] = {"weekday_dated": no_month_said}

WRITTEN_LATER: dict[str, Callable[[str], str]] = {
    "on_the_hour": on_the_hour,
    "to_the_hour": to_the_hour,
    "weekday_dated": weekday_dated,
}
