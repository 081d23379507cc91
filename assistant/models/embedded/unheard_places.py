"""To-dos told by their place in a list the customer never heard: "mark the first and third
tasks done" with no list read out in the conversation. The CRM's order is no order the
customer knows, so no write is made by it: the list is read, the ones at those places are
named, and only a yes marks them ("Would you like me to mark Buy groceries and Schedule eye
exam as done?" → "yes" is read as that ask, by their titles)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from datetime import datetime

from assistant.dialogue_state import Dialogue, Item
from assistant.language import Intent, detect_intents, is_affirmative
from assistant.models.embedded.pinning import positions_said
from assistant.schema import AssistantTurn, Message, ToolExchange, UserTurn

# The changes of a to-do a place may point at.
_TASK_CHANGES = frozenset({"complete_task", "delete_task", "update_task"})
# What each change is said as, in the question and read back from it.
_VERB = {
    "complete_task": ("mark", "as done"),
    "delete_task": ("delete", "from your list"),
}
# (only this question: "Would you like me to mark it as done?" is another's, read by it)
_ASKED = re.compile(
    r"In the order of your list, that's [^.?]+\. I haven't changed anything yet\. "
    r"Would you like me to (?P<v>mark|delete) (?P<titles>.+?) (?:as done|from your list)\?$"
)


def unheard_place(
    state: Dialogue, intent: Intent, listed_now: bool, conversation: Sequence[Message]
) -> Intent:
    """The change of a to-do told by a place in no list heard, held for a yes (the list
    read, the one there named). A list read in the same message counts it (its own rule)."""
    target = intent.target
    if (
        intent.kind not in _TASK_CHANGES
        or target is None
        or target.position is None
        or "consent" in intent.missing
        or state.last_listed_of("task")
        or not positions_said(target.phrase)
        or listed_now
        or _read_out(conversation)
    ):
        return intent
    return dataclasses.replace(intent, missing=(*intent.missing, "consent"))


def _read_out(conversation: Sequence[Message]) -> bool:
    """Whether an answer of this conversation read the to-dos out (two or more of those a
    listing gave named in it): "what are my tasks and my balance" keeps the balance as
    the listing in view, yet the to-dos were heard."""
    titles: list[str] = []
    for message in conversation:
        if isinstance(message, ToolExchange):
            for result in message.results:
                if result.ok and result.call.tool_name == "crm.listTasks":
                    body = result.result if isinstance(result.result, dict) else {}
                    titles = [
                        str(t.get("title"))
                        for t in body.get("tasks") or ()
                        if isinstance(t, dict) and t.get("title")
                    ]
        elif (
            isinstance(message, AssistantTurn)
            and message.kind == "answer"
            and sum(title in message.text for title in titles) >= 2
        ):
            return True
    return False


def held_by_place(intents: Sequence[Intent]) -> list[Intent]:
    """The changes held for a yes because a place no list told was said."""
    return [
        i
        for i in intents
        if i.missing == ("consent",)
        and i.kind in _VERB
        and i.target is not None
        and i.target.position is not None
        and positions_said(i.target.phrase)
    ]


def question(held: Sequence[tuple[Intent, Item]]) -> str | None:
    """ "The first and third on your list are Buy groceries and Schedule eye exam. Would
    you like me to mark them as done?", said with the titles so the yes reads as them."""
    kinds = {intent.kind for intent, _ in held}
    if not held or len(kinds) != 1:
        return None
    verb, tail = _VERB[next(iter(kinds))]
    titles = []
    for _, item in held:
        title = str(item.get("title") or "").strip()
        if not title or title in titles:
            return None
        titles.append(title)
    named = titles[0] if len(titles) == 1 else f"{', '.join(titles[:-1])} and {titles[-1]}"
    return (
        f"In the order of your list, that's {named}. I haven't changed anything yet. "
        f"Would you like me to {verb} {named} {tail}?"
    )


def agreed(
    conversation: Sequence[Message], message: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """A yes to that question: the change asked, of the to-dos by their titles."""
    if not is_affirmative(message) or len(message.split()) > 6:
        return None
    said = [
        m
        for m in conversation
        if isinstance(m, UserTurn) or (isinstance(m, AssistantTurn) and m.kind == "answer")
    ]
    if said and isinstance(said[-1], UserTurn):
        said.pop()  # the message itself
    last = said[-1] if said else None
    if not isinstance(last, AssistantTurn):
        return None
    asked = _ASKED.search(last.text.strip())
    if asked is None:
        return None
    verb = asked.group("v")
    tail = "as done" if verb == "mark" else "from my list"
    return detect_intents(f"{verb} {asked.group('titles')} {tail}", now, timezone) or None


__all__ = ["agreed", "held_by_place", "question", "unheard_place"]
