""" "Undo that", "put it back": the last change made, made the other way.

A move goes back to the time it had; a booking is cancelled and an added task deleted
(both confirmed first, as every cancel and delete is); a priority or due date changed
goes back to what it was. What cannot be made the other way (a completed task reopened,
a cancelled visit restored) is said plainly, with nothing written.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from datetime import datetime

from assistant.confirmation import when_said
from assistant.dialogue_state import Action, Dialogue
from assistant.language import Intent
from assistant.language.patterns import rx
from assistant.language.targets import TargetRef
from assistant.models.embedded.pinning import pinned, task_change
from assistant.resolve import Item

_UNDO = rx(
    # ("never mind, undo that": the take-back, not a request let go, "Okay, no problem.",
    # over a cancel the CRM had made)
    r"^(?:(?:oh|ok|okay|actually|wait|no|hmm|sorry|um|ugh|argh|never ?mind|forget it"
    r"|on second thought)[, ]+)*"
    r"(?:please |can you |could you |just )?"
    # ("scratch that last change": the last change, taken back)
    r"(?:undo|reverse|revert|take back|scratch|put (?:it|that) back|change (?:it|that) back"
    r"|move (?:it|that) back to where it was)(?: that| it| this| the last (?:change|thing|one)"
    # "actually undo that booking" a question after it: the change just made, by its kind
    r"| (?:that|the|this) (?:last |new )?(?:booking|change|move|reminder|task)"
    r"| what you (?:just )?did| my last (?:change|request))?"
    # "change it back to how it was", "put it back the way it was before"
    r"(?: (?:to )?(?:how|the way|what|where) (?:it|that) (?:was|had been)(?: before)?)?"
    r"(?: please| for me)?[.!]?$"
)
# "no wait, cancel that", "actually scratch that": the last change taken back, said with
# a word that retracts it (a bare "cancel that" may mean the visit in focus).
_TAKEN_BACK = rx(
    r"^(?:(?:oh|oops|no|nope|wait|actually|sorry|hang on|hold on|um|hmm)[, ]+)+"
    r"(?:please |just )?(?:cancel|scratch|forget|drop|never ?mind|don't do) (?:that|it)"
    r"(?: please| then)?[.!]?$"
)
# "never mind, don't add it", "actually I don't want to book that": right after the
# change, what was just done said as not wanted (it was answered "Okay, I won't change
# anything" over the task just added: told the opposite of what the CRM held).
_SAID_NOT_TO = rx(
    r"^(?:(?:oh|oops|no|nope|wait|actually|sorry|hang on|hold on|um|hmm|never ?mind"
    r"|forget it|on second thought)[, ]+)*"
    r"(?:i )?(?:don't|do not|didn't want to|don't want to|do not want to|did not want to)"
    r"\s+(?P<verb>add|book|move|reschedule|change|put|cancel|delete|remove|mark|complete"
    r"|finish)\s+(?:it|that|this)(?: (?:as )?(?:done|complete|completed|finished))?"
    r"(?: after all| anymore| any more| please| then| in| down)?[.!]?$"
)
_VERB_OF = {
    "add": ("crm.addTask",),
    "put": ("crm.addTask",),
    "book": ("crm.bookAppointment",),
    "move": ("crm.rescheduleAppointment",),
    "reschedule": ("crm.rescheduleAppointment",),
    "change": ("crm.rescheduleAppointment", "crm.updateTask"),
    # "no wait, don't cancel it" just after the cancel: said to stay cancelled (it was
    # "Okay, I won't change anything" over the haircut just cancelled).
    "cancel": ("crm.cancelAppointment",),
    "delete": ("crm.deleteTask",),
    "remove": ("crm.deleteTask",),
    "mark": ("crm.completeTask",),
    "complete": ("crm.completeTask",),
    "finish": ("crm.completeTask",),
}
# "no wait, don't cancel my haircut" said a turn or two after it was cancelled: it is, and
# stays so (was: "Okay, I won't change anything").
_NOT_TO_NAMED = rx(
    r"^(?:(?:oh|oops|no|nope|wait|actually|sorry|hang on|hold on|um|hmm|never ?mind"
    r"|on second thought)[, ]+)*"
    r"(?:i )?(?:don't|do not|dont|didn't want to|don't want to|do not want to|did not want to)"
    r"\s+(?P<verb>cancel|delete|remove)\s+(?:my|the) (?P<w>[a-z][a-z' ]*?)"
    r"(?: one| task| appointment| booking| visit)?"
    r"(?: after all| anymore| any more| please| then)?[.!]?$"
)
# "no wait, I don't need that", "actually, don't bother", "forget it", "I'd rather keep the
# original time", "I changed my mind": right after a change, said as not wanted (they were
# answered "Sorry, I can't help with that" or "Okay, no problem" over the change made).
_RETRACT = (
    r"^(?:(?:oh|oops|no|nope|wait|actually|sorry|hang on|hold on|um|hmm|never ?mind"
    r"|on second thought|(?:i|i've|i have) changed my mind)[, ]+)*"
)
_NOT_WANTED = rx(
    _RETRACT + r"(?:(?:i|we) (?:don't|do not|didn't|did not) (?:need|want|mean) (?:that|it|this)"
    r"(?: one| reminder| task| to-?do| booking| appointment| visit)?"
    r"(?: anymore| any more| after all| now| then)?"
    r"|(?:please |just )?don't bother(?: with (?:it|that))?"
    r"|forget (?:about )?(?:it|that|this)"
    r"|(?:i(?:'d| would) rather |please |just )?(?:keep|leave) (?:it at |it on |it for )?the "
    r"(?:original|old|previous|first|earlier) (?:time|day|one)"
    r"|(?:i|i've|i have) changed my mind)(?: please| then)?[.!]?$"
)
# "forget about the plumber": the change just made, named by its item.
_FORGET_NAMED = rx(
    _RETRACT + r"(?:just )?forget (?:about )?the (?P<w>[a-z][a-z' ]*?)"
    r"(?: one| task| booking| appointment)?[.!]?$"
)
# "no, I changed my mind, keep it on sunday": back on the day it had (only that day).
_KEEP_ON = rx(
    _RETRACT + r"(?:i(?:'d| would) rather |please |just )?(?:keep|leave) it (?:on|for) "
    r"(?P<day>monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?: please| then)?[.!]?$"
)
# (Said so that it claims no change: "once it's cancelled" was read as a claim of a cancel
# this turn did not make, and the answer was replaced by "I haven't made every change I
# mentioned".)
CANNOT_RESTORE = (
    "A cancelled visit or a deleted task can't be brought back from here, but I can book or "
    "add it again as new if you like."
)
# "no, don't", "no wait, don't", "no, stop", "stop!" right after a change made and told,
# with no question asked since: that change taken back (was: "Okay, no problem." over
# the haircut just cancelled, the task just added).
_NO_DONT = rx(
    r"^(?:(?:oh|no|nope|wait|actually|hang on|hold on)[, ]+)*"
    r"(?:don't|do not|dont|stop)(?: (?:do|doing) (?:it|that)| it| that)?(?: please)?[.!]*$"
)


SEVERAL_NOT_ALL = (
    "Your last request made several changes, and not all of them can be made the other "
    "way from here (a completed task can't be reopened, nor a cancelled or deleted one "
    "brought back). Which one should I undo?"
)


# "actually undo the plants one": an earlier change of the conversation, named by its item.
_UNDO_NAMED = rx(
    r"^(?:(?:oh|ok|okay|actually|wait|no|hmm|sorry|um)[, ]+)*"
    r"(?:please |can you |could you |just )?(?:undo|reverse|revert|take back) the"
    r" (?P<w>[a-z]+(?: [a-z]+)?) (?:one|task|booking|appointment|change)(?: please)?[.!]?$"
)


# "undo both", "undo the last two": the last two changes of the conversation, each its
# own turn's ("undo both" after adding milk, then bread, asked to delete the bread only).
_UNDO_BOTH = rx(
    r"^(?:(?:oh|ok|okay|actually|wait|no|hmm|sorry|um)[, ]+)*"
    r"(?:please |can you |could you |just )?(?:undo|reverse|revert|take back)"
    r" (?:both(?: of them| of those| changes)?|them both|the last two(?: changes)?)"
    r"(?: please)?[.!]?$"
)


# "undo the second one", "put the first one back": one of the last turn's several changes,
# by its place among them.
_UNDO_PLACE = rx(
    r"^(?:(?:oh|ok|okay|actually|wait|no|hmm|sorry|um)[, ]+)*"
    r"(?:please |can you |could you |just )?(?:(?:undo|reverse|revert|take back|scratch) the"
    r" (?P<p>first|second|last|other) (?:one|change|thing)"
    r"|put the (?P<q>first|second|last|other) (?:one|change|thing) back(?: (?:to )?(?:how|where)"
    r" it was)?)(?: please)?[.!]?$"
)


def _undo_place(state: Dialogue, text: str) -> list[Intent] | str | None:
    """One of the last turn's changes, by its place ("undo the second one" after "move the
    cleaning … and the haircut …": the haircut put back), made the other way or said to
    stay; None when the turn made one change or none (was: not understood)."""
    several = state.last_turn_actions
    if len(several) < 2 or (said := _UNDO_PLACE.match(text)) is None:
        return None
    place = said.group("p") or said.group("q")
    if place == "other" or (place == "second" and len(several) > 2):
        return None  # which one is not plain: asked as for any other
    action = several[0] if place == "first" else several[-1]
    return _reversed(action, text)


def _undo_both(state: Dialogue, text: str) -> list[Intent] | None:
    """The last two changes of the conversation made the other way, or None when either
    cannot be (which to undo is then asked, as for several of one turn)."""
    if _UNDO_BOTH.match(text) is None or len(state.done) < 2:
        return None
    undone: list[Intent] = []
    for entry in state.done[-2:]:
        reversed_ = _entry_reversed(entry, text)
        if reversed_ is None:
            return None
        undone += reversed_
    return undone


def _undo_named(state: Dialogue, text: str) -> list[Intent] | None:
    """The latest change of the conversation to the item named, made the other way: an
    added task deleted, a booking cancelled (each confirmed first), a move put back."""
    said = _UNDO_NAMED.match(text)
    if said is None:
        return None
    words = [w for w in said.group("w").split() if len(w) > 2]
    for entry in reversed(state.done):
        label = set(re.findall(r"[a-z]+", str(entry.get("label") or "").lower()))
        if not words or not set(words) & label:
            continue
        return _entry_reversed(entry, text)
    return None


def _entry_reversed(entry: dict[str, object], text: str) -> list[Intent] | None:
    """One remembered change made the other way, or None when it cannot be."""
    made, before = entry.get("made"), entry.get("before")
    if entry.get("tool") == "crm.addTask" and isinstance(made, dict) and made.get("id"):
        return [task_change("delete_task", made, {}, text)]
    if entry.get("tool") == "crm.bookAppointment" and isinstance(made, dict):
        return [Intent("cancel_appointment", target=pinned(made, "service"), clause=text)]
    if (
        entry.get("tool") == "crm.rescheduleAppointment"
        and isinstance(before, dict)
        and isinstance(before.get("starts_at"), str)
    ):
        target = _where_put(pinned(before, "service"), made)
        starts_at = str(before["starts_at"])
        return [Intent("reschedule_appointment", {"starts_at": starts_at}, target, clause=text)]
    return None


def _where_put(target: TargetRef, made: object) -> TargetRef:
    """The visit to move back, known to be where our move put it (`TargetRef.at`)."""
    at = made.get("starts_at") if isinstance(made, dict) else None
    return dataclasses.replace(target, at=at) if isinstance(at, str) else target


def changed_since(intent: Intent, items: Sequence[Item] | None, timezone: str) -> str | None:
    """Why an undo's move is not made, when the visit is no longer where our move put it:
    moved again or cancelled since (another tab, the phone, the office). Moving it back
    then would overwrite that later change unasked (it did: tab A's "undo that" put the
    haircut back to Sunday over tab B's move to Saturday). None when it is still there, or
    when nothing says where it was put."""
    target = intent.target
    if intent.kind != "reschedule_appointment" or target is None or target.at is None:
        return None
    if items is None:
        return None
    name = (target.phrase or "appointment").lower()
    found = next(
        (
            item
            for item in items
            if item.get("id") == target.item_id and item.get("status") != "cancelled"
        ),
        None,
    )
    if found is None:
        return (
            f"Your {name} isn't booked anymore: it's no longer on your calendar since my "
            "change, so there's nothing to move back."
        )
    now_at = found.get("starts_at")
    if not isinstance(now_at, str) or _same_moment(now_at, target.at):
        return None
    # (Worded to claim no change: "I moved", "was cancelled" read as claims are dropped.)
    return (
        f"Your {name} is now{when_said(now_at, timezone)}: it was changed again after my "
        "change, so I haven't moved it back. If you'd like it at another time, just tell me."
    )


def _same_moment(one: str, other: str) -> bool:
    try:
        return datetime.fromisoformat(one) == datetime.fromisoformat(other)
    except ValueError:
        return one == other


def _stays(tool: str, name: str) -> str | None:
    """What a cancel or delete that cannot be made the other way leaves, said plainly."""
    if tool == "crm.cancelAppointment" and name:
        return (
            f"Your {name.lower()} stays cancelled: a cancelled visit can't be brought back "
            "from here, but I can book it again if you like."
        )
    if tool == "crm.completeTask" and name:
        return (
            f"'{name}' stays marked done: a completed task can't be reopened from here, but I "
            "can add it again as a new task if you like."
        )
    if tool == "crm.deleteTask" and name:
        return (
            f"'{name}' stays deleted: a deleted task can't be brought back from here, but I "
            "can add it again as a new task if you like."
        )
    return None


def _not_to_named(state: Dialogue, text: str) -> str | None:
    """ "don't cancel my haircut" of a cancel of this conversation: said to stay."""
    said = _NOT_TO_NAMED.match(text)
    if said is None:
        return None
    tools = _VERB_OF[said.group("verb")]
    named = {w for w in said.group("w").split() if len(w) > 2}
    for entry in reversed(state.done):
        before = entry.get("before")
        name = str(entry.get("label") or (before or {}).get("title") or "")
        if not named or not named <= set(re.findall(r"[a-z']+", name.lower())):
            continue
        # (booked again since, say: that one is not what was cancelled)
        return _stays(str(entry.get("tool")), name) if entry.get("tool") in tools else None
    return None


# "wait, not the eye exam" just after a turn that changed several: that one taken back.
_NOT_THAT_ONE = rx(
    r"^(?:(?:oh|ok|okay|actually|wait|no|hmm|sorry|um|oops|hang on|hold on)[, ]+)*"
    r"(?:but )?not (?:the|my) (?P<w>[a-z]+(?: [a-z]+)?)(?: one| task| appointment| booking)?"
    r"(?: please| though)?[.!]?$"
)


def _not_that_one(state: Dialogue, text: str) -> list[Intent] | str | None:
    """One of the last turn's several changes taken back by its name: made the other way,
    or said to stay when it can't be (was: "not the eye exam" marked it done again, told
    "was already marked complete")."""
    several = len(state.last_turn_actions)
    if several < 2 or (said := _NOT_THAT_ONE.match(text)) is None:
        return None
    words = {w for w in said.group("w").split() if len(w) > 2}
    for entry in reversed(state.done[-several:]):
        label = str(entry.get("label") or "")
        if not words or not words <= set(re.findall(r"[a-z']+", label.lower())):
            continue
        return _entry_reversed(entry, text) or _stays(str(entry.get("tool")), label)
    return None


def undo(state: Dialogue, text: str) -> list[Intent] | str | None:
    """The changes that undo the last turn's (all of them: "that" is what was just done),
    a plain answer when none can, or None when the message asks for no undoing."""
    if state.done and (stays := _not_to_named(state, text)) is not None:
        return stays
    if state.done and (one := _not_that_one(state, text)) is not None:
        return one
    if state.last_turn_actions and (placed := _undo_place(state, text)) is not None:
        return placed
    action = state.last_action
    if action is not None and (named := _undo_named(state, text)) is not None:
        return named
    if action is not None and (both := _undo_both(state, text)) is not None:
        return both
    if action is None or not (_UNDO.match(text) or _taken_back(state, action, text)):
        return None
    several = state.last_turn_actions
    if len(several) < 2 or several[-1] != action:
        return _reversed(action, text)
    undone: list[Intent] = []
    for each in several:
        reversed_ = _reversed(each, text)
        if not isinstance(reversed_, list):
            # One of them cannot be made the other way: which to undo is asked, rather
            # than some undone and the customer told "undone".
            return SEVERAL_NOT_ALL
        undone += reversed_
    return undone


# "actually leave it where it was", "keep it as it was" (of a move just made).
_LEFT_AS_IT_WAS = rx(
    r"^(?:(?:oh|oops|no|nope|wait|actually|sorry|hang on|hold on|um|hmm|never ?mind)[, ]+)*"
    r"(?:please |just )?(?:leave|keep|put) (?:it|that) (?:where|as|how|back where) it was"
    r"(?: please| then)?[.!]?$"
)


def takes_back(text: str) -> bool:
    """The whole message takes back the change just asked ("undo that", "no wait, cancel
    that", "never mind, don't add it", "leave it where it was"), whatever the dialogue."""
    return bool(
        _UNDO.match(text)
        or _TAKEN_BACK.match(text)
        or _SAID_NOT_TO.match(text)
        or _LEFT_AS_IT_WAS.match(text)
        or _NOT_WANTED.match(text)
    )


def _taken_back(state: Dialogue, action: Action, text: str) -> bool:
    """ "no wait, cancel that" right after a change: "that" is the change, while the item
    it made or changed is still the one in focus (it was taken for nothing said, "Okay,
    no problem.", and the task just added stayed). "never mind, don't add it" too, when
    its verb is the change's."""
    said_not_to = _SAID_NOT_TO.match(text)
    if said_not_to is not None and action.tool not in _VERB_OF[said_not_to.group("verb")]:
        return False
    if state.since_change == 0 and state.question is None:
        if _NO_DONT.match(text):
            return True  # said of the change just told, whatever is in focus now
        if said_not_to is not None and action.tool in ("crm.cancelAppointment", "crm.deleteTask"):
            return True  # "don't delete it": what is gone has no item left in focus
    if action.after is None or state.focus is None:
        return False
    if _TAKEN_BACK.match(text):
        return bool(action.after.get("id")) and action.after.get("id") == state.focus.get("id")
    if state.since_change > 0:
        return False  # said after another answer: about that, not the change before it
    if said_not_to is None and not (
        _NOT_WANTED.match(text)
        or _LEFT_AS_IT_WAS.match(text)
        or _forgets_it(action, text)
        or _kept_on_its_day(action, text)
    ):
        return False
    return bool(action.after.get("id")) and action.after.get("id") == state.focus.get("id")


def _forgets_it(action: Action, text: str) -> bool:
    """ "forget about the plumber" just after the plumber task was added."""
    said = _FORGET_NAMED.match(text)
    if said is None or action.after is None:
        return False
    named = {w for w in said.group("w").split() if len(w) > 2}
    label = str(action.after.get("title") or action.after.get("service") or "").lower()
    return bool(named) and named <= set(re.findall(r"[a-z']+", label))


def _kept_on_its_day(action: Action, text: str) -> bool:
    """ "keep it on sunday" just after a move from a Sunday: back where it was."""
    said = _KEEP_ON.match(text)
    before = (action.before or {}).get("starts_at")
    if said is None or action.tool != "crm.rescheduleAppointment" or not isinstance(before, str):
        return False
    try:
        day = datetime.fromisoformat(before).strftime("%A").lower()
    except ValueError:
        return False
    return day == said.group("day")


def _reversed(action: Action, text: str) -> list[Intent] | str | None:
    before, after = action.before or {}, action.after or {}
    if action.tool == "crm.rescheduleAppointment" and before.get("starts_at") and after:
        target = _where_put(pinned(after, "service"), after)
        starts_at = str(before["starts_at"])
        return [Intent("reschedule_appointment", {"starts_at": starts_at}, target, clause=text)]
    if action.tool == "crm.bookAppointment" and after.get("id"):
        return [Intent("cancel_appointment", target=pinned(after, "service"), clause=text)]
    if action.tool == "crm.addTask" and after.get("id"):
        return [task_change("delete_task", after, {}, text)]
    if action.tool == "crm.updateTask" and before and after.get("id"):
        back = {
            key: before[key]
            for key in action.arguments
            if key in ("priority", "due_on", "title") and before.get(key)
        }
        return [task_change("update_task", after, back, text)] if back else None
    if action.tool in ("crm.cancelAppointment", "crm.deleteTask"):
        # Said with what was cancelled or deleted, as for a completion below.
        name = str(after.get("service") or after.get("title") or before.get("title") or "")
        return _stays(action.tool, name) or CANNOT_RESTORE
    if action.tool == "crm.completeTask" and after.get("title"):
        # Said plainly, with what was done named (was: "I can't help with that", as if
        # nothing had been marked).
        return (
            f"'{after['title']}' stays complete: a completed task can't be reopened from "
            "here, but I can add it again as a new task if you like."
        )
    return None
