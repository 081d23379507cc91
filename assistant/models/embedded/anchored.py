"""Days said by another appointment: "book an eye exam the day after my haircut at 10am",
"move my haircut to the same day as my dentist".

The grammar alone would read "the day after … at 10am" as the next 10 AM (tomorrow) and
"the same day as my dentist" as no day at all. Here the day is counted from the visit
named: from the visits the conversation knows, or from a listing read first. The message
is then read with that date in place of the words, so every rule after this one sees a
plain day ("book an eye exam on January 21 at 10am").
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta, tzinfo

from assistant.confirmation import when_said
from assistant.dialogue_state import Dialogue, Item
from assistant.language import detect_intents
from assistant.language.lexicon import NUMBER_WORDS, SERVICES
from assistant.language.patterns import rx
from assistant.language.swaps import each_to_the_others_time
from assistant.models.embedded.pinning import zone_of
from assistant.models.embedded.user_turns import up_to_last_users
from assistant.schema import (
    AssistantTurn,
    FinalDecision,
    Message,
    PlanRequest,
    ToolCall,
    ToolCallsDecision,
    ToolResult,
    UserTurn,
)
from assistant.speech import short_clock

_OFFSET = {
    "day after": 1,
    "day before": -1,
    "same day as": 0,
    "day of": 0,
    "week after": 7,
    "week before": -7,
}
_PARTS = r"(?:day|morning|afternoon|evening)"
_SERVICE_WORDS = "|".join(sorted((re.escape(name) for name in SERVICES), key=len, reverse=True))
# A visit named by no service ("my appointment"): the one ahead, asked when more are.
_ANY_VISIT = ("appointment", "visit", "booking", "session")
# "the same time as my wednesday appointment", "…my sunday haircut": the one on that day.
_WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAYS = "|".join(_WEEKDAY_NAMES)
_ANCHOR = rx(
    rf"\b(?P<lead>(?:to|for|on|at) )?(?:the )?(?P<rel>{_PARTS} after|{_PARTS} before|same day as"
    r"|(?<=due the )day of|(?<=(?:to|on) the )day of"
    r"|same time as|week after|week before"
    # ("12 hours before my cleaning": two digits, the evening before it)
    r"|(?:(?P<n>half an|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
    r"|[1-9]\d?) |a couple of )"
    r"(?P<unit>days?|weeks?|hours?) (?P<dir>after|before))"
    rf" (?:my|the|your) (?:(?P<wd>{_WEEKDAYS}) )?(?:(?P<what>{_SERVICE_WORDS})"
    rf"(?: (?:appointment|visit|booking))?|(?P<any>{'|'.join(_ANY_VISIT)}))\b"
)
LOOKUP = "crm.listUpcomingAppointments"
BOOK = "crm.bookAppointment"
_LISTINGS = frozenset({LOOKUP, "crm.listAppointments", "crm.getNextAppointment"})


def _items(request: PlanRequest) -> tuple[list[Item], bool]:
    """The visits known: this turn's listings first, then the conversation's; and whether a
    listing was read this turn."""
    return _known(request.turn_results, request.dialogue)


def _known(results: Iterable[ToolResult], state: Dialogue) -> tuple[list[Item], bool]:
    found: list[Item] = []
    read = False
    for result in results:
        if result.call.tool_name == BOOK and result.ok and isinstance(result.result, dict):
            # "book a massage friday at 3 and a facial right after": the visit booked this
            # turn, with its end as the CRM gave it (not a listing: `read` stays as it was)
            found.append({**result.result, "booked_now": True})
            continue
        if result.call.tool_name not in _LISTINGS or not result.ok:
            continue
        read = True
        body = result.result if isinstance(result.result, dict) else {}
        listed = body.get("appointments") or [body.get("appointment")]
        found += [item for item in listed if isinstance(item, dict)]
    found += [*state.last_listed_of("appointment")]
    if (focus := state.focus_of("appointment")) is not None:
        found.append(focus)
    return found, read


def _start(item: Item, service: str | None, now: datetime) -> datetime | None:
    """When `item` starts, if it is a visit ahead of `service` (None: of any service)."""
    if service is not None and str(item.get("service") or "").lower() != service.lower():
        return None
    if item.get("status") == "cancelled" or not isinstance(item.get("starts_at"), str):
        return None
    start = datetime.fromisoformat(str(item["starts_at"]))
    return start if start > now else None


def _first_visit(items: Iterable[Item], service: str, now: datetime) -> Item | None:
    """The first visit ahead of `service` among `items`."""
    visits = [(start, item) for item in items if (start := _start(item, service, now)) is not None]
    return min(visits, key=lambda pair: pair[0], default=(None, None))[1]


def _end(item: Item, zone: tzinfo) -> datetime | None:
    """When `item` ends, on the customer's clock (None when not known)."""
    ends = item.get("ends_at")
    return datetime.fromisoformat(ends).astimezone(zone) if isinstance(ends, str) else None


def ahead(items: Iterable[Item], now: datetime) -> list[Item]:
    """The visits ahead among `items`, each once, soonest first."""
    found: dict[str, Item] = {}
    for item in items:
        if _start(item, None, now) is not None:
            key = str(item.get("id") or f"{item.get('service')}@{item.get('starts_at')}")
            found.setdefault(key, item)
    return sorted(found.values(), key=lambda item: datetime.fromisoformat(str(item["starts_at"])))


def _told(
    text: str, items: Iterable[Item], request: PlanRequest, *, day_asked: bool = False
) -> tuple[str, str | None]:
    """`text` (lower-cased) with its day counted from the visit named, and that visit's
    service; the text unchanged when it names none, or when that visit is not known
    (`day_asked`: it answers the hour asked of a day said before it)."""
    timezone = request.customer.timezone if request.customer else "UTC"
    focus = request.dialogue.focus_of("appointment")
    return _counted(text, items, request.now, timezone, focus, day_asked=day_asked)


def counted(
    message: str, results: Iterable[ToolResult], state: Dialogue, now: datetime, timezone: str
) -> str:
    """The message as the planner read it, its day counted from the visit named (from this
    turn's listings and the conversation's): what the narrator reads too, so that "I'd
    like an eye exam on the same day as my haircut" is the booking made, not a question."""
    items, _ = _known(results, state)
    text = message.lower()
    if len(text) != len(message):
        return message
    told, _ = _counted(text, items, now, timezone, state.focus_of("appointment"))
    return told


# What `_counted` says of a visit named by no service ("my appointment") when it is not
# one visit ahead: asked which, by name.
ANY = "appointment"


# "cancel my haircut and book a massage at the same time instead": the same time as the
# visit cancelled in the same message (it is still there to count from), named by its day
# too ("cancel my wednesday appointment and book a massage at the same time").
_CANCELLED = rx(
    rf"\b(?:cancel|scrap|call off|drop) (?:my|the) (?P<what>(?:(?:{_WEEKDAYS}) )?"
    rf"(?:{_SERVICE_WORDS}|appointment|visit|booking)|(?:{_WEEKDAYS}) (?:one|visit|appointment))\b"
)
_SAME_SAID = rx(r"\bthe same (?:time|day)\b(?! as\b)")


def _on_weekday(items: Iterable[Item], weekday: int, timezone: str) -> list[Item]:
    zone = zone_of(timezone)
    return [
        item
        for item in items
        if item.get("starts_at")
        and datetime.fromisoformat(str(item["starts_at"])).astimezone(zone).weekday() == weekday
    ]


def _same_as_cancelled(text: str) -> str:
    """`text` with the visit it cancels named after a bare "the same time" said after it."""
    if "same " not in text or (cancel := _CANCELLED.search(text)) is None:
        return text
    same = _SAME_SAID.search(text, cancel.end())
    if same is None or _CLOCK.search(text, cancel.end(), same.start()):
        return text  # "…and book a massage at 3, and another at the same time": not it
    what = cancel.group("what").replace(" one", " appointment")
    return f"{text[: same.end()]} as my {what}{text[same.end() :]}"


_CLOCK = rx(r"\b(?:\d{1,2}(?::\d\d)?\s*(?:am|pm)?|noon|\w+day|tomorrow|today)\b")


# "remind me to pick up the dry cleaning after my haircut", "after the haircut, remind me to
# water the plants": a to-do for after a visit, due on that visit's day (was: no day, and
# "after my haircut" kept in the title). Not a day or hours counted ("the day after my
# haircut" is counted by `_ANCHOR`), nor a visit booked after another.
_FOR_AFTER_A_VISIT = rx(
    r"(?<!\bday )(?<!\bdays )(?<!\bweek )(?<!\bweeks )(?<!\bhour )(?<!\bhours )(?<!morning )"
    r"(?<!afternoon )(?<!evening )(?<!minutes )"
    rf"\b(?:for |on )?(?:right |just |straight )?after (?:my|the) (?P<what>{_SERVICE_WORDS})"
    r"(?: (?:appointment|visit|booking))?\b,?"
)
_A_TODO = rx(r"\b(?:remind me|reminder|to-?do|task|(?:my|the) list)\b")
_A_VISIT_ASKED = rx(r"\b(?:book|schedule|appointment for|reschedule|move|cancel)\b")


def _for_after_a_visit(text: str) -> str:
    """`text` with a to-do's "after my haircut" said as "on the day of my haircut"."""
    if "after " not in text or (said := _FOR_AFTER_A_VISIT.search(text)) is None:
        return text
    if _A_TODO.search(text) is None or _A_VISIT_ASKED.search(text) is not None:
        return text
    rest = f"{text[: said.start()]} {text[said.end() :]}"
    rest = " ".join(rest.split()).strip(" ,").rstrip(" .!?")
    return f"{rest} on the day of my {said.group('what')}"


def _counted(
    text: str,
    items: Iterable[Item],
    now: datetime,
    timezone: str,
    focus: Item | None = None,
    *,
    day_asked: bool = False,
) -> tuple[str, str | None]:
    text = _same_as_cancelled(each_to_the_others_time(_for_after_a_visit(text)))
    match = _ANCHOR.search(text)
    if match is None:
        return _right_after(text, items, now, timezone, focus)
    if match.group("rel") == "day of" and _MOVES.search(text, 0, match.start()):
        # "…push it a day. Make the glasses task due the day of the eye exam": the visit
        # may be the one moving; its day is not counted from where it was.
        return text, None
    items = list(items)
    if match.group("wd") is not None:
        items = _on_weekday(items, _WEEKDAY_NAMES.index(match.group("wd")), timezone)
    if match.group("what") is not None:
        service = SERVICES[match.group("what")]
        visit = _first_visit(items, service, now)
        if visit is None:
            return text, service
    else:
        visits = ahead(items, now)
        if len(visits) != 1:
            return text, ANY  # none known, or more than one: which is asked
        visit = visits[0]
    start = datetime.fromisoformat(str(visit["starts_at"]))
    zone = zone_of(timezone)
    rel = match.group("rel")
    if (match.group("unit") or "").startswith("hour"):
        return _hours_from(text, match, start.astimezone(zone), _end(visit, zone))
    day = start.astimezone(zone).date() + timedelta(days=_offset(match))
    part = rel.split()[0]
    lead = match.group("lead")
    lead = None if lead == "at " else lead
    said = f"{lead or 'on '}{day:%B} {day.day}"
    if part in ("morning", "afternoon", "evening"):
        # Not "January 21 in the morning": a number before "in the morning" is an hour.
        said = f"{lead or ''}the {part} of {day:%B} {day.day}"
    rest = text[match.end() :]
    if rel == "same time as" and (day_asked or _DAY_SAID.search(f"{text[: match.start()]} {rest}")):
        # "move my dentist to the same time as my haircut but on saturday": its hour, on
        # the day said
        return f"{text[: match.start()]}at {start.astimezone(zone):%H:%M}{rest}", None
    same = None if _MOVES.search(text, 0, match.start()) else _ITS_HOUR.match(rest)
    if rel == "same time as" or same is not None:
        # "…at the same time as my haircut", "…the week after my cleaning, same time": its
        # hour, on the customer's clock (a move's "same time" is the hour of the one moved)
        said += f" at {start.astimezone(zone):%H:%M}"
        rest = rest if rel == "same time as" or same is None else rest[same.end() :]
    elif rel == "same day as" and (hours := _HOURS_FROM_IT.match(rest)) is not None:
        # "…the same day as the eye exam, an hour later": its hour counted from that visit's
        sign = 1 if hours.group("dir") in ("later", "after") else -1
        minutes = _MINUTES.get(hours.group("n"), 0) or 60 * int(hours.group("n") or 0)
        clock = (start.astimezone(zone) + timedelta(minutes=sign * minutes)).time()
        said += f" at {clock:%H:%M}"
        rest = rest[hours.end() :]
    elif (
        rel in ("same day as", "day of")
        and (right := _RIGHT_AFTER_IT.match(rest)) is not None
        and (end := _end(visit, zone)) is not None
    ):
        # "…same day as my cleaning, right after it": when that visit is over
        said += f" at {end:%H:%M}"
        rest = rest[right.end() :]
    told = text[: match.start()] + said
    following = _ANCHOR.search(rest) or (_RIGHT_AFTER.search(rest) if _near(rest) else None)
    if following is not None:
        # "book an eye exam the day after my cleaning at 3. and move the haircut to the same
        # day as the eye exam, an hour later": the next day counted, from a visit this
        # message books too; one not known is left as said (the rest still goes ahead).
        booked = [*items, *_booked_in(told + rest[: following.start()], now, timezone)]
        later, unknown = _counted(rest, booked, now, timezone, focus)
        rest = rest if unknown is not None else later
    return told + rest, None


# "…two hours after my cleaning starts": counted from its start. Said without "starts",
# from its start or its end is not known (nor when the new one would end, before it):
# its day is read, and the hour is asked (before it, the hour it starts is said in the
# question: "What time before 2:30 PM on Sunday works for your facial?").
_ITS_START = rx(r"^\s*(?:starts|begins|start time|starting time)\b")
# "…an hour after my cleaning ends", "…is over": counted from its end, said so (no
# reading left to ask about).
_ITS_END = rx(
    r"^\s*(?:ends|ended|finishes|finished|is over|is finished|is done|gets out|wraps up"
    r"|'s over|'s done)\b"
)


_BOOKED_BY = rx(
    r"\b(?:book|get|schedule|want|need|fit|put|squeeze|add|set up|pop|(?:'d|would) like)\b"
)
# Held for a yes: the hour counted from a visit's end, not said so (from its start was as
# fair a reading), asked before it is booked (language/scope.py reads it).
_ASKED_FIRST = ", i'm not sure yet"


def _hours_from(
    text: str, match: re.Match[str], start: datetime, end: datetime | None = None
) -> tuple[str, str | None]:
    """ "book a facial two hours after my cleaning starts": that day, at that hour; "…two
    hours after my cleaning": when that visit ends, and the booking asked first."""
    rest = text[match.end() :]
    said_start = _ITS_START.match(rest)
    after = match.group("dir") == "after"
    lead = match.group("lead") if match.group("lead") not in (None, "at ") else "on "
    said_end = _ITS_END.match(rest)
    if said_end is not None and end is not None:
        # "move the haircut to an hour after my cleaning ends": from its end, as said (was:
        # its day alone, and a move kept the haircut's own hour on it)
        count = _hours(match)
        moment = end + timedelta(hours=count if after else -count)
        said = f"{lead}{moment:%B} {moment.day} at {moment:%H:%M}"
        return text[: match.start()] + said + rest[said_end.end() :], None
    if said_start is None:
        booked_or_moved = _BOOKED_BY.search(text, 0, match.start()) or _MOVES.search(
            text, 0, match.start()
        )
        if after and end is not None and booked_or_moved:
            # "book a facial two hours after my cleaning": after it is over, on its day,
            # said in the question before anything is booked (was: "What time on
            # Wednesday works for you?", neither the service nor an hour said); a move the
            # same (was: moved to that day at its own hour)
            count = _hours(match)
            moment = end + timedelta(hours=count)
            if moment.date() == end.date():
                said = f"{lead}{moment:%B} {moment.day} at {moment:%H:%M}"
                return text[: match.start()] + said + rest.rstrip(" .!?") + _ASKED_FIRST, None
        if not after and booked_or_moved:
            # "book a haircut two hours before my cleaning": starting that long before it
            # starts, on its day, said in the question before anything is booked (was: "What
            # time before 10 AM on Wednesday works for your haircut?", the hour said unread)
            # ("12 hours before my cleaning": the evening before it, counted the same; it
            # was "I can't work out a day from another appointment yet")
            moment = start - timedelta(hours=_hours(match))
            said = f"{lead}{moment:%B} {moment.day} at {moment:%H:%M}"
            return text[: match.start()] + said + rest.rstrip(" .!?") + _ASKED_FIRST, None
        if after:
            # (its day alone: the hour is asked, the reply read with that day)
            return text[: match.start()] + f"{lead}{start:%B} {start.day}" + rest, None
        # (the hour first: "on January 20 before 14:30" reads as 14:10)
        said = f"before {start:%H:%M} {lead}{start:%B} {start.day}"
        return text[: match.start()] + said + rest, None
    count = _hours(match)
    moment = start + timedelta(hours=count if after else -count)
    said = f"{lead}{moment:%B} {moment.day} at {moment:%H:%M}"
    return text[: match.start()] + said + rest[said_start.end() :], None


def said_from_its_end(
    message: str, results: Iterable[ToolResult], state: Dialogue, now: datetime, timezone: str
) -> str | None:
    """Why the hour asked about is the one it is, when it was counted from the end of the
    visit named ("book a facial two hours after my cleaning": "Your dental cleaning ends at
    11 AM, so two hours after it is 1 PM."); None for any other message."""
    text = message.lower()
    match = (
        _ANCHOR.search(text) if "hour" in text and ("before" in text or "after" in text) else None
    )
    if (
        match is None
        or not (match.group("unit") or "").startswith("hour")
        or match.group("what") is None
        or _ITS_START.match(text[match.end() :])
    ):
        return None
    items, _ = _known(results, state)
    visit = _first_visit(items, SERVICES[match.group("what")], now)
    zone = zone_of(timezone)
    end = _end(visit, zone) if visit is not None else None
    if visit is None or end is None:
        return None
    count = _hours(match)
    hours = "an hour" if count == 1 else f"{_COUNT_WORDS.get(int(count), str(count))} hours"
    hours = "half an hour" if count == 0.5 else hours
    service = str(visit.get("service") or "visit").lower()
    if match.group("dir") == "before":
        # (from its start: "two hours before my cleaning")
        start = datetime.fromisoformat(str(visit["starts_at"])).astimezone(zone)
        moment = start - timedelta(hours=count)
        day = "" if moment.date() == start.date() else f" on {moment:%A}"
        return (
            f"Your {service} starts at {short_clock(start)} on {start:%A}, so {hours} before it"
            f" is {short_clock(moment)}{day}."
            if day
            else f"Your {service} starts at {short_clock(start)}, so {hours} before it is "
            f"{short_clock(moment)}."
        )
    moment = end + timedelta(hours=count)
    return (
        f"Your {service} ends at {short_clock(end)}, so {hours} after it is {short_clock(moment)}."
    )


_COUNT_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _hours(match: re.Match[str]) -> float:
    """The hours said from the visit ("half an hour after my haircut finishes": 0.5)."""
    if match.group("n") == "half an":
        return 0.5
    return NUMBER_WORDS.get(match.group("n") or "two") or int(match.group("n"))


def _offset(match: re.Match[str]) -> int:
    """The days from the visit named to the day said ("two days before": -2)."""
    rel = match.group("rel")
    if rel in _OFFSET:
        return _OFFSET[rel]
    if rel == "same time as":
        return 0
    if match.group("unit") is not None:
        count = NUMBER_WORDS.get(match.group("n") or "two") or int(match.group("n"))
        sign = 1 if match.group("dir") == "after" else -1
        return sign * count * (7 if match.group("unit").startswith("week") else 1)
    return _OFFSET["day " + rel.split()[-1]]


def _near(text: str) -> bool:
    return "after" in text or "before" in text


def _booked_in(text: str, now: datetime, timezone: str) -> list[Item]:
    """The visits the words book, as the CRM would list them."""
    return [
        {"service": i.arguments["service"], "starts_at": i.arguments["starts_at"]}
        for i in detect_intents(text, now, timezone)
        if i.kind == "book_appointment"
        and not i.missing
        and isinstance(i.arguments.get("starts_at"), str)
        and i.arguments.get("service")
    ]


# "book a haircut straight after it", "…right after my cleaning": when that visit ends;
# "…right before my haircut": that visit's day (when the new one ends is not known, so
# its hour is asked).
_RIGHT_AFTER = rx(
    rf"\b(?P<lead>(?:for|at|on) )?(?:straight|right|just|immediately|directly)"
    rf" (?P<dir>after|before)"
    rf" (?:(?P<it>it|that|that one|this one)|(?:my|the) (?P<what>{_SERVICE_WORDS})"
    rf"(?: (?:appointment|visit|booking))?|(?:my|the) (?P<any>{'|'.join(_ANY_VISIT)}))\b"
)


# "book a massage friday at 3 and a facial right after", "…then a massage straight after
# it": a visit booked right after another the same message books, named before it.
_AFTER_THE_ONE_BOOKED = rx(
    rf"\b(?P<first>{_SERVICE_WORDS})\b(?P<between>[^.?!]*?\b(?:and|then|plus|also|,)\b[^.?!]*?)"
    rf"\b(?:an? )?(?P<second>{_SERVICE_WORDS})(?: appointment| session)?"
    r"(?P<after>,? (?:(?:straight|right|just|immediately|directly) after|(?:straight|right)"
    r" afterwards?)(?: (?:it|that|that one|this one|the \w+))?)(?=[ ,.!?]|$)"
)


def _after_the_one_booked(
    text: str, items: Iterable[Item], timezone: str
) -> tuple[str, str | None] | None:
    """`text` with "right after" said as when the visit booked just before it (this turn)
    ends; the text as it stands until that one is booked (its end is the CRM's); None
    when no visit booked in the message is followed so."""
    match = _AFTER_THE_ONE_BOOKED.search(text)
    if match is None:
        return None
    first = SERVICES[match.group("first")]
    if SERVICES[match.group("second")] == first:
        return None
    booked = [
        item
        for item in items
        if item.get("booked_now") and str(item.get("service") or "").lower() == first.lower()
    ]
    if len(booked) != 1 or not isinstance(booked[0].get("ends_at"), str):
        return text, None
    end = datetime.fromisoformat(str(booked[0]["ends_at"])).astimezone(zone_of(timezone))
    said = f" on {end:%B} {end.day} at {end:%H:%M}"
    return text[: match.start("after")] + said + text[match.end("after") :], None


def _right_after(
    text: str, items: Iterable[Item], now: datetime, timezone: str, focus: Item | None
) -> tuple[str, str | None]:
    if (booked := _after_the_one_booked(text, items, timezone)) is not None:
        return booked
    match = _RIGHT_AFTER.search(text) if _near(text) else None
    if match is None:
        return text, None
    if match.group("what") is not None:
        service = SERVICES[match.group("what")]
        visits = [item for item in items if _start(item, service, now) is not None]
        visit = min(visits, key=lambda item: str(item["starts_at"]), default=None)
        if visit is None:
            return text, service
    elif match.group("any") is not None:
        # "right before my appointment": the one ahead, asked which when there are more
        visits = ahead(items, now)
        if len(visits) != 1:
            return text, ANY
        visit = visits[0]
    elif focus is None or _start(focus, str(focus.get("service") or ""), now) is None:
        return text, None  # "right after it" with no visit in view: read as it stands
    else:
        visit = focus
    ends = visit.get("ends_at")
    zone = zone_of(timezone)
    if match.group("dir") == "before" or not isinstance(ends, str):
        # No end known for the new visit (before) or the one named (after): its day, and
        # the hour asked; before it, the hour it starts is said as the one to be before
        # ("What time before 2:30 PM on Sunday…?": read as no hour of the booking's own).
        day = datetime.fromisoformat(str(visit["starts_at"])).astimezone(zone)
        said = f"on {day:%B} {day.day}"
        if match.group("dir") == "before":
            said = f"before {day:%H:%M} {said}"  # (the hour first, as in _hours_from)
        return text[: match.start()] + said + text[match.end() :], None
    end = datetime.fromisoformat(ends).astimezone(zone)
    said = f"on {end:%B} {end.day} at {end:%H:%M}"
    return text[: match.start()] + said + text[match.end() :], None


# Its own hour, said after the day counted from a visit: "…the week after my cleaning,
# same time", "…the day after my haircut at the same time".
_DAY_SAID = rx(
    r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|today|tonight"
    r"|\d{1,2}(?:st|nd|rd|th)|jan(?:uary)?|feb(?:ruary)?|march|april|may|june|july"
    r"|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b"
)
_MOVES = rx(r"\b(?:move|moving|reschedule|push|shift|bump|change)\b")
_ITS_HOUR = rx(r"^,? (?:and )?(?:at )?(?:the )?same (?:time|hour)\b(?! as\b)")

# "…the same day as my cleaning, right after it": when that visit ends.
_RIGHT_AFTER_IT = rx(
    r"^,? (?:and )?(?:straight|right|just|immediately|directly) after(?: (?:it|that|that one))?\b"
)

# An hour said from the visit named: ", an hour later", " two hours before", "half an hour
# after".
_MINUTES = {"an": 60, "one": 60, "a": 60, "half an": 30, "two": 120, "three": 180}
_HOURS_FROM_IT = rx(
    r"^,? (?:and )?(?:about |around |just )?(?P<n>an|a|one|half an|two|three|[1-9])"
    r" hours? (?P<dir>later|earlier|after|before)(?: (?:it|that|than (?:it|that)))?\b"
)


def read_days(request: PlanRequest) -> PlanRequest | ToolCallsDecision | FinalDecision | None:
    """The request with the day counted from the visit named; a lookup of the visits when
    none is known yet; an answer when there is no such visit; None when no day is said
    by another visit. The customer's message before is read the same way ("the morning
    after my haircut" → "what time?" → "9am")."""
    users = up_to_last_users(request.conversation, 2)
    if not any(counts_from_a_visit(text) for text in _said(request.conversation, users)):
        return None  # most messages count no day from a visit: the visits are not gathered
    items, read = _items(request)
    conversation = list(request.conversation)
    changed = False
    if (picked := _picked(conversation, users)) is not None:
        # "Which appointment should I count from…?" → "the haircut": the request asked
        # about, counted from the visit picked.
        conversation[users[-1]] = UserTurn(text=picked)
        changed = True
    for position, index in enumerate(users[-2:][::-1]):
        message = conversation[index]
        assert isinstance(message, UserTurn)
        if len(message.text.lower()) != len(message.text):
            continue  # the same places in both are needed
        text = message.text.lower()
        told, unknown = _told(
            text, items, request, day_asked=position == 0 and _hour_asked(conversation, users)
        )
        if unknown is not None and position == 0:
            lookup = any(tool.name == LOOKUP for tool in request.tools)
            if not read and request.round <= 1 and lookup:
                call = ToolCall(call_id="c_1_1", tool_name=LOOKUP, arguments={})
                return ToolCallsDecision(calls=(call,))
            return FinalDecision(text=_which(unknown, items, request))
        if told != text:
            conversation[index] = UserTurn(text=told)
            changed = True
    return dataclasses.replace(request, conversation=tuple(conversation)) if changed else None


def _hour_asked(conversation: Sequence[Message], users: list[int]) -> bool:
    """The last message answers "What time on Saturday…?", asked of a day the message before
    said ("and a cleaning saturday" → … → "same time as the haircut": the haircut's hour,
    on Saturday; was: on the haircut's day, Friday)."""
    if len(users) != 2:
        return False
    before = conversation[users[0]]
    if not isinstance(before, UserTurn) or not _DAY_SAID.search(before.text.lower()):
        return False
    return any(
        isinstance(m, AssistantTurn) and "what time" in m.text.lower()
        for m in conversation[users[0] + 1 : users[1]]
    )


# The question asked when the visit to count from is not one known: the visits ahead named.
WHICH_ASKED = "Which appointment should I count from"


def _which(unknown: str, items: Iterable[Item], request: PlanRequest) -> str:
    """The visits ahead, named, to count from: asked when the one said is not among them,
    or when "my appointment" is more than one."""
    timezone = request.customer.timezone if request.customer else "UTC"
    visits = ahead(items, request.now)
    named = [
        f"your {str(v.get('service') or 'visit').lower()}{when_said(str(v['starts_at']), timezone)}"
        for v in visits
    ]
    if not named:
        return (
            f"I couldn't find an upcoming {unknown.lower()} to count that day from. "
            "Which day would you like instead?"
        )
    listed = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} or {named[-1]}"
    if unknown == ANY:
        return f"{WHICH_ASKED}: {listed}?"
    return (
        f"I couldn't find an upcoming {unknown.lower()} to count that day from. "
        f"{WHICH_ASKED}: {listed}? Or tell me the day you'd like."
    )


_PICKED = rx(
    rf"^(?:(?:the|my|your) )?(?P<what>{_SERVICE_WORDS})"
    r"(?: (?:one|appointment|visit))?(?: please)?[.!]?$"
)


def _picked(conversation: Sequence[Message], users: list[int]) -> str | None:
    """The message asked about, with the visit named in answer to which one it counts from
    ("the haircut"); None when that is not what was said."""
    if len(users) != 2 or not any(
        isinstance(m, AssistantTurn) and WHICH_ASKED in m.text
        for m in conversation[users[0] + 1 : users[1]]
    ):
        return None
    before, now = (conversation[index] for index in users)
    assert isinstance(before, UserTurn)
    assert isinstance(now, UserTurn)
    asked = next(
        m.text
        for m in conversation[users[0] + 1 : users[1]]
        if isinstance(m, AssistantTurn) and WHICH_ASKED in m.text
    )
    answer = _PICKED.match(now.text.lower().strip())
    picked = answer.group("what") if answer else _counted_in(asked, now.text.lower().strip())
    text = _same_as_cancelled(before.text.lower())
    match = _ANCHOR.search(text) or (_RIGHT_AFTER.search(text) if _near(text) else None)
    if picked is None or match is None or len(before.text.lower()) != len(before.text):
        return None
    named = "what" if match.group("what") is not None else "any"
    if match.start(named) < 0:
        return None  # "right after it": no visit named to put the one picked in place of
    return f"{text[: match.start(named)]}{picked}{text[match.end(named) :]}"


# "the first one", "the second", "the later one": a visit picked by its place in the
# question that named them (in the order said).
_BY_PLACE = rx(
    r"^(?:(?:ok|okay|oh|um|uh|so|yes|yeah)[ ,]+)*(?:(?:the|my|that) )?"
    r"(?P<n>first|second|third|last|earlier|later|sooner|earliest|latest)"
    r"(?: one| appointment| visit)?(?: please)?[.!]?$"
)
_PLACES = {"first": 0, "earlier": 0, "sooner": 0, "earliest": 0, "second": 1, "third": 2}
_SERVICE_SAID = rx(rf"\b(?:{_SERVICE_WORDS})\b")


def _counted_in(asked: str, reply: str) -> str | None:
    """The service of the visit the reply picks by its place among those the question
    named, or None."""
    place = _BY_PLACE.match(reply)
    if place is None:
        return None
    named = _SERVICE_SAID.findall(asked.lower().partition(WHICH_ASKED.lower())[2])
    if len(named) < 2:
        return None
    index = _PLACES.get(place.group("n"), len(named) - 1)
    if place.group("n") == "later" and len(named) != 2:
        return None  # "the later one" of three: which is not said
    return named[index] if index < len(named) else None


def picked_request(conversation: Sequence[Message]) -> tuple[int, str] | None:
    """Where the customer's last message is and the request it answers, when it names the
    visit asked about ("the haircut" to which visit a day counts from), as the planner
    reads it (the narrator reads it the same); None for any other message."""
    users = up_to_last_users(conversation, 2)
    last = conversation[users[-1]] if users else None
    said = last.text.lower().strip() if isinstance(last, UserTurn) else ""
    if not said or (_PICKED.match(said) is None and _BY_PLACE.match(said) is None):
        return None  # most messages are no such answer: nothing more is looked at
    picked = _picked(conversation, users)
    return None if picked is None else (users[-1], picked)


def _said(conversation: Sequence[Message], users: list[int]) -> list[str]:
    return [m.text for i in users if isinstance(m := conversation[i], UserTurn)]


def counts_from_a_visit(text: str) -> bool:
    """The message says a day by another visit ("the day after my haircut")."""
    text = each_to_the_others_time(_for_after_a_visit(text.lower()))
    if not _near(text) and "same " not in text and "the day of " not in text:
        return False  # ("make the glasses task due the day of the eye exam")
    text = _same_as_cancelled(text)
    return _ANCHOR.search(text) is not None or (
        _near(text)
        and (
            _RIGHT_AFTER.search(text) is not None or _AFTER_THE_ONE_BOOKED.search(text) is not None
        )
    )


def booked_right_after(original: PlanRequest, dated: PlanRequest) -> ToolCall | None:
    """The booking a visit "right after" another booked this turn now has its hour for
    (the message read with that visit's end): the call, unless made already."""
    if not any(r.call.tool_name == BOOK and r.ok for r in original.turn_results):
        return None
    timezone = original.customer.timezone if original.customer else "UTC"
    before = detect_intents(original.user_message, original.now, timezone)
    now = detect_intents(dated.user_message, dated.now, timezone)
    waiting = {
        str(i.arguments.get("service"))
        for i in before
        if i.kind == "book_appointment" and "time" in i.missing and i.arguments.get("service")
    }
    made = {
        str(r.call.arguments.get("service"))
        for r in original.turn_results
        if r.call.tool_name == BOOK
    }
    for intent in now:
        service = str(intent.arguments.get("service"))
        if (
            intent.kind == "book_appointment"
            and not intent.missing
            and service in waiting
            and service not in made
            and isinstance(intent.arguments.get("starts_at"), str)
        ):
            call_id = f"c_{original.round}_1"
            return ToolCall(call_id=call_id, tool_name=BOOK, arguments=dict(intent.arguments))
    return None


def looked_up_only(request: PlanRequest) -> bool:
    """This turn has read only the listing the day is counted from: the request is
    planned now as a first round would be."""
    results = request.turn_results
    return len(results) == 1 and results[0].call.tool_name == LOOKUP and results[0].round == 1


# "book me an eye exam the day after, same time" just after a visit was booked or moved:
# the day after that visit (said with nothing after it, the day counted from is the one
# just talked about).
_FROM_NOTHING_SAID = rx(
    r"\bthe (?P<part>day|morning|afternoon|evening) (?P<dir>after|before)\b"
    r"(?! (?:my|the|that|this|it|your|next|tomorrow|today|\w+day)\b)"
)
_BOOKS = rx(r"\b(?:book|get|schedule|want|need)\b")


# "same day next year too", "and another exactly one year later", just after a booking:
# a year on from that visit's day (not from today's).
_A_YEAR_ON = rx(
    r"\b(?:(?:on )?the )?same (?:day|date) next year\b"
    r"|\b(?:exactly )?(?:a|one) year (?:later|after that|after it|on from (?:that|it))\b"
)
_ANOTHER_LIKE_IT = rx(r"\b(?:too|another|again|as well|also|same)\b")
_A_CLOCK = rx(r"\b\d{1,2}(?::\d\d)? ?(?:am|pm)\b|\bat \d{1,2}\b|\bnoon\b|\bmidday\b")


def a_year_on(text: str, state: Dialogue) -> str:
    """`text` with "same day next year" said after a booking as a year from that visit's
    day, the visit named again when the words only ask for another ("…too")."""
    lower = text.lower()
    if "year" not in lower or (said := _A_YEAR_ON.search(lower)) is None:
        return text
    action = state.last_action
    if action is None or action.tool != "crm.bookAppointment":
        return text
    visit = action.after or {}
    service = str(visit.get("service") or "").lower()
    if not service or not isinstance(visit.get("starts_at"), str):
        return text
    start = datetime.fromisoformat(str(visit["starts_at"]))
    told = f"{text[: said.start()]}a year from {start:%B} {start.day}{text[said.end() :]}"
    if _BOOKS.search(lower) or service in lower:
        return told
    if _ANOTHER_LIKE_IT.search(lower) is None:
        return text
    if len(lower.split()) > 8:
        return text  # more said than "another one" of the visit: read as it stands
    clock = f" at {start:%H:%M}"
    if (hour := _A_CLOCK.search(lower)) is not None:
        clock = f" {hour.group(0)}" if hour.group(0).startswith("at ") else f" at {hour.group(0)}"
    return f"book a {service} a year from {start:%B} {start.day}{clock}"


def from_the_last_visit(text: str, state: Dialogue) -> str:
    """`text` with the visit just booked or moved named after "the day after" that names
    none (a booking only: a move's "the day after" is a shift of the visit moved)."""
    text = a_year_on(text, state)
    lower = text.lower()
    if "the " not in lower or (" after" not in lower and " before" not in lower):
        return text
    action = state.last_action
    if action is None or action.tool not in ("crm.bookAppointment", "crm.rescheduleAppointment"):
        return text
    service = str((action.after or {}).get("service") or "").lower()
    said = _FROM_NOTHING_SAID.search(lower)
    if not service or said is None or _BOOKS.search(lower) is None:
        return text
    return f"{text[: said.end()]} my {service}{text[said.end() :]}"
