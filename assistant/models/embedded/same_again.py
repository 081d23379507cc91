""" "Do the same for the eye exam one": the last change made, made again to another item;
"book me another one same time next week": the visit in focus, booked again a week on."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from assistant.dialogue_state import Action, Dialogue, Item
from assistant.language import Intent, detect_intents, slots
from assistant.language.lexicon import BOOKING_VERBS
from assistant.language.patterns import rx
from assistant.language.shifts import find_shift
from assistant.language.text import normalize
from assistant.models.embedded.pinning import appointment_follow_up, start_of
from assistant.schema import Message, ToolExchange, UserTurn
from assistant.zones import zone_named

_SAME_FOR = rx(
    r"^(?:(?:and|ok|okay|now|then|please|can you|could you)\b\W*)*(?:do |same |the same )?"
    r"(?:the same|that|it|same)(?: again)?(?: thing)? (?:for|with|to|on) (?P<t>.+?)"
    r"(?: too| as well)?(?: please)?$"
)
# The request that makes the change again, by the tool that made it.
_AGAIN = {
    "crm.completeTask": "complete {}",
    "crm.deleteTask": "delete {}",
    "crm.cancelAppointment": "cancel {}",
}


# "and the card one saturday" after a task was given a due day: that one, another day.
_AND_THIS_ONE = rx(
    # ("…. The garage one on monday": said as the next sentence, with no "and")
    r"^(?:(?:and|also|then|now)\b\W*(?:the |my )?|(?:the|my) )(?P<t>[a-z][a-z ]*? (?:one|task))"
    r" (?:to |for |on |by |as )?(?P<v>[a-z0-9][a-z0-9 ]*?)(?: please)?$"
)


# The day said for it: "… due friday", "… due the 23rd", "… due tomorrow".
_A_DAY = rx(
    r" due (?:(?:next |this )?(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|the \d"
    r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d)"
)


# An hour said: "same time", "at 3", "4pm" (a to-do is due on a day, at no hour).
_A_CLOCK = rx(r"\bsame time\b|\bat \d|\d ?[ap]\.?m\b")


def _the_other_too(action_arguments: dict[str, object], text: str) -> str | None:
    """ "and the card one saturday": the request that gives it the value said."""
    match = _AND_THIS_ONE.search(text)
    if match is None:
        return None
    target, value = match.group("t"), match.group("v")
    if "due_on" in action_arguments:
        return f"make {target} due {value}"
    if "priority" in action_arguments and value.split()[0] in ("high", "low", "normal"):
        return f"make {target} {value.split()[0]} priority"
    return None


def same_again(state: Dialogue, text: str, now: datetime, timezone: str) -> list[Intent] | None:
    """The last change, asked for again about the item named, read as if said in full."""
    action = state.last_action
    moved_a_visit = action is not None and action.tool == "crm.rescheduleAppointment"
    if action is not None and (action.tool == "crm.updateTask" or moved_a_visit):
        # (after a visit was moved, "and the groceries task to wednesday": a to-do moved
        # too, its day the one said)
        arguments: dict[str, object] = {"due_on": True} if moved_a_visit else dict(action.arguments)
        said_again = _the_other_too(arguments, text)
        if moved_a_visit and said_again is not None and not _A_DAY.search(said_again):
            said_again = None  # ("the insurance task should be low": no day, no move)
        if moved_a_visit and said_again is not None and _A_CLOCK.search(text):
            # "and the first one to thursday same time" just after a visit was moved: an
            # hour is a visit's, never a to-do's day (was: the first to-do made due then)
            said_again = None
        if said_again is not None:
            found = [
                i
                for i in detect_intents(said_again, now, timezone)
                if i.tool == "crm.updateTask" and i.target is not None and not i.target.vague
            ]
            if found and not found[0].missing:
                return found[:1]
    if action is not None and (
        moved_a_visit
        # "and the haircut to saturday" after a to-do's day was moved: the visit moved
        or (action.tool == "crm.updateTask" and "due_on" in action.arguments)
    ):
        moved = _and_that_one_moved(action.after if moved_a_visit else None, text, now, timezone)
        if moved is not None:
            return moved
    if (
        moved_a_visit
        and action is not None
        and (too := _moved_too(state, action, text, now, timezone))
    ):
        return too
    target = _again_for(state, action, text)
    if action is None or target is None:
        return None
    said = _AGAIN.get(action.tool)
    if said is None and action.tool == "crm.updateTask":
        changes = []
        if priority := action.arguments.get("priority"):
            changes.append(f"make {{}} {priority} priority")
        if due := action.arguments.get("due_on"):
            changes.append(f"make {{}} due on {due}")
        said = changes[0] if len(changes) == 1 else None
    if said is None and action.tool == "crm.rescheduleAppointment":
        said = _same_hour(action.before, action.after, zone_named(timezone))
    if said is None:
        return None  # a move or a booking: its time for another item is asked as usual
    found = [
        i
        for i in detect_intents(said.format(target), now, timezone)
        if i.target is not None and not i.target.vague and i.tool == action.tool
    ]
    return found[:1] or None


# "and the other one too", "the cleaning as well" just after a visit was cancelled or
# moved: the same done to that visit (it listed the visits, or asked which).
_NAMED_TOO = rx(
    r"^(?:(?:and|also|plus|oh|then|now|ok|okay|please)\b\W*)*"
    r"(?P<t>(?:the|my) [a-z][a-z ]*?) (?:too|as well|also)(?: please)?\W*$"
)
_OTHER = rx(r"^(?:the|my) other (?:one|appointment|visit|booking)$")
_VISIT_CHANGES = frozenset({"crm.cancelAppointment", "crm.rescheduleAppointment"})


def _again_for(state: Dialogue, action: Action | None, text: str) -> str | None:
    """The item the last change is asked for again: "the same for the dentist", and after
    a visit was cancelled or moved, "and the other one too", "the haircut as well"."""
    if (match := _SAME_FOR.search(text)) is not None:
        said = match.group("t")
        if action is not None and action.tool in _VISIT_CHANGES and _OTHER.match(said):
            # "do the same for the other one" after a question came between: the visit
            # the change was not made to, by its service
            return _the_other_visit(state, action) or said
        return said
    if action is None or action.tool not in _VISIT_CHANGES or " " not in text:
        return None
    if (too := _NAMED_TOO.match(text)) is None:
        return None
    said = too.group("t")
    if _OTHER.match(said):
        return _the_other_visit(state, action)
    return said if slots.services_named(said) else None


def _the_other_visit(state: Dialogue, action: Action) -> str | None:
    """The visit other than the one the last change was made to, named by its service,
    when the visits listed leave one (and no other of its service)."""
    if action.kind != "appointment":
        return None
    changed = (action.after or action.before or {}).get("id")
    others = [
        item
        for item in state.last_listed_of("appointment")
        if item.get("id") != changed and item.get("status") in (None, "upcoming", "scheduled")
    ]
    if len(others) != 1:
        return None
    service = str(others[0].get("service") or "").lower()
    same_service = [i for i in others if str(i.get("service") or "").lower() == service]
    return f"my {service}" if service and len(same_service) == 1 else None


# "and the haircut to the same day at 4" just after a move: that one moved too.
_AND_THAT_ONE_TO = rx(
    r"^(?:and|also|then|now)\b\W*(?P<t>(?:the|my) [a-z][a-z ]*?) (?:to|for) (?P<v>[a-z0-9].*)$"
)
_SAME_DAY = rx(r"\b(?:the same day|that same day|that day|the same date)\b")


def _and_that_one_moved(
    after: Item | None, text: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """The move said again with its verb left out, of another visit named ("and the
    haircut to the same day at 4"): "the same day" is the day the last one went to."""
    said = _AND_THAT_ONE_TO.match(text)
    if said is None or not slots.services_named(said.group("t")):
        return None
    value = said.group("v")
    moved_to = start_of(after or {}, zone_named(timezone))
    if _SAME_DAY.search(value):
        if moved_to is None:
            return None
        value = _SAME_DAY.sub(moved_to.strftime("%B %d").lower(), value)
    found = [
        i
        for i in detect_intents(f"move {said.group('t')} to {value}", now, timezone)
        if i.kind == "reschedule_appointment"
    ]
    return found[:1] if len(found) == 1 and not found[0].missing else None


# "and the wednesday one at 11", "and the other one too, saturday at 10", "and the cleaning
# the same day at 10", "do the same for the haircut but at 4", said after a visit was moved
# (other questions may have come between): another visit moved, its verb unsaid.
_MOVED_TOO = rx(
    r"^(?:(?:and|also|then|now|ok|okay|so)\b\W*)*(?P<same>(?:do )?(?:the )?same (?:for|with) )?"
    r"(?P<t>(?:the|my|that) [a-z][a-z ]*?)(?: too| as well)?(?:,| but)? (?:to |for |on |at )?"
    r"(?P<v>(?:the same day|that same day|that day|the same date|same day|(?:mon|tues|wednes"
    r"|thurs|fri|satur|sun)day|tomorrow|\d|(?:jan|febr)uary|march|april|may|june|july|august"
    r"|(?:septem|octo|novem|decem)ber)[a-z0-9: ]*)$"
)
_A_WEEKDAY_ONE = rx(
    r"^(?:the|that) (?P<d>(?:mon|tues|wednes|thurs|fri|satur|sun)day) (?:one|appoint"
    r"ment|visit)$"
)
_OTHER_VISIT = rx(r"^(?:the|that) other (?:one|appointment|visit|booking)$")
_DAY_SAID = rx(
    r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|today|\d{1,2}(?:st|nd|rd|th)"
    r"|january|february|march|april|may|june|july|august|september|october|november"
    r"|december)\b"
)
_WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _moved_too(
    state: Dialogue, action: Action, text: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """Another visit moved the way the last move was said, its verb left out (see
    _MOVED_TOO): "the same day" (and "the same for …" with an hour alone) is the day the
    last one went to; an hour alone otherwise keeps that visit's own day."""
    if "?" in text or (said := _MOVED_TOO.match(text)) is None:
        return None
    zone = zone_named(timezone)
    now = now.astimezone(zone)
    moved_id = (action.after or action.before or {}).get("id")
    visits = [
        item
        for item in state.last_listed_of("appointment")
        if item.get("id") != moved_id and item.get("status") in (None, "upcoming", "scheduled")
    ]
    item = _visit_meant(visits, said.group("t"), zone)
    if item is None:
        return None
    value = said.group("v")
    moved_to = start_of(action.after or {}, zone)
    if _SAME_DAY.search(value) or value.startswith("same day"):
        if moved_to is None:
            return None
        value = rx(r"^same day").sub("the same day", value)
        value = _SAME_DAY.sub(f"{moved_to:%B} {moved_to.day}".lower(), value)
    elif said.group("same") and not _DAY_SAID.search(value):
        if moved_to is None:
            return None
        value = f"{moved_to:%B} {moved_to.day} at {value}".lower()
    return appointment_follow_up(f"move it to {value}", item, now, zone, correcting=False)


def _visit_meant(visits: list[Item], said: str, zone: ZoneInfo) -> Item | None:
    """The one visit `said` names among `visits` (those not just moved): "the other one",
    "the wednesday one", "the cleaning"; None when none or several."""
    if _OTHER_VISIT.match(said):
        found = visits
    elif (day := _A_WEEKDAY_ONE.match(said)) is not None:
        weekday = _WEEKDAY_NAMES.index(day.group("d"))
        found = [
            item
            for item in visits
            if (starts := start_of(item, zone)) is not None and starts.weekday() == weekday
        ]
    else:
        services = slots.services_named(said)
        if len(services) != 1:
            return None
        found = [item for item in visits if item.get("service") in services]
    return found[0] if len(found) == 1 else None


def _same_hour(before: Item | None, after: Item | None, zone: ZoneInfo) -> str | None:
    """ "move my haircut to 4pm the same day" → "same for the dentist": the dentist to
    4pm on its own day (a move to another day is asked about as usual)."""
    was, now = start_of(before or {}, zone), start_of(after or {}, zone)
    if (
        was is not None
        and now is not None
        and was.date() != now.date()
        and was.time() == now.time()
    ):
        # "move my dentist to friday at the same time" → "and the same for the haircut":
        # the haircut to that day, at its own hour.
        return f"move {{}} to {now:%B} {now.day} {now.year} at the same time"
    if was is None or now is None or was.date() != now.date() or was == now:
        return None
    clock = now.strftime("%I:%M%p").lstrip("0").lower().replace(":00", "")
    return f"move {{}} to {clock} the same day"


def _said_before(conversation: Sequence[Message]) -> str | None:
    """The customer's message before the last one."""
    seen = 0
    for message in reversed(conversation):
        if isinstance(message, UserTurn):
            seen += 1
            if seen == 2:
                return message.text
    return None


def _said_with_the_move(conversation: Sequence[Message]) -> str | None:
    """The customer's message of the last turn that moved a visit, before the last message
    ("push the cleaning back an hour" → "and how much do i owe" → "ok do the same for the
    other one": the move's own words, not the question's; was "I didn't catch")."""
    moved = False
    for message in reversed(conversation[:-1]):
        if isinstance(message, ToolExchange) and any(
            r.ok and r.call.tool_name == "crm.rescheduleAppointment" for r in message.results
        ):
            moved = True
        elif isinstance(message, UserTurn) and moved:
            return message.text
    return None


def move_again(
    conversation: Sequence[Message], state: Dialogue, message: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """ "Do the same for my other appointment" right after a move said relative to the
    visit's own time ("an hour later"): the other visit moved by as much. A move to a time
    said outright is not repeated onto another visit (both at one hour is rarely meant):
    its time is asked as usual."""
    action = state.last_action
    if action is None or action.tool != "crm.rescheduleAppointment":
        return None
    target = _again_for(state, action, normalize(message).text)
    if target is None:
        return None
    before = _said_before(conversation)
    if before is None or (shift := find_shift(before)) is None:
        before = _said_with_the_move(conversation)
    if before is None or (shift := find_shift(before)) is None:
        return None
    found = [
        i
        for i in detect_intents(f"move {target}", now, timezone)
        if i.kind == "reschedule_appointment"
        and i.target is not None
        and not i.target.vague
        and i.missing == ("when",)
    ]
    if len(found) != 1:
        return None
    return [dataclasses.replace(found[0], shift=shift, missing=(), clause=message)]


# "same time next week", "for the week after", "the following week, same time": a week on
# from the visit talked about.
_A_WEEK_ON = rx(
    r"\b(?:(?:at |for )?(?:the )?same time,? )?(?:for |on )?(?:next week|the week after"
    r"|the following week|a week later)(?:,? (?:at )?(?:the )?same time)?\b"
)
# "book me another one …", "get me the same again …": a booking of the one talked about.
_ANOTHER = rx(
    r"\b(?:" + BOOKING_VERBS + r")(?: me)?(?: in for)? (?:another(?: one)?|a new one|one more"
    r"|the same(?: again| one)?)\b"
)
# "and same as before …", "the same again …": nothing else said but when.
_ONLY_SAME = rx(
    r"^(?:(?:and|also|ok|okay|then|so|now|please)\b\W*)*(?:the )?same(?: again| thing"
    r"| as before| as last time| as that| one)?\W*(?:please|too|as well)?\W*$"
)


def a_week_on(state: Dialogue, text: str, now: datetime, timezone: str) -> list[Intent] | None:
    """ "book me another one same time next week" after the haircut's time was said, "and
    same as before for the week after" just after a booking: that service again, a week
    after the visit talked about, at its hour (not the next week's days, asked)."""
    if "same" not in text and "another" not in text:
        return None  # most messages: none of it said
    week = _A_WEEK_ON.search(text)
    item = state.focus_of("appointment")
    if week is None or item is None or "same" not in text:
        return None
    rest = f"{text[: week.start()]} {text[week.end() :]}".strip()
    if _ANOTHER.search(rest) is None and _ONLY_SAME.match(rest) is None:
        return None
    service = str(item.get("service") or "")
    named = slots.services_named(text)
    if not service or (named and named != {service}):
        return None  # "book a cleaning same time next week": another service, read as said
    start = start_of(item, zone_named(timezone))
    if start is None:
        return None
    day = start + timedelta(days=7)
    said = f"book a {service.lower()} on {day:%B} {day.day} {day.year} at {day:%H:%M}"
    found = [i for i in detect_intents(said, now, timezone) if i.kind == "book_appointment"]
    if len(found) != 1 or not found[0].complete:
        return None
    return [dataclasses.replace(found[0], clause=text)]


__all__ = ["a_week_on", "move_again", "same_again"]
