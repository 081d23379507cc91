"""Two visits swapped: "swap my haircut and my cleaning", "switch the times of my cleaning
and my haircut", "trade my haircut and dental appointment around". Each is moved to the
time the other has, both times read from the one listing before either moves; said as two
moves each told by the other visit ("…to the same time as my cleaning"), which
assistant.models.embedded.anchored counts, so that both go ahead together or neither does.
"""

from __future__ import annotations

from assistant.language.patterns import rx
from assistant.language.slots import services_named

_SWAP_VERB = rx(r"\b(?:swap|switch|trade|exchange|flip|interchange)\b")
_SWAP = rx(
    r"\b(?:swap|switch|trade|exchange|flip|interchange)(?: (?:round|around|over))?"
    r" (?:the (?:times?|days?|slots?|dates?) (?:of |for )?)?"
    r"(?P<a>(?:my|the|our) (?:[a-z]+ ){0,2}?[a-z]+) and (?P<b>(?:(?:my|the|our) )?(?:[a-z]+ ){0,2}?"
    r"[a-z]+?)(?: (?:appointments?|visits?|bookings?))?(?: (?:round|around|over|times|slots))?"
    r"(?= please\b|[,.!?]|$)"
)


def each_to_the_others_time(text: str) -> str:
    """`text` with two visits it swaps said as two moves, each to the other's time; else
    `text` as it was."""
    if " and " not in text or _SWAP_VERB.search(text) is None:
        return text  # nearly every message: no swap said
    swapped = _SWAP.search(text.lower())
    if swapped is None or len(text) != len(text.lower()):
        return text  # (the places found in the lower-cased text must be the text's)
    first, second = swapped.group("a"), swapped.group("b")
    if not second.startswith(("my ", "the ", "our ")):
        second = f"my {second}"
    one, other = services_named(first), services_named(second)
    if len(one) != 1 or len(other) != 1 or one == other:
        return text  # two visits named by their services, or no swap of visits
    moves = (
        f"move {first} to the same time as {second} and move {second} to the same time as {first}"
    )
    return f"{text[: swapped.start()]}{moves}{text[swapped.end() :]}"


__all__ = ["each_to_the_others_time"]
