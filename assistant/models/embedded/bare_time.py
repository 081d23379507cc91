"""A time said alone right after a visit was booked or moved: asked about, then done on a yes.

"You're booked for a consultation on Friday at 2:00 PM." → "uh three o clock". On the
phone that is most likely "make it three", but it may be a question ("three o'clock?")
or a second visit: the house does not move a visit on a guess, so the time is read back
as a question ("Should I move your consultation on Friday, January 18 to 3:00 PM?"), and
only the customer's yes to it moves the visit. Anything else said next drops the question.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from assistant.dialogue_state import MOVE_QUESTION_START, Dialogue, Item
from assistant.language import Intent, detect_intents, find_when, is_affirmative
from assistant.language.confirm import request_after_yes
from assistant.language.patterns import rx
from assistant.language.slots import cut_spans, services_named
from assistant.language.text import normalize
from assistant.models.embedded.pinning import moved, reschedule, start_of
from assistant.speech import calendar_date, clock

_WRITES = frozenset({"crm.bookAppointment", "crm.rescheduleAppointment"})
# What may stand around the time: "ok at three then", "how about three please".
_AROUND = rx(
    r"\b(?:ok|okay|so|and|at|um|uh|er|well|maybe|how about|what about|make it|then|please"
    r"|instead|would be better|is better|works better|would work|is fine|thanks)\b|[\s,.!]+"
)


# The words of a move: the message before asked for the one just made.
_MOVED = rx(r"\b(?:move|push|reschedule|shift|bump|postpone|bring|change|put|make (?:it|that))\b")


def _just_written(state: Dialogue) -> Item | None:
    """The visit the last appointment write booked or moved, still in focus."""
    action = state.last_appointment_action
    focus = state.focus_of("appointment")
    if action is None or action.tool not in _WRITES or action.after is None or focus is None:
        return None
    return focus if focus.get("id") == action.after.get("id") else None


def move_question(state: Dialogue, message: str, now: datetime, zone: ZoneInfo) -> str | None:
    """ "three o clock" just after a booking: the question to ask, or None."""
    if state.held or (item := _just_written(state)) is None:
        return None
    text = normalize(message).text
    if text.endswith("?"):
        return None  # "three o'clock?" asks; it is answered by the question reader
    when = find_when(text, now)
    if when is None or when.clock is None or when.vague_time or not when.day_implied:
        return None
    if _AROUND.sub("", cut_spans(text, list(when.spans))):
        return None  # more was said than a time: the grammar reads it
    service = str(item.get("service") or "appointment").lower()
    starts_at = moved(text, item, now, zone)
    current = start_of(item, zone)
    if starts_at is None and current is not None and when.clock == current.time():
        # "3pm" after "your massage is booked for 3 PM": said back, nothing to move.
        return f"Yes, your {service} is on {calendar_date(current.date())} at {clock(current)}."
    if starts_at is None:
        return None
    moment = datetime.fromisoformat(starts_at)
    return f"{MOVE_QUESTION_START}{service} on {calendar_date(moment.date())} to {clock(moment)}?"


def hour_left_unsaid(
    state: Dialogue, before: str | None, message: str, now: datetime, zone: ZoneInfo
) -> list[Intent] | None:
    """ "move it to friday instead" (moved, its hour kept) → "3pm": the hour the move left
    unsaid, so the visit is moved to it; nothing is guessed, as the customer said only the
    day and now the time (a time after a move that said its own hour is asked about)."""
    action = state.last_appointment_action
    if before is None or action is None or action.tool != "crm.rescheduleAppointment":
        return None
    if state.held or (item := _just_written(state)) is None or action.before is None:
        return None
    old, new = start_of(action.before, zone), start_of(item, zone)
    if old is None or new is None or old.time() != new.time():
        return None  # the move changed the hour: one was said
    asked = normalize(before).text
    said = find_when(asked, now)
    if said is None or said.clock is not None or said.vague_time:
        return None
    if not _MOVED.search(asked) and not (
        # "When would you like to move it to?" → "saturday" (moved, its hour kept): the
        # day alone, the day it went to ("cleaning to friday": with the visit's own name)
        said.day == new.date()
        and _only_named(_AROUND.sub(" ", cut_spans(asked, list(said.spans))), item)
    ):
        return None  # the message before did not ask the move ("what's on friday?")
    text = normalize(message).text
    when = find_when(text, now)
    if when is None or when.clock is None or when.vague_time or not when.day_implied:
        return None
    if text.endswith("?") or _AROUND.sub("", cut_spans(text, list(when.spans))):
        return None
    starts_at = moved(text, item, now, zone)
    return None if starts_at is None else [reschedule(item, starts_at, text)]


_THE_VISIT = rx(r"\b(?:the|my|to|one|please|pls)\b")


def _only_named(rest: str, item: Item) -> bool:
    """Nothing left, or only the words of the visit's service ("cleaning", "the haircut")."""
    rest = " ".join(_THE_VISIT.sub(" ", rest).split())
    return not rest or services_named(rest) == {str(item.get("service") or "")}


def move_agreed(
    state: Dialogue, message: str, now: datetime, zone: ZoneInfo
) -> list[Intent] | None:
    """A yes to that question: the move it asked about, and whatever was asked after the yes
    ("yes, and what do I owe")."""
    if state.question != "move_to" or not is_affirmative(message):
        return None
    item = state.focus_of("appointment")
    if item is None:
        return None
    starts_at = moved(normalize(state.about).text, item, now, zone)
    if starts_at is None:
        return None
    rest = request_after_yes(message)
    after = detect_intents(rest, now, str(zone)) if rest else []
    return [reschedule(item, starts_at, normalize(message).text), *after]


def what_for(message: str, now: datetime) -> str | None:
    """A day and time said alone with nothing waiting for it ("friday at 3pm" as the first
    thing said, or after an answer that asked nothing): what is wanted then is asked,
    rather than a refusal that reads as "that day is not possible"."""
    text = normalize(message).text
    if text.endswith("?"):
        return None
    when = find_when(text, now)
    if when is None or when.day is None or when.day_implied or when.vague_day:
        return None  # "morning" alone greets; "next week" is no one day
    if when.no_such_date or when.time_unread:
        return None
    if _AROUND.sub("", cut_spans(text, list(when.spans))):
        return None  # more was said than a day and time
    said = calendar_date(when.day)
    if when.clock is not None and not when.vague_time:
        said = f"{said} at {clock(datetime.combine(when.day, when.clock))}"
    return (
        f"What would you like on {said}? I can book an appointment then, or move one of "
        "yours there."
    )
