"""Something new in the conversation: "cancel the new one" is the one just booked or
added; "remind me to pay the bill the day before it's due" asks for a new task, so its
"day before" is no move of the visit in view.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from assistant.dialogue_state import Dialogue
from assistant.language import detect_intents
from assistant.language.patterns import rx

_NEW_ONE = rx(
    r"\bthe (?:new|newer|latest|new (?:appointment|booking|task|reminder)|one (?:i|you|we) just"
    r" (?:booked|made|added|put in))(?: one)?\b"
)
_MADE = {"crm.bookAppointment": "appointment", "crm.addTask": "task"}


def the_new_one(state: Dialogue, text: str) -> tuple[Dialogue, str] | None:
    """ "cancel the new one" after a booking: the booked one in focus, said as "it"."""
    action = state.last_action
    if action is None or action.after is None or not (said := _NEW_ONE.search(text)):
        return None
    kind = _MADE.get(action.tool)
    if kind is None:
        return None
    focused = dataclasses.replace(state, focus_kind=kind, focus=action.after)  # type: ignore[arg-type]
    return focused, f"{text[: said.start()]}it{text[said.end() :]}"


# A verb that asks for something new to be written down: a reminder, a task, a case.
_NEW_ITEM_VERB = rx(r"\b(?:remind|reminder|add|note|task|case|ticket)\b")


def asks_for_new(text: str, now: datetime, timezone: str) -> bool:
    """ "remind me to pay the bill the day before it's due" with a visit in focus: a new
    task (its "day before" is no move of the visit)."""
    if not _NEW_ITEM_VERB.search(text):
        return False
    return any(i.kind in ("add_task", "create_ticket") for i in detect_intents(text, now, timezone))


__all__ = ["asks_for_new", "the_new_one"]
