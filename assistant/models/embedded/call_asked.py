"""A phone call asked of the assistant ("call the pharmacy for me", "can you phone the
garage"): no tool places one. Said plainly, with a to-do to make the call offered; a yes to
that offer adds it (it was "I didn't catch what you meant by 'call the pharmacy'").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from assistant.language import Intent, detect_intents
from assistant.language.confirm import is_affirmative
from assistant.language.lexicon import OTHER_CHANGE_VERBS
from assistant.language.patterns import rx
from assistant.language.text import normalize
from assistant.models.embedded.replied_to import answer_replied_to
from assistant.schema import Message

# The whole message: a call asked, of someone named, maybe "for me" ("call me back", "ring
# me the day before" ask calls to the customer: limits.py says those).
_CALL_ASKED = rx(
    r"^(?:(?:hey|hi|ok|okay|so|um|please|can you|could you|would you|will you)[\s,]+)*"
    # ("call off my cleaning" cancels it)
    r"(?:call|ring|phone|give) (?!(?:me|us|back|it|that|this|them|off|up)\b)"
    r"(?P<who>(?:the |my |our |a |an )?[a-z][a-z' .&-]{1,40}?)"
    r"(?: a (?:call|ring|bell))?(?: for (?:me|us))?(?: please| now| today| right now)?[\s?.!]*$"
)
_VERB = re.compile(r"^(?:call|ring|phone|give)\b")
_OFFERED = re.compile(
    r"I can't place phone calls\. Would you like me to add a task to call (?P<who>.+?) to your"
    r" list\?$"
)


def call_asked(text: str) -> str | None:
    """The plain answer to a call asked of the assistant, or None (cheap first: a verb of
    calling must be said)."""
    low = text.lower()
    if "call" not in low and "ring" not in low and "phone" not in low:
        return None  # (nearly every message)
    said = normalize(text).text
    found = _CALL_ASKED.match(said)
    if found is None:
        return None
    verb = re.sub(
        r"^(?:(?:hey|hi|ok|okay|so|um|please|can you|could you|would you|will you)"
        r"[\s,]+)*",
        "",
        said,
    )
    if _VERB.match(verb) is None or (verb.startswith("give") and " a " not in verb):
        return None
    who = re.sub(r"^(?:my|our)\b", "your", found.group("who").strip())
    return f"I can't place phone calls. Would you like me to add a task to call {who} to your list?"


def call_offer_taken(
    conversation: Sequence[Message], message: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """A yes to that offer: the to-do to make the call, added."""
    if not is_affirmative(message) or len(message.split()) > 6:
        return None
    last = answer_replied_to(conversation)
    if last is None or "place phone calls" not in last:
        return None
    offered = _OFFERED.search(last.strip())
    if offered is None:
        return None
    who = re.sub(r"^your\b", "my", offered.group("who"))
    intents = [i for i in detect_intents(f"add a task to call {who}", now, timezone) if i.writes]
    return intents if len(intents) == 1 and intents[0].kind == "add_task" else None


__all__ = ["call_asked", "call_offer_taken", "made_here"]


# "can I cancel online?", "is there a way to reschedule on the website?", "do i have to call
# to cancel my appointment": asked whether the customer must go elsewhere to make a change
# this assistant makes (it was "I couldn't find an appointment like that" for "online", or
# the visits read out).
# Every change asked of a visit or a to-do ("can I push my haircut online?", "can I delete
# the groceries task on the app?": each MADE the change before).
_CHANGES = (
    r"cancel|reschedule|move|change|book|delete|remove|complete|mark|add|update|open|create|"
    + OTHER_CHANGE_VERBS
)
_ELSEWHERE = rx(
    r"^(?:(?:so|um|hi|hey|ok|okay)[\s,]+)*(?:(?:can|could|may) (?:i|we)"
    r"|is (?:there|it) (?:a way|possible)(?: for me)?|how (?:do|can|would) (?:i|we))"
    r"(?: to)? (?P<v>" + _CHANGES + r")\b(?:(?! and | then ).){0,50}?"
    r"\b(?:online|on ?line|on (?:the |your )?(?:web ?site|app|portal|internet)"
    r"|through (?:the |your )?(?:web ?site|app|portal)|myself)\b"
    r"|^(?:(?:so|um|hi|hey|ok|okay)[\s,]+)*do (?:i|we) (?:have|need) to (?:call|phone|ring"
    r"|go online|come in|email)(?: you| in| the office| someone)? to"
    r" (?P<v2>" + _CHANGES + r")\b"
)
_ELSEWHERE_WORDS = (
    "online",
    "on line",
    "web",
    " app",
    "portal",
    "internet",
    "myself",
    "have to",
    "need to",
)
_DONE_HERE = {
    "cancel": "cancel an appointment",
    "reschedule": "move an appointment",
    "move": "move an appointment",
    "change": "change an appointment",
    "book": "book an appointment",
}


def made_here(text: str) -> str | None:
    """The plain answer to whether a change must be made elsewhere: it can be made here,
    now, and is offered; None for any other message."""
    low = text.lower()
    if not any(word in low for word in _ELSEWHERE_WORDS):
        return None  # (most messages)
    found = _ELSEWHERE.search(normalize(text).text)
    if found is None:
        return None
    verb = found.group("v") or found.group("v2")
    if verb not in _DONE_HERE:
        return (
            "You don't need to go anywhere else: I can make that change for you right here, "
            "now. Just tell me what you'd like changed, and I'll check it with you first."
        )
    rest = {
        "cancel": "Just tell me which one, and I'll check it with you before I cancel it.",
        "book": "Just tell me the service, the day and the time.",
    }.get(verb, "Just tell me which one, and when to.")
    return (
        f"You don't need to go anywhere else: I can {_DONE_HERE[verb]} for you right here, "
        f"now. {rest}"
    )
