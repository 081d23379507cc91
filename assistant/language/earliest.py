"""Asked for the first free time: "what's the earliest you have for a consultation?".

No tool says which times are free, so it cannot be answered as asked. It is read as the
booking it leads to, its time still to be said ("book a consultation, the earliest you
have"): the customer is told that free times can't be seen here, and asked when, and a
day and time said next books it.
"""

from __future__ import annotations

from assistant.language.patterns import rx
from assistant.language.slots import OFFERED, service

_EARLIEST_FOR = rx(
    r"^(?:so |and |ok |okay |hi |hey )*(?:what's|whats|what is|when's|whens|when is)"
    r" (?:the )?(?P<w>earliest|soonest|first|next)"
    r" (?:(?:free |open |available )?(?:time|slot|opening|appointment|availability|date|day) )?"
    r"(?:you have|you've got|you got|available|free|open|you can do|i can get)"
    r"(?: (?:for|with))? (?P<s>(?:a |an )?[a-z][a-z -]*?)[?.!]*$"
)
# "book the earliest haircut you have", "get me the next available massage": the same,
# said as the booking (read whole, "earliest haircut" was no service offered).
_BOOK_THE_EARLIEST = rx(
    r"^(?:(?:so|and|ok|okay|hi|hey|please|can you|could you)[ ,]+)*(?:book|get|give|find|put)"
    r"(?: me)?(?: in)?(?: for)? (?:the|a|an|your) (?P<w>earliest|soonest|first|next)"
    r"(?: (?:free|open|available|possible))? (?P<s>[a-z][a-z -]*?)"
    r"(?: (?:appointment|slot|time|session|one))?"
    r"(?: (?:you have|you've got|you got|available|free|open|you can do|possible|going))?"
    r"(?: please)?[?.!]*$"
)
# Cheap gate: one of these is in every message the pattern reads.
_GATE = ("earliest", "soonest", "first", "next")


def as_booking(text: str) -> str:
    """`text` (lower-cased), when it asks the first free time for a service offered, as
    the booking it leads to; otherwise `text`."""
    if not any(word in text for word in _GATE):
        return text
    match = _EARLIEST_FOR.match(text.strip()) or _BOOK_THE_EARLIEST.match(text.strip())
    if match is None:
        return text
    said = match.group("s")
    if service(said, said) not in OFFERED:
        return text
    return f"book {said}, the {match.group('w')} you have"
