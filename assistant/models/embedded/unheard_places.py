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
from assistant.models.embedded.replied_to import answer_replied_to
from assistant.schema import AssistantTurn, Message, ToolExchange

# The changes of a to-do a place may point at.
_TASK_CHANGES = frozenset({"complete_task", "delete_task", "update_task"})
# What each change is said as, in the question and read back from it.
_VERB = {
    "complete_task": ("mark", "as done"),
    "delete_task": ("delete", "from your list"),
}
_LEVELS = ("high", "normal", "low")
# (only this question: "Would you like me to mark it as done?" is another's, read by it;
# a title may hold a full stop of its own: "Call Dr. Smith")
_ASKED = re.compile(
    r"In the order of your list, that's .+?\. I haven't changed anything yet\. "
    r"Would you like me to (?P<v>mark|delete|make) (?P<titles>.+?) "
    r"(?P<tail>as done|from your list|(?:high|normal|low) priority)\?$"
)
_STOP_IN_TITLE = re.compile(r"\.(?=\s)")
# "the first thing on my list" (a saying elsewhere: "first thing monday"): the target
# phrase alone, a place in the list.
_THING_AT = re.compile(r"^(?:the )?(?:first|second|third|fourth|fifth|last) thing$")


def _verb(intent: Intent) -> tuple[str, str] | None:
    """How the change is said in the question: a completion, a delete, or a priority
    alone set ("make Renew car insurance high priority")."""
    if intent.kind == "update_task":
        level = intent.arguments.get("priority")
        if set(intent.arguments) == {"priority"} and level in _LEVELS:
            return "make", f"{level} priority"
        return None
    return _VERB.get(intent.kind)


def _place_said(phrase: str) -> bool:
    return bool(positions_said(phrase)) or bool(_THING_AT.match(phrase.strip().lower()))


def named_by_place(intent: Intent) -> bool:
    """A change this question can name by the place said: "make the second one high
    priority" is of a to-do (a priority is one's), counted in the list read, and asked."""
    target = intent.target
    return (
        intent.kind in _TASK_CHANGES
        and target is not None
        and target.position is not None
        and _verb(intent) is not None
        and _place_said(target.phrase)
    )


def _tasks_heard(state: Dialogue) -> bool:
    """Whether the to-dos in view were read out: a list looked up to add one beside it
    ("add a to-do to call Dr. Smith") was never heard."""
    if state.listed_kind == "task":
        return state.listed_heard
    return bool(state.last_listed_of("task"))


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
        or _tasks_heard(state)
        or not _place_said(target.phrase)
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
        and _verb(i) is not None
        and i.target is not None
        and i.target.position is not None
        and _place_said(i.target.phrase)
    ]


def question(held: Sequence[tuple[Intent, Item]]) -> str | None:
    """ "The first and third on your list are Buy groceries and Schedule eye exam. Would
    you like me to mark them as done?", said with the titles so the yes reads as them."""
    said = {_verb(intent) for intent, _ in held}
    if not held or len(said) != 1 or None in said:
        return None
    verb, tail = next(iter(said))  # type: ignore[misc]
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
    last = answer_replied_to(conversation)
    if last is None:
        return None
    asked = _ASKED.search(last.strip())
    if asked is None:
        return None
    verb, tail = asked.group("v"), asked.group("tail")
    tail = "from my list" if verb == "delete" else tail
    # (a title's own full stop, "Call Dr. Smith", ends no sentence of the ask)
    titles = _STOP_IN_TITLE.sub("", asked.group("titles"))
    return detect_intents(f"{verb} {titles} {tail}", now, timezone) or None


__all__ = ["agreed", "held_by_place", "named_by_place", "question", "unheard_place"]
