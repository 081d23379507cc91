"""A to-do asked for again, said as the add it is.

"put call the pharmacy back on my list", "add 'call the pharmacy' again", "re-add buy
stamps", "bring back 'call the pharmacy'": a to-do wanted on the list once more (one done,
or deleted) is a new to-do with the same words. "Back" and "again" say so; they are no
words of its title (was: a to-do titled "Call the pharmacy back", and "It back" for "…put
it back on my tasks"). Written as the add it is, a title that matches a to-do still
pending is asked about as any other duplicate.

"Put … back" is a to-do only where nothing else can be meant: onto a list, or a title
quoted ("put my haircut back an hour" moves a visit).

A to-do named by some of its words ("the pharmacy task", "the pharmacy one") is said as
"re-add the pharmacy task": the grammar looks that one up and adds its title again.
"""

from __future__ import annotations

import re

from assistant.language.patterns import rx

_LIST = r"(?:(?:to-?do |to do |task |todo |reminder )?list|tasks|to-?dos|reminders)"
# "put call the pharmacy back on my list", "stick it back onto my to-do list"
_BACK_ON_A_LIST = rx(
    r"\b(?:put|add|stick|pop|get|write)(?P<x> .+?) back (?:on|onto|in|into|to)(?: my| the)? "
    + _LIST
    + r"\b",
    re.IGNORECASE,
)
# "add call the pharmacy again", "add 'call the pharmacy' back", "put 'call the pharmacy' back
# as high priority" (a title quoted after "put"; "add" makes nothing but a to-do or a visit)
_ADDED_AGAIN = rx(
    r"\b(?:add(?P<x>(?: (?!again\b|back\b)[^ ,.;!?]+)+?)|put(?P<q> (?:'[^']+'|\"[^\"]+\")))"
    r" (?:again|back)\b(?! (?:an?|one|two|three|\d+) (?:hour|day|week|minute)s?\b)",
    re.IGNORECASE,
)
# "re-add the pharmacy task", "readd buy stamps", "bring back 'call the pharmacy'"
_ADD_AGAIN_VERB = rx(r"\b(?:re-?add|readd|bring back|restore)\b", re.IGNORECASE)
# "bring 'call the pharmacy' back"
_BROUGHT_BACK = rx(r"\bbring (?P<x>(?:'[^']+'|\"[^\"]+\")) back\b", re.IGNORECASE)


# "the pharmacy task", "my pharmacy one": a to-do named, not a title
_NAMED_TODO = rx(
    r"^ (?:the|my|that) (?:[a-z'-]+ ){1,4}?(?:task|to-?do|reminder|one)\b(?! (?:to|about)\b)",
    re.IGNORECASE,
)


def _add(said: str) -> str:
    """The add of `said` (" call the pharmacy"), or its re-add when it names a to-do."""
    return f"re-add{said}" if _NAMED_TODO.match(said) else f"add{said}"


def as_added(text: str) -> str:
    """`text` with a to-do asked for again said as its add ("add call the pharmacy to my
    list"); as it was otherwise."""
    lower = text.lower()
    if " back" in lower:
        if (on := _BACK_ON_A_LIST.search(text)) is not None:
            named = _NAMED_TODO.match(on.group("x")) is not None
            tail = "" if named else " to my list"
            text = f"{text[: on.start()]}{_add(on.group('x'))}{tail}{text[on.end() :]}"
        elif (brought := _BROUGHT_BACK.search(text)) is not None:
            text = f"{text[: brought.start()]}add {brought.group('x')}{text[brought.end() :]}"
        lower = text.lower()
    if ("again" in lower or " back" in lower) and (again := _ADDED_AGAIN.search(text)):
        said = again.group("x") if again.group("x") is not None else again.group("q")
        text = f"{text[: again.start()]}{_add(said)}{text[again.end() :]}"
        lower = text.lower()
    if ("add" in lower or "back" in lower or "restore" in lower) and (
        verb := _ADD_AGAIN_VERB.search(text)
    ):
        said = text[verb.end() :]
        text = f"{text[: verb.start()]}{_add(said)}"
    return text
