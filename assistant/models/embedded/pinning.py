"""Pinning what a follow-up is about: the item in focus or counted from a listing, and
a new time said relative to it ("an hour later", "same time", "make it 3").

The building blocks of assistant.models.embedded.references and .corrections: the cue
words, the item's current start, the new start, and intents aimed at one item by id.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from assistant.dialogue_state import Dialogue, Item, Kind
from assistant.language import Intent, find_when, slots
from assistant.language.appointment_rules import says_vague_time
from assistant.language.lexicon import SERVICES, WEEKDAYS
from assistant.language.patterns import rx
from assistant.language.shifts import (
    SAME_DAY_NEXT_WEEK,
    bare_clock,
    find_shift,
    same_time,
    weekday_beside,
    whole_days,
)
from assistant.language.slots import priority as said_priority
from assistant.language.targets import TargetRef
from assistant.zones import zone_named

PRONOUN = r"(?:that one|this one|the one|it|that|this)"


MOVE_CUE = rx(
    r"\b(?:move|push|rebook|reschedule|make|bring|pop|put|shift|change|do|have|instead|rather"
    r"|switch|bump|can we|could we|later|earlier|sooner)\b"
)


NEW_BOOKING = rx(r"\b(?:book|schedule)(?: me)?(?: in)? (?:a|an|another|new|one)\b|\bnew\b")


CANCEL_IT = rx(
    rf"(?<!don't )(?<!dont )(?<!do not )(?<!not )\b(?:cancel|call off|scrap|drop)\s+{PRONOUN}\b"
)


# (not "don't delete it, complete it instead": the delete is what is not wanted)
DELETE_IT = rx(
    r"(?<!don't )(?<!dont )(?<!not )(?<!never )"
    rf"\b(?:delete|remove|get rid of|bin|scrap|drop)\s+{PRONOUN}\b"
)


_LEVELS = r"high|low|normal|medium|urgent|top|important|not urgent|less urgent"
COMPLETE_IT = rx(
    # ("mark it high priority", "mark it as urgent": its priority, never done)
    rf"\b(?:mark|tick|check)\s+{PRONOUN}\s+(?!(?:as |to )?(?:a |an )?(?:{_LEVELS})\b)"
    r"(?:off|as )?(?:done|complete|completed|finished)?"
    rf"|\b(?:complete|finish|tick off|cross off)\s+{PRONOUN}\b"
    r"|\b(?:it's|that's|it is|that is) (?:done|finished|sorted)\b"
    # "now they're done" of the groceries told of (not "they're all done")
    r"|\b(?:they're|they are|theyre) (?:done|finished|sorted)\b"
)


PRIORITY_IT = rx(
    rf"\b(?:make|set|mark|change)\s+{PRONOUN}\s+(?:to |as )?(?:a |an )?(?:{_LEVELS})\b"
    # "and bump it up to high (while you're at it)", "drop that down to low"
    rf"|\b(?:bump|raise|lower|drop|knock|move|put|turn)\s+{PRONOUN}\s+(?:up |down |back )?"
    rf"(?:to |as |at )(?:a |an )?(?:{_LEVELS})\b"
    r"|^(?:and |oh |also )*(?:it's|it is|that's|that is|it was|its)(?: also| really| quite)?"
    r" (?:a )?(?:urgent|important|high|low|not urgent|top)"
)


DUE_IT = rx(
    rf"\b(?:make|set|change|move|push)\s+{PRONOUN}\b.*\bdue\b|\bdue (?:on |by )?"
    # "it needs doing by thursday", "that has to be done by friday"
    rf"|^(?:and |oh |so )*{PRONOUN} (?:needs?|has|have|should|must)(?: to)?(?: be)?"
    r" (?:doing|done|finished|sorted|completed)\b"
)


_OTHER_ONE = rx(r"\b(?:the |that )?other (?:one|appointment|visit|booking|task|reminder)\b")


# "open another one" after the support cases were read out: another case.
_ANOTHER_ONE = rx(
    r"\b(?P<verb>open|create|file|raise|log|start|add|make|need|want)(?: me)? (?P<a>another"
    r"|a new|one more|a second) one\b"
    # "add one to renew my passport", "open one about…": one more of what was listed.
    r"|\b(?P<verb1>add|open|create|raise|log|file)(?: me)? (?P<a1>one) (?=to |for |about )"
)
# "and another to call the plumber" right after a task was added: one more of the same.
_ONE_MORE = rx(
    r"^(?:(?:and|also|oh|plus|ok|okay|great|thanks)[,.!]? )*(?P<a>another|one more)"
    r"(?: one)? (?=to |for |about |saying |that says )"
)
# The kind of thing the last write made, and the verb that makes another.
_MADE_BY = {"crm.addTask": ("add", "task"), "crm.createTicket": ("open", "ticket")}
# "I need a new one": the verb that makes one of each kind.
_MAKES = {"ticket": "open", "task": "add"}
_NOUN_OF = {"ticket": "ticket", "task": "task"}


def the_other_named(state: Dialogue, message: str) -> str:
    """ "what about the other one?" after one of two things: that one, named; "open
    another one" after a listing: another of what was listed."""
    noun = _NOUN_OF.get(state.listed_kind or "")
    lowered = message.lower()
    made = _MADE_BY.get(state.last_action.tool) if state.last_action is not None else None
    if made is not None and len(lowered) == len(message) and (more := _ONE_MORE.search(lowered)):
        verb, kind = made
        return f"{verb} {more.group('a')} {kind} {message[more.end() :]}"
    if noun and len(lowered) == len(message) and (another := _ANOTHER_ONE.search(lowered)):
        verb = another.group("verb") or another.group("verb1")
        if verb in ("need", "want"):
            verb = _MAKES.get(noun, verb)
        article = another.group("a") or "a"
        said = f"{verb} {article} {noun}" + (" " if another.group("verb1") else "")
        message = message[: another.start()] + said + message[another.end() :]
    if state.focus is None or state.focus_kind is None:
        return message
    if not _OTHER_ONE.search(message.lower()):
        return _the_other_of_its_name(state, message) if "other" in message else message
    others = [
        item
        for item in state.listed_of(state.focus_kind)
        if item.get("id") != state.focus.get("id") and item.get("status") != "cancelled"
    ]
    if len(others) != 1:
        # "and the other booking" after two were booked and one of them changed: the other
        # of the two made in the conversation (the listing holds every visit).
        others = _the_other_made(state)
    if len(others) != 1:
        return message
    label = str(others[0].get("service") or others[0].get("title") or "").lower()
    named = f"the {label}" if state.focus_kind == "appointment" else f"the {label} task"
    return _OTHER_ONE.sub(named, message.lower(), count=1) if label else message


# "cancel the other cleaning" after one of two cleanings was in focus: the other of them.
_OTHER_NAMED = rx(r"\b(?:the |that )?other (?P<word>[a-z]{4,})\b")


def _the_other_of_its_name(state: Dialogue, message: str) -> str:
    """ "the other cleaning" with one of two dental cleanings in focus: the one not in
    focus, named by its day ("the dental cleaning on january 16"); `message` otherwise."""
    other = _OTHER_NAMED.search(message)
    focus = state.focus
    if other is None or focus is None or state.focus_kind != "appointment":
        return message
    service = str(focus.get("service") or "")
    if other.group("word").rstrip("s") not in service.lower().split():
        return message
    others = [
        item
        # (the visits last read out, a bill or a case read since)
        for item in state.last_listed_of("appointment")
        if item.get("id") != focus.get("id")
        and item.get("service") == service
        and item.get("status") not in ("cancelled", "past", "completed")
    ]
    if len(others) != 1:
        return message
    try:
        starts = datetime.fromisoformat(str(others[0].get("starts_at")))
    except ValueError:
        return message
    named = f"the {service.lower()} on {starts.strftime('%B')} {starts.day}".lower()
    return message[: other.start()] + named + message[other.end() :]


_MADE_OF_KIND = {"appointment": "crm.bookAppointment", "task": "crm.addTask"}


def _the_other_made(state: Dialogue) -> list[Item]:
    """The items of the focus's kind made in the conversation other than the one in
    focus, when that one was made in it too (else none: "the other" is not among them)."""
    tool = _MADE_OF_KIND.get(state.focus_kind or "")
    focus = state.focus
    if tool is None or focus is None:
        return []
    made = {
        str(entry["made"].get("id")): entry["made"]
        for entry in state.done
        if entry.get("tool") == tool and isinstance(entry.get("made"), dict)
    }
    if str(focus.get("id")) not in made or len(made) != 2:
        return []
    return [
        item
        for key, item in made.items()
        if key != str(focus.get("id")) and item.get("status") != "cancelled"
    ]


def zone_of(timezone: str) -> ZoneInfo:
    return zone_named(timezone)


def start_of(item: Item, zone: ZoneInfo) -> datetime | None:
    try:
        return datetime.fromisoformat(str(item.get("starts_at"))).astimezone(zone)
    except ValueError:
        return None


def pinned(item: Item, label_field: str) -> TargetRef:
    label = str(item.get(label_field) or "")
    return TargetRef(phrase=label, item_id=str(item.get("id")))


def moved(text: str, item: Item, now: datetime, zone: ZoneInfo) -> str | None:
    """The new start for `item` said relative to it, or None when no new time is said."""
    current = start_of(item, zone)
    if current is None:
        return None
    when = find_when(strip_instead_of(text), now)
    if when is not None and when.time_unread:
        return None  # an hour said but not read whole: never the old one kept
    shift = find_shift(text)
    day: date = current.date()
    clock: time = current.time().replace(tzinfo=None)
    changed = False
    if SAME_DAY_NEXT_WEEK.search(text):
        day, changed = current.date() + timedelta(days=7), True
        shift = None  # the week that find_shift reads too: moved once, not twice
    elif (after := weekday_beside(text, current.date())) is not None:
        day, changed = after, True
    elif when is not None and when.vague_day:
        return None  # "sometime next week": which day is asked (appointment_rules)
    elif when is not None and when.day is not None and not when.day_implied:
        day, changed = when.day, True
        if ("meant" in text or "mean " in text) and (meant := _MEANT_WEEKDAY.search(text)):
            day = _in_week_of(current.date(), meant.group("d"), when.day)
    if when is not None and when.clock is not None and not when.vague_time:
        clock, changed = when.clock, True
    elif (bare := bare_clock(text, clock)) is not None:
        clock, changed = bare, True
    moment = datetime.combine(day, clock, tzinfo=zone)
    if shift is not None:
        moment, changed = moment + shift, True
    if not changed and not same_time(text):
        return None
    if moment == current and "next" in text and _NEXT_WEEKDAY.search(text):
        # "make it next sunday", said of the one on this sunday: the one after (as
        # resolve.py reads it of a visit named; read as this one, nothing would move)
        moment += timedelta(days=7)
    if moment == current:
        return None
    return moment.isoformat()


_NEXT_WEEKDAY = rx(r"\bnext (?:mon|tues|wednes|thurs|fri|satur|sun)day\b")
# "sorry I meant thursday" just after "…wednesday the 23rd": the Thursday of that week
# (the 24th), not the coming one (the 17th, a week earlier than any day said).
_MEANT_WEEKDAY = rx(
    r"\b(?:meant|mean)\b\W*(?:it'?s |on |the |for )?(?P<d>mon|tues|wednes|thurs|fri|satur|sun)day"
    r"\W*$"
)
_WEEKDAY_STEMS = ("mon", "tues", "wednes", "thurs", "fri", "satur", "sun")


def _in_week_of(current: date, stem: str, read: date) -> date:
    """The weekday `stem` in the week (Monday to Sunday) of `current`, the day put right,
    when that week is later than the coming one; else the day `read` as said ("friday" →
    "I meant monday": the coming Monday, never one before the day put right's week)."""
    day = current - timedelta(days=current.weekday()) + timedelta(days=_WEEKDAY_STEMS.index(stem))
    return day if day > read else read


INSTEAD_OF_TAIL = rx(r"\b(?:instead of|rather than|not)\b[^,]*")


def strip_instead_of(text: str) -> str:
    return INSTEAD_OF_TAIL.sub(" ", text)


def reschedule(item: Item, starts_at: str, clause: str) -> Intent:
    return Intent(
        "reschedule_appointment",
        {"starts_at": starts_at},
        target=pinned(item, "service"),
        clause=clause,
    )


def task_change(kind: str, item: Item, arguments: dict[str, Any], clause: str) -> Intent:
    return Intent(kind, arguments, target=pinned(item, "title"), clause=clause)  # type: ignore[arg-type]


KNOWN_SERVICES = frozenset(str(name).lower() for name in SERVICES.values())


def names_other_service(text: str, item: Item) -> bool:
    """A known service other than the focused one is named ("book a haircut" after a cleaning)."""
    named = str(slots.service(text, text) or "").lower()
    return named in KNOWN_SERVICES and named != str(item.get("service") or "").lower()


def due_day_said(text: str, now: datetime) -> str | None:
    when = find_when(text, now)
    if when is None or when.day is None or when.day_implied:
        return None
    return when.day.isoformat()


def appointment_follow_up(
    text: str, item: Item, now: datetime, zone: ZoneInfo, *, correcting: bool
) -> list[Intent] | None:
    if CANCEL_IT.search(text):
        return [Intent("cancel_appointment", target=pinned(item, "service"), clause=text)]
    if NEW_BOOKING.search(text) or names_other_service(text, item):
        return None
    if _CANCEL_VERB.search(text) and not _MOVE_VERB.search(text):
        return None  # "hmm, cancel the friday one at 11": a cancel, never a move
    if _SAYS_TASK.search(text):
        return None  # "and the task, make it due wednesday": never a move of a visit
    if not (MOVE_CUE.search(text) or correcting or find_shift(text)):
        return None
    said = find_when(strip_instead_of(text), now)
    unsure = "meridiem" if said and said.hour_unsure else None
    if said and said.vague_time and said.day and not said.day_implied:
        unsure = "time"  # "move it to thursday afternoon": the hour is asked
    if unsure is not None and not SAME_DAY_NEXT_WEEK.search(text):
        return [
            Intent(
                "reschedule_appointment",
                target=pinned(item, "service"),
                when=said,
                missing=(unsure,),
                clause=text,
            )
        ]
    starts_at = moved(text, item, now, zone)
    if (
        # "can we move it to later that week": that one, but which day is asked.
        starts_at is None
        and ((_MOVE_VERB.search(text) and says_vague_time(text)) or _BIT_LATER.search(text))
    ) or (
        # "a bit later, like 9" about a 10 o'clock visit: which is meant is asked.
        starts_at is not None and _against_the_way_said(text, item, starts_at, zone)
    ):
        return [
            Intent(
                "reschedule_appointment",
                target=pinned(item, "service"),
                missing=("when",),
                clause=text,
            )
        ]
    if starts_at is None:
        return None
    return [reschedule(item, starts_at, text)]


# "can you make that one a bit later?": that one, moved, to a time still to be asked.
_BIT_LATER = rx(r"\b(?:a bit|a little|slightly|bit|little|somewhat) (?:later|earlier|sooner)\b")
# The way the visit is moved ("make it later", "a bit earlier"), not when something was
# done ("the exam I booked earlier").
_MOVED_BY = r"\b(?:it|that|one|this|bit|little|slightly|much|move|push|bring|go|be|somewhat)\s+"
_LATER = rx(_MOVED_BY + r"later\b")
_EARLIER = rx(_MOVED_BY + r"(?:earlier|sooner)\b")


def _against_the_way_said(text: str, item: Item, starts_at: str, zone: ZoneInfo) -> bool:
    """ "later" said of a new time before the current one, or "earlier" of one after it."""
    later, earlier = _LATER.search(text) is not None, _EARLIER.search(text) is not None
    current = start_of(item, zone)
    if later == earlier or current is None:
        return False
    new = datetime.fromisoformat(starts_at)
    return new < current if later else new > current


# A question about what falls due ("what's due on the 25th", "when's that due"), with
# no verb of change in it.
_ASKS_WHATS_DUE = rx(
    r"^(?:(?:and|so|ok|okay|also|then|oh|um|uh)\b\W*)*(?:what|what's|whats|which|when|when's"
    r"|is|are|anything|is anything|have i got|do i have)\b(?!.*\b(?:make|set|change|move|push"
    r"|put|bump|shift)\b)"
    # "and the groceries one, is that still due tomorrow": named, then asked about
    r"|\b(?:is|are|was) (?:it|that|this|they)(?: (?:still|already|actually|really))? due\b"
    r"(?!.*\b(?:make|set|change|move|push|put|bump|shift)\b)"
)
# (a due day is a to-do's: "make it due next friday" never moves a visit)
_SAYS_TASK = rx(r"\b(?:task|tasks|reminder|to-?do|due)\b")
_CANCEL_VERB = rx(r"(?<!don't )(?<!dont )(?<!not )\b(?:cancel|call off)\b")
_MOVE_VERB = rx(
    r"\b(?:move|push|reschedule|shift|change|bump|postpone|put off|rebook|bring|delay)\b"
)


# "make the task friday": the word for a task names the one in focus.
_TASK_NOUNS = frozenset({"task", "reminder", "todo", "to-do"})


# Said against the high priority the task in view has, naming no level of its own.
_NOT_THAT_HIGH = rx(
    r"^(?:no\b\W*)?(?:it|that|this)? ?(?:shouldn'?t|should not|doesn'?t need to|does not need"
    r" to|needn'?t|isn'?t meant to) be\b(?!.*\b(?:low|normal|medium)\b)"
)


def task_follow_up(text: str, item: Item, now: datetime) -> list[Intent] | None:
    if DELETE_IT.search(text):
        return [task_change("delete_task", item, {}, text)]
    if COMPLETE_IT.search(text):
        return [task_change("complete_task", item, {}, text)]
    if item.get("priority") == "high" and _NOT_THAT_HIGH.search(text):
        # "no, it shouldn't be, it's not that urgent": lower, but to normal or to low is
        # asked, not guessed.
        return [
            Intent("update_task", target=pinned(item, "title"), missing=("priority",), clause=text)
        ]
    arguments: dict[str, Any] = {}
    if PRIORITY_IT.search(text):
        # ("mark it low": the bare level said, never "high" for it)
        bare = re.search(r"\b(low|normal|medium|high)\b", text)
        level = said_priority(text)[0] or (
            ("normal" if bare.group(1) == "medium" else bare.group(1)) if bare else "high"
        )
        arguments["priority"] = level
    # "make it friday", "push it to the 28th": a task's new due day.
    dated = DUE_IT.search(text) or re.search(
        rf"\b(?:make|move|put|push|shift|bump|change|postpone|bring|give|set)\s+(?:{PRONOUN}\b|"
        r"(?:the |my )?(?P<named>[a-z]+(?: [a-z]+){0,3}) (?:to |for |on |till |until )?"
        r"(?:(?:next |this )?(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|the \d"
        # "…to january 16": a month and its day
        r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d)"
        r")",
        text,
    )
    if dated and _ASKS_WHATS_DUE.search(text):
        dated = None  # "and what else is due this week": a question, not a new due day
    if dated and dated.groupdict().get("named"):
        # "make the dry cleaning saturday": only when the words name this task.
        title = set(WORD_RE.findall(str(item.get("title") or "").lower()))
        named = set(dated.group("named").split())
        if not named & {w for w in title if len(w) > 3} and not named <= _TASK_NOUNS:
            dated = None
    if dated and (
        # "her birthday's friday, so make it thursday": the day said after the verb
        (due := due_day_said(text[dated.start() :], now)) is not None
        or (due := due_day_said(text, now)) is not None
    ):
        arguments["due_on"] = due
    if arguments:
        return [task_change("update_task", item, arguments, text)]
    if _MOVE_VERB.search(text) and whole_days(shift := find_shift(text)):
        # "push it back a day" about a task: its due date, from the one it has.
        return [Intent("update_task", target=pinned(item, "title"), clause=text, shift=shift)]
    return None


WORD_RE = rx(r"[a-z]+")


def named_listed(state: Dialogue, kind: Kind, text: str) -> Item | None:
    """ "the haircut one, can you move that…": the one listed item the message names."""
    field = "service" if kind == "appointment" else "title"
    items = state.last_listed_of(kind)
    if not items:
        return None
    said = set(WORD_RE.findall(text.replace("hair cut", "haircut")))
    said |= {"dental"} if "dentist" in said else set()
    named = _named_by(items, field, said)
    if not named and kind == "appointment" and (service := slots.service(text, text)):
        # "the physio": the service it is another word for.
        named = _named_by(items, field, said | set(WORD_RE.findall(str(service).lower())))
    if not named and (short := _SHORT_NAME.search(text)) and short.group("w") not in _NOT_NAMES:
        # "the vet one": a short word, named as the one meant
        word = short.group("w")
        named = [
            item
            for item in items
            if word in WORD_RE.findall(str(item.get(field) or "").lower())
            and item.get("status") != "cancelled"
        ]
    return named[0] if len(named) == 1 else None


_SHORT_NAME = rx(r"\b(?:the|my) (?P<w>[a-z]{3}) (?:one|task|appointment)\b")
_NOT_NAMES = frozenset({"new", "old", "one", "two", "big", "odd", "top", "low", "due", "any"})


# "the wednesday one", "the one on sunday", "my friday appointment": a visit named by its
# day, never a new day for the visit in view.
_WEEKDAY_NAMES = "|".join(WEEKDAYS)
_BY_ITS_DAY = rx(
    rf"\b(?:the|my|that) (?P<a>{_WEEKDAY_NAMES})(?:'s)? (?:one|appointment|visit|booking)\b"
    rf"|\b(?:the|my) (?:one|appointment|visit|booking) (?:on|for) (?P<b>{_WEEKDAY_NAMES})\b"
)


def named_by_day(state: Dialogue, text: str, zone: ZoneInfo) -> tuple[Item | None, str] | None:
    """ "and the wednesday one an hour earlier": the one visit known (listed or in view)
    to be on the weekday said, and the words left once those are taken out; (None, text)
    when no one known visit is on it; None when no visit is named by its day."""
    if not any(day in text for day in WEEKDAYS):
        return None  # most messages name no weekday
    match = _BY_ITS_DAY.search(text)
    if match is None:
        return None
    weekday = WEEKDAYS.index(match.group("a") or match.group("b"))
    # Each visit as last seen: the one in view (as last changed) over its listed copy.
    known = {item.get("id"): item for item in state.last_listed_of("appointment")}
    if (focus := state.focus_of("appointment")) is not None:
        known[focus.get("id")] = focus
    on_it = [
        item
        for item in known.values()
        if (start := start_of(item, zone)) is not None
        and start.weekday() == weekday
        and item.get("status") != "cancelled"
    ]
    rest = f"{text[: match.start()]}{match.group(0).split()[0]} one{text[match.end() :]}"
    return (on_it[0] if len(on_it) == 1 else None), rest


def _named_by(items: tuple[Item, ...], field: str, said: set[str]) -> list[Item]:
    return [
        item
        for item in items
        if any(w in said for w in WORD_RE.findall(str(item.get(field) or "").lower()) if len(w) > 3)
        and item.get("status") != "cancelled"
    ]


ORDINALS = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "last": -1}


# An ordinal in a saying counts nothing: "on second thought", "wait a second", "first of
# all", "first thing monday", "last week", "the last time I came".
_NOT_A_POSITION = (
    r"(?<!\bon )(?<!\ba )(?<!\bone )(?<!\bat )"
    r"(?P<o>first|second|third|fourth|fifth|last)"
    r"(?! thoughts?\b| of all\b| things?\b| time\b| week\b| month\b| year\b| night\b"
    r"| minute\b| moment\b| off\b"
    # "hang on, first schedule me a haircut", "first, can you…": an order of asks, no
    # position in a list (the held cancel was moved to the first visit listed)
    r"| (?:i|we|you|let|let's|can|could|would|will|please|just|book|schedule|arrange|set"
    r"|put|add|make|get|move|cancel|delete|remove|mark|tell|show|check|create|open|change"
    r"|update|reschedule|sort|do)\b)"
)
POSITIONAL = rx(
    rf"\b(?:the )?{_NOT_A_POSITION}(?: one| task| appointment| item)?\b"
    r"|\b(?:task|item|number) (?P<n>[1-5])\b"
)


# "the first two", "the last three", "the bottom two" (of the list as heard: the top is
# its first).
FIRST_FEW = rx(r"\b(?:the )?(?P<end>first|last|top|bottom) (?P<n>two|three|2|3)\b")


def positions_said(text: str) -> list[int]:
    if match := FIRST_FEW.search(text):
        many = {"two": 2, "three": 3}.get(match.group("n")) or int(match.group("n"))
        first = match.group("end") in ("first", "top")
        return list(range(many)) if first else list(range(-many, 0))
    found = []
    for match in POSITIONAL.finditer(text):
        if match.group("o"):
            found.append(ORDINALS[match.group("o")])
        else:
            found.append(int(match.group("n")) - 1)
    return found


def as_pronoun(text: str) -> str:
    """ "make the second one low priority" read as "make it low priority"."""
    return POSITIONAL.sub("it", text)


__all__ = [
    "CANCEL_IT",
    "COMPLETE_IT",
    "DELETE_IT",
    "DUE_IT",
    "FIRST_FEW",
    "INSTEAD_OF_TAIL",
    "KNOWN_SERVICES",
    "MOVE_CUE",
    "NEW_BOOKING",
    "ORDINALS",
    "POSITIONAL",
    "PRIORITY_IT",
    "PRONOUN",
    "SAME_DAY_NEXT_WEEK",
    "WORD_RE",
    "appointment_follow_up",
    "as_pronoun",
    "due_day_said",
    "moved",
    "named_listed",
    "names_other_service",
    "pinned",
    "positions_said",
    "reschedule",
    "start_of",
    "strip_instead_of",
    "task_change",
    "task_follow_up",
    "the_other_named",
    "zone_of",
]


# "is my sunday one still on": the visit on that day ("still on" is said of a visit; a
# to-do is "still on my list"), when no to-do is in view (it looked for a to-do "sunday").
_WEEKDAY_ONE_STILL_ON = rx(
    r"\b(?:the|my) (?P<d>monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:'s)?"
    r" one (?=(?:is )?still (?:on|happening|booked|going ahead|scheduled)\b"
    r"(?! (?:my |the |your )?(?:list|to-?do|to do|tasks?)\b))"
)


def weekday_one_as_visit(state: Dialogue, message: str) -> str:
    if "one" not in message or "still" not in message:
        return message
    if (state.listed_kind or state.focus_kind) == "task":
        return message
    return _WEEKDAY_ONE_STILL_ON.sub(lambda m: f"my appointment on {m.group('d')} ", message)
