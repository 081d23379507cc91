"""What the engine checks before a write reaches the CRM, whatever the model decided.

- Times are real, ahead and within the booking horizon: a `date-time` argument of a
  write in the past, further ahead than the horizon, or at an hour the customer's clock
  skips (2:30 AM the night it goes forward), is refused with a reason the customer
  hears. Without the customer's timezone (their profile could not be read) no timed
  write is made at all, rather than a guess in UTC.
- Duplicates are asked about, not made: a task whose title matches a pending one, a
  booking that overlaps one of the customer's appointments, and the same write asked
  twice in one conversation within the duplicate window.

The guard only judges; the engine runs the lookups it asks for and holds what it flags
under one question, like a destructive call.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from assistant.claims import NOT_DONE as NOT_DONE
from assistant.claims import claims_unmade_change as claims_unmade_change
from assistant.confirmation import Wording

# Claims live in assistant/claims.py; the names stay importable from here.
from assistant.language.characters import readable
from assistant.schema import ToolCall, ToolDefinition, ToolError, ToolResult
from assistant.session import RecentWrite
from assistant.speech import short_clock
from assistant.zones import same_moment_value

# A booking whose length is not known yet is taken to last this long for overlaps.
_DEFAULT_LENGTH = timedelta(minutes=30)
_WORD = re.compile(r"[a-z0-9]+")
_FILLER = frozenset({"a", "an", "the", "to", "my", "for", "of", "and"})

# Call ids of the lookups made for these checks start with this (they are in
# `turn.done.tool_calls` like any call; the answer does not read them out).
CHECK_PREFIX = "check_"
TASK_LOOKUP = ToolCall(call_id="", tool_name="crm.listTasks", arguments={"status": "pending"})
APPOINTMENT_LOOKUP = ToolCall(call_id="", tool_name="crm.listUpcomingAppointments")


@dataclass(frozen=True, slots=True)
class Doubt:
    """A write held back with the question to ask about it."""

    call: ToolCall
    question: str
    # Asked for the change itself (an hour at night), not for doing something again.
    first_time: bool = False
    # Held for the visit it overlaps, not for doing it again: let go, "I didn't make that
    # change" (was "…again", of a booking never made).
    clash: bool = False


def _moment(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None


def _timed_fields(tool: ToolDefinition) -> tuple[str, ...]:
    properties = tool.parameters.get("properties", {})
    return tuple(
        name
        for name, schema in properties.items()
        if isinstance(schema, dict) and schema.get("format") == "date-time"
    )


UNKNOWN_TIMEZONE = (
    "I couldn't read your account's time zone just now, so I haven't set any time. "
    "Please ask me again in a moment."
)


def skipped_hour(moment: datetime, zone: ZoneInfo) -> bool:
    """Whether `moment` is an hour `zone`'s clocks skip (2:30 AM the night they go forward),
    given with one of that night's offsets: no such time on the customer's clock, though
    the offset makes it an instant (an hour later than said, once the CRM reads it). An
    hour said twice (the night they go back) is one, and an instant given in another
    offset (UTC) is taken as it is."""
    wall = moment.replace(tzinfo=None)
    first, second = (wall.replace(tzinfo=zone, fold=fold) for fold in (0, 1))
    offsets = {first.utcoffset(), second.utcoffset()}
    if len(offsets) < 2 or moment.utcoffset() not in offsets:
        return False  # most times: the clocks change neither that hour nor at all
    return first.astimezone(UTC).astimezone(zone).replace(tzinfo=None) != wall


def time_refusal(
    tool: ToolDefinition,
    call: ToolCall,
    *,
    now: datetime,
    horizon_days: int,
    timezone_known: bool,
    zone: ZoneInfo | None = None,
) -> ToolError | None:
    """Why a write's time must not reach the CRM, or None."""
    if not tool.writes:
        return None
    for field in _timed_fields(tool):
        if field not in call.arguments:
            continue
        if not timezone_known:
            return ToolError(
                code="unavailable",
                message="not sent: the customer's timezone could not be read",
                say=UNKNOWN_TIMEZONE,
            )
        moment = _moment(call.arguments[field])
        if moment is None:
            continue  # the schema check reports it
        if moment <= now:
            return ToolError(
                code="invalid_arguments",
                message=f"{field} {call.arguments[field]} is in the past",
                say="that time has already passed. What time would you like instead?",
            )
        if zone is not None and skipped_hour(moment, zone):
            return ToolError(
                code="invalid_arguments",
                message=f"{field} {call.arguments[field]} is skipped by the clocks in {zone.key}",
                say=(
                    f"there's no {moment:%-I:%M %p} on {moment:%A, %B} {moment.day} where you"
                    " are, as the clocks go forward that night. What time would you like instead?"
                ),
            )
        if moment > now + timedelta(days=horizon_days):
            months = round(horizon_days / 30.4)
            return ToolError(
                code="invalid_arguments",
                message=f"{field} {call.arguments[field]} is beyond the booking horizon",
                say=f"I can only book up to {months} months ahead. Which date would suit you?",
            )
    return None


# --- duplicates -----------------------------------------------------------------------


def _words(text: object) -> frozenset[str]:
    # As it shows: a model's "Buy grоceries" (a Cyrillic "о") or "Ｂｕｙ groceries" is the
    # "Buy groceries" listed, to the eye and the ear (was: added beside it, unasked).
    return frozenset(_WORD.findall(readable(str(text)).lower())) - _FILLER


def _same_title(a: object, b: object) -> bool:
    first, second = _words(a), _words(b)
    return bool(first) and first == second


# Writes that put a visit at a time: one another visit holds is asked about first.
_TIMED_VISITS = frozenset({"crm.bookAppointment", "crm.rescheduleAppointment"})


def lookups_needed(calls: Sequence[ToolCall], known: Iterable[ToolResult]) -> list[ToolCall]:
    """The listings the duplicate checks need that this turn has not fetched yet."""
    have = {result.call.tool_name for result in known if result.ok}
    wanted: list[ToolCall] = []
    names = {call.tool_name for call in calls}
    if "crm.addTask" in names and "crm.listTasks" not in have:
        wanted.append(TASK_LOOKUP)
    # A booking or a move is checked against this turn's listing of the visits: the one
    # a move's visit was found in, most often; when the visit came from elsewhere
    # (`getNextAppointment`, an earlier turn, a model that called the move directly),
    # one is fetched, or a move could land on another visit's hour unasked.
    if names & _TIMED_VISITS and "crm.listUpcomingAppointments" not in have:
        wanted.append(APPOINTMENT_LOOKUP)
    return wanted


def _listed(results: Iterable[ToolResult], tool: str, key: str) -> list[dict[str, Any]]:
    """The items of the latest successful `tool` result."""
    for result in reversed(list(results)):
        if result.call.tool_name == tool and result.ok and isinstance(result.result, dict):
            items = result.result.get(key)
            return [item for item in items if isinstance(item, dict)] if items else []
    return []


def _pending_twin(
    call: ToolCall, results: Sequence[ToolResult], added_here: Sequence[str] = ()
) -> dict[str, Any] | None:
    title = call.arguments.get("title")
    due = str(call.arguments.get("due_on") or "")[:10]
    for task in _listed(results, "crm.listTasks", "tasks"):
        if task.get("status", "pending") == "pending" and _same_title(task.get("title"), title):
            held = str(task.get("due_on") or "")[:10]
            if due and held and held != due and _added_here(title, added_here):
                # "water the plants" for friday added in this conversation, then "and again
                # next week": the next one, due another day, not the one just added twice
                # (was asked "…already on your list. Add it again anyway?")
                continue
            return task
    return None


def _gone_since(call: ToolCall, results: Sequence[ToolResult]) -> bool:
    """This turn's listing of the open to-dos holds none of the add's title."""
    listed = any(
        result.call.tool_name == "crm.listTasks" and result.ok and isinstance(result.result, dict)
        for result in results
    )
    return listed and _pending_twin(call, results) is None


def _added_here(title: object, added_here: Sequence[str]) -> bool:
    """Whether a to-do of these words was added in this conversation (`added_here`: the
    keys of its recent writes)."""
    said = repr(("title", " ".join(sorted(_words(title)))))
    return any(key.startswith("crm.addTask:") and said in key for key in added_here)


_VISIT_CHANGES = frozenset({"crm.rescheduleAppointment", "crm.cancelAppointment"})


def _overlapping(
    call: ToolCall, results: Sequence[ToolResult], calls: Sequence[ToolCall] = ()
) -> dict[str, Any] | None:
    start = _moment(call.arguments.get("starts_at"))
    if start is None:
        return None
    end = start + _DEFAULT_LENGTH
    moved = call.arguments.get("appointment_id")
    # The visits this decision moves or cancels besides ("I meant the haircut, put the
    # cleaning back": the haircut takes the cleaning's new time as the cleaning leaves it).
    besides = {
        other.arguments.get("appointment_id"): other
        for other in calls
        if other is not call and other.tool_name in _VISIT_CHANGES
    }
    for item in _listed(results, "crm.listUpcomingAppointments", "appointments"):
        if item.get("status") == "cancelled" or (moved is not None and item.get("id") == moved):
            continue  # a visit moved by an hour overlaps its own old time: not a clash
        other_start = _moment(item.get("starts_at"))
        other_end = _moment(item.get("ends_at")) or (
            other_start + _DEFAULT_LENGTH if other_start else None
        )
        if (leaving := besides.get(item.get("id"))) is not None:
            if leaving.tool_name != "crm.rescheduleAppointment":
                continue  # cancelled in the same decision
            new_start = _moment(leaving.arguments.get("starts_at"))
            if new_start is None or other_start is None or other_end is None:
                continue
            other_start, other_end = new_start, new_start + (other_end - other_start)
        if other_start is None or other_end is None:
            continue
        if other_start < end and start < other_end:
            return item
    return None


def replacement_clash(
    book: ToolCall, results: Sequence[ToolResult], calls: Sequence[ToolCall]
) -> str | None:
    """The service of the visit a booking made in another's place would overlap ("cancel
    the cleaning and book a checkup in its place at 3 on wednesday", a facial booked at 3):
    from the latest listing and the bookings made after it; None when it overlaps none."""
    listing = -1
    for index, result in enumerate(results):
        if result.call.tool_name == "crm.listUpcomingAppointments" and result.ok:
            listing = index
    booked: list[ToolResult] = []
    for result in results[listing + 1 :]:
        body = result.result if isinstance(result.result, dict) else {}
        visit = body.get("appointment", body)
        if result.call.tool_name == "crm.bookAppointment" and result.ok and isinstance(visit, dict):
            booked.append(visit)  # type: ignore[arg-type]
    seen = [*_listed(results, "crm.listUpcomingAppointments", "appointments"), *booked]
    listed = ToolResult(
        call=APPOINTMENT_LOOKUP, round=1, status="ok", result={"appointments": seen}
    )
    clash = _overlapping(book, [listed], calls)
    return str(clash.get("service") or "appointment").lower() if clash else None


# Free text a model may repeat in other words ("Buy milk", "buy milk."): compared by
# its words, so that the repeat is the same write.
_FREE_TEXT = frozenset({"title", "subject", "service", "description", "body"})


def write_key(call: ToolCall) -> str:
    """The same write, whatever its call id: the tool and its arguments (free text by
    its words, whatever their case and punctuation)."""
    arguments = sorted(
        (
            name,
            " ".join(sorted(_words(value)))
            if name in _FREE_TEXT
            else same_moment_value(name, value),
        )
        for name, value in call.arguments.items()
    )
    return f"{call.tool_name}:{arguments!r}"


# Writes that make something new each time; repeating any other write (complete a task,
# move to the same time) changes nothing more, so it is not asked about.
_CREATES = frozenset({"crm.addTask", "crm.bookAppointment", "crm.createTicket"})


def creates(tool_name: str) -> bool:
    """Whether the write makes something new each time it is made."""
    return tool_name in _CREATES


_AGAIN = {
    "crm.addTask": "add it again anyway",
    "crm.bookAppointment": "book it anyway",
    "crm.rescheduleAppointment": "move it anyway",
    "crm.createTicket": "open another one anyway",
}


def question(held: Sequence[Doubt]) -> str:
    """One question for every doubt: the reasons, then whether to go ahead."""
    if len(held) == 1:
        again = _AGAIN.get(held[0].call.tool_name, "do it again")
        if held[0].first_time:
            again = _AT_THAT_HOUR.get(held[0].call.tool_name, "go ahead anyway")
        return f"{held[0].question[0].upper()}{held[0].question[1:]}. Do you want me to {again}?"
    reasons = "; ".join(doubt.question for doubt in held)
    return f"{reasons[0].upper()}{reasons[1:]}. Do you want me to go ahead anyway?"


_DECLINED = {
    "crm.addTask": "Okay, I won't add it again.",
    "crm.bookAppointment": "Okay, I won't book another one.",
    "crm.rescheduleAppointment": "Okay, I won't move it. It stays where it was.",
}


_AT_THAT_HOUR = {
    "crm.bookAppointment": "book it for then",
    "crm.rescheduleAppointment": "move it to then",
}


def doubt_wording(held: Sequence[Doubt]) -> Wording:
    """The question for held duplicates, and what to say on a no or when moved on."""
    first = held[0].call.tool_name
    declined = (
        _DECLINED.get(first, "Okay, I'll leave it as it is.")
        if len(held) == 1
        else ("Okay, I'll leave things as they are.")
    )
    if all(doubt.first_time for doubt in held):
        declined = "Okay, I haven't changed anything. Tell me another time whenever you like."
    again = (
        " again"
        if all(
            creates(doubt.call.tool_name) and not doubt.first_time and not doubt.clash
            for doubt in held
        )
        else ""
    )
    return Wording(question(held), declined, f"I didn't make that change{again}.")


def done_phrase(call: ToolCall) -> str:
    """What a write did, for "I already … a few minutes ago"."""
    arguments = call.arguments
    if call.tool_name == "crm.addTask" and arguments.get("title"):
        return f"added '{arguments['title']}'"
    if call.tool_name == "crm.bookAppointment" and arguments.get("service"):
        # ("…for Tuesday, January 22 at 10:00 AM": said again by one who did not hear the
        # answer, the time it was booked for is told, not only that it was)
        return f"booked that {str(arguments['service']).lower()}{_for_when(arguments)}"
    if call.tool_name == "crm.createTicket":
        return "opened that support case"
    if call.tool_name == "crm.rescheduleAppointment":
        return "moved that appointment"
    return "did that"


def _for_when(arguments: Mapping[str, Any]) -> str:
    """ " for Tuesday, January 22 at 10:00 AM": the start a booking was sent with, on the
    clock it was said in (its own offset); "" when it has none or is unreadable."""
    starts_at = arguments.get("starts_at")
    try:
        moment = datetime.fromisoformat(str(starts_at)) if starts_at else None
    except ValueError:
        return ""
    if moment is None or moment.tzinfo is None:
        return ""
    return f" for {moment:%A}, {moment:%B} {moment.day} at {short_clock(moment)}"


def asked_phrase(call: ToolCall) -> str:
    """What a write not yet confirmed was sent to do, for "I already … a moment ago"."""
    return "asked to " + _DOING.get(call.tool_name, "make that change").format(**_named(call))


def doing_phrase(call: ToolCall) -> str:
    """What a write in flight is doing: "adding 'Buy milk'"."""
    phrase = _DOING.get(call.tool_name, "make that change").format(**_named(call))
    verb, _, rest = phrase.partition(" ")
    return f"{_ING.get(verb, verb + 'ing')} {rest}"


_DOING = {
    "crm.addTask": "add '{title}'",
    "crm.bookAppointment": "book that {service}",
    "crm.createTicket": "open that support case",
}
_ING = {"make": "making", "book": "booking", "open": "opening", "add": "adding"}


def _named(call: ToolCall) -> dict[str, str]:
    arguments = call.arguments
    return {
        "title": str(arguments.get("title") or "that task"),
        "service": str(arguments.get("service") or "appointment").lower(),
    }


def resend_keys(
    calls: Sequence[ToolCall], results: Sequence[ToolResult], recent: Sequence[RecentWrite]
) -> dict[str, str]:
    """The idempotency keys to send writes under, by call id: a write this conversation
    sent that may still be landing (no answer came), asked again ("try again", the same
    words again) and not yet shown landed by this turn's listing, goes under that
    attempt's key, so the CRM applies it once whichever lands (was: a second task or
    visit when the first landed a moment after the second was sent). One the listing
    shows landed is a new request ("add another one"): a key of its own."""
    if not any(write.sent_as for write in recent):
        return {}  # nearly every turn
    # (the latest of each write: one made since is asked about as made, not sent again)
    latest = {write.key: write for write in recent}
    keys: dict[str, str] = {}
    for call in calls:
        earlier = latest.get(write_key(call))
        if earlier is None or not (earlier.unconfirmed and earlier.sent_as):
            continue
        if call.tool_name == "crm.addTask" and _pending_twin(call, results) is not None:
            continue
        if call.tool_name == "crm.bookAppointment" and _booked_as_asked(call, results):
            continue
        keys[call.call_id] = earlier.sent_as
    return keys


def _booked_as_asked(call: ToolCall, results: Sequence[ToolResult]) -> bool:
    """This turn's listing holds a visit of the booking's service at its start."""
    service = str(call.arguments.get("service") or "").lower()
    start = _moment(call.arguments.get("starts_at"))
    return any(
        str(item.get("service") or "").lower() == service
        and _moment(item.get("starts_at")) == start
        and item.get("status") != "cancelled"
        for item in _listed(results, "crm.listUpcomingAppointments", "appointments")
    )


def doubts(
    calls: Sequence[ToolCall],
    results: Sequence[ToolResult],
    recent: Sequence[RecentWrite],
    *,
    now: float,
    window_s: float,
    in_flight: Mapping[str, str] | None = None,
    zone: ZoneInfo | None = None,
    resent: Collection[str] = (),
) -> list[Doubt]:
    """The writes to ask about before making them, each with its question. `in_flight`:
    the same customer's creates still being made by another turn (another call, tab or
    channel), by their write key, each with what it is doing ("adding 'Buy milk'");
    `zone`: the customer's, in which a visit's hour is read; `resent`: the call ids sent
    again under an earlier attempt's key (`resend_keys`)."""
    found: list[Doubt] = []
    asked_before = {w.key: w for w in recent if now - w.at < window_s}
    in_this_round: set[str] = set()
    for call in calls:
        key = write_key(call) if call.tool_name in _CREATES else ""
        earlier = asked_before.get(key) if key else None
        # Sent again under the key of this conversation's attempt that may still be
        # landing: the CRM makes it once whichever lands, so that is not asked about (was:
        # "…it may have gone through. Do you want me to add it again anyway?", and the yes
        # made two when the first landed a moment later).
        resending = call.call_id in resent
        if resending:
            earlier = None
        if earlier is not None:
            if earlier.unconfirmed:
                doubt = f"I already {earlier.done} a moment ago, and it may have gone through"
            elif call.tool_name == "crm.addTask" and _gone_since(call, results):
                # Added, then taken off (undone, deleted or done elsewhere): not "already
                # added" as though it were there (attacks18: a late copy of the add after
                # its undo was asked "I already added 'Call the plumber'…").
                doubt = f"I {earlier.done} a few minutes ago, but it's no longer on your list"
            else:
                doubt = f"I already {earlier.done} a few minutes ago"
            found.append(Doubt(call, doubt))
            continue
        if key and in_flight and not resending and (doing := in_flight.get(key)):
            found.append(Doubt(call, f"I'm still {doing} from a moment ago"))
            continue
        if key in in_this_round:
            # The same thing twice in one decision, in other words: asked, not made twice.
            found.append(Doubt(call, "that's the same as another change I'm making now"))
            continue
        if key:
            in_this_round.add(key)
        if call.tool_name == "crm.addTask" and (
            twin := _pending_twin(call, results, [w.key for w in recent])
        ):
            found.append(Doubt(call, f"'{twin.get('title')}' is already on your list"))
        elif call.tool_name in _TIMED_VISITS and (clash := _overlapping(call, results, calls)):
            service = str(clash.get("service") or "appointment").lower()
            # ("at the same time" only when it starts then: a 3 PM massage beside a 2:30
            # haircut overlaps it, at another time)
            same = _moment(clash.get("starts_at")) == _moment(call.arguments.get("starts_at"))
            found.append(
                Doubt(
                    call,
                    f"that overlaps your {service}{' at the same time' if same else ''}",
                    clash=True,
                )
            )
        elif call.tool_name in _TIMED_VISITS and (odd := _hour_nobody_keeps(call, zone)):
            found.append(Doubt(call, f"that's {odd}, when places are usually closed", True))
    return found


# A visit from 10 PM to 6 AM (the customer's time) is asked about first: "3am" misheard for
# "3pm", "midnight tomorrow" read as the night before, or a model's hour in another zone
# is a write no one wanted, and no business the service books for opens then.
_EARLIEST_HOUR, _LATEST_HOUR = 6, 22


def _hour_nobody_keeps(call: ToolCall, zone: ZoneInfo | None) -> str | None:
    """The visit's time said, when it falls in the night; None otherwise."""
    starts = _moment(call.arguments.get("starts_at"))
    if starts is None:
        return None
    local = starts.astimezone(zone) if zone is not None else starts
    if _EARLIEST_HOUR <= local.hour < _LATEST_HOUR:
        return None
    return f"{short_clock(local)} on {local:%A}"


def _said_alike(a: str, b: str) -> bool:
    return " ".join(_WORDISH.findall(a.lower())) == " ".join(_WORDISH.findall(b.lower()))


_WORDISH = re.compile(r"[^\W_]+")


def repeated_shifts(
    calls: Sequence[ToolCall],
    recent: Sequence[RecentWrite],
    said: Sequence[str],
    *,
    now: float,
    window_s: float,
    shift_said: bool,
) -> list[Doubt]:
    """Moves of a visit by a shift ("push my haircut back an hour") that the customer's
    message before said in the same words, that visit moved since: a platform that sent
    the turn again, or a caller repeating it, each ask "another hour?" rather than
    moving it twice. `said`: the customer's messages, newest first."""
    if not shift_said or len(said) < 2 or not _said_alike(said[0], said[1]):
        return []
    moved = [w.key for w in recent if now - w.at < window_s and w.key.startswith(_MOVE_PREFIX)]
    found: list[Doubt] = []
    for call in calls:
        visit = call.arguments.get("appointment_id")
        if call.tool_name != "crm.rescheduleAppointment" or not isinstance(visit, str):
            continue
        if any(f"('appointment_id', {visit!r})" in key for key in moved):
            found.append(
                Doubt(call, "I already moved that appointment a moment ago, as you asked then")
            )
    return found


_MOVE_PREFIX = "crm.rescheduleAppointment:"
MOVED_BY_SHIFT = "I already moved that appointment a few minutes ago, as you asked then"


def sent_again_maybe(call: ToolCall) -> str:
    """Why a write is asked about in a session begun after a lost one."""
    return (
        "Our connection dropped just before this, and your message may have been sent"
        f" again, so I can't tell whether I {done_phrase(call)} already"
    )


def shift_key(call: ToolCall, said: str) -> str | None:
    """What a move by a shift is known by across the customer's conversations: its
    visit and the words that asked it; None for another call."""
    visit = call.arguments.get("appointment_id")
    if call.tool_name != "crm.rescheduleAppointment" or not isinstance(visit, str):
        return None
    return f"shift:{visit}:{' '.join(_WORDISH.findall(said.lower()))}"


def moved_here(
    call: ToolCall, recent: Sequence[RecentWrite], *, now: float, window_s: float
) -> bool:
    """Whether this conversation moved `call`'s visit within the window (its own
    repeats are judged by `repeated_shifts`)."""
    visit = call.arguments.get("appointment_id")
    marker = f"('appointment_id', {visit!r})"
    return any(
        now - w.at < window_s and w.key.startswith(_MOVE_PREFIX) and marker in w.key for w in recent
    )
