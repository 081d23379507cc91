""" "When's the second one due?", "and the first one?": one item of the list just heard,
named, so that a question about it reads like one about it by name."""

from __future__ import annotations

import dataclasses
import re

from assistant.dialogue_state import Dialogue, Item, Kind
from assistant.language.patterns import rx
from assistant.language.slots import clean_free_text, services_named
from assistant.models.embedded.pinning import ORDINALS

# "when's the second one due?", "and the first one?": a question about one listed item.
_ASKED_OF_ONE = rx(
    r"^(?:and |so |ok |okay |what about |how about )*(?:the )?(?:first|second|third|fourth"
    r"|fifth|last) one\W*$|\b(?:what|what's|when|when's|which|how|is|was|has|anything)\b"
)
# A change asked of the one counted, before it: read by its own rule, not as a question.
_ACTED_ON = rx(
    r"\b(?:cancel|move|delete|remove|push|reschedule|complete|tick|mark|drop|scrap|shift)"
    r" the (?:first|second|third|fourth|fifth|last) one\b"
)
_ORDINAL_ONE = rx(r"\bthe (?P<o>first|second|third|fourth|fifth|last) one\b")


# "and the plumber one, what day is that?": a task named by a word, then asked when.
_NAMED_THEN_WHEN = rx(
    r"^(?:(?:and|so|ok|okay|what about)\b\W*)*the (?P<w>[a-z]+(?: [a-z]+)?) (?:one|task)"
    r"\W+(?:what day|when)(?:'s| is| was)? (?:that|it)(?: due)?\W*$"
)


_MADE_BY = {"appointment": "crm.bookAppointment", "task": "crm.addTask"}


def made_in_conversation(state: Dialogue, kind: Kind) -> tuple[Item, ...]:
    """The items booked (or added) in the conversation, oldest first, each as last seen."""
    tool = _MADE_BY.get(kind)
    seen = {
        str(item.get("id")): item
        for item in (*state.earlier_listed, *state.listed, state.focus or {})
        if item.get("id")
    }
    made = [
        entry["made"]
        for entry in state.done
        if entry.get("tool") == tool and isinstance(entry.get("made"), dict)
    ]
    return tuple(seen.get(str(item.get("id")), item) for item in made)


def counted_in_made(state: Dialogue) -> Dialogue:
    """The state whose listing is the items just made, when "the second one" counts in
    them: two or more booked (or added), the last write one of them (or a change of one),
    and no list read out since (the visits looked up to check a booking's time were never heard)."""
    action = state.last_action
    if state.listed_heard or action is None or action.kind not in _MADE_BY:
        return state
    made = made_in_conversation(state, action.kind)
    if len(made) < 2:
        return state
    changed = str((action.after or action.before or {}).get("id"))
    if action.tool not in _MADE_BY.values() and changed not in {str(i.get("id")) for i in made}:
        return state  # the last change was of another item: not counted in these
    # (one of them changed since: "make the second one due friday" → "and the first one…")
    return dataclasses.replace(state, listed_kind=action.kind, listed=made)


# "what times are they at now?", "where are they?", "when are those again?": asked of the
# visits the last two changes moved or booked (the visits ahead read out).
_THEM_WHEN = rx(
    r"^(?:(?:and|so|ok|okay|right|great|thanks)\W+)*(?:what times?|when|where)(?: are| were)?"
    r" (?:they|those|them|both of them|the two of them)(?: both)?(?: at| on)?"
    r"(?: now| again| then)?(?P<due> due)?(?: now| again| then)?\W*$"
)
_VISIT_WRITES = frozenset({"crm.rescheduleAppointment", "crm.bookAppointment"})
UPCOMING_ASKED = "what are my upcoming appointments?"
# "when are they both due?" just after two to-dos were changed (or added): each one's day.
_TASK_WRITES = frozenset({"crm.updateTask", "crm.addTask"})
DUE_DAYS_ASKED = "when are they all due?"


# "what's left?" alone, just after a visit was cancelled (or moved): the visits ahead.
_WHATS_LEFT = rx(
    r"^(?:(?:and|so|ok|okay|right|then)\W+)*(?:what's|what is|whats) (?:left|remaining)"
    r"(?: now| then)?\W*$"
)


def them_asked(state: Dialogue, message: str) -> str:
    """ "what times are they at now?" just after two visits were moved (or booked): the
    visits ahead asked for, so both are told (was "I can't help with that"); "when are
    they both due?" just after two to-dos were changed: each one's day. "what's left?"
    just after a visit was changed: the visits ahead (was: the to-dos read out)."""
    lowered = message.lower()
    if (
        "left" in lowered
        and state.since_change == 0
        and state.last_action is not None
        and state.last_action.kind == "appointment"
        and _WHATS_LEFT.search(lowered)
    ):
        return UPCOMING_ASKED
    if "th" not in lowered or (asked := _THEM_WHEN.search(lowered)) is None:
        return message
    last = state.done[-2:]
    if (
        asked.group("due")
        and len(last) == 2
        and all(entry.get("tool") in _TASK_WRITES for entry in last)
    ):
        return DUE_DAYS_ASKED
    if len(last) < 2 or any(entry.get("tool") not in _VISIT_WRITES for entry in last):
        return message
    return UPCOMING_ASKED


def ordinal_named(state: Dialogue, message: str) -> str:
    """ "when's the second one due?" after a list: the second one listed, named (questions
    only; an action counted in a list is read by its own rule). "the plumber one, what day
    is that?": when that task is due (a visit named so is asked about as it is)."""
    if (them := them_asked(state, message)) is not message:
        return them
    lowered = message.lower()
    if "one" in lowered or "task" in lowered:
        asked_when = _NAMED_THEN_WHEN.match(lowered)
        if asked_when is not None and not services_named(asked_when.group("w")):
            return f"when is the {asked_when.group('w')} one due?"
    one = _ORDINAL_ONE.search(lowered)
    if one is not None:
        state = counted_in_made(state)
    if one is None or state.listed_kind not in ("task", "appointment") or len(state.listed) < 2:
        return message
    if not _ASKED_OF_ONE.search(lowered) or _ACTED_ON.search(lowered, 0, one.end()):
        return message  # ("cancel the second one, I'll see how the first goes": an ask)
    index = ORDINALS[one.group("o")]
    if not -len(state.listed) <= index < len(state.listed):
        return message
    item = state.listed[index]
    label = str(item.get("service") or item.get("title") or "").lower()
    if not label:
        return message
    if (
        sum(str(i.get("service") or i.get("title") or "").lower() == label for i in state.listed)
        > 1
    ):
        return message  # (two haircuts offered: "the haircut" would not tell which)
    named = f"the {label}" if state.listed_kind == "appointment" else f"the {label} task"
    # "the first one, what time is that?": "that" is the one named.
    after, replaced = re.subn(
        r"\b(is|was|'s) (?:that|it|this)\b", rf"\1 {named}", lowered[one.end() :], count=1
    )
    if replaced and re.fullmatch(r"(?:(?:and|so|ok|okay)\W+)*", lowered[: one.start()]):
        # "the second one, what time was that again?": asked once, of it by name (named
        # twice, the question read as one about every visit)
        return after.lstrip(" ,;:-–—")
    return lowered[: one.start()] + named + after


# "move the first one to saturday", "and the other one to wednesday": one of the items of
# several kinds the last answer told (Dialogue.told), counted in the order spoken.
_ONE_TOLD = rx(r"\b(?:the|that) (?P<o>first|second|last|other) one\b")


def told_named(state: Dialogue, message: str) -> str:
    """ "move the first one to saturday" after "your haircut is on Sunday … Buy groceries is
    due tomorrow": the haircut, named ("the other one": the one told not in focus)."""
    if " one" not in message:
        return message  # most turns count nothing
    lowered = message.lower()
    one = _ONE_TOLD.search(lowered)
    if one is None:
        return message
    told = state.told
    if not told and (made := counted_in_made(state)) is not state:
        # "make the second one due friday" just after two were added, no list read out:
        # counted in those added (the list looked up to check for a twin was never heard)
        told = tuple((made.listed_kind, item) for item in made.listed if made.listed_kind)
    if not told:
        return message
    state = dataclasses.replace(state, told=told)
    if one.group("o") == "other":
        focus_id = str((state.focus or {}).get("id"))
        others = [entry for entry in state.told if str(entry[1].get("id")) != focus_id]
        if len(others) != 1 or len(others) == len(state.told):
            return message
        kind, item = others[0]
    else:
        index = ORDINALS[one.group("o")]
        if not -len(state.told) <= index < len(state.told):
            return message
        kind, item = state.told[index]
    label = str(item.get("service") or item.get("title") or "").lower()
    labels = [str(i.get("service") or i.get("title") or "").lower() for _, i in state.told]
    if not label or labels.count(label) > 1:
        return message  # (two physical therapies booked: a name would not tell which)
    named = f"the {label}" if kind == "appointment" else f"the {label} task"
    return lowered[: one.start()] + named + lowered[one.end() :]


# "and the high priority one, when's that due?": the one task of that priority heard of.
_OF_PRIORITY = rx(
    r"\b(?:the|that) (?:(?P<p>high|low|normal)(?:[- ]priority)?|(?P<u>urgent|important))"
    r" (?:one|task)\b"
)


def priority_named(state: Dialogue, message: str) -> str:
    """ "the high priority one, when's that due?" after the to-dos were read or one was
    done: the one pending task of that priority listed, named ("the renew car insurance
    task"), so that its day is told (was: the one in focus)."""
    lowered = message.lower()
    if "priority" not in lowered and "urgent" not in lowered and "important" not in lowered:
        return message  # most messages name no priority
    if "due" not in lowered and "when" not in lowered:
        return message  # ("the high priority one, what's that again?": read as it is)
    said = _OF_PRIORITY.search(lowered)
    if said is None:
        return message
    level = said.group("p") or "high"
    tasks = [
        item
        for item in state.last_listed_of("task")
        if item.get("status") != "completed" and item.get("priority") == level
    ]
    focus = state.focus_of("task")
    if focus is not None:  # as last seen (done since it was listed: not among them)
        tasks = [
            focus if item.get("id") == focus.get("id") else item
            for item in tasks
            if item.get("id") != focus.get("id") or focus.get("status") != "completed"
        ]
    title = str(tasks[0].get("title") or "").lower() if len(tasks) == 1 else ""
    if not title:
        return message
    return f"{lowered[: said.start()]}the {title} task{lowered[said.end() :]}"


__all__ = ["ordinal_named", "priority_named", "them_asked", "told_named"]


# "and add a note to it saying get milk and eggs": a note to the to-do in view, and what it
# says (read whole: split at its "and", only "get milk" was noted and "eggs" not caught).
_NOTE_TO = re.compile(
    r"^(?P<lead>(?:(?:and|also|then|ok|okay|oh|please|can you|could you)\W+)*"
    r"(?:add|put|leave|stick|attach|write|pop) (?:a )?(?:quick |short )?note (?:to|on|onto) )"
    r"(?P<t>it|that|this|that one|this one|(?:the|my) [a-z' ]+?)"
    r"(?P<s>:| saying| that says| -) (?P<d>[^\"?!.]+?)[.!]?$",
    re.IGNORECASE,
)
# A change said after the note ("…saying get milk, and move it to friday"): not the note's.
_CHANGE_AFTER = re.compile(
    r"\b(?:and|then)\W+(?:also\W+)?(?:move|push|set|make|change|mark|tick|delete|remove|cancel"
    r"|book|add|give|put)\b",
    re.IGNORECASE,
)


def note_named(state: Dialogue, message: str) -> str:
    """A note said of "it" with a to-do in view, said of that to-do by its title, and the
    note's words quoted (read as one note)."""
    if "note" not in message.lower():
        return message
    said = _NOTE_TO.match(message.strip())
    if said is None or _CHANGE_AFTER.search(said.group("d")):
        return message
    target = said.group("t")
    if target.lower() in ("it", "that", "this", "that one", "this one"):
        task = state.focus_of("task") if state.focus_kind == "task" else None
        if task is None or not task.get("title"):
            return message
        target = f"the {str(task['title']).lower()} task"
    elif not re.search(r"\b(?:task|to-?do|reminder|one)\b", target, re.IGNORECASE):
        return message  # "a note to my haircut": a visit's, which holds none
    # (a thanks or please after it is said to the assistant, not written in the note)
    note = clean_free_text(said.group("d")) or said.group("d").strip()
    return f'{said.group("lead")}{target}{said.group("s")} "{note}"'


# "and the other thing I asked about, where is that?" after the haircut and then the bill
# were asked about: the one asked about before the one in view, of another kind.
_OTHER_THING = re.compile(
    r"\bthe other (?:thing|one)(?: (?:i|we) (?:asked|was asking|talked|spoke) (?:you )?about"
    r"| (?:i|we) (?:mentioned|asked you about))\b",
    re.IGNORECASE,
)


def other_thing_named(state: Dialogue, message: str) -> str:
    """ "the other thing I asked about" named: the visit or to-do in view before the one in
    view now (of another kind); as said when there is none."""
    if "other" not in message.lower():
        return message
    said = _OTHER_THING.search(message)
    if said is None:
        return message
    item, kind = state.earlier_focus, state.earlier_focus_kind
    if state.listed_kind is not None and state.listed_kind != state.focus_kind:
        # the bill read out last, the haircut still in view: the haircut
        item, kind = state.focus, state.focus_kind
    elif kind == state.focus_kind:
        return message
    if item is None:
        return message
    if kind == "appointment" and item.get("service"):
        named = f"my {str(item['service']).lower()}"
    elif kind == "task" and item.get("title"):
        named = f"the {str(item['title']).lower()} task"
    else:
        return message
    return f"{message[: said.start()]}{named}{message[said.end() :]}"
