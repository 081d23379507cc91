"""The answer to "Would you like me to cancel it, or move it to another day?" (asked of the
one visit on a day let go, day_let_go.py): the one word asked for, said alone."""

from __future__ import annotations

from collections.abc import Sequence

from assistant.language.patterns import rx
from assistant.language.text import normalize
from assistant.models.embedded.replied_to import answer_replied_to
from assistant.schema import Message

# Said so that the answers read as asked ("cancel it", "move it to friday at 10").
MOVE_OR_CANCEL = "Would you like me to cancel it, or move it to another day?"


# "cancel", "just cancel", "move it please", "reschedule": the one word the question asked
# for, said alone.
_BARE = rx(
    r"^(?:(?:ok|okay|just|yes|yeah|yep|please|then|um|uh|hmm|let's|lets|i'll|i will|i'd)\W+)*"
    r"(?P<v>cancel|move|reschedule)(?: (?:it|that|that one|the appointment|the visit))?"
    r"(?:\W+(?:please|then|thanks|thank you|instead))*\W*$"
)


def answered(conversation: Sequence[Message], message: str) -> str:
    """ "Would you like me to cancel it, or move it to another day?" → "cancel", "move it":
    read as "cancel it" and "reschedule it" (the visit asked about; was: not understood,
    where "cancel it" and "move it to friday at 10" were). `message` as it was otherwise."""
    if len(message) > 40 or (bare := _BARE.match(normalize(message).text)) is None:
        return message
    last = answer_replied_to(conversation)
    if last is None:
        return message
    asked = last.rstrip()
    if not asked.endswith(MOVE_OR_CANCEL):
        return message
    verb = "cancel" if bare.group("v") == "cancel" else "reschedule"
    if (told := _TOLD.search(asked.lower())) is None:
        return f"{verb} it"
    # the visit by its service and day, as the answer told it: read again a turn later
    # ("When would you like to move it to?" → "friday at 10"), "it" names nothing
    return f"{verb} the {told.group('service')} on {told.group('month')} {told.group('day')}"


# "You have a dental cleaning at 10 AM on Wednesday, January 16. Would you like me to…"
_TOLD = rx(
    r"\byou have an? (?P<service>[a-z][a-z ]{1,40}?) at [^.]{1,20}? on [a-z]+, "
    r"(?P<month>[a-z]+) (?P<day>\d{1,2})\. would you like me to cancel it"
)


__all__ = ["MOVE_OR_CANCEL", "answered"]
