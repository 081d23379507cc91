"""The answer to "which one?": the request that was asked about, now for the one named.

"can you move it to friday at 2" → "Which appointment should I move: …?" → "the haircut":
the move of the haircut to Friday at 2. "mark it as done" → "Which task do you mean: …?"
→ "the groceries": the groceries task completed. The request is the customer's own
earlier words (kept as the dialogue's `about`), read again against the one now named;
a reply that asks for something of its own is read as it stands instead.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from assistant.dialogue_state import Dialogue, Item, Kind
from assistant.language import Intent
from assistant.language.indirect import as_asked
from assistant.language.patterns import rx
from assistant.language.targets import TargetRef
from assistant.language.text import normalize
from assistant.models.embedded.pinning import (
    appointment_follow_up,
    as_pronoun,
    named_listed,
    positions_said,
    task_follow_up,
)
from assistant.models.embedded.task_anchored import visit_moved_to_that_day

# What the open question was about, by the dialogue's `question`.
_ASKED_KIND: dict[str, Kind] = {"which_move": "appointment", "which_task": "task"}

# A reply with a request of its own ("the haircut, and book me a physio") is not only
# the answer to the question.
_OWN_REQUEST = rx(
    r"\b(?:book|cancel|delete|remove|add|move|push|reschedule|complete|mark|change|open|make"
    r"|set|put|but|instead|actually|rather|not"
    # "and the groceries one is done" to "which one should be due friday?": a change of
    # its own (was: the groceries made due friday)
    r"|done|finished)\b"
)
# A day or time of its own: "the plumber one, saturday though".
_OWN_WHEN = rx(
    r"\d|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:today|tomorrow|tonight|noon"
    r"|morning|afternoon|evening|week|month)\b"
)
# "same time on friday", "on friday": the day of the request asked about, said again.
_SAME_AGAIN = rx(r"^(?:(?:at )?(?:the )?same time )?(?:on |for |to )?(?P<day>[a-z]+day)\W*$")


# A reply that asks a question of its own ("wait, what time is my dentist at?") answers
# nothing: the item it names is asked about, never changed.
# "which one's first": asked back, not chosen ("first" there names no one).
_ASKS = rx(r"\b(?:what|when|where|why|who|how)\b(?! about\b)|^which\b")


def _said_again(text: str, about: str) -> bool:
    """ "the dentist one then, same time on friday" to "which should I move" about "move my
    appointment to friday": the day the request said, said again (nothing new)."""
    tail = text.rsplit(",", 1)[-1].strip() if "," in text else ""
    again = _SAME_AGAIN.match(tail)
    return again is not None and re.search(rf"\b{again.group('day')}\b", about) is not None


# "the later one", "the earliest": a visit named by when it is, among those offered.
_BY_TIME = rx(
    r"\b(?:the )?(?:(?P<late>later|latest)|(?P<early>earlier|earliest|sooner|soonest|next))"
    r"(?: one| appointment| visit)\b"
)
# "the cleaning, no wait, the other one": the answer put right inside itself; the words
# after the last mark are the answer.
_PUT_RIGHT = rx(
    r"(?:^|[\s,.;!-]+)(?:no wait|no sorry|no no|wait|sorry|i mean|i meant|or rather)\b[\s,.;!-]*"
)
_MAY_PUT_RIGHT = rx(r"wait|mean|sorry|rather")
_OTHER_ONE = rx(r"^(?:no,? )?(?:the )?other (?:one|appointment|visit|task)\b")


# "and the other one too" (asked which, after a to-do was done): the same again, its verb
# the last change's ("and the other one too" alone names no change).
_OTHER_TOO = rx(r"\bthe other (?:one|task|to-?do|reminder)\b")
_DONE_AGAIN = {"crm.completeTask": "complete it", "crm.deleteTask": "delete it"}


# "ok that one then": the one just told of (which_asked_back: "…is the earlier one").
_THAT_ONE = rx(r"^(?:(?:ok|okay|yes|yeah|fine|right|alright|great),? )*(?:that|this) one\b")


def named_in_answer(state: Dialogue, kind: Kind, text: str) -> Item | None:
    listed = state.listed_of(kind)
    if (
        _THAT_ONE.search(text)
        and (focus := state.focus_of(kind)) is not None
        and any(item is focus for item in listed)
    ):
        return focus
    marks = list(_PUT_RIGHT.finditer(text)) if _MAY_PUT_RIGHT.search(text) else []
    if marks and marks[-1].start() > 0 and text[marks[-1].end() :].strip(" .!"):
        before, after = text[: marks[-1].start()], text[marks[-1].end() :]
        if _OTHER_ONE.search(after) and len(listed) == 2:
            first = named_in_answer(state, kind, before)
            return None if first is None else next((i for i in listed if i is not first), None)
        return named_in_answer(state, kind, after)
    positions = [p for p in positions_said(text) if -len(listed) <= p < len(listed)]
    found = named_listed(state, kind, text) or (listed[positions[0]] if positions else None)
    if found is None and kind == "appointment" and (by_time := _BY_TIME.search(text)):
        timed = sorted(listed, key=lambda item: str(item.get("starts_at") or ""))
        if timed:
            found = timed[-1] if by_time.group("late") else timed[0]
    return found


# "the one this week", "the one next week": the visits offered, by the week they fall in.
_IN_WEEK = rx(
    r"^(?:(?:ok|okay|um|uh|hmm|well|oh),? )*(?:the )?(?:one|appointment|visit)"
    r" (?:(?P<this>this)|next) week\W*$"
)


def in_week_named(state: Dialogue, text: str, now: datetime) -> tuple[Item, ...] | None:
    """The visits offered that fall in the week the reply names (Monday to Sunday), or
    None when it names none."""
    said = _IN_WEEK.search(text)
    if said is None:
        return None
    today = now.date()
    start = today - timedelta(days=today.weekday()) + timedelta(days=0 if said.group("this") else 7)
    found: list[Item] = []
    for item in state.listed_of("appointment"):
        starts = item.get("starts_at")
        if isinstance(starts, str):
            day = datetime.fromisoformat(starts).astimezone(now.tzinfo).date()
            if start <= day < start + timedelta(days=7):
                found.append(item)
    return tuple(found)


# "the one on sunday", "the sunday one": a visit offered, named by its day (not a day of
# its own for the request).
_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ON_ITS_DAY = rx(
    r"^(?:(?:ok|okay|um|uh|oh|well),? )*(?:the |my )?(?:one|appointment|visit) on (?:the )?"
    rf"(?P<d>{'|'.join(_DAYS)})\W*$"
    rf"|^(?:(?:ok|okay|um|uh|oh|well),? )*(?:the |my )?(?P<d2>{'|'.join(_DAYS)}) (?:one|appointment"
    r"|visit)\W*$"
)


def _on_its_day(state: Dialogue, text: str, zone: ZoneInfo) -> Item | None:
    said = _ON_ITS_DAY.search(text) if "day" in text else None
    if said is None:
        return None
    weekday = _DAYS.index(said.group("d") or said.group("d2"))
    found = [
        item
        for item in state.listed_of("appointment")
        if isinstance(starts := item.get("starts_at"), str)
        and datetime.fromisoformat(starts).astimezone(zone).weekday() == weekday
    ]
    return found[0] if len(found) == 1 else None


def which_answered(
    state: Dialogue, text: str, now: datetime, zone: ZoneInfo
) -> list[Intent] | None:
    """The request asked about, aimed at the item the reply names; None otherwise."""
    kind = _ASKED_KIND.get(state.question or "")
    if kind is None or not state.about or _OWN_REQUEST.search(text) or _ASKS.search(text):
        return None
    by_day = _on_its_day(state, text, zone) if kind == "appointment" else None
    if (
        by_day is None
        and _OWN_WHEN.search(text)
        # ("the one next week": the week names one offered, no day of its own)
        and not (kind == "appointment" and "week" in text and _IN_WEEK.search(text))
        and not _said_again(text, normalize(state.about).text)
    ):
        return None
    meant = by_day or named_in_answer(state, kind, text)
    if meant is None and kind == "appointment" and (week := in_week_named(state, text, now)):
        if len(week) > 1:
            # "the one this week" when both are: which is asked again
            return [Intent("reschedule_appointment", target=TargetRef(phrase="it"), clause=text)]
        meant = week[0]
    if meant is None:
        return None
    about = normalize(state.about).text
    if kind == "appointment" and "that" in about:
        # "move an appointment to the day after that" → "the cleaning": the day counted as
        # it was when asked (was: from the cleaning's own day once named)
        about = as_asked((visit_moved_to_that_day(about, state, zone.key) or about).lower())
    asked = as_pronoun(about)
    last = state.last_action
    if (
        kind == "task"
        and last is not None
        and last.tool in _DONE_AGAIN
        and _OTHER_TOO.search(asked)
    ):
        # "and the other one too" after a to-do was done, which asked: the same done to it
        asked = _DONE_AGAIN[last.tool]
    if kind == "appointment":
        return appointment_follow_up(asked, meant, now, zone, correcting=False)
    return task_follow_up(asked, meant, now)


__all__ = ["in_week_named", "named_in_answer", "which_answered"]
