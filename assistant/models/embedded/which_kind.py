"""A place counted in two lists read out together, said with a change either could take.

"what's on my plate this week" reads out the visits, then the to-dos; "move the second one
to friday" next could be the second visit or the second to-do (it moved the second
to-do's due day, unasked). So which is asked, never guessed: "Do you mean your haircut on
Sunday, January 20, or the task Renew car insurance?". The reply names one of them (by
what it is, by its kind, or as the first or the second of the two offered), and the change
asked is made to it. A change only one kind takes ("mark the second one done", "cancel the
second one") or a kind said ("the second task") is counted as before, in its own list.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from assistant.dialogue_state import WHICH_KIND_START, WHICH_KIND_TASK, Dialogue, Item
from assistant.language import Intent
from assistant.language.patterns import rx
from assistant.models.embedded.pinning import (
    WORD_RE,
    appointment_follow_up,
    as_pronoun,
    positions_said,
    task_follow_up,
)

# A change a visit and a to-do both take: moved to a day, pushed back, put off.
_EITHER_CHANGE = rx(
    r"\b(?:move|push|reschedule|shift|bump|bring|put|postpone|delay|change|set|make)\b"
)
_KIND_SAID = rx(
    r"\b(?:tasks?|to-?dos?|reminders?|appointments?|visits?|bookings?)\b"
    # a visit has a time, a to-do none: "…to friday at 3", "same time"
    r"|\bsame time\b|\bat \d|\d ?[ap]\.?m\b"
    # only a to-do has a priority, a due day, or is done: "make the second one high priority"
    r"|\b(?:priority|urgent|important|due|done|complete|completed|finished)\b"
)
_TASK_WORDS = rx(r"\b(?:tasks?|to-?dos?|reminders?|list)\b")
_VISIT_WORDS = rx(r"\b(?:appointments?|visits?|bookings?)\b")
_BOTH = rx(r"^(?:(?:um|uh|oh|ok|okay|yes|yeah|well),? )*(?:do )?both(?: of them)?\b")
_FIRST = rx(r"\b(?:first|former|1st)\b")
_SECOND = rx(r"\b(?:second|latter|other|2nd)\b")
# Words too common to tell a to-do by ("the", "my", "call"…).
_COMMON = frozenset(
    {"the", "my", "a", "an", "one", "that", "this", "to", "of", "for", "and", "task", "it"}
)


def _offered(state: Dialogue, said: str) -> tuple[Item, Item] | None:
    """The visit and the to-do at the one place `said` counts, when both lists read out
    together hold that place."""
    together = dict(state.read_together)
    visits, tasks = together.get("appointment", ()), together.get("task", ())
    positions = positions_said(said)
    if not visits or not tasks or len(positions) != 1:
        return None
    place = positions[0]
    if not (-len(visits) <= place < len(visits) and -len(tasks) <= place < len(tasks)):
        return None
    return visits[place], tasks[place]


def asked(state: Dialogue, text: str, zone: ZoneInfo) -> str | None:
    """The question which of the two is meant, or None when the place is not in doubt."""
    if len(state.read_together) != 2 or not _EITHER_CHANGE.search(text):
        return None
    if _KIND_SAID.search(text):
        return None
    offered = _offered(state, text)
    if offered is None:
        return None
    visit, task = offered
    return f"{WHICH_KIND_START}{_visit(visit, zone)}{WHICH_KIND_TASK}{task.get('title')}?"


def _visit(item: Item, zone: ZoneInfo) -> str:
    service = str(item.get("service") or "appointment").lower()
    try:
        moment = datetime.fromisoformat(str(item.get("starts_at"))).astimezone(zone)
    except ValueError:
        return service
    return f"{service} on {moment:%A}, {moment:%B} {moment.day}"


def answered(state: Dialogue, text: str, now: datetime, zone: ZoneInfo) -> list[Intent] | None:
    """The change asked, made to the one the reply names; None when it names neither."""
    if state.question != "which_kind" or not state.about:
        return None
    offered = _offered(state, state.about.lower())
    if offered is None:
        return None
    visit, task = offered
    asked_again = as_pronoun(state.about.lower())
    if _BOTH.search(text):
        # "both": the change made to each of the two offered
        made = [
            *(appointment_follow_up(asked_again, visit, now, zone, correcting=False) or []),
            *(task_follow_up(asked_again, task, now) or []),
        ]
        return made or None
    chosen = _chosen(text, visit, task)
    if chosen is None:
        return None
    if chosen is visit:
        return appointment_follow_up(asked_again, visit, now, zone, correcting=False)
    return task_follow_up(asked_again, task, now)


def _chosen(text: str, visit: Item, task: Item) -> Item | None:
    task_said = _TASK_WORDS.search(text) is not None
    visit_said = _VISIT_WORDS.search(text) is not None
    words = set(WORD_RE.findall(text.replace("hair cut", "haircut")))
    service_words = set(WORD_RE.findall(str(visit.get("service") or "").lower()))
    title_words = set(WORD_RE.findall(str(task.get("title") or "").lower())) - _COMMON
    names_visit = bool(words & service_words)
    names_task = bool(words & title_words)
    if (task_said or names_task) and not (visit_said or names_visit):
        return task
    if (visit_said or names_visit) and not (task_said or names_task):
        return visit
    if _FIRST.search(text) and not _SECOND.search(text):
        return visit  # offered first
    if _SECOND.search(text) and not _FIRST.search(text):
        return task
    return None


__all__ = ["answered", "asked"]
