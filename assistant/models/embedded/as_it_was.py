""" "yes, same time as it was" to "When would you like your haircut?" just after the haircut
was cancelled (and "put it back" asked for a new booking, a cancelled visit being no thing to
restore): the time the cancelled visit had, read in place of the words.

Only when the last change was the cancel of a visit of the service asked about: the message
is then read as if that day and hour were said ("yes, on January 20 at 2:30pm").
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from zoneinfo import ZoneInfo

from assistant.language.patterns import rx
from assistant.schema import AssistantTurn, PlanRequest, UserTurn

# "same time as it was", "the same time as before", "at the old time", "same as it was".
_AS_IT_WAS = rx(
    r"\b(?:at |for )?(?:the )?(?:same (?:day and time|time and day|time|slot)(?: as (?:it was"
    r"|before|last time|it had|the one (?:you )?cancell?ed))?|same as (?:it was|before)"
    r"|(?:old|original|usual) (?:time|slot))\b"
)
_WHEN_ASKED = "When would you like your "


def read_as_it_was(request: PlanRequest) -> PlanRequest | None:
    """The request with "same time as it was" read as the cancelled visit's day and hour;
    None when the message says no such thing or the last change was no cancel of the visit
    asked about."""
    if not request.conversation or not isinstance(request.conversation[-1], UserTurn):
        return None
    message = request.conversation[-1]
    text = message.text.lower()
    if "same" not in text and "old" not in text and "original" not in text and "usual" not in text:
        return None  # most messages
    if len(text) != len(message.text) or (said := _AS_IT_WAS.search(text)) is None:
        return None
    asked = next(
        (m for m in reversed(request.conversation[:-1]) if isinstance(m, AssistantTurn)), None
    )
    action = request.dialogue.last_action
    if (
        asked is None
        or _WHEN_ASKED not in asked.text
        or action is None
        or action.tool != "crm.cancelAppointment"
        or action.before is None
    ):
        return None
    service = str(action.before.get("service") or "").lower()
    if not service or f"{_WHEN_ASKED.lower()}{service}" not in asked.text.lower():
        return None
    try:
        start = datetime.fromisoformat(str(action.before.get("starts_at")))
    except ValueError:
        return None
    zone = ZoneInfo(request.customer.timezone if request.customer else "UTC")
    local = start.astimezone(zone)
    hour = local.strftime("%I:%M%p").lstrip("0").lower()
    told = f"{text[: said.start()]}on {local:%B} {local.day} at {hour}{text[said.end() :]}"
    conversation = (*request.conversation[:-1], UserTurn(text=told))
    return dataclasses.replace(request, conversation=conversation)


__all__ = ["read_as_it_was"]
