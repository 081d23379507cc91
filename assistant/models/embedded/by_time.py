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
