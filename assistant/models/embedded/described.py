"""A thing the message describes itself, which the one in view is not.

"and the one with no due date, give it a due date of friday" after a dated task was
completed; "the one on thursday, can you make it 1pm instead?" after a visit on Friday was
booked; "make the car insurance task due friday too" after "Bring my insurance card" was
added. Each says "it" or "instead", so the conversation offers the item in view (or the
last one changed), but the message names its own: by words, a day, an hour, a priority
or no due date. When that description fits another item the conversation knows (and not
the one pinned), the reading of the conversation is not taken: the message is read as it
stands, and the resolver finds the one it describes.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from assistant.dialogue_state import Dialogue, Item
from assistant.language import Intent, detect_intents
from assistant.language.dates import find_when
from assistant.language.intent import APPOINTMENT_ACTIONS, TASK_ACTIONS
from assistant.language.patterns import rx
from assistant.language.targets import TargetRef
from assistant.models.embedded.pinning import zone_of
from assistant.resolve import Match, resolve_appointment, resolve_task

# Words that say where in the conversation the thing came up, not what it is.
_OF_THE_CONVERSATION = frozenset(
    {
        "added",
        "earlier",
        "before",
        "mentioned",
        "booked",
        "made",
        "said",
        "told",
        "listed",
        "just",
        "first",
        "last",
        "new",
        "other",
        "previous",
        "asked",
        "changed",
        "moved",
    }
)


def _describes(target: TargetRef) -> bool:
    """The target says what the thing is like (not only "it", a position, or "all")."""
    return bool(
        target.words
        or target.day
        or target.weekday is not None
        or target.clock
        or target.hours
        or target.priority
        or target.undated
    )


_DUE_DESCRIBED = rx(r"\b(?:one|task|reminder)(?: that's| that is| which is)? due (?P<d>.+)$")


def _due_said(target: TargetRef, now: datetime, timezone: str) -> str | None:
    """The day (ISO) a to-do is described by ("the one due tomorrow"), or None."""
    match = _DUE_DESCRIBED.search(target.phrase.lower())
    if match is None:
        return None
    when = find_when(match.group("d"), now.astimezone(zone_of(timezone)))
    if when is None or when.day is None or when.clock is not None:
        return None
    return when.day.isoformat()


def _known(state: Dialogue, task: bool) -> list[Item]:
    """The tasks (or visits) the conversation knows, each as it last saw it."""
    action = state.last_action
    seen = (
        *(item for _, items in reversed(state.listings) for item in items),
        *state.earlier_listed,
        *state.listed,
        *(entry.get("made") for entry in state.done),
        state.earlier_focus,
        action.after if action is not None else None,
        state.focus,
    )
    field = "title" if task else "service"
    known: dict[str, Item] = {}
    for item in seen:
        if isinstance(item, dict) and item.get("id") and item.get(field):
            known[str(item["id"])] = item
    return list(known.values())


def described_otherwise(
    state: Dialogue, text: str, found: Sequence[Intent], now: datetime, timezone: str
) -> bool:
    """Whether the one item `found` pins is not the one `text` itself describes: another
    the conversation knows fits the description (a task for "the landlord one, make it due
    friday" though a visit is in view), and it does not."""
    if len(found) != 1:
        return False  # "move it to saturday, and mark the eye exam one done": each its own
    pinned = found[0].target.item_id if found[0].target is not None else None
    if pinned is None or found[0].kind not in TASK_ACTIONS | APPOINTMENT_ACTIONS:
        return False
    changes = TASK_ACTIONS | APPOINTMENT_ACTIONS
    asked = [i for i in detect_intents(text, now, timezone) if i.kind in changes]
    if len(asked) != 1:
        return False  # "make that one high and the groceries one low": each its own
    # ("and the landlord one, make it due friday" with the dentist in view: a task)
    of_a_task = asked[0].kind in TASK_ACTIONS
    target = asked[0].target
    if target is None or target.item_id or target.position is not None:
        return False  # "the first task you mentioned": counted in what was heard
    if not _describes(target) or _OF_THE_CONVERSATION & set(target.words):
        return False  # "the task I added earlier": told by the conversation, not its words
    known = _known(state, of_a_task)
    if of_a_task and (due := _due_said(target, now, timezone)) is not None:
        # "and the one due tomorrow, I've done that" just after the eye exam was given a
        # day: the one due then, not the one in view (its words are only the day; it MOVED
        # the eye exam's day to tomorrow)
        dated = [item for item in known if str(item.get("due_on") or "")[:10] == due]
        return len(dated) == 1 and str(dated[0].get("id")) != pinned
    same_kind = (found[0].kind in TASK_ACTIONS) == of_a_task
    if same_kind and not any(str(item.get("id")) == pinned for item in known):
        return False
    fits = (
        resolve_task(known, target) if of_a_task else resolve_appointment(known, target, timezone)
    )
    return isinstance(fits, Match) and str(fits.item.get("id")) != pinned
