"""A change told as made elsewhere, answered with how the CRM has it.

"i already cancelled my haircut online" → "Your haircut on Sunday, January 20 at 2:30 PM
is still booked here." "the dentist called and moved my cleaning to friday at 2" → "I have
your dental cleaning on Wednesday, January 16 at 10:00 AM." Before, every visit was read
out (or the day said, "nothing booked on Friday"), and the one told of was not named.
What it says is what the listing read this turn shows; an offer to make the change is
said in words, never held for a yes (the customer asks for it if they want it).
"""

from __future__ import annotations

import re

from assistant.dialogue_state import Item
from assistant.language.slots import services_named
from assistant.language.told_elsewhere import Told, told_elsewhere
from assistant.models.embedded import appointments
from assistant.models.embedded.scene import Scene
from assistant.schema import ToolResult
from assistant.speech import article, join_and

_OFFER = {
    "cancel": "If you'd like me to cancel it, just say so.",
    "move": "If it should be at another time, tell me when and I'll move it.",
}
# The words of a to-do told of: what follows "a task to", "the … task", "a reminder about".
_TASK_THING = re.compile(
    r"\b(?:task|to-?do|reminder)s? (?:to|for|about|that says) (?P<after>[a-z][\w' -]*)"
    r"|\bthe (?P<before>[a-z][\w' -]*?) (?:task|to-?do|reminder)\b"
    r"|\b(?:marked|ticked|deleted|removed) (?:the |my )?(?P<plain>[a-z][\w' -]*?)"
    r" (?:as )?(?:done|complete|completed|off|in|on|from|already)\b"
)
_LITTLE = frozenset(
    {"the", "a", "an", "my", "to", "for", "on", "in", "of", "and", "it", "that", "one", "task"}
)


def told_back(result: ToolResult, scene: Scene) -> list[str] | None:
    """The answer to a change told as made elsewhere, from this listing; None when the
    listing is not the one that shows it, or nothing told is named in it."""
    told = told_elsewhere(scene.said)
    if told is None or not isinstance(result.result, dict):
        return None
    if result.call.tool_name == "crm.listUpcomingAppointments":
        return _of_visits(result.result.get("appointments"), told, scene)
    if result.call.tool_name == "crm.listTasks":
        return _of_tasks(result.result.get("tasks"), told, scene.said)
    return None


def _of_visits(items: object, told: Told, scene: Scene) -> list[str] | None:
    named = services_named(scene.said)
    if len(named) != 1:
        return None
    (name,) = named
    upcoming = appointments.upcoming(items)
    of_it = [item for item in upcoming if appointments.service(item) == name.lower()]
    noun = name.lower()
    if not of_it:
        if told == "book":
            return [
                f"I don't see {article(noun)} booked.",
                "If you'd like one, tell me the day and time and I'll book it.",
            ]
        return [f"You have no {noun} booked."]
    when = join_and([appointments.when(item, scene) for item in of_it])
    if told == "cancel":
        return [f"Your {noun} {when} is still booked here.", _OFFER["cancel"]]
    if told == "book":
        return [f"I have your {noun} {when}."]
    return [f"I have your {noun} {when}.", _OFFER["move"]]


def _of_tasks(items: object, told: Told, said: str) -> list[str] | None:
    thing = _task_thing(said)
    if thing is None or not isinstance(items, list):
        return None
    tasks = [t for t in items if isinstance(t, dict)]
    found = [t for t in tasks if _names(t, thing)]
    if not found:
        if told == "add":
            return [
                f"I don't see a task to {thing} on your list.",
                "If you'd like, I can add it.",
            ]
        return [f"I don't see a task about {thing} on your list."]
    task = found[0]
    title = str(task.get("title") or "That task")
    done = task.get("status") == "completed"
    if told == "done" and not done:
        return [
            f"{title} is still on your list as not done.",
            "If you'd like, I can mark it done.",
        ]
    if told == "delete":
        state = "done" if done else "not done yet"
        return [f"{title} is still on your list, {state}."]
    return [f"{title} is on your list" + (", marked done." if done else ".")]


def _task_thing(said: str) -> str | None:
    found = _TASK_THING.search(said)
    if found is None:
        return None
    thing = found.group("after") or found.group("before") or found.group("plain") or ""
    thing = re.split(r"\b(?:on my|in the|on the|already|earlier|yesterday)\b", thing)[0]
    thing = thing.strip(" '")
    return thing or None


def _names(task: Item, thing: str) -> bool:
    """Whether the to-do's title shares the telling words of `thing` ("eye exam")."""
    title = str(task.get("title") or "").lower()
    words = [w for w in re.findall(r"[a-z']+", thing) if w not in _LITTLE and len(w) > 2]
    return bool(words) and all(word in title for word in words)
