"""A visit or to-do named from the one in view: "move the one after that to friday".

Just after "your next appointment is a dental cleaning on Wednesday", "the one after that"
is the visit after the cleaning, never the cleaning. The follow-up rules read a change
said with no name as a change of the item in view, so this is read first: the item is
named by where it stands beside the one in view (`TargetRef.anchor`, pinned to it by id),
and found in the CRM's listing like any other description. So is one named beside another
visit ("the one after the cleaning"): the description is kept as said, not re-aimed at the
cleaning because the cleaning was named.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime

from assistant.dialogue_state import Dialogue, Kind
from assistant.language import Intent, detect_intents
from assistant.language.intent import APPOINTMENT_ACTIONS, TASK_ACTIONS
from assistant.language.patterns import rx
from assistant.language.targets import TargetRef
from assistant.models.embedded.pinning import pinned

# "the one after that", "the appointment right before it", "the following one": beside
# the one just talked of. (Not "after that, book…": a "the …" names the thing.)
_BESIDE_THAT = rx(
    r"\b(?:the|my) (?:next )?(?P<noun>one|appointment|visit|booking|task|to-?do|reminder)"
    r"(?: (?:right|just|straight|directly|that comes|that's|coming))?"
    r" (?P<side>after|before|following|preceding) (?:that one|this one|that|this|it)\b"
    # "the one after it in your list": the list it was read out in
    r"(?: (?:in|on) (?:your|the|that) list)?"
    r"|\bthe (?P<side2>following) (?P<noun2>one|appointment|visit|booking|task|to-?do)\b"
)
# What a move said without its verb goes on with: "… to saturday at noon", "… to friday".
_TO_A_DAY = rx(r",? (?:to|till|until|for) (?:\w+day|tomorrow|the \d|next|\d)")
_SIDES = {"after": 1, "following": 1, "before": -1, "preceding": -1}
_KIND_OF = {
    "appointment": "appointment",
    "visit": "appointment",
    "booking": "appointment",
    "task": "task",
    "todo": "task",
    "to-do": "task",
    "reminder": "task",
}
_SAID_FOR = {"appointment": "my appointment", "task": "my task"}
# "the next one" just after a visit was talked of: that visit (the calendar's next) or the
# one after it; which is asked, never guessed.
_NEXT_ONE = rx(r"\bthe next one\b")
# A word that may name one thing beside another: nothing else is looked at.
_GATE = rx(r"\b(?:after|before|following|preceding|next one)\b")
_CHANGES = APPOINTMENT_ACTIONS | TASK_ACTIONS


def beside_in_view(state: Dialogue, text: str, now: datetime, timezone: str) -> list[Intent] | None:
    """The changes asked of an item named beside another, or None."""
    if _GATE.search(text) is None:
        return None
    if (said := _BESIDE_THAT.search(text)) is not None:
        return _beside_the_one_in_view(state, text, said, now, timezone)
    if state.focus_kind == "appointment" and (next_one := _NEXT_ONE.search(text)) is not None:
        return _which_is_next(text, next_one, now, timezone)
    found = detect_intents(text, now, timezone)
    if any(i.kind in _CHANGES and i.target is not None and i.target.anchor for i in found):
        # "move the one after the cleaning to monday": found as said, in the listing.
        return found
    return None


def _beside_the_one_in_view(
    state: Dialogue, text: str, said: re.Match[str], now: datetime, timezone: str
) -> list[Intent] | None:
    phrase = said.group(0)
    groups = said.groupdict()
    noun = (groups["noun"] or groups["noun2"]).lower()
    side = _SIDES[(groups["side"] or groups["side2"]).lower()]
    kind: Kind | None = _KIND_OF.get(noun) or state.focus_kind  # type: ignore[assignment]
    if kind not in _SAID_FOR:
        return None
    plain = text[: said.start()] + _SAID_FOR[kind] + text[said.end() :]
    actions = APPOINTMENT_ACTIONS if kind == "appointment" else TASK_ACTIONS
    found = detect_intents(plain, now, timezone)
    if (
        not any(i.kind in actions for i in found)
        and kind == "appointment"
        and state.last_action is not None
        and state.last_action.tool == "crm.rescheduleAppointment"
        and _TO_A_DAY.match(plain[said.start() :].removeprefix(_SAID_FOR[kind]))
    ):
        # "and the one after it to saturday at noon" just after a move: moved too, the verb
        # left unsaid (was: what comes after it told)
        found = detect_intents(f"move {plain[said.start() :]}", now, timezone)
    if not any(i.kind in actions for i in found):
        return None  # "what's the one after that?": a question, answered as one
    focus = state.focus_of(kind)
    # With nothing in view, "that" is unknown: the resolver asks which, naming them.
    anchor = pinned(focus, "service" if kind == "appointment" else "title") if focus else None
    target = TargetRef(phrase=phrase, anchor=anchor or TargetRef(phrase="that"), beside=side)
    return [
        dataclasses.replace(intent, target=target) if intent.kind in actions else intent
        for intent in found
    ]


def _which_is_next(
    text: str, said: re.Match[str], now: datetime, timezone: str
) -> list[Intent] | None:
    """ "can you move the next one to noon" just after the cleaning was told: asked which
    (a description that names none is asked about, naming them)."""
    plain = text[: said.start()] + "my appointment" + text[said.end() :]
    found = detect_intents(plain, now, timezone)
    if not any(i.kind in APPOINTMENT_ACTIONS for i in found):
        return None
    unsure = TargetRef(phrase=said.group(0))
    return [
        dataclasses.replace(intent, target=unsure) if intent.kind in APPOINTMENT_ACTIONS else intent
        for intent in found
    ]
