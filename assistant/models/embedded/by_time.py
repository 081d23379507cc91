""" "cancel the earlier one", "move the later one to 10": of the visits just made, or just
read out, the one that comes first or last in time.

After "physio on tuesday at 9 and on thursday at 9 as well", "the earlier one" is
Tuesday's: no listing was read out to count positions in, and the words compare the
visits' times, not the order they were said in.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from assistant.dialogue_state import Dialogue, Item
from assistant.language import Intent
from assistant.language.patterns import rx
from assistant.models.embedded.pinning import appointment_follow_up, pinned, start_of

_BY_TIME = rx(
    r"\bthe (?P<w>earlier|earliest|sooner|soonest|later|latest) (?:one|appointment|visit"
    r"|booking|session)\b"
)
_FIRST = frozenset({"earlier", "earliest", "sooner", "soonest"})
_CANCEL = rx(r"\b(?:cancel|call off|scrap|drop)\b")


def _visits_in_view(state: Dialogue) -> tuple[Item, ...]:
    """The visits the last turn wrote, when it wrote two or more; else those read out."""
    made = tuple(
        action.after
        for action in state.last_turn_actions
        if action.kind == "appointment" and action.after is not None
    )
    return made if len(made) >= 2 else state.listed_of("appointment")


def by_time(state: Dialogue, text: str, now: datetime, zone: ZoneInfo) -> list[Intent] | None:
    """The ask, about the earlier or later of the visits in view; None if none is named so."""
    said = _BY_TIME.search(text)
    if said is None:
        return None
    timed = [(start, item) for item in _visits_in_view(state) if (start := start_of(item, zone))]
    if len(timed) < 2:
        return None
    timed.sort(key=lambda pair: pair[0])
    item = timed[0][1] if said.group("w") in _FIRST else timed[-1][1]
    text = text[: said.start()] + "it" + text[said.end() :]
    found = appointment_follow_up(text, item, now, zone, correcting=False)
    if found is None and _CANCEL.search(text):
        found = [Intent("cancel_appointment", target=pinned(item, "service"), clause=text)]
    return found


# "and the 10 o'clock an hour later", "cancel the 2:30": a visit named by the hour it starts
# at ("o'clock" is read as ":00"), not a new hour for the one in view. Not after a word
# that makes it the hour asked for ("move it to the 10:00 slot").
_TO_A_DAY = rx(r"\bit,? (?:to|till|until) (?:\w+day|tomorrow|the \d|next|\d)")
_BY_CLOCK = rx(
    r"(?<!\bto )(?<!\bat )(?<!\bfor )(?<!\buntil )(?<!\btill )(?<!\bbefore )(?<!\bafter )"
    r"(?<!\bfrom )(?<!\bby )\bthe (?P<h>\d{1,2}):(?P<m>\d{2})(?: ?(?P<half>am|pm|a\.m\.|p\.m\.))?"
    r"(?: (?:one|appointment|visit|booking|session))?\b(?! ?(?:slot|spot|time|one instead))"
)


def _visits_known(state: Dialogue) -> tuple[Item, ...]:
    """The visits read out, told or in view, each as last written (a move since counts)."""
    seen: dict[object, Item] = {}
    told = tuple(item for kind, item in state.told if kind == "appointment")
    focus = state.focus_of("appointment")
    for item in (*state.last_listed_of("appointment"), *told, *((focus,) if focus else ())):
        seen.setdefault(item.get("id"), item)
    actions = (*state.last_turn_actions, state.last_appointment_action, state.last_action)
    for action in actions:
        after = action.after if action is not None and action.kind == "appointment" else None
        if after is not None and after.get("id") in seen:
            seen[after.get("id")] = after
    return tuple(seen.values())


def by_clock(state: Dialogue, text: str, now: datetime, zone: ZoneInfo) -> list[Intent] | None:
    """The ask, about the one visit known that starts at the hour named; None otherwise."""
    if ":" not in text or "the " not in text:
        return None
    said = _BY_CLOCK.search(text)
    if said is None:
        return None
    hour, minute, half = int(said.group("h")), int(said.group("m")), said.group("half")
    hours = (
        {hour % 12 + (12 if half.startswith("p") else 0)} if half else {hour % 12, hour % 12 + 12}
    )
    at = [
        item
        for item in _visits_known(state)
        if item.get("status") != "cancelled"
        and (start := start_of(item, zone)) is not None
        and start.hour in hours
        and start.minute == minute
    ]
    if len(at) != 1:
        return None
    item = at[0]
    text = text[: said.start()] + "it" + text[said.end() :]
    found = appointment_follow_up(text, item, now, zone, correcting=False)
    last = state.last_action
    if (
        found is None
        and last is not None
        and last.tool == "crm.rescheduleAppointment"
        and _TO_A_DAY.search(text, said.start())
    ):
        # "and the 2:30 to friday as well" just after a move: moved too, the verb unsaid
        found = appointment_follow_up(f"move {text}", item, now, zone, correcting=False)
    if found is None and _CANCEL.search(text):
        found = [Intent("cancel_appointment", target=pinned(item, "service"), clause=text)]
    return found
