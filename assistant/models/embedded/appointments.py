"""Spoken answers for appointment results: listings, the next one, booked, moved, cancelled."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta, tzinfo
from functools import lru_cache
from typing import Any

from assistant.language.dates import find_when
from assistant.language.others import reported
from assistant.language.patterns import rx
from assistant.language.scope import done_elsewhere
from assistant.language.slots import services_named
from assistant.language.targets import DAY_EDGE
from assistant.models.embedded.scene import Item, Scene
from assistant.models.embedded.tasks import done_said
from assistant.schema import ToolResult
from assistant.speech import (
    article,
    count,
    dated_datetime,
    lower_first,
    parse_moment,
    short_clock,
    spoken_datetime,
    spoken_day,
    spoken_list,
)


def when(item: Item, scene: Scene) -> str:
    """ "tomorrow at 10 AM" or "on Tuesday, March 3 at 2:00 PM"."""
    starts_at = item.get("starts_at")
    if not isinstance(starts_at, str):
        return _UNREADABLE
    return _when(starts_at, scene.now.date(), scene.now.tzinfo)


_UNREADABLE = "at a time I couldn't read"


# Kept: the words for a CRM timestamp depend only on it, the customer's today and zone
# (all immutable), and the same appointments are listed turn after turn; saying one
# afresh (parse, zone, date names, clock) cost 2 µs, looking it up 0.2.
@lru_cache(maxsize=4096)
def _when(starts_at: str, today: date, zone: tzinfo | None) -> str:
    moment = parse_moment(starts_at)
    if moment is None:
        return _UNREADABLE
    # spoken_datetime reads only the date and the zone of `now`.
    spoken = spoken_datetime(moment, datetime.combine(today, time(), zone))
    return spoken if spoken.startswith(("today", "tomorrow")) else f"on {spoken}"


def when_written(item: Item, scene: Scene) -> str:
    """Where a booking or a move landed, its date always said ("tomorrow, Tuesday,
    January 15 at 3 PM"): a relative day ("next tuesday") is heard as the day used."""
    moment = parse_moment(item.get("starts_at"))
    if moment is None:
        return _UNREADABLE
    dated = dated_datetime(moment, scene.now)
    return dated if dated.startswith(("today", "tomorrow")) else f"on {dated}"


def service(item: Item) -> str:
    return lower_first(str(item.get("service") or "appointment"))


def upcoming(items: Any) -> list[Item]:
    if not isinstance(items, list):
        return []
    kept = [i for i in items if isinstance(i, dict) and i.get("status") != "cancelled"]
    return sorted(kept, key=lambda item: str(item.get("starts_at")))


# "what times are free on friday for a haircut?": the business's open times, which no
# tool reads (not "am I free on friday?", the customer's own).
_OPEN_TIMES = rx(
    r"\b(?:slots?|openings?|availability)\b"
    r"|\b(?:times?|anything) (?:are |is )?(?:free|available|open)\b"
    r"|\b(?:free|available|open) (?:times?|slots?)\b"
    r"|\bwhen (?:are you|is it|is the \w+) (?:free|open|available)\b"
)
_CANNOT_SEE_OPEN_TIMES = (
    "I can't see which times are open, but if you tell me the time you'd like, I'll book it."
)


def listing(result: ToolResult, scene: Scene) -> list[str]:
    items = upcoming(result.result.get("appointments"))
    if (edge := _edge_asked(scene)) is not None:
        return _from_the_edge(items, *edge, scene)
    day = _day_asked(scene)
    if _OPEN_TIMES.search(scene.said):
        return [_CANNOT_SEE_OPEN_TIMES, *(_on_day(items, day, scene) if day else [])]
    if day is not None:
        return _on_day(items, day, scene)
    if not items:
        return ["You have no upcoming appointments."]
    if (one := _the_one_asked(items, scene)) is not None:
        # "…and also what time is my dentist thing": that visit, not every one.
        return [f"Your {service(one)} is {when(one, scene)}."]
    if (part := _part_asked(scene.said)) is not None and not any(
        intent.writes for intent in scene.intents
    ):
        return _in_part(items, part, scene)
    if (week := _week_asked(scene)) is not None:
        # "what's my busiest day next week": the visits of that week, not all ahead
        first, last, name = week
        within = [i for i in items if first <= _local_day(i, scene) <= last]
        busiest = _busiest(within, scene) if _BUSIEST.search(scene.said) else []
        if len(within) < len(items):
            if not within:
                span = (
                    f"{spoken_day(first, scene.now.date())} to {spoken_day(last, scene.now.date())}"
                )
                return [
                    f"You have nothing booked {name} ({span}).",
                    f"Your next appointment is {article(service(items[0]))} "
                    f"{when(items[0], scene)}.",
                ]
            described = [f"{article(service(item))} {when(item, scene)}" for item in within]
            return [f"{name.capitalize()} you have {spoken_list(described)}.", *busiest]
        if busiest:
            described = [f"{article(service(item))} {when(item, scene)}" for item in items]
            noun = count(len(items), "upcoming appointment")
            return [f"You have {noun}: {spoken_list(described)}.", *busiest]
    described = [f"{article(service(item))} {when(item, scene)}" for item in items]
    noun = count(len(items), "upcoming appointment")
    return [f"You have {noun}: {spoken_list(described)}."]


# "this week", "next week": the week asked about (a cheap word test first).
_WEEK = rx(r"\b(?P<which>this|next|the coming) week\b")
_WEEK_OF = rx(r"\bweek (?:of|starting|beginning|commencing|after next)\b")
_BUSIEST = rx(r"\b(?:busiest|most booked|most packed|fullest)\b")


def _week_asked(scene: Scene, text: str | None = None) -> tuple[date, date, str] | None:
    """The first and last day of the week asked about (in `text`, the whole ask unless
    given), and how to name it."""
    text = scene.said if text is None else text
    if "week" not in text:
        return None
    if (found := _WEEK.search(text)) is None:
        # "the week of the 21st": that week, Monday to Sunday (language/dates.py)
        said = find_when(text, scene.now) if _WEEK_OF.search(text) else None
        if said is None or said.day is None or not said.vague_day:
            return None
        first = max(said.day, scene.now.date())
        return first, said.day + timedelta(days=6), "that week"
    today = scene.now.date()
    monday = today - timedelta(days=today.weekday())
    if found.group("which") == "this":
        return today, monday + timedelta(days=6), "this week"
    monday += timedelta(days=7)
    return monday, monday + timedelta(days=6), "next week"


def _local_day(item: Item, scene: Scene) -> date:
    moment = parse_moment(item.get("starts_at"))
    return moment.astimezone(scene.now.tzinfo).date() if moment else date.min


def _busiest(items: list[Item], scene: Scene) -> list[str]:
    """Which day holds the most of `items`, said when one does ("busiest day")."""
    days: dict[date, int] = {}
    for item in items:
        days[_local_day(item, scene)] = days.get(_local_day(item, scene), 0) + 1
    if not days:
        return []
    most = max(days.values())
    top = [day for day, n in days.items() if n == most]
    if most == 1:
        return ["No day has more than one appointment."]
    if len(top) > 1:
        return [
            f"No one day is busier: each of "
            f"{spoken_list([spoken_day(d, scene.now.date()) for d in top])} has {most}."
        ]
    return [f"Your busiest day is {spoken_day(top[0], scene.now.date())}, with {most}."]


# "what time is my dentist thing": when one visit named is asked about; not "when are my
# appointments other than the haircut", nor "…the haircut and the others".
_WHEN_OF_ONE = rx(r"\b(?:what time|when)\b")
_NOT_ONE = rx(r"\b(?:other|others|besides|except|apart|else|all|every|any|and)\b")


def _the_one_asked(items: list[Item], scene: Scene) -> Item | None:
    """The one visit the turn's question names by its service, when only that one is asked
    about among other asks ("add a task … and also what time is my dentist thing")."""
    if len(scene.intents) < 2 or len(items) < 2:
        return None  # asked alone, it is answered as a question (models/embedded/questions)
    asked = [i for i in scene.intents if i.kind in ("appointments", "next_appointment")]
    if len(asked) != 1 or not _WHEN_OF_ONE.search(clause := asked[0].clause):
        return None
    after = clause[_WHEN_OF_ONE.search(clause).end() :]  # type: ignore[union-attr]
    named = services_named(after)
    if len(named) != 1 or _NOT_ONE.search(after):
        return None
    (name,) = named
    of_it = [item for item in items if service(item) == name.lower()]
    return of_it[0] if of_it else None


# Words without which no single day can be said ("friday", "today", "tonight", "the 5th",
# "the fifteenth", "3/4", a month): a cheap look before the full date reading.
# (day, dec, tomorrow, tonight, th, third, first, feb, second, jan, jun, jul, mar, may,
# apr, aug, sep, oct, nov: written by first letter, each alternative starting with a
# letter, so that the engine skips to the letters that can start one; the digits apart.)
_NAMES_A_DAY = re.compile(
    r"d(?:ay|ec)|t(?:o(?:morrow|night)|h(?:\b|ird))|f(?:irst|eb)|second|j(?:an|u[nl])"
    r"|ma[ry]|a(?:pr|ug)|sep|oct|nov"
)
_DIGIT = re.compile(r"\d")


def _edge_asked(scene: Scene) -> tuple[str, date] | None:
    """ "what do I have after wednesday": the edge and the day it is said of."""
    if " after " not in scene.said and " before " not in scene.said:
        return None
    if not scene.intents or any(intent.writes for intent in scene.intents):
        return None
    said = find_when(scene.said, scene.now)
    if said is None or said.day is None or said.clock or said.vague_day or not said.spans:
        return None
    edge = DAY_EDGE.search(scene.said[: min(said.spans)[0]])
    return None if edge is None else (edge.group("edge"), said.day)


def _from_the_edge(items: list[Item], edge: str, day: date, scene: Scene) -> list[str]:
    """The visits after `day`, or from today until it (was: that day's own were read)."""
    named = spoken_day(day, scene.now.date())
    within = [
        item
        for item in items
        if (local := _local_day(item, scene)) != date.min
        and (local > day if edge == "after" else local < day)
    ]
    if not within:
        return [f"You have nothing booked {edge} {named}."]
    described = [f"{article(service(item))} {when(item, scene)}" for item in within]
    return [f"{edge.capitalize()} {named} you have {spoken_list(described)}."]


def _day_asked(scene: Scene) -> date | None:
    """The one day a lookup asks about ("anything on Sunday?", "am I free tomorrow?");
    None for a span ("next week"), no day, or a turn that also changes something."""
    if not scene.intents or any(intent.writes for intent in scene.intents):
        return None
    if any(done_elsewhere(i.clause) or reported(i.clause) for i in scene.intents):
        return None  # "I moved it to thursday", "I was told it's on monday": a claim, checked
    if _NAMES_A_DAY.search(scene.said) is None and _DIGIT.search(scene.said) is None:
        return None  # most listings name no day: the date reading is not paid for
    own = [i.clause for i in scene.intents if i.kind in ("appointments", "next_appointment")]
    # "did my payment from monday show up, and when's my haircut": with another ask beside
    # it, the day is the one said in the visits' own words (was: "nothing booked on Monday")
    text = " ".join(own) if own and len(own) < len(scene.intents) else scene.said
    said = find_when(text, scene.now)
    if said is None or said.day is None or said.vague_day or said.day_implied:
        return None
    return said.day


# A part of the day asked about: "…wednesday morning", "…before noon", "…after 3".
_PART_WORDS = rx(r"\b(?:morning|afternoon|evening|tonight|night|before|after|until|till)\b")
_PARTS_OF_DAY = {
    "morning": (0, 12 * 60, "in the morning"),
    "afternoon": (12 * 60, 17 * 60, "in the afternoon"),
    "evening": (17 * 60, 24 * 60, "in the evening"),
    "tonight": (17 * 60, 24 * 60, "in the evening"),
    "night": (17 * 60, 24 * 60, "in the evening"),
}
_PART_ASKED = rx(
    r"\b(?P<part>morning|afternoon|evening|tonight|night)\b"
    r"|\b(?P<edge>before|after|until|till) (?:(?P<noon>noon|midday|lunch|lunchtime)"
    r"|(?P<h>1[0-2]|[1-9])(?::(?P<m>[0-5]\d))? ?(?P<ap>am|pm|a m|p m)?)\b"
)


def _part_asked(said: str) -> tuple[int, int, str] | None:
    """The stretch of the day asked about, in minutes from midnight, and how to say it;
    None when the whole day is asked (a cheap word test first)."""
    if _PART_WORDS.search(said) is None:
        return None
    found = _PART_ASKED.search(said)
    if found is None:
        return None
    if found.group("part"):
        return _PARTS_OF_DAY[found.group("part")]
    if found.group("noon"):
        at, words = 12 * 60, "noon"
    else:
        hour = int(found.group("h")) % 12
        ap = (found.group("ap") or "").replace(" ", "")
        # "after 3": an afternoon hour, as a visit is booked (7 to 11 are the morning's)
        pm = ap == "pm" or (not ap and 1 <= int(found.group("h")) <= 6)
        at = (hour + 12 * pm) * 60 + int(found.group("m") or 0)
        words = short_clock(datetime(2000, 1, 1, at // 60, at % 60))
    if found.group("edge") == "after":
        return at, 24 * 60, f"after {words}"
    return 0, at, f"before {words}"


def _in_part(items: list[Item], part: tuple[int, int, str], scene: Scene) -> list[str]:
    """ "which appointments are in the morning?", with no day said: those of that part of
    any day ahead (of the week said, when one is), never every visit as if they were."""
    first, last, words = part
    within = []
    for item in items:
        moment = parse_moment(item.get("starts_at"))
        if moment is None:
            continue
        local = moment.astimezone(scene.now.tzinfo)
        if first <= local.hour * 60 + local.minute < last:
            within.append(item)
    own = [i.clause for i in scene.intents if i.kind == "appointments" and i.clause]
    # (the week of the visits' own words: "what's due this week and which appointments are
    # in the afternoon?" asks every afternoon one)
    if (week := _week_asked(scene, " ".join(own) if own else scene.said)) is not None:
        within = [i for i in within if week[0] <= _local_day(i, scene) <= week[1]]
        words += f" {week[2]}"
    if not within:
        return [f"None of your upcoming appointments is {words}."]
    described = [f"{article(service(item))} {when(item, scene)}" for item in within]
    noun = count(len(within), "upcoming appointment")
    return [f"You have {noun} {words}: {spoken_list(described)}."]


_WHERE_OF_DAY = re.compile(r"\bwhere(?:'s| is| are)?\b|\baddress\b")


def _on_day(items: list[Item], day: date, scene: Scene) -> list[str]:
    """What is booked that day, or that nothing is and what comes next (of the part of the
    day asked, when one is: "anything before noon on wednesday?")."""
    named = spoken_day(day, scene.now.date())
    lead = named if named in ("today", "tomorrow", "yesterday") else f"on {named}"
    that_day: list[str] = []
    in_part: list[str] = []
    part = _part_asked(scene.said)
    after: list[Item] = []
    places: list[str] = []
    for item in items:
        moment = parse_moment(item.get("starts_at"))
        if moment is None:
            continue
        local = moment.astimezone(scene.now.tzinfo)
        if local.date() == day:
            that_day.append(f"{article(service(item))} at {short_clock(local)}")
            places.append(str(item.get("location") or ""))
            if part is not None and part[0] <= local.hour * 60 + local.minute < part[1]:
                in_part.append(that_day[-1])
        elif local.date() > day:
            after.append(item)
    if part is not None and that_day:
        if in_part:
            return [f"You have {spoken_list(in_part)} {lead}."]
        # "anything sunday morning?": nothing then, and what there is that day
        return [
            f"You have nothing booked {lead} {part[2]}; that day you have {spoken_list(that_day)}."
        ]
    if that_day:
        if len(places) == 1 and places[0] and _WHERE_OF_DAY.search(scene.said.lower()):
            # "and where is the friday one?": the one that day, and where it is
            return [f"You have {that_day[0]} {lead}, at {places[0]}."]
        return [f"You have {spoken_list(that_day)} {lead}."]
    sentences = [f"You have nothing booked {lead}."]
    if after:
        next_one = after[0]
        sentences.append(
            f"Your next appointment after that is {article(service(next_one))} "
            f"{when(next_one, scene)}."
        )
    return sentences


def by_status(result: ToolResult, scene: Scene) -> list[str]:
    """A listing by status ("past", "cancelled", "all"), oldest first as the CRM gives it."""
    status = str(result.call.arguments.get("status") or "all")
    raw = result.result.get("appointments")
    items = [i for i in raw if isinstance(i, dict)] if isinstance(raw, list) else []
    kind = "appointment" if status == "all" else f"{status} appointment"
    if not items:
        return [f"You have no {kind}s."]
    if status == "all":
        return _history(items, scene)
    described = [f"{article(service(item))} {when(item, scene)}" for item in items]
    return [f"You have {count(len(items), kind)}: {spoken_list(described)}."]


_MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
# "what did I have last month?", "…in november": a span gone by, asked about.
_SPAN_GONE = re.compile(
    r"\blast (?P<unit>month|year)\b|\bin (?P<month>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov"
    r"|dec)[a-z]*\b"
)


def _span_gone(said: str, today: date) -> tuple[date, date, str] | None:
    """The first and the day after the last day of the span said, and how to name it."""
    if "last" not in said and "in " not in said:
        return None  # most listings are asked without one
    match = _SPAN_GONE.search(said.lower())
    if match is None:
        return None
    if match.group("unit") == "year":
        return date(today.year - 1, 1, 1), date(today.year, 1, 1), "last year"
    if match.group("unit") == "month":
        month, year, name = today.month - 1 or 12, today.year - (today.month == 1), "last month"
    else:
        month = _MONTH_NAMES.index(match.group("month")) + 1
        year = today.year if month < today.month else today.year - 1
        name = f"in {date(year, month, 1):%B}"
    end = date(year + (month == 12), month % 12 + 1, 1)
    return date(year, month, 1), end, name


def _history(items: list[Item], scene: Scene) -> list[str]:
    """Every appointment on file, told apart: the last visit ("when did I last come in"),
    what is coming up, and what was cancelled ("was the consultation cancelled?")."""
    cancelled = [i for i in items if i.get("status") == "cancelled"]
    kept = sorted((i for i in items if i not in cancelled), key=lambda i: str(i.get("starts_at")))
    past = [i for i in kept if _before(i, scene)]
    coming = [i for i in kept if i not in past]
    if past and (span := _span_gone(scene.said, scene.now.date())) is not None:
        first, end, name = span
        then = [
            i
            for i in past
            if (moment := parse_moment(i.get("starts_at"))) is not None
            and first <= moment.astimezone(scene.now.tzinfo).date() < end
        ]
        if not then:
            return [f"You had no visits {name}."]
        described = [f"{article(service(item))} {when(item, scene)}" for item in then]
        return [f"{name[0].upper()}{name[1:]} you had {spoken_list(described)}."]
    if past:
        last = past[-1]
        lead = "Your last visit was"
        if len(past) > 1:
            lead = f"You've had {count(len(past), 'visit')}; the last was"
        sentences = [f"{lead} {article(service(last))} {when(last, scene)}."]
    else:
        sentences = ["You have no past visits on file."]
    if coming:
        described = [f"{article(service(item))} {when(item, scene)}" for item in coming]
        sentences.append(f"Coming up: {spoken_list(described)}.")
    if cancelled:
        # Said as what became of them ("Cancelled: a consultation…" read as a cancel just
        # made, in an answer that made none).
        described = [f"{article(service(item))} {when(item, scene)}" for item in cancelled]
        if len(described) == 1:
            one = described[0]
            sentences.append(f"{one[:1].upper()}{one[1:]} was cancelled.")
        else:
            sentences.append(f"These were cancelled: {spoken_list(described)}.")
    return sentences


def _before(item: Item, scene: Scene) -> bool:
    moment = parse_moment(item.get("starts_at"))
    return item.get("status") in ("past", "completed") or (
        moment is not None and moment < scene.now
    )


def next_one(result: ToolResult, scene: Scene) -> list[str]:
    item = result.result.get("appointment")
    if not isinstance(item, dict):
        return ["You have no upcoming appointments."]
    sentences = [f"Your next appointment is {article(service(item))} {when(item, scene)}."]
    if location := item.get("location"):
        sentences.append(f"It's at {location}.")
    if notes := item.get("notes"):
        sentences.append(f"A note on it says: {lower_first(str(notes).rstrip('.'))}.")
    return sentences


def booked(result: ToolResult, scene: Scene) -> list[str]:
    item = result.result
    sentences = [f"You're booked for {article(service(item))} {when_written(item, scene)}."]
    if location := item.get("location"):
        sentences.append(f"It's at {location}.")
    if (other := _one_already_booked(item, scene)) is not None:
        # "book a dental cleaning for the 30th at 10", one on the 16th: that one is said
        # too, so that a second booked by a slip (one meant to be moved, or forgotten) is
        # heard at once (before, the booking was told without a word of the first).
        sentences.append(
            f"You also still have {article(service(other))} {when_written(other, scene)}."
        )
    return sentences


# "book another cleaning", "a second haircut", "…as well": the one there is known.
_ANOTHER_SAID = rx(
    r"\b(?:another|second|2nd|again|also|too|as well|extra|one more|more|both|each|every"
    r"|both|weekly|monthly|recurring|follow-?up|same)\b"
)


def _one_already_booked(booked_item: Item, scene: Scene) -> Item | None:
    """The first visit ahead of the same service as the one just booked, from this turn's
    listing (None when there is none, or the words say another is meant)."""
    name = str(booked_item.get("service") or "").lower()
    if not name or _ANOTHER_SAID.search(scene.said):
        return None
    others = [
        item
        for result in (*scene.results, *scene.checked)
        if result.call.tool_name == "crm.listUpcomingAppointments" and result.ok
        for item in upcoming(
            result.result.get("appointments") if isinstance(result.result, dict) else None
        )
        if str(item.get("service") or "").lower() == name
        and item.get("id") != booked_item.get("id")
        and item.get("status") != "cancelled"
    ]
    moved_or_cancelled = {
        result.call.arguments.get("appointment_id")
        for result in scene.results
        if result.call.tool_name in ("crm.rescheduleAppointment", "crm.cancelAppointment")
    }
    others = [item for item in others if item.get("id") not in moved_or_cancelled]
    return min(others, key=lambda item: str(item.get("starts_at")), default=None)


def rescheduled(result: ToolResult, scene: Scene) -> list[str]:
    """What the CRM's reply shows: moved (and from when), or already at that time."""
    item = result.result
    asked_id = result.call.arguments.get("appointment_id")
    if asked_id is not None and item.get("id") not in (None, asked_id):
        # The reply is about another visit than the one moved: neither is claimed.
        named = scene.earlier(asked_id)
        which = f"your {service(named)}" if named is not None else "that appointment"
        return [
            f"I asked to move {which}, but the system answered about your {service(item)}, "
            "so I can't confirm the move."
        ]
    now_at = parse_moment(item.get("starts_at"))
    before = scene.earlier(item.get("id"))
    was_at = parse_moment(before.get("starts_at")) if before is not None else None
    asked = parse_moment(result.call.arguments.get("starts_at"))
    if asked is not None and now_at is not None and asked != now_at:
        # The CRM holds another time than the one asked for: say what it holds.
        return [f"Your {service(item)} is showing {when(item, scene)}, not the time I asked for."]
    if was_at is not None and was_at == now_at:
        return [
            f"Your {service(item)} is already {when(item, scene)}, so nothing needed to change."
        ]
    moved_from = ""
    if before is not None and was_at is not None:
        moved_from = f", moved from {when(before, scene).removeprefix('on ')}"
    # Several moved in one turn: "Done" once, before the first.
    moves = [r for r in scene.results if r.ok and r.call.tool_name == result.call.tool_name]
    done = done_said(scene) if not moves or moves[0] is result else ""
    sentences = [f"{done}Your {service(item)} is now {when_written(item, scene)}{moved_from}."]
    if (location := item.get("location")) and _WHERE_ASKED.search(scene.said):
        # "move the cleaning to friday at 11 and what's the address there?"
        sentences.append(f"It's at {location}.")
    return sentences


# Asked where beside a move: "…and what's the address there?", "…, where is it again?",
# "…and tell me where it is" (was: the move told, the place left unsaid)
_WHERE_ASKED = rx(r"\bwhere(?:'s| is| it is| it's)\b|\baddress\b|\blocation\b")


def cancelled(result: ToolResult, scene: Scene) -> list[str]:
    """What the CRM's reply shows: cancelled, or still booked (said so, not claimed)."""
    item = result.result
    status = item.get("status")
    if status is not None and status != "cancelled":
        return [
            f"The system still shows your {service(item)} {when(item, scene)} as {status}, "
            "so I can't confirm it's cancelled."
        ]
    return [f"Your {service(item)} {when(item, scene)} is cancelled."]


def describe(item: Item, scene: Scene) -> str:
    """ "your haircut on Tuesday, March 3 at 2:00 PM" (for questions and offers)."""
    return f"your {service(item)} {when(item, scene)}"
