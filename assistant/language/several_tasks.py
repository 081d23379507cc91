"""Several tasks asked for at once: "add two tasks, call the plumber and buy a card".

A count or a plural said before the items ("two tasks", "these reminders") makes each
item its own task; without one, "buy milk and eggs" stays one task, as said. The message
is said again as one request per item for the grammar to read.
"""

from __future__ import annotations

from assistant.language.patterns import rx
from assistant.language.transcript import plain

_SEVERAL = rx(
    r"^(?P<lead>(?:(?:ok|okay|so|and|also|hi|hey|please|pls|can you|could you|would you"
    r"|i'd like to|i would like to|i want to|i need to),? )*)"
    r"(?:add|create|make|put in|set up|set|write down|put) (?:me )?(?:(?:(?:two|2|three|3|four"
    r"|4|both|these|some|a couple of|a few) )?(?:new )?(?:tasks|reminders|to-?dos)"
    # "add two things to my list, call the plumber and …": a count of things, on the list
    r"|(?:two|2|three|3|four|4|a couple of|a few) (?:more )?(?:things|items)"
    r"(?= (?:to|on|onto) (?:my|the) (?:to-?do )?list))(?: for me)?"
    r"(?: (?:to|on|onto) (?:my|the) (?:to-?do )?list)?[,:;]? (?:to )?(?P<rest>.+)$"
)
_ITEM_SEP = rx(r",? and (?:to |also )?|, (?:to )?|; ")
# What is asked after the items ("…, then read me my list"): not one of them.
_THEN = rx(r",? (?:and )?then\b|[.!?] ")
# "…, and what's my balance": a question after the items is asked, never a task's title
# ("check the mail" or "read a book" may well be one).
_ASKS = rx(
    r"(?:what|what's|whats|when|when's|where|where's|how|which|who|why|show me|tell me"
    r"|give me|get me|send me|read me|find me|pull up|bring up|do i|did i|am i|is my|are my"
    r"|is there|are there|can you|could you)\b"
)


# One to-do asked for, whose words are two things to do, each a verb and what it is done
# to: "remind me to return the rental car and pay the parking ticket".
_ONE = rx(
    r"^(?P<lead>(?:(?:ok|okay|so|and|also|hi|hey|please|pls|can you|could you|would you"
    r"|i'd like to|i would like to|i want to|i need to),? )*)"
    r"(?:(?:add|create|make|put in|set up|set) (?:me )?(?:a |an )?(?:new )?(?:task|reminder"
    r"|to-?do)(?: for me)?(?: to my list)?[,:;]? to|remind me to) (?P<first>.+?) and"
    # (not an ask of the assistant's own: "…and book me a haircut", "…and move my…")
    r" (?P<second>(?!(?:and|then|also|book|schedule|cancel|move|push|reschedule|shift|postpone"
    r"|bring|mark|tick|complete|delete|remove|add|set|make|change|update|rename|open|put|show"
    r"|list|read)\b)[a-z']+(?: (?:out|up|off|over|in|back|down|round))?"
    r" (?:the|my|a|an|some|our|his|her|their|him|me|us)\b.*)$"
)
# Words that open no deed of their own: "…to the bank and…" joins two things of one deed.
_NO_DEED = rx(
    r"(?:the|my|a|an|some|our|his|her|their|to|for|on|in|at|with|from|about|it|that|this)\b"
    r"|\S+(?: (?:up|off|out|over|in|back|down|round))?$"
)


def _two_deeds(text: str) -> str | None:
    """ "remind me to return the rental car and pay the parking ticket": one request per
    deed (a merged title holds two asks); None when the words are one deed ("buy milk and
    eggs", "pick up and drop off the car")."""
    match = _ONE.match(text.strip())
    if match is None or " and " in match.group("second") or _ASKS.match(match.group("second")):
        return None
    first = match.group("first").strip(" ,")
    if " and " in first or _NO_DEED.match(first):
        return None
    lead = match.group("lead")
    return f"{lead}add a task to {first} and add a task to {match.group('second')}"


def said_one_by_one(text: str) -> str:
    """The message with each of several tasks asked for on its own, else as it was."""
    low = text.lower()
    if not ("task" in low or "remind" in low or "to-do" in low or "todo" in low) and not (
        "list" in low and ("things" in low or "items" in low)
    ):
        return text
    low = plain(low)  # "um, add two tasks…": a filler does not hide the count
    match = _SEVERAL.match(low.strip())
    if match is None:
        if " and " in low and (apart := _two_deeds(low)) is not None:
            return apart
        return text
    rest, after = match.group("rest"), ""
    if (then := _THEN.search(rest)) is not None:
        rest, after = rest[: then.start()], rest[then.start() :]
    for sep in _ITEM_SEP.finditer(rest):
        if _ASKS.match(rest, sep.end()):
            rest, after = rest[: sep.start()], f" and {rest[sep.end() :]}{after}"
            break
    shared = ""
    if (before := _SHARED_BEFORE.match(rest)) is not None:
        shared, rest = f" {before.group('when')}", rest[before.end() :]
    elif (end := _SHARED_AFTER.search(rest)) is not None:
        shared, rest = f" {end.group('when')}", rest[: end.start()]
    items = [item.strip(" .!") for item in _ITEM_SEP.split(rest)]
    items = [item for item in items if item]
    for place in range(len(items) - 1, 0, -1):
        if _DETAIL_ONLY.match(items[place]):
            # "…, and renew passport, high priority": a detail of the item before it, not an
            # item (was: a to-do titled nothing, and the passport added at normal)
            items[place - 1 : place + 1] = [f"{items[place - 1]}, {items[place]}"]
    if len(items) < 2:
        return text
    return " and ".join(f"add a task to {item}{shared}" for item in items) + after


# An item that only says a level or a due day: the one before it said further.
_DETAIL_ONLY = rx(
    r"^(?:(?:and|with|at|as|make it|make that|it's|its) )?(?:(?:a |an )?(?:high|low|normal"
    r"|medium|top|urgent)(?: priority)?|priority (?:high|low|normal|medium)|urgent"
    r"|due (?:on |by )?(?:(?:this |next )?(?:mon|tues|wednes|thurs|fri|satur|sun)day|today"
    r"|tomorrow|the \d{1,2}(?:st|nd|rd|th)))$"
)


# A day said once for all the items: before them ("add three tasks for sunday: call the
# vet, buy stamps…") or after them as theirs together ("…, all for sunday", "both due
# friday"). Each item is due then (only the item it was said beside had been).
_DAY_WORD = (
    r"(?=[a-z0-9' ]*\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|today|tonight|tomorrow"
    r"|weekend|week|month|\d))"
)
_SHARED_BEFORE = rx(
    rf"(?P<when>(?:for|on|due(?: on)?|by) {_DAY_WORD}[a-z0-9' ]{{3,30}}?)(?::|,| -) "
)
_SHARED_AFTER = rx(
    r",? (?:all|both|each)(?: of them)?,? "
    rf"(?P<when>(?:for|on|due(?: on)?|by) {_DAY_WORD}[a-z0-9' ]{{3,30}}?)$"
)


__all__ = ["said_one_by_one"]
