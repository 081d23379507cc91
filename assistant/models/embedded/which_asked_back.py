""" "which is earlier?" asked back to "which appointment should I move?": answered from
the visits offered, and the question stays open.

A reply that asks which of the offered comes first or last ("which one's sooner", "which
ones first", "which is later?") answers nothing: no position or time in it names the one
meant ("first" there is asked, not chosen). The one asked about is told, and the question
is asked again ("the earlier one then" answers it next).
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from assistant.dialogue_state import Dialogue
from assistant.language.patterns import rx
from assistant.models.embedded.pinning import start_of
from assistant.speech import lower_first, spoken_datetime

# The questions of which visit is meant ("which_task" lists to-dos: no time to compare).
_WHICH_VISIT = frozenset({"which_move", "which_cancel"})
# "which one is earlier", "which ones first", "which of them comes first", "which is later?"
_ASKED_BACK = rx(
    r"^(?:(?:and|so|ok|okay|um|uh|hmm|wait|sorry|well),? )*which\b(?! (?:ever|one (?:do|did)"
    r" you)\b)[a-z' ]{0,30}?\b(?P<w>earlier|earliest|first|sooner|soonest|next|later|latest"
    r"|last)\b[a-z .,!?']{0,25}$"
)
_FIRST = frozenset({"earlier", "earliest", "first", "sooner", "soonest", "next"})
# The question asked again (in words the dialogue does not take for a new question: the
# one asked, and what it was about, stay open).
_AGAIN = "Which one would you like?"


# "which one is on the weekend?", "which of them is on a weekday?": which of those offered
# falls then.
_ON_WEEKEND = rx(
    r"^(?:(?:and|so|ok|okay|um|uh|hmm|wait|sorry|well),? )*which\b(?: one| of them)?(?:'s| is)"
    r" (?:on |at )?(?:the |a )?(?P<w>weekend|weekday|week ?day)\b[a-z .,!?']{0,25}$"
)


def _on_weekend_answer(state: Dialogue, said: str, zone: ZoneInfo, now: datetime) -> str | None:
    """ "which one is on the weekend?" to "which one should I cancel?": the one offered that
    is (the question asked again), or None when it is not exactly one."""
    match = _ON_WEEKEND.search(said)
    if match is None:
        return None
    weekend = match.group("w") == "weekend"
    found = [
        (start, item)
        for item in state.listed_of("appointment")
        if (start := start_of(item, zone)) and (start.astimezone(zone).weekday() >= 5) == weekend
    ]
    if len(found) != 1:
        return None
    start, item = found[0]
    service = lower_first(str(item.get("service") or "appointment"))
    when = spoken_datetime(start.astimezone(zone), now)
    on = when if when.startswith(("today", "tomorrow")) else f"on {when}"
    return f"Your {service} {on} is the one on the {match.group('w')}. {_AGAIN}"


def asked_back(text: str) -> bool:
    """Whether `text` asks which of those offered comes first or last (a cheap word test
    first: most replies say no "which")."""
    said = text.lower()
    spoken = " ".join(said.split())
    return "which" in said and (
        _ASKED_BACK.search(spoken) is not None or _ON_WEEKEND.search(spoken) is not None
    )


def which_asked_back(state: Dialogue, text: str, now: datetime, zone: ZoneInfo) -> str | None:
    """The answer to "which is earlier?" asked during "which one should I move?", or None."""
    if state.question not in _WHICH_VISIT or "which" not in text.lower():
        return None
    spoken = " ".join(text.lower().split())
    said = _ASKED_BACK.search(spoken)
    if said is None:
        return _on_weekend_answer(state, spoken, zone, now) if "week" in spoken else None
    timed = [
        (start, item) for item in state.listed_of("appointment") if (start := start_of(item, zone))
    ]
    if len(timed) < 2:
        return None
    timed.sort(key=lambda pair: pair[0])
    first = said.group("w") in _FIRST
    item = timed[0][1] if first else timed[-1][1]
    service = lower_first(str(item.get("service") or "appointment"))
    when = spoken_datetime(start.astimezone(zone), now) if (start := start_of(item, zone)) else ""
    on = when if when.startswith(("today", "tomorrow")) else f"on {when}"
    which = "earlier" if first else "later"
    return f"Your {service} {on} is the {which} one. {_AGAIN}"


__all__ = ["asked_back", "which_asked_back"]
