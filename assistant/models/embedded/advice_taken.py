""" "should I move my haircut to saturday?" → (what it names, read out) → "yeah go on then,
same time": the change the customer asked advice about, now asked for.

The advice question changed nothing (language/scope.asks_advice); a yes just after it,
with nothing held, is the customer deciding. What they add after the yes ("same time")
is said with it. A cancel still asks for its confirmation, as any cancel does.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from assistant.language import Intent, detect_intents, is_affirmative
from assistant.language.confirm import request_after_yes
from assistant.language.patterns import rx
from assistant.language.scope import asks_advice
from assistant.language.text import normalize
from assistant.models.embedded.followup import said_before
from assistant.schema import Message

_SHOULD = rx(r"\bshould (?:i|we)\b")
# Only the decision and how to make it ("same time"), not a new request after the yes.
_MORE_WORDS = 4


def advice_taken(
    conversation: Sequence[Message], message: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """The writes of the change asked advice about, when this message says to go ahead."""
    before = said_before(conversation)
    if before is None or "should" not in before.lower() or not is_affirmative(message):
        return None  # most messages: no advice was asked just before
    rest = request_after_yes(message) or ""
    if len(rest.split()) > _MORE_WORDS:
        return None
    if rest and detect_intents(rest, now, timezone):
        return None  # "yes, what do I owe": an ask of its own, not how to make the change
    said = normalize(before).text.rstrip(" ?!.")
    if not asks_advice(said) or (should := _SHOULD.search(said)) is None:
        return None
    asked = f"please{said[should.end() :]}"
    intents = detect_intents(f"{asked}, {rest}" if rest else asked, now, timezone)
    return [intent for intent in intents if intent.writes] or None
