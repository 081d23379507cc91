"""Numbers a speech recogniser writes in words, written in digits where a typist would.

A caller's transcript says "move my haircut to three", "can it be nine instead", "sorry,
four", "my two thirty on sunday", "task two is done", "why do I owe one hundred and
fifty". Typed, each holds digits ("to 3", "9 instead", "2:30", "task 2", "150"), and that
is how the rules read an hour, a task's number or an amount; read in words, the hour was
asked again, and "at nine" after "on it" fell on tomorrow.

A number word is only written as digits where nothing but a number of that kind can
stand: an hour after a word that puts a time ("to", "at", "be", "make it", "sorry") with
nothing after it that it could count ("to three days" stays), an hour with its minutes
("two thirty"), its part of the day or "o'clock", a number after "task", a shift by
minutes, and an amount said with "hundred" or "dollars" (a day of the month up to the
twelfth is transcript.py's: "by the first", "sunday the third"). "one" is an hour only
after "at", "to", "make it", "sorry" and the like ("that one", "give it one" point at an
item).
"""

from __future__ import annotations

import re

from assistant.language.lexicon import HOUR_WORDS, WEEKDAYS
from assistant.language.patterns import rx

HOURS = {word: n for n, word in enumerate(HOUR_WORDS, 1)}
_UNITS = {word: n for word, n in HOURS.items() if n < 10}
_TEENS = {
    word: n
    for n, word in enumerate(
        [
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
        ],
        10,
    )
}
_TENS = {
    word: n
    for n, word in zip(
        range(20, 100, 10),
        ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"],
        strict=True,
    )
}
_HOUR = "|".join(sorted(HOURS, key=len, reverse=True))
_UNIT = "|".join(_UNITS)
_WEEKDAY = "|".join(WEEKDAYS)
# A number to ninety nine: "forty", "twenty five", "fifteen".
_SMALL = rf"(?:{'|'.join(_TENS)})(?:[ -](?:{_UNIT}))?|{'|'.join(_TEENS)}|{_UNIT}"

# What may follow an hour said alone: the end, a pause, its half of the day, a day, or a
# word that goes on about the time. Anything else may be what the number counts.
_AFTER_HOUR = (
    r"(?=\s*(?:$|[,.!?;]|(?:[ap]\.? ?m\b\.?|o'?clock\b|oclock\b|instead\b|then\b|please\b"
    rf"|not\b|no\b|wait\b|sorry\b|actually\b|or\b|and\b|if\b|on\b|this\b|next\b|tomorrow\b|today\b|tonight\b|(?:{_WEEKDAY})\b"
    r"|works?\b|would\b|is (?:fine|good|better|ok|okay|great|perfect)\b|sharp\b|ish\b"
    r"|in the (?:morning|afternoon|evening)\b|at night\b|same\b|that day\b"
    # "at four uh make that five": the hour put right straight after it ("…at ten uh
    # scratch that wednesday at ten": the ten left a word, the move was asked when)
    r"|make (?:it|that)\b|scratch that\b|i mean\b|i meant\b|oops\b|hang on\b|hold on\b"
    r"|or rather\b)))"
)
# Words that put a time after them ("one" only after those that cannot point at an item).
# ("like" only as a filler, after a pause or a word that puts a time: "a bit later, like
# eleven", "to like three"; "i'd like two" counts.)
_PUTS_ONE = r"make (?:it|that)|at|to|till|until|by|around|wait|sorry|say"
_PUTS_HOUR = (
    rf"{_PUTS_ONE}|be|it|(?<=, )like|(?<=to )like|(?<=at )like|(?<=be )like|(?<=around )like"
    r"|about|before|after|from|past|maybe"
    r"|instead of|not|no|actually|then|or|how about|what about|meant|mean|try"
)
_HOUR_ALONE = rx(
    rf"(?i)(?:\b(?P<one_by>{_PUTS_ONE})|\b(?P<by>{_PUTS_HOUR}))(?P<gap>,? +)"
    rf"(?P<hour>{_HOUR})\b(?! (?:o |oh )?(?:{_UNIT}|ten|fifteen|twenty|thirty|forty|fifty)\b)"
    + _AFTER_HOUR
)
# "four in the afternoon", "nine thirty in the morning": the hour and its half, as typed
# (not after "half past", read whole by the times' own rule).
_PART_OF_DAY = rx(
    rf"(?i)(?<!past )(?<!to )(?<!half )\b(?P<hour>{_HOUR}|\d{{1,2}}(?::\d\d)?)(?: o'?clock)?"
    r" (?P<part>in the (?:morning"
    r"|afternoon|evening)|at night)\b"
)
_HALF = {"in the morning": "am", "in the afternoon": "pm", "in the evening": "pm", "at night": "pm"}
# "ten o'clock", "10 o'clock": the hour on the hour, as the rules read it whole ("at
# 10:00 no hang on 11" is put right; "at 10 o'clock" left "o'clock" to be taken back).
_ON_THE_HOUR = rx(rf"(?i)\b(?P<hour>{_HOUR}|1[0-2]|0?[1-9]) ?o'?clock\b")
# "ten am", "four pm": an hour with its half of the day.
_HOUR_MERIDIEM = rx(rf"(?i)\b(?P<hour>{_HOUR}) ?(?P<half>[ap]m)\b")
# "twelve is fine", "nine please": an hour the whole message gives.
_ONLY_AN_HOUR = rx(
    r"(?i)^(?P<lead>(?:(?:no|nope|sorry|wait|actually|ok|okay|yes|yeah|um|uh|er|hmm|oh)"
    rf"[\s,.!]+)*)(?P<hour>{_HOUR})\b(?<!\bone)"
    r"(?=\s*(?:$|[,.!?]|(?:is (?:fine|good|better|ok|okay|great|perfect)|works|would work"
    r"|please|then|instead|sharp)\b))"
)
# "two thirty", "ten fifteen", "nine oh five", "four forty five": an hour and its minutes,
# not an amount or a count ("two fifty dollars", "two thirty minute sessions"). Tens take
# only a five, as the times read do (language/dates.py): "nine fifty one" is left to be
# asked, and so is anything a number word follows.
_MINUTES = {"ten": 10, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50}
# (Nor a part of a phone number said digit by digit: "four fifteen five five five…".)
_DIGIT_SAID = ("zero", "oh", "o", "double", "triple", *HOURS)
_NOT_AFTER_A_DIGIT = "".join(f"(?<!{word} )" for word in _DIGIT_SAID) + r"(?<!\d )"
_HOUR_MINUTES = rx(
    rf"(?i){_NOT_AFTER_A_DIGIT}\b(?P<hour>{_HOUR}) (?P<minutes>(?:oh|o) (?:{_UNIT})"
    r"|(?:twenty|forty)[ -]five|twenty|thirty|forty|fifty|ten|fifteen)\b"
    r"(?!'| (?:minutes?|mins?|dollars?|bucks|cents|percent"
    r"|people|hours?|days?|weeks?|months?|years?|of\b|and\b|hundred)\b)"
    rf"(?! (?:{'|'.join(_DIGIT_SAID)}|\d)\b)"
)
# "make it thirty minutes later": a shift by minutes (hours are read in words: "make it
# 2 hours later" would put "it 2" for an hour).
_SHIFT = rx(
    rf"(?i)\b(?P<count>{_SMALL}) (?P<unit>minutes?|mins?)"
    r"(?= (?:later|earlier|sooner|back|forward|before|after|late|early)\b)"
)
# "task two is done": a task's number.
_TASK_NUMBER = rx(rf"(?i)\b(task|item) ({_HOUR})\b")
# "one hundred and fifty", "forty dollars", "a hundred and twenty": an amount.
_AMOUNT = rx(
    rf"(?i)\b(?:(?P<hundreds>a|{_UNIT}) hundred(?: and)?(?: (?P<rest>{_SMALL}))?"
    rf"|(?P<alone>{_SMALL})(?= (?:dollars?|bucks)\b))\b"
)
_NUMBER_WORDS = frozenset([*_UNITS, *_TEENS, *_TENS])
# Cheap tests of the words that let most messages skip a pattern.
_MINUTE_WORDS = frozenset({"oh", "o", *_MINUTES})
_PARTS_OF_DAY = frozenset({"morning", "afternoon", "evening", "night"})
_PUTS_HOUR_WORDS = frozenset(re.findall(r"[a-z]+", _PUTS_HOUR))
_PUTS_ONE_WORDS = frozenset(
    {*re.findall(r"[a-z]+", _PUTS_ONE), "task", "item", "o'clock", "oclock", "am", "pm", "m"}
)


def _small(words: str) -> int:
    total = 0
    for word in re.split(r"[ -]", words.lower()):
        total += _TENS.get(word) or _TEENS.get(word) or _UNITS.get(word, 0)
    return total


def _amount(match: re.Match[str]) -> str:
    if match.group("alone"):
        return str(_small(match.group("alone")))
    hundreds = 1 if match.group("hundreds").lower() == "a" else _UNITS[match.group("hundreds")]
    rest = _small(match.group("rest")) if match.group("rest") else 0
    return str(hundreds * 100 + rest)


def _hour_alone(match: re.Match[str]) -> str:
    word = match.group("hour").lower()
    if word == "one" and not match.group("one_by"):
        return match.group(0)
    said_by = match.group("one_by") or match.group("by")
    return f"{said_by}{match.group('gap')}{HOURS[word]}"


def _on_the_hour(match: re.Match[str]) -> str:
    hour = match.group("hour").lower()
    return f"{HOURS.get(hour, hour.lstrip('0'))}:00"


def _part_of_day(match: re.Match[str]) -> str:
    hour = match.group("hour").lower()
    said = str(HOURS[hour]) if hour in HOURS else hour
    if int(said.split(":")[0]) > 12:
        return match.group(0)
    return f"{said}{_HALF[match.group('part').lower()]}"


def _hour_minutes(match: re.Match[str]) -> str:
    minutes = match.group("minutes").lower()
    if minutes.startswith(("oh ", "o ")):
        count = _UNITS[minutes.split()[1]]
    else:
        count = _small(minutes) if minutes not in _MINUTES else _MINUTES[minutes]
    return f"{HOURS[match.group('hour').lower()]}:{count:02d}"


def in_digits(text: str, words: list[str]) -> str:
    """`text` with the numbers said in words written in digits where only a number of
    that kind can stand (`words`: its lower-case words, to skip what it cannot hold)."""
    said = set(words)
    if "clock" in text:
        text = _ON_THE_HOUR.sub(_on_the_hour, text)
    hours = said.intersection(HOURS)
    # ("one" alone is most often "that one", "the first one": an hour only after a word
    # that puts a time.)
    if hours and (hours != {"one"} or not said.isdisjoint(_PUTS_ONE_WORDS)):
        if not said.isdisjoint(_MINUTE_WORDS):
            text = _HOUR_MINUTES.sub(_hour_minutes, text)
        if "am" in said or "pm" in said or " m" in text:
            text = _HOUR_MERIDIEM.sub(
                lambda m: f"{HOURS[m.group('hour').lower()]}{m['half']}", text
            )
        if not said.isdisjoint(_PARTS_OF_DAY):
            text = _PART_OF_DAY.sub(_part_of_day, text)
        if not said.isdisjoint(_PUTS_HOUR_WORDS):
            text = _HOUR_ALONE.sub(_hour_alone, text)
        text = _ONLY_AN_HOUR.sub(
            lambda m: f"{m.group('lead')}{HOURS[m.group('hour').lower()]}", text
        )
        if "task" in said or "item" in said:
            text = _TASK_NUMBER.sub(lambda m: f"{m.group(1)} {HOURS[m.group(2).lower()]}", text)
    if not said.isdisjoint(_NUMBER_WORDS):
        text = _SHIFT.sub(lambda m: f"{_small(m.group('count'))} {m.group('unit')}", text)
    if "hundred" in said or "dollars" in said or "dollar" in said or "bucks" in said:
        text = _AMOUNT.sub(_amount, text)
    return text
