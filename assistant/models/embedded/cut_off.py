"""An ask cut off before it names its thing, finished in the next message.

A caller says "hey can you move my…" and the line drops a word, or they stop to think;
the next message finishes it ("sorry, my haircut to saturday at eleven"). Read alone, the
first asks nothing a rule knows (it was greeted) and the second is a question about
Saturday (nothing was moved). So the first is answered with a question about its end
("Sorry, I missed the end of that. What would you like me to move?"), and the reply to
that question is read as the rest of the ask: "can you move my haircut to saturday at 11".
"""

from __future__ import annotations

from collections.abc import Sequence

from assistant.language.as_meant import as_meant
from assistant.language.patterns import rx
from assistant.language.text import normalize
from assistant.models.embedded.user_turns import last_two_users
from assistant.schema import AssistantTurn, Message, UserTurn

# A verb of a change, then at most a few words, ending on a word that must be followed
# by what it names: "can you move my", "i need to cancel the", "could you book me a".
_CUT_OFF = rx(
    r"\b(?P<verb>move|cancel|book|reschedule|change|delete|remove|push|update|complete"
    r"|mark)\b(?: me)?(?: (?:my|the|a|an|your|it|that|this|to|at|on|for))*"
    r" (?:my|the|a|an|your|to|at|on|for)[ .,!?]*$"
)
_ASKED = "Sorry, I missed the end of that. What would you like me to {verb}?"
_ASKED_START = "Sorry, I missed the end of that."
# language/either.py's question of a day, today or another (asked of an hour said with no
# day just after a visit on another day was told).
DAY_ASKED_START = "Would that be today, or "
_A_DAY_ALONE = rx(
    r"(?:on )?(?:today|tonight|(?:mon|tues|wednes|thurs|fri|satur|sun)day|that day|the same day"
    r"|(?:on )?the day of (?:the|my) [a-z ]+)(?:[ ,]+(?:please|then|thanks|thank you))*[.!]*"
)
# The words a reply opens with that are said again, or said before the rest.
_REPLY_LEAD = rx(r"^(?:(?:sorry|oh|um|uh|yeah|yes|ok|okay|so|i said)[ ,.!]+)*")


def question(text: str) -> str | None:
    """The question for an ask cut off at its end, or None when `text` is not one."""
    found = _CUT_OFF.search(normalize(text).text)
    if found is None:
        return None
    return _ASKED.format(verb=found.group("verb"))


def finished(conversation: Sequence[Message]) -> str | None:
    """The customer's last message read as the end of the ask cut off before it (when the
    answer between asked for its end), or None."""
    users = last_two_users(conversation)
    if users is None:
        return None
    before, last = users
    asked = [
        message
        for message in conversation[before + 1 : last]
        if isinstance(message, AssistantTurn) and message.kind == "answer"
    ]
    if not asked:
        return None
    cut, reply = conversation[before], conversation[last]
    if not isinstance(cut, UserTurn) or not isinstance(reply, UserTurn):
        return None
    rest = reply.text.strip()
    lead = _REPLY_LEAD.match(rest.lower())
    rest = rest[lead.end() :] if lead is not None else rest
    if asked[-1].text.startswith(DAY_ASKED_START):
        # "book a massage at 4" → "Would that be today, or Sunday?" → "sunday": the day
        # the booking lacked (a day said of the question's two only; "…today or sunday" said
        # by the customer is settled by language/either.py)
        if " or " in cut.text.lower() or not _A_DAY_ALONE.fullmatch(rest.lower()):
            return None
    elif not asked[-1].text.startswith(_ASKED_START):
        return None
    head = as_meant(cut.text).strip().rstrip(" .,!?")  # ("…move my. cheers!": its ask)
    return f"{head} {rest}" if rest else None
