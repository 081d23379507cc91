"""A visit named bare, then when: "cleaning thursday 10am" after "when's my cleaning?".

Typed so, with no verb and nothing saying it is one more, it was read as a booking and
BOOKED A SECOND CLEANING beside the one the customer had just asked about. Said of the one
visit of that kind the conversation last read out, it is as likely a move of that visit:
so the move is asked first ("Would you like me to move it to Thursday at 10 AM?"), and a
yes makes it. A second one meant is a word away ("no, book another"). With no such visit
read out (a cold "massage friday 5pm", or two cleanings), it stays the booking it was.

It is read in `followup.understand`, from the conversation itself (the listing is in its
tool results), so that the yes, which reads the earlier message again, finds the same move.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from assistant.language import Intent, detect_intents
from assistant.language.grammar import needs_consent
from assistant.language.lexicon import SERVICES
from assistant.language.patterns import rx
from assistant.language.slots import service
from assistant.schema import Message, ToolExchange

# The visit's own name first (a service, never words around it: "book a haircut…" is
# asked with its verb), then only when.
_VISIT_THEN_WHEN = rx(
    r"^(?:(?:so|ok|okay|um|uh|and|right|just|oh|then)\W+)*(?:(?:my|the) )?(?P<what>"
    + "|".join(sorted((re.escape(name) for name in SERVICES), key=len, reverse=True))
    + r")(?:\W+(?:to|for|on|at)\b|\W*(?:->|=>|:|-)|,)?\W*"
    r"(?P<when>(?:mon|tue|wed|thu|fri|sat|sun|today|tomorrow|next|this|the \d|\d)[a-z0-9: ]*?)"
    r"(?: please| pls| thanks)?\W*$"
)
# Words that say the visit is one more, not the one there is.
# ("same day", "same time" are read by the rules of their own, references.py)
_ONE_MORE = rx(r"\b(?:another|a second|one more|new|also|too|as well|again|extra|same)\b")
_READS = frozenset({"crm.listUpcomingAppointments", "crm.getNextAppointment"})


def _last_visits_read(conversation: Sequence[Message]) -> list[dict[str, Any]] | None:
    """The visits of the conversation's last appointment lookup; None if there was none."""
    for message in reversed(conversation):
        if not isinstance(message, ToolExchange):
            continue
        for result in message.results:
            if not result.ok or result.call.tool_name not in _READS:
                continue
            body = result.result
            if not isinstance(body, dict):
                continue
            listed = body.get("appointments")
            if isinstance(listed, list):
                return [v for v in listed if isinstance(v, dict)]
            return [body] if body.get("id") else []
    return None


def visit_read_out_moved(
    intents: list[Intent], conversation: Sequence[Message], now: datetime, timezone: str
) -> list[Intent]:
    """A bare visit and when, of the one visit of that kind last read out: its move, asked
    before it is made; otherwise `intents` as they were."""
    if len(intents) != 1 or intents[0].kind != "book_appointment" or intents[0].when is None:
        return intents
    clause = intents[0].clause
    match = _VISIT_THEN_WHEN.match(clause)
    if match is None or _ONE_MORE.search(clause):
        return intents
    named = service(match.group("what"), match.group("what"))
    visits = _last_visits_read(conversation) if named is not None else None
    if not visits or named is None:
        return intents
    same = [
        v
        for v in visits
        if str(v.get("service", "")).lower() == named.lower() and v.get("status") != "cancelled"
    ]
    if len(same) != 1:
        return intents
    found = detect_intents(f"move my {match.group('what')} to {match.group('when')}", now, timezone)
    if len(found) != 1 or found[0].kind != "reschedule_appointment":
        return intents
    return [needs_consent(dataclasses.replace(found[0], clause=clause))]


__all__ = ["visit_read_out_moved"]
