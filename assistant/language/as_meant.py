"""A message as the grammar reads it, in the customer's own words and case.

Said around a request, some words carry nothing of it: a recogniser's fillers and
restarts ("um, and the first one?"), the words that only open what is said next ("okay
so what do I owe?"), a greeting before a request ("hi there, cancel my haircut"), and
thanks or please after one ("move my haircut to 3, thanks", "and what time please").
They are taken off once a turn, for the planner and the narrator alike, so that every
rule (those reading the raw words too) reads the request as it would read it said
plainly. A yes to a question waiting for
one is heard before this, from the words as said (confirm.is_affirmative).
"""

from __future__ import annotations

from functools import lru_cache

from assistant.language.patterns import rx
from assistant.language.text import only_remarks, thanks_tail
from assistant.language.transcript import plain

# "okay so what do I owe", "alright, and the week after?": words that only open what
# is said next ("now" stays: "now the insurance one" goes on from the last change; "ok
# then …" is said whole: "then" goes on from what was just said).
_OPENER = rx(
    r"(?:(?:okay|ok|alright|all right|right|so|well|anyway|anyways)\b(?![\s,]*then\b)"
    r"[\s,.!;:-]*)+"
)
# What is left by itself means nothing ("alright then" is said whole).
_NOT_ON_THEIR_OWN = frozenset({"", "then", "now", "please", "thanks", "thank you", "then please"})
# "and what time please", "the third one is done please": "yes please" stays as said.
_PLEASE_TAIL = rx(r"[\s,]+please(?P<mark>[\s.!?]*)$")
# "hi there, cancel my haircut", "hi, don't delete the groceries task…": taken off before
# what follows (the planner greets back a message it then finds no request in: "hi, I need
# to sort a few things out").
_GREETING = rx(
    r"(?:(?:hi|hello|hey|hiya)(?: there)?\b|good (?:morning|afternoon|evening)\b)[\s,.!;:-]*"
)


@lru_cache(maxsize=1024)
def as_meant(message: str) -> str:
    """`message` without the words said around its request (see the module's docstring)."""
    plained = plain(message).strip()
    lowered = plained.lower()
    if len(lowered) != len(plained):
        return plained
    greeting = _GREETING.match(lowered)
    if greeting is not None and greeting.end() < len(lowered):
        plained, lowered = plained[greeting.end() :], lowered[greeting.end() :]
    opener = _OPENER.match(lowered)
    if opener is not None and lowered[opener.end() :].strip(" .!?") not in _NOT_ON_THEIR_OWN:
        plained, lowered = plained[opener.end() :], lowered[opener.end() :]
    if (tail := thanks_tail(lowered)) is not None:
        plained = plained[: tail.start()] + ("?" if tail.group("mark") == "?" else "")
    elif (please := _PLEASE_TAIL.search(lowered)) is not None and not only_remarks(
        lowered[: please.start()]
    ):
        plained = plained[: please.start()] + ("?" if "?" in please.group("mark") else "")
    return plained


__all__ = ["as_meant"]
