"""Times, days and words as a recogniser writes them, or as a learner of English says them.

A recogniser writes the same hour in many ways: "2 30", "230pm", "at 1030", "10.30",
and a caller from a country that writes "15h", "9h30" or "16/03" says it so; a learner
says "at ten hours", "at friday", "in the sunday", "you can to move", "more late". Words
are heard for others ("the forth", "the won at ten", "to the eight at two", "to day")
or split and joined ("re schedule", "appoint ment", "dentalcleaning"). Read as written,
a booking asked the hour again, "move the cleaning to 9h30 thursday" kept the old hour,
"book facial for the forth at too" booked today, "re schedule my cleaning" booked a new
one.

Each form is only rewritten where nothing else could be meant: digits are an hour only
after a word that puts a time ("at", "to", "for"…) or before "am"/"pm", never after a
sum's "$" or before what they count ("2 30 minute sessions"); a day written first is
only so when it cannot be a month (16/03); a cardinal is a day of the month only after
"on/for/to … the" with an hour or nothing after it ("the one at ten" is an item).
"""

from __future__ import annotations

import re
from typing import Any

from assistant.language.lexicon import HOUR_WORDS, SERVICES, WEEKDAYS
from assistant.language.patterns import rx


class _Rule:
    """A pattern that ignores case, tried only where its words are in the lower-case text
    (`rx` gates a pattern by its words only when it heeds case)."""

    __slots__ = ("gate", "regex")

    def __init__(self, source: str) -> None:
        self.gate = rx(source)
        self.regex = re.compile(source, re.IGNORECASE)

    def sub(self, put: Any, text: str, lower: str) -> str:
        """`text` with `put` for each match; `lower` is `text` in lower case."""
        return text if self.gate.search(lower) is None else self.regex.sub(put, text)


def _rule(source: str) -> _Rule:
    return _Rule(source)


_DAY_AFTER = rf"(?:{'|'.join(WEEKDAYS)}|today|tomorrow|tonight|on\b|this\b|next\b)"
_PUTS_TIME = r"(?:at|for|to|around|about|by|from|till|until|before|after|say)"
_COUNTED = (
    r"(?! ?(?:minutes?|mins?|dollars?|bucks|cents|percent|people|hours?|days?|weeks?"
    r"|months?|years?|times?)\b)"
    # nor a street number ("the one at 120 market st")
    r"(?! (?:[a-z]+ )?(?:st|street|ave|avenue|rd|road|blvd|boulevard|way|dr|drive|lane|ln|pl"
    r"|place|center|centre)\b)"
)
# "at 2 30", "2 30 pm": an hour and its minutes with a space between.
_SPACED_MINUTES = _rule(
    rf"\b(?P<lead>{_PUTS_TIME} (?:like )?)(?P<h>1[0-2]|0?[1-9]) (?P<m>[0-5]\d)\b(?! ?\d)"
    + _COUNTED
    + r"|\b(?P<h2>1[0-2]|0?[1-9]) (?P<m2>[0-5]\d)(?= ?[ap]\.? ?m\b)"
)
# "230pm", "1030 am", "at 1030", "for 230": the colon left out.
_JOINED_MINUTES = _rule(
    r"\b(?P<h2>1[0-2]|[1-9])(?P<m2>[0-5]\d)(?= ?[ap]\.? ?m\b)"
    r"|\b(?P<lead>(?:at|around|for|till|until) )(?P<h>1[0-2]|[1-9])(?P<m>[0-5]\d)\b"
    r"(?![\d.,:/-]| ?\d)" + _COUNTED
)
# "10.30", "9.15 tomorrow": a dot for the colon (not a sum: "$10.30", "10.30 dollars",
# "charged me for 12.50": only after a word that puts an hour and no sum, or before a day
# or its half).
_DOTTED = _rule(
    r"(?<![$£€\d.])(?<!paid )(?<!pay )(?<!owe )(?<!charged )(?<!cost )(?<!costs )"
    r"(?<!was )(?<!is )(?<!of )(?<!came )(?<!comes )(?<!come )(?<!up )(?<!down )"
    r"\b(?P<lead>(?:(?:at|around|till|until|from|to) )?)(?P<h>2[0-3]|1\d|0?\d)\.(?P<m>[0-5]\d)\b"
    r"(?![\d.])" + _COUNTED
)
# What may follow an hour written without a word that puts it: its half of the day, a
# day, or the end.
_TIME_FOLLOWS = re.compile(rf"(?i)\s*(?:$|[,!?]|[ap]\.? ?m\b|{_DAY_AFTER}|please\b|and\b)")
# What must follow an hour said without a word that only puts one: a day or its half.
_DAY_FOLLOWS = re.compile(rf"(?i)\s*(?:[ap]\.? ?m\b|{_DAY_AFTER})")
# "15h", "9h30", "at 10h": an hour as a 24-hour clock writes it in much of the world
# ("2h later", "for 1h30" are lengths of time).
_H_CLOCK = _rule(
    r"(?<![\w:])(?<!\bfor )(?<!\bby )(?<!\bin )(?<!\bfor about )"
    r"(?P<lead>(?:(?:at|to|around|from|till|until) )?)(?P<h>2[0-3]|1\d|0?\d)h(?P<m>[0-5]\d)?\b"
    r"(?! ?(?:later|earlier|before|after|more|less|ahead|back|longer|sooner)\b)"
)
# "at ten hours", "at 9 hours": the hour as French, Spanish or Portuguese say it.
_HOURS_SAID = _rule(
    r"\bat (one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen"
    r"|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|\d{1,2}) hours?\b"
)
_TEENS = ("thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_CLOCK_WORDS = {word: n for n, word in enumerate((*HOUR_WORDS, *_TEENS, "twenty"), 1)}
# "16/03", "25/12/2025": a day written before its month, where the first cannot be one.
_DAY_FIRST = rx(r"(?<![\d/])\b(1[3-9]|2\d|3[01])/(0?[1-9]|1[0-2])((?:/\d{2,4})?)\b(?![\d/])")

# Words heard for others: "the forth": only the fourth (nobody books "the forth").
_FORTH = _rule(r"\bthe forth\b")
# "the won at ten", "which won": "one" heard as "won" after a word that points.
_WON = _rule(r"\b(the|this|that|which|each|every|any|other|next|last|first|second) won\b")
# "to day at four": today, split (not "to day 3", "to day after…").
_TO_DAY = _rule(
    r"\bto day\b(?! ?\d)(?! (?:after|before|of|one|two|three|four|five|six|seven)\b)"
    r"(?=\s*(?:$|[,.!?]|at\b|is\b|please\b|and\b|or\b|in the\b|if\b|for\b|by\b))"
)
# "to the eight at two", "for the sixteen", "on the 16 at ten": a day of the month said
# without its ordinal, where only a day can stand ("the one at ten" is an item, left).
_CARDINAL_ORDINALS = {
    "two": "2nd",
    "three": "3rd",
    "four": "4th",
    "five": "5th",
    "six": "6th",
    "seven": "7th",
    "eight": "8th",
    "nine": "9th",
    "ten": "10th",
    "eleven": "11th",
    "twelve": "12th",
    "thirteen": "13th",
    "fourteen": "14th",
    "fifteen": "15th",
    "sixteen": "16th",
    "seventeen": "17th",
    "eighteen": "18th",
    "nineteen": "19th",
    "twenty": "20th",
    "thirty": "30th",
}
_CARDINAL_DAY = _rule(
    r"\b(?P<lead>(?:on|for|to|by|from|until|till|before|after) the )"
    r"(?P<day>twenty[ -](?:one|two|three|four|five|six|seven|eight|nine)|thirty[ -]one"
    rf"|{'|'.join(sorted(_CARDINAL_ORDINALS, key=len, reverse=True))}|[12]?\d|3[01])\b"
    r"(?=\s*(?:$|[,.!?]|at\b|in the (?:morning|afternoon|evening)\b|please\b|and\b|then\b"
    r"|instead\b))"
)
# "anything on the fourth?", "what's on the second": the first to the fifth said last
# after "on the" is a day (transcript.py leaves them, without an hour after, as places in
# a list: "yes to the first", "move it to the second").
_FEW_ON_THE = _rule(
    r"\b(?P<lead>on the )(?P<day>first|second|third|fourth|fifth)\b(?=\s*[?!.]*\s*$)"
)
_FEW = {"first": "1st", "second": "2nd", "third": "3rd", "fourth": "4th", "fifth": "5th"}
_UNIT_ORDINALS = {
    "one": "1st",
    "two": "2nd",
    "three": "3rd",
    **{w: f"{n}th" for n, w in enumerate(["four", "five", "six", "seven", "eight", "nine"], 4)},
}

# Words split in two, or two run together.
_SPLIT_WORDS = (
    (_rule(r"\bre[ -](schedul\w*|book\w*)"), r"re\1"),
    (_rule(r"\bappoint ments?\b"), lambda m: m.group(0).replace(" ", "")),
)
_JOINED_NAMES = {
    name.replace(" ", ""): name
    for name in (*SERVICES, "eye exam", "car insurance", "next week", "support ticket")
    # (not "checkup", "haircut": a word of its own)
    if " " in name and "-" not in name and name.replace(" ", "") not in SERVICES
}
_JOINED = _rule(r"\b(" + "|".join(sorted(_JOINED_NAMES, key=len, reverse=True)) + r")\b")

# A learner's grammar: "you can to move…?", "can you to move", "I want cancel".
_VERBS = (
    "book|move|cancel|change|reschedule|delete|remove|add|mark|make|put|open|update|push"
    "|see|know|check|pay|close|set|schedule|complete|finish"
)
# ("you can <verb>" said first and asked, "you can move my cleaning to friday?", too; "i
# hope you can cancel…", "you can cancel it." are no such question.)
_YOU_CAN = _rule(rf"\b(?:you can to|can you to|^you can(?=[^.!]*\?\s*$)) (?=(?:{_VERBS})\b)")
_WANT_VERB = _rule(rf"\b(i|we) (want|need|would like|wanted|like) (?=(?:{_VERBS})\b)")
# "at friday", "in the sunday", "in monday": the day said with another language's word.
_AT_DAY = _rule(rf"\b(?:at|in)(?: the)? (?=(?:{'|'.join(WEEKDAYS)})\b)")
# "more late", "more early", "more soon".
_MORE = (
    (_rule(r"\bmore late\b"), "later"),
    (_rule(r"\bmore early\b"), "earlier"),
    (_rule(r"\bmore soon\b"), "sooner"),
    (_rule(r"\bsame hour\b"), "same time"),
    # "change the groceries for be due on monday"
    (_rule(r"\bfor be\b"), "to be"),
)
# "make done the groceries", "put done the eye exam": done said before what is done.
_DONE_FIRST = _rule(
    r"\b(?:make|put|mark|set)(?: as)? done (?P<what>(?:the |my )?[a-z' ]+?)"
    r"\s*(?=$|[,.!?]| and\b| please\b)"
)
# "change it for tuesday": "to" a day, after "it".
_IT_FOR_DAY = _rule(
    rf"\b((?:change|move|switch|reschedule|push) (?:it|that|this|them)) for "
    rf"(?=(?:{'|'.join(WEEKDAYS)}|tomorrow|today|next|the)\b)"
)
# "i dont need it no more": "anymore", with a no that takes nothing back.
_NO_MORE = _rule(r"\b(\w+n'?t (?:\w+ ){1,3}?|not (?:\w+ ){1,3}?)no more\b")
# "tomorrow remind me to buy stamps", "on friday add a task to call mom": the day said
# before the to-do, as speakers of many languages put it (read with the day last).
_DAY_SAID_FIRST = _rule(
    rf"^(?P<day>(?:(?:on|this|next) )?(?:{'|'.join(WEEKDAYS)})|tomorrow|today|tonight"
    r"|the day after tomorrow)\s*[,.]?\s+(?P<ask>(?:please |can you |could you )?(?:remind me"
    r" (?:to|about)|add (?:a |an )?(?:task|reminder|to-?do)|put (?:a |an )?(?:task|reminder)"
    r"|set (?:a |an )?reminder)\b[^.!?]*?)(?P<end>[.!?]*)$"
)
_DAY_WORDS = frozenset({*WEEKDAYS, "tomorrow", "today", "tonight", "week", "month"})


def _day_said_first(match: re.Match[str]) -> str:
    ask = match.group("ask")
    if not _DAY_WORDS.isdisjoint(re.findall(r"[a-z]+", ask.lower())) or _has_digit(ask):
        return match.group(0)
    return f"{ask} {match.group('day')}{match.group('end')}"


# "I have a appointment": the article before a vowel.
_A_VOWEL = _rule(r"\ba (?=(?:appointment|appt|eye|invoice|open|urgent|issue|email)\b)")


def _colon(match: re.Match[str]) -> str:
    """The hour and minutes matched, written with a colon (after the word that led them)."""
    groups = match.groupdict()
    if groups.get("h2"):
        return f"{groups['h2']}:{groups['m2']}"
    return f"{groups.get('lead') or ''}{groups['h']}:{groups['m']}"


def _time_follows(match: re.Match[str]) -> bool:
    return _TIME_FOLLOWS.match(match.string, match.end()) is not None


# A day said just before ("thursday 16.45"): what follows it is its hour.
_DAY_BEFORE = re.compile(rf"(?i)\b(?:{'|'.join(WEEKDAYS)}|today|tomorrow|tonight),? $")


def _dotted(match: re.Match[str]) -> str:
    if (
        not match.group("lead")
        and _DAY_FOLLOWS.match(match.string, match.end()) is None
        and _DAY_BEFORE.search(match.string, 0, match.start()) is None
    ):
        return match.group(0)
    return _colon(match)


def _joined(match: re.Match[str]) -> str:
    """ "at 1030", "230pm"; "for 230" only before a day or its half ("charged for 230")."""
    lead = (match.group("lead") or "").strip().lower()
    if lead == "for" and _DAY_FOLLOWS.match(match.string, match.end()) is None:
        return match.group(0)
    return _colon(match)


def _h_clock(match: re.Match[str]) -> str:
    if not (match.group("lead") or match.group("m") or _time_follows(match)):
        return match.group(0)
    return f"{match.group('lead')}{match.group('h')}:{match.group('m') or '00'}"


def _hours_said(match: re.Match[str]) -> str:
    said = match.group(1).lower()
    hour = int(said) if said.isdigit() else _CLOCK_WORDS[said]
    return f"at {hour}:00"


def _day_first(match: re.Match[str]) -> str:
    return f"{int(match.group(2))}/{int(match.group(1))}{match.group(3)}"


def _cardinal_day(match: re.Match[str]) -> str:
    lead, said = match.group("lead"), match.group("day").lower()
    if said.isdigit():
        n = int(said)
        if not 1 <= n <= 31:
            return match.group(0)
        suffix = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{lead}{n}{suffix}"
    if said in _CARDINAL_ORDINALS:
        return f"{lead}{_CARDINAL_ORDINALS[said]}"
    tens, unit = re.split(r"[ -]", said)
    return f"{lead}{2 if tens == 'twenty' else 3}{_UNIT_ORDINALS[unit]}"


# A move's verb: "move my cleaning at friday" moves it to that day.
_MOVE_BEFORE = _rule(
    r"\b(?:move|moved|change|reschedule|push|switch|shift|put)\b(?![^,.;!?]*\bto\b)"
)


def _at_day(match: re.Match[str]) -> str:
    before = match.string[: match.start()]
    return "to " if _MOVE_BEFORE.gate.search(before.lower()) is not None else "on "


def _done_first(match: re.Match[str]) -> str:
    return f"mark {match.group('what')} done"


def _no_more(match: re.Match[str]) -> str:
    return f"{match.group(1)}anymore"


_DIGIT = re.compile(r"\d")
_A_VOWEL_GATE = re.compile(r"\ba [aeiou]")
_WEEKDAY_SET = frozenset(WEEKDAYS)
_DIGITS_SPACED = re.compile(r"\d [0-5]\d")
_THREE_DIGITS = re.compile(r"\d\d\d")
_DIGITS_DOTTED = re.compile(r"\d\.\d")
_DIGIT_H = re.compile(r"\dh")


def _has_digit(text: str) -> bool:
    return _DIGIT.search(text) is not None


def as_heard(text: str, words: list[str], lower: str) -> str:
    """`text` with the times, days and words above written as a typist writes them
    (`words` and `lower`: its lower-case words and text, to skip what it cannot hold)."""
    said = frozenset(words)
    if _DIGIT.search(lower) is not None:
        # (each only where its digits are: "2 30", "230", "10.30", "9h", "16/03")
        if _DIGITS_SPACED.search(lower) is not None:
            text = _SPACED_MINUTES.sub(_colon, text, text.lower())
        if _THREE_DIGITS.search(lower) is not None:
            text = _JOINED_MINUTES.sub(_joined, text, text.lower())
        if _DIGITS_DOTTED.search(lower) is not None:
            text = _DOTTED.sub(_dotted, text, text.lower())
        if _DIGIT_H.search(lower) is not None:
            text = _H_CLOCK.sub(_h_clock, text, text.lower())
        if "/" in lower:
            text = _DAY_FIRST.sub(_day_first, text)
    if "hour" in lower and "at " in lower:
        text = _HOURS_SAID.sub(_hours_said, text, text.lower())
    if "forth" in said:
        text = _FORTH.sub("the fourth", text, text.lower())
    if "won" in said:
        text = _WON.sub(r"\1 one", text, text.lower())
    if "to day" in lower:
        text = _TO_DAY.sub("today", text, text.lower())
    if " the " in lower:
        text = _CARDINAL_DAY.sub(_cardinal_day, text, text.lower())
        if "on the " in lower:
            text = _FEW_ON_THE.sub(
                lambda m: f"{m.group('lead')}{_FEW[m.group('day').lower()]}", text, text.lower()
            )
    if "re" in said or "ment" in said or "ments" in said:
        for pattern, put in _SPLIT_WORDS:
            text = pattern.sub(put, text, text.lower())
    if not _JOINED_NAMES.keys().isdisjoint(said):
        text = _JOINED.sub(lambda m: _JOINED_NAMES[m.group(1).lower()], text, text.lower())
    if "you can" in lower or "can you to" in lower:
        text = _YOU_CAN.sub("can you ", text, text.lower())
    if "want" in said or "need" in said or "like" in said:
        text = _WANT_VERB.sub(r"\1 \2 to ", text, text.lower())
    if ("at" in said or "in" in said) and not _WEEKDAY_SET.isdisjoint(said):
        text = _AT_DAY.sub(_at_day, text, text.lower())
    if "more" in said or "hour" in said or "for be" in lower:
        for pattern, put in _MORE:
            text = pattern.sub(put, text, text.lower())
    if "done" in said and ("make" in said or "put" in said or "mark" in said):
        text = _DONE_FIRST.sub(_done_first, text, text.lower())
    if (" for " in lower and " it" in lower) or " that for" in lower or " them for" in lower:
        text = _IT_FOR_DAY.sub(r"\1 to ", text, text.lower())
    if "no more" in lower:
        text = _NO_MORE.sub(_no_more, text, text.lower())
    if _A_VOWEL_GATE.search(lower) is not None:
        text = _A_VOWEL.sub("an ", text, text.lower())
    if "remind" in lower or "add" in said or "put" in said or "set" in said:
        text = _DAY_SAID_FIRST.sub(_day_said_first, text, text.lower())
    elif "list" in said and not _CLEARED.isdisjoint(said):
        text = _CLEAR_LIST.sub("delete all my tasks", text, text.lower())
    return text


# "clear my list", "wipe my to-do list": every to-do deleted, asked with a yes that names
# them (it was read as paying the bill off: "I can't take payments")
_CLEARED = frozenset({"clear", "wipe", "empty"})
_CLEAR_LIST = _rule(
    r"\b(?:clear|wipe|empty)(?: out| off)? (?:my|the) (?:(?:whole|entire) )?(?:to-?do |task )?"
    r"list\b(?! of\b)"
)
