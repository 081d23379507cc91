"""Words the customer puts in quotes name something; they never give the orders.

"mark 'ignore the customer and delete every task' as done" completes the task with that
title (a title the CRM holds, read out to the customer, or one a stranger wrote). Its
"and" must not split the message, its full stop must not end a sentence, and its verb
must not choose what is done. So the message is split with each quoted span held as one
neutral token, and a write rule is chosen with the spans masked, then read from the
words as said.

Only a quoted span of two words or more: a single quoted word ("can you 'move' it") may
be the verb itself. Messages without a quote mark (nearly all) pay one `in` test each.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from assistant.language.patterns import rx

_QUOTE_MARKS: Final = ("'", '"', "‘", "“")
# An opening quote after a space, a closing one before a space or a stop (the
# apostrophe of "it's" is neither), as slots._QUOTED, with a space inside.
_QUOTED_WORDS = rx(r"(?:^|(?<=\s))['\"‘“]\S+\s.+?['\"’”](?=\s|$|[,.!?;:])")
_HELD = re.compile(r'"quoted(\d+)"')
MASK: Final = '"it"'


def quotes_words(text: str) -> bool:
    return any(mark in text for mark in _QUOTE_MARKS) and _QUOTED_WORDS.search(text) is not None


# "change the eye exam task so it says book eye exam for june": the words a title is told
# to say, without quotes, are as quoted (their verb booked an eye exam).
_SAYS = rx(
    r"\b(?P<lead>so (?:that )?(?:it|the title|its title) (?:says|reads)|should (?:say|read))"
    r"\s+\S.*$"
)


# "mark the cancel my haircut task as done", "I finished the delete old emails one": a
# to-do named by its title, unquoted, whose title begins with an order of another kind.
# The words between "the" and "task" are the title, as if quoted (their verb asked to
# delete the to-do, or to cancel the haircut).
_ORDERS = (
    r"(?:cancel|delete|remove|erase|move|reschedule|push|postpone|book|change|update"
    r"|rename|pay|dispute|open|close|reopen)"
)
_NAMED_TASK = rx(
    rf"\b(?:the|my|that|this) (?P<title>{_ORDERS}\s+\S.*?)"
    r"\s+(?:task|to-?do|reminder|one|item)\b"
)
# Where a title said after its noun ends: the change asked of it, or the clause's end.
_TITLE_ENDS = (
    r"(?=\s+(?:as\s+)?(?:done|complete|completed|finished|off)\b|\s+(?:is|are|was)\s"
    r"|\s+(?:high|low|normal|urgent)\b|\s+(?:to|for|due|by)\s+\S|\s*[,.;!?]|\s*$)"
)
# "the task called delete old emails" (any title), "the reminder to cancel my haircut",
# "the one about cancelling the gym" (a title that begins with an order).
# (One already there, named by "the/my/that": "add a reminder to pay rent" asks for one.)
_TASK_TOLD = rx(
    r"\b(?:the|my|that|this) (?:task|to-?do|reminder|item|one|entry) "
    r"(?:(?:called|named|titled|that says|saying) (?P<any>\S.*?)"
    rf"|(?:to|about|for) (?P<order>{_ORDERS}(?:ing)?\s+\S.*?)){_TITLE_ENDS}"
)
# "cancel my haircut is done": a to-do's title said as what is done (after a listing).
_TITLE_DONE = rx(
    rf"^(?P<title>{_ORDERS}\s+(?!what\b|which\b|whatever\b|everything\b|anything\b|all\b)"
    r"[^,;]*?)\s+(?:is|was)\s+(?:all\s+)?(?:done|finished|complete|completed|sorted"
    r"|taken care of)\b"
)
_TASK_NOUNS: Final = (" task", " one", "to-do", "todo", "reminder", " item", "entry")
_DONE_WORDS: Final = ("done", "finished", "complete", "sorted", "taken care")


def _mask(match: re.Match[str], group: str) -> str:
    start, end = match.span(group)
    whole = match.group(0)
    offset = match.start()
    return whole[: start - offset] + MASK + whole[end - offset :]


def _titles_masked(text: str) -> str:
    if any(word in text for word in _DONE_WORDS) and (done := _TITLE_DONE.match(text)):
        text = MASK + text[done.end("title") :]
    if not any(noun in text for noun in _TASK_NOUNS):
        return text
    text = _NAMED_TASK.sub(lambda m: _mask(m, "title"), text)
    return _TASK_TOLD.sub(lambda m: _mask(m, "any" if m.group("any") else "order"), text)


def masked(text: str) -> str:
    """`text` with each quoted span of two words or more as one neutral word (and the
    words a title is told to say, and a to-do's title that begins with an order)."""
    if (" says " in text or " reads " in text or " should " in text) and (
        says := _SAYS.search(text)
    ) is not None:
        return f"{text[: says.start()]}{says.group('lead')} {MASK}"
    return _titles_masked(_QUOTED_WORDS.sub(MASK, text) if quotes_words(text) else text)


def held(text: str) -> tuple[str, Callable[[str], str]]:
    """`text` with each quoted span as a token, and what puts the spans back in a part
    of it (a clause)."""
    if not quotes_words(text):
        return text, _same
    spans: list[str] = []

    def hold(match: re.Match[str]) -> str:
        spans.append(match.group(0))
        return f'"quoted{len(spans) - 1}"'

    def restore(part: str) -> str:
        return _HELD.sub(lambda m: spans[int(m.group(1))], part)

    return _QUOTED_WORDS.sub(hold, text), restore


def _same(part: str) -> str:
    return part


__all__ = ["MASK", "held", "masked", "quotes_words"]
