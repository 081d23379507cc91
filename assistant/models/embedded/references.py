"""Requests that lean on the conversation: "push it back a week", "cancel that one",
"mark it done", "the second one", "actually make that 11 instead of 9".

Read against the dialogue state (assistant.dialogue): a pronoun or an elided target is
the item in focus, a position counts the items in the order they were spoken, and a
correction revises the last action. What is read here becomes ordinary intents with
the item pinned by id, so the planner's usual find-then-act path does the rest.
None means: nothing here leans on the conversation; read the message as it stands.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from assistant.dialogue_state import Action, Dialogue, Item, Kind
from assistant.language import Intent, detect_intents, find_when, slots
from assistant.language.confirm import is_affirmative
from assistant.language.lexicon import SERVICES
from assistant.language.shifts import bare_clock, find_shift, same_time, weekday_after
from assistant.language.slots import priority as said_priority
from assistant.language.targets import TargetRef
from assistant.language.text import normalize
from assistant.models.embedded.followup import understand
from assistant.schema import Message, ToolResult

_PRONOUN = r"(?:that one|this one|the one|it|that|this)"
_MOVE_CUE = re.compile(
    r"\b(?:move|push|rebook|reschedule|make|bring|pop|put|shift|change|do|have|instead|rather"
    r"|switch|bump|can we|could we|later|earlier|sooner)\b"
)
_NEW_BOOKING = re.compile(r"\b(?:book|schedule)(?: me)?(?: in)? (?:a|an|another|new|one)\b|\bnew\b")
_CANCEL_IT = re.compile(
    rf"(?<!don't )(?<!dont )(?<!do not )(?<!not )\b(?:cancel|call off|scrap|drop)\s+{_PRONOUN}\b"
)
_DELETE_IT = re.compile(rf"\b(?:delete|remove|get rid of|bin|scrap|drop)\s+{_PRONOUN}\b")
_COMPLETE_IT = re.compile(
    rf"\b(?:mark|tick|check)\s+{_PRONOUN}\s+(?:off|as )?(?:done|complete|completed|finished)?"
    rf"|\b(?:complete|finish|tick off|cross off)\s+{_PRONOUN}\b"
    r"|\b(?:it's|that's|it is|that is) (?:done|finished|sorted)\b"
)
_PRIORITY_IT = re.compile(
    rf"\b(?:make|set|mark|change)\s+{_PRONOUN}\s+(?:to )?(?:a )?(?:high|low|normal|urgent|top)"
    r"|^(?:and |oh |also )*(?:it's|it is|that's|that is|it was|its)(?: also| really| quite)?"
    r" (?:a )?(?:urgent|important|high|low|not urgent|top)"
)
_DUE_IT = re.compile(rf"\b(?:make|set|change|move|push)\s+{_PRONOUN}\b.*\bdue\b|\bdue (?:on |by )?")
_CORRECTION = re.compile(
    r"^(?:actually|sorry|no|nope|oh no|oh|ah|hmm|wait|oops|nah|hang on|erm|um)\b"
    r"|\bi meant\b|\bi mean\b|\binstead\b|\brather\b|\bmake (?:it|that)\b|\bwhere it was\b"
    r"|\bput it back\b|\bundo\b|^(?:please |can you |could you )?(?:reverse|take back)\b"
)
_PUT_BACK = re.compile(
    r"\b(?:where it was|put it back|undo (?:that|it)|as it was|change it back)\b"
)
_TOO = re.compile(r"\b(?:too|as well|also)\b|^and\b")


def _zone(timezone: str) -> ZoneInfo:
    try:
        return ZoneInfo(timezone)
    except (KeyError, ValueError):
        return ZoneInfo("UTC")


def _start(item: Item, zone: ZoneInfo) -> datetime | None:
    try:
        return datetime.fromisoformat(str(item.get("starts_at"))).astimezone(zone)
    except ValueError:
        return None


def _pinned(item: Item, label_field: str) -> TargetRef:
    label = str(item.get(label_field) or "")
    return TargetRef(phrase=label, item_id=str(item.get("id")))


def _moved(text: str, item: Item, now: datetime, zone: ZoneInfo) -> str | None:
    """The new start for `item` said relative to it, or None when no new time is said."""
    current = _start(item, zone)
    if current is None:
        return None
    when = find_when(_strip_instead_of(text), now)
    shift = find_shift(text)
    day: date = current.date()
    clock: time = current.time().replace(tzinfo=None)
    changed = False
    if _SAME_DAY_NEXT_WEEK.search(text):
        day, changed = current.date() + timedelta(days=7), True
    elif (after := weekday_after(text, current.date())) is not None:
        day, changed = after, True
    elif when is not None and when.day is not None and not when.day_implied:
        day, changed = when.day, True
    if when is not None and when.clock is not None and not when.vague_time:
        clock, changed = when.clock, True
    elif (bare := bare_clock(text, clock)) is not None:
        clock, changed = bare, True
    moment = datetime.combine(day, clock, tzinfo=zone)
    if shift is not None:
        moment, changed = moment + shift, True
    if not changed and not same_time(text):
        return None
    if moment == current:
        return None
    return moment.isoformat()


_SAME_DAY_NEXT_WEEK = re.compile(
    r"\b(?:next week,? (?:on )?(?:the )?same day"
    r"|(?:the )?same day(?:,)? (?:the )?(?:next|following) week)\b"
)
_INSTEAD_OF_TAIL = re.compile(r"\b(?:instead of|rather than|not)\b[^,]*")


def _strip_instead_of(text: str) -> str:
    return _INSTEAD_OF_TAIL.sub(" ", text)


def _reschedule(item: Item, starts_at: str, clause: str) -> Intent:
    return Intent(
        "reschedule_appointment",
        {"starts_at": starts_at},
        target=_pinned(item, "service"),
        clause=clause,
    )


def _task_change(kind: str, item: Item, arguments: dict[str, Any], clause: str) -> Intent:
    return Intent(kind, arguments, target=_pinned(item, "title"), clause=clause)  # type: ignore[arg-type]


_KNOWN_SERVICES = frozenset(str(name).lower() for name in SERVICES.values())


def _names_other_service(text: str, item: Item) -> bool:
    """A known service other than the focused one is named ("book a haircut" after a cleaning)."""
    named = str(slots.service(text, text) or "").lower()
    return named in _KNOWN_SERVICES and named != str(item.get("service") or "").lower()


def _due(text: str, now: datetime) -> str | None:
    when = find_when(text, now)
    if when is None or when.day is None or when.day_implied:
        return None
    return when.day.isoformat()


def _appointment_follow_up(
    text: str, item: Item, now: datetime, zone: ZoneInfo, *, correcting: bool
) -> list[Intent] | None:
    if _CANCEL_IT.search(text):
        return [Intent("cancel_appointment", target=_pinned(item, "service"), clause=text)]
    if _NEW_BOOKING.search(text) or _names_other_service(text, item):
        return None
    if not (_MOVE_CUE.search(text) or correcting or find_shift(text)):
        return None
    starts_at = _moved(text, item, now, zone)
    if starts_at is None:
        return None
    return [_reschedule(item, starts_at, text)]


def _task_follow_up(text: str, item: Item, now: datetime) -> list[Intent] | None:
    if _DELETE_IT.search(text):
        return [_task_change("delete_task", item, {}, text)]
    if _COMPLETE_IT.search(text):
        return [_task_change("complete_task", item, {}, text)]
    arguments: dict[str, Any] = {}
    if _PRIORITY_IT.search(text):
        level = said_priority(text)[0] or "high"
        arguments["priority"] = level
    dated = _DUE_IT.search(text) or re.search(rf"\b(?:make|move|put)\s+{_PRONOUN}\b", text)
    if dated and (due := _due(text, now)) is not None:
        arguments["due_on"] = due
    if arguments:
        return [_task_change("update_task", item, arguments, text)]
    return None


def _corrected_title(text: str, item: Item) -> str | None:
    """ "sorry I meant oat milk" after adding "Buy milk": "Buy oat milk"."""
    match = re.search(r"\bi meant (?:to say )?(?P<w>[a-z][a-z ]+?)\s*$", text)
    if match is None:
        return None
    words = match.group("w").split()
    title = str(item.get("title") or "")
    last = words[-1]
    if re.search(rf"\b{re.escape(last)}\b", title, re.IGNORECASE):
        return re.sub(rf"\b{re.escape(last)}\b", " ".join(words), title, count=1, flags=re.I)
    return None


def _about_visit(text: str, action: Action) -> bool:
    item = action.after or action.before or {}
    service = str(item.get("service") or "").lower()
    words = [w for w in _WORDS.findall(service) if len(w) > 3]
    return any(w in text for w in words) or "appointment" in text


def _correction(state: Dialogue, text: str, now: datetime, zone: ZoneInfo) -> list[Intent] | None:
    """A revision of the last action: its target or its time or its details."""
    action = state.last_action
    if action is None or not _CORRECTION.search(text):
        return None
    visit = state.last_appointment_action
    if action.kind != "appointment" and visit is not None and _about_visit(text, visit):
        action = visit  # "actually make the cleaning ten" after a booking and a task
    item = action.after or action.before
    if item is None:
        return None
    if action.kind == "appointment" and action.tool != "crm.cancelAppointment":
        if _PUT_BACK.search(text) and action.before is not None:
            before = action.before.get("starts_at")
            if action.tool == "crm.rescheduleAppointment" and isinstance(before, str):
                return [_reschedule(item, before, text)]
        if _UNDO.search(text) and action.tool == "crm.bookAppointment":
            return [Intent("cancel_appointment", target=_pinned(item, "service"), clause=text)]
        return _appointment_follow_up(text, item, now, zone, correcting=True)
    if action.tool == "crm.addTask" and _UNDO.search(text):
        return [_task_change("delete_task", item, {}, text)]
    if action.kind == "task" and action.tool in ("crm.addTask", "crm.updateTask"):
        if (title := _corrected_title(text, item)) is not None:
            return [_task_change("update_task", item, {"title": title}, text)]
        arguments: dict[str, Any] = {}
        if (due := _due(text, now)) is not None:
            arguments["due_on"] = due
        level = said_priority(text)[0]
        if level:
            arguments["priority"] = level
        if arguments:
            return [_task_change("update_task", item, arguments, text)]
    if action.tool == "crm.completeTask" and re.search(r"\bmeant\b|\bnot\b|\bother\b", text):
        # "no wait, I meant the car insurance one": complete the one meant instead.
        intents = detect_intents("complete " + re.sub(r"^.*?\bmeant\b", "", text), now)
        others = [
            i
            for i in intents
            if i.kind == "complete_task" and i.target is not None and not i.target.vague
        ]
        return others[:1] or None
    return None


def _also(state: Dialogue, text: str, now: datetime) -> list[Intent] | None:
    """ "and the eye exam one too" after completing a task: the same again, another target."""
    action = state.last_action
    if action is None or not _TOO.search(text) or action.tool != "crm.completeTask":
        return None
    words = re.sub(r"\b(?:and|too|as well|also|is|are|done|one|the|please)\b", " ", text)
    intents = detect_intents(f"complete the {words.strip()} task", now)
    found = [i for i in intents if i.kind == "complete_task" and i.target and not i.target.vague]
    return found[:1] or None


_ORDINALS = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "last": -1}
_POSITIONAL = re.compile(
    r"\b(?:the )?(?P<o>first|second|third|fourth|fifth|last)(?: one| task| appointment| item)?\b"
    r"|\b(?:task|item|number) (?P<n>[1-5])\b"
)


_FIRST_FEW = re.compile(r"\b(?:the )?(?P<end>first|last) (?P<n>two|three|2|3)\b")


def _positions(text: str) -> list[int]:
    if match := _FIRST_FEW.search(text):
        many = {"two": 2, "three": 3}.get(match.group("n")) or int(match.group("n"))
        return list(range(many)) if match.group("end") == "first" else list(range(-many, 0))
    found = []
    for match in _POSITIONAL.finditer(text):
        if match.group("o"):
            found.append(_ORDINALS[match.group("o")])
        else:
            found.append(int(match.group("n")) - 1)
    return found


def _by_position(state: Dialogue, text: str, now: datetime, zone: ZoneInfo) -> list[Intent] | None:
    """ "complete the second task", "task 2 is done": counted in the order last spoken."""
    if state.listed_kind not in ("task", "appointment") or len(state.listed) < 2:
        return None
    positions = _positions(text)
    if not positions or re.search(r"\bnext\b", text):
        return None
    items = []
    for index in positions:
        if -len(state.listed) <= index < len(state.listed):
            items.append(state.listed[index])
    if not items:
        return None
    kind = state.listed_kind
    intents: list[Intent] = []
    for item in items:
        found = (
            _appointment_follow_up(text, item, now, zone, correcting=False)
            if kind == "appointment"
            else _task_follow_up(_as_pronoun(text), item, now)
        )
        if found is None and kind == "task":
            if re.search(r"\b(?:done|complete|completed|finished|tick)\b", text):
                found = [_task_change("complete_task", item, {}, text)]
            elif re.search(r"\b(?:delete|remove)\b", text):
                found = [_task_change("delete_task", item, {}, text)]
        if (
            found is None
            and kind == "task"
            and re.fullmatch(
                r"(?:and |also |then )*"
                r"(?:the )?\S+(?: \S+)?\s*(?:too)?\??",
                text,
            )
        ):
            # "and number 1": the same as was just done, to another one.
            again = {"crm.completeTask": "complete_task", "crm.deleteTask": "delete_task"}
            action = state.last_action
            if action is not None and action.tool in again:
                found = [_task_change(again[action.tool], item, {}, text)]
        if found is None and kind == "appointment" and re.search(r"\bcancel\b", text):
            found = [Intent("cancel_appointment", target=_pinned(item, "service"), clause=text)]
        intents.extend(found or [])
    return intents or None


def _as_pronoun(text: str) -> str:
    """ "make the second one low priority" read as "make it low priority"."""
    return _POSITIONAL.sub("it", text)


_NOT_THAT = re.compile(r"\b(?:not|rather than|instead of) (?:the |my |that )?[a-z]+(?: one)?\b")
_RETARGET = re.compile(r"\b(?:meant|mean|actually|rather|not)\b|^(?:no|wait|sorry)\b")
_HELD_VERB = {"crm.cancelAppointment": "cancel my {}", "crm.deleteTask": "delete the {} task"}


def _retarget(state: Dialogue, text: str, now: datetime, timezone: str) -> list[Intent] | None:
    """ "actually the haircut, not the dental": the question just asked, about another item."""
    held = [tool for tool in state.held if tool in _HELD_VERB]
    if not held or _ACTION_VERB.search(text) or _ASKS.search(text):
        return None
    kind = "cancel_appointment" if held[0] == "crm.cancelAppointment" else "delete_task"
    listed = state.listed_of("appointment" if kind == "cancel_appointment" else "task")
    positions = [p for p in _positions(text) if -len(listed) <= p < len(listed)]
    if positions and listed and not re.search(r"\bnext\b", text):
        # "no wait, the first one": counted in the list the customer heard.
        label = "service" if kind == "cancel_appointment" else "title"
        item = listed[positions[0]]
        return [Intent(kind, target=_pinned(item, label), clause=text)]  # type: ignore[arg-type]
    if not _RETARGET.search(text):
        return None
    rest = _NOT_THAT.sub(" ", text)
    rest = re.sub(
        r"\b(?:actually|sorry|no|i meant|i mean|meant|rather|wait|oh|the|my|one)\b", " ", rest
    )
    rest = " ".join(rest.replace(",", " ").split())
    if not rest:
        return None
    intents = detect_intents(_HELD_VERB[held[0]].format(rest), now, timezone)
    found = [i for i in intents if i.kind == kind and i.target is not None and not i.target.vague]
    return found[:1] or None


_ASKS = re.compile(r"\b(?:what|when|where|how|which|why|who)\b|\?")
_ACTION_VERB = re.compile(r"\b(?:move|book|push|reschedule|add|complete|mark|change|rename)\b")
_AGAIN = re.compile(r"\b(?:book|get|make)(?: me)? (?:a new one|another one|another|one|a new)\b")


def _book_again(state: Dialogue, text: str, now: datetime, timezone: str) -> list[Intent] | None:
    """ "ok book a new one for tuesday at 3pm" after talking about the consultation."""
    item = state.focus_of("appointment")
    if item is None or not _AGAIN.search(text) or slots.service(text, text) in _KNOWN_NAMES:
        return None
    service = str(item.get("service") or "").lower()
    said = _AGAIN.sub(lambda m: m.group(0).rsplit(" ", 1)[0] + f" {service}", text, count=1)
    said = said.replace("a new " + service, "a " + service).replace(
        "another " + service, "a " + service
    )
    intents = detect_intents(said, now, timezone)
    return [i for i in intents if i.kind == "book_appointment"] or None


_KNOWN_NAMES = frozenset(SERVICES.values())
_REBOOK = re.compile(
    rf"\b(?:rebook|re-book|reschedule|move|book|make|put|get)\b(?: me)?(?: in)?"
    rf"(?: {_PRONOUN}| one| another(?: one)?| a new one| again)\b"
)


def _rebook(text: str, item: Item, now: datetime, timezone: str) -> list[Intent] | None:
    """ "rebook it for Monday at 1pm" about a cancelled visit: a new booking of that service."""
    if not _REBOOK.search(text) or _names_other_service(text, item):
        return None
    service = str(item.get("service") or "").lower()
    said = _REBOOK.sub(f"book a {service}", text, count=1)
    intents = detect_intents(said, now, timezone)
    return [i for i in intents if i.kind == "book_appointment"] or None


_WORDS = re.compile(r"[a-z]+")
# "I need to cancel": an appointment, which one to be asked once they are looked up.
# ("cancel" alone is a "stop", not a request.)
_BARE_CANCEL = re.compile(
    r"(?:(?:i|we) (?:need|want|would like|have) to |i'd like to |can i |can you |could you "
    r"|please )cancel(?: (?:something|an appointment|my appointment|a booking|my booking"
    r"|a visit|it|that))?(?: please)?[.!]?"
    r"|cancel (?:something|an appointment|my appointment|a booking|my booking|a visit)"
    r"(?: please)?[.!]?"
)


def _named_listed(state: Dialogue, kind: Kind, text: str) -> Item | None:
    """ "the haircut one, can you move that…": the one listed item the message names."""
    field = "service" if kind == "appointment" else "title"
    said = set(_WORDS.findall(text.replace("hair cut", "haircut")))
    said |= {"dental"} if "dentist" in said else set()
    named = [
        item
        for item in state.listed_of(kind)
        if any(w in said for w in _WORDS.findall(str(item.get(field) or "").lower()) if len(w) > 3)
        and item.get("status") != "cancelled"
    ]
    return named[0] if len(named) == 1 else None


def follow_up(state: Dialogue, message: str, now: datetime, timezone: str) -> list[Intent] | None:
    """Intents for a message that leans on the conversation, or None."""
    zone = _zone(timezone)
    now = now.astimezone(zone)
    text = normalize(message).text
    lowered = message.lower()
    found = (
        _retarget(state, text, now, timezone)
        or _book_again(state, text, now, timezone)
        or _correction(state, text, now, zone)
        or _correction(state, lowered, now, zone)
        or _by_position(state, text, now, zone)
        or _also(state, text, now)
    )
    if found is not None:
        return found
    if state.question == "which_cancel":
        listed = state.listed_of("appointment")
        positions = [p for p in _positions(text) if -len(listed) <= p < len(listed)]
        meant = _named_listed(state, "appointment", text) or (
            listed[positions[0]] if positions else None
        )
        if meant is not None:
            return [Intent("cancel_appointment", target=_pinned(meant, "service"), clause=text)]
    appointment = _named_listed(state, "appointment", text) or state.focus_of("appointment")
    task = _named_listed(state, "task", text) or state.focus_of("task")
    if appointment is None and (
        _BARE_CANCEL.fullmatch(text) or (_CANCEL_IT.search(text) and state.listed_of("appointment"))
    ):
        # "cancel it" with nothing in focus: ask which (the resolver offers the list).
        return [Intent("cancel_appointment", target=TargetRef(phrase="it"), clause=text)]
    if appointment is not None and appointment.get("status") == "cancelled":
        found = _rebook(text, appointment, now, timezone)
        if found is not None:
            return found
    elif appointment is not None:
        found = _appointment_follow_up(text, appointment, now, zone, correcting=False)
        if found is not None and _leans(text):
            return found
    if task is not None:
        found = _task_follow_up(text, task, now)
        if found is not None:
            return found
    return None


# Words that show a message leans on what came before rather than standing alone.
_LEANS = re.compile(
    rf"\b{_PRONOUN}\b|\b(?:the|that|this|my) (?:appointment|visit|booking)\b|\bsame time\b"
    r"|\binstead\b|\blater\b|\bearlier\b|\bsooner\b|\bday after\b"
    r"|\bday before\b|\bfollowing\b|\bback\b|\bforward\b|^(?:and |so |ok |okay )?(?:at |to )?\d"
)


def _leans(text: str) -> bool:
    return bool(_LEANS.search(text))


# "fine, open one about my bill being wrong": "one" is the case just offered.
_EXPLICIT_CASE = re.compile(
    r"^(?:(?:fine|ok|okay|yes|yeah|go on|please|then|so|just|alright|right)[ ,]+)*"
    r"(?:can you |could you |please )?open one (?:about|for|because|saying) (?P<about>.+)$"
)


def case_asked(message: str) -> str | None:
    """ "open one about my bill being wrong": what the case is about, when "one" is a case."""
    match = _EXPLICIT_CASE.search(normalize(message).text)
    return match.group("about") if match else None


def accepts_offer(state: Dialogue, message: str) -> bool:
    """A yes to the support case the last answer offered ("go on then", "please do")."""
    if state.question != "offer_case":
        return False
    text = normalize(message).text
    return is_affirmative(message) or bool(
        re.search(r"\b(?:go on|please do|open (?:one|it|a case)|look into it|do it)\b", text)
    )


_SUBJECTS = (
    (re.compile(r"\bname\b"), "Change the name on my account"),
    (re.compile(r"\b(?:pdf|document|copy|receipt|statement)\b"), "A problem with a document"),
    (re.compile(r"\brefund"), "A refund request"),
    (
        re.compile(
            r"\b(?:charg|bill|invoice|paid|pay|quoted|price|cost|\$|dollar|a lot|too much"
            r"|expensive|so much|so high)"
        ),
        "Question about a charge on my account",
    ),
)


def offered_case(state: Dialogue, said: str | None = None) -> dict[str, str]:
    """The support case asked for or agreed to: a subject, and the customer's own words."""
    about = (said or state.about).strip() or "A question about my account"
    subject = next(
        (text for pattern, text in _SUBJECTS if pattern.search(about.lower())),
        "Help with my account",
    )
    return {"subject": subject, "body": about[:1].upper() + about[1:]}


def with_shifts(intents: list[Intent], message: str) -> list[Intent]:
    """ "Move the haircut an hour earlier": a move said relative to its own time."""
    shift = find_shift(message)
    if shift is None:
        return intents
    return [
        dataclasses.replace(intent, shift=shift, missing=(), target=_without_shift(intent.target))
        if intent.kind == "reschedule_appointment" and intent.missing == ("when",)
        else intent
        for intent in intents
    ]


# Words of "earlier by half an hour" that describe the move, not the appointment.
_SHIFT_WORDS = frozenset(
    {
        "earlier",
        "later",
        "sooner",
        "back",
        "forward",
        "ahead",
        "half",
        "hour",
        "hours",
        "minute",
        "minutes",
        "mins",
        "day",
        "days",
        "week",
        "weeks",
        "fortnight",
        "by",
        "an",
    }
)


def _without_shift(target: TargetRef | None) -> TargetRef | None:
    if target is None:
        return None
    words = tuple(w for w in target.words if w not in _SHIFT_WORDS)
    return dataclasses.replace(target, words=words)


_APPOINTMENT_WORDS = frozenset(
    {"appointment", "appointments", "visit", "booking", "session", "dentist", "dental", "hair"}
)


def may_be_a_task(intent: Intent) -> bool:
    """A move of something that names no service: it may be a task's due date."""
    target = intent.target
    if intent.kind != "reschedule_appointment" or target is None or not target.words:
        return False
    if intent.when is None or intent.when.day is None or target.item_id:
        return False
    words = set(target.words)
    return not (words & _APPOINTMENT_WORDS or any(w in SERVICES for w in words))


def as_task_due(intent: Intent) -> Intent:
    """The move read as a new due date for the task it names (`may_be_a_task` holds)."""
    if intent.when is None or intent.when.day is None:
        return intent
    return Intent(
        "update_task",
        {"due_on": intent.when.day.isoformat()},
        target=intent.target,
        clause=intent.clause,
    )


_UNDO = re.compile(
    r"^(?:please |can you |could you )?(?:undo|reverse|take back)(?: that| it| this)?\b"
)


def undo_reply(state: Dialogue, message: str) -> str | None:
    """ "undo that" after completing a task: no route reopens one, so say so plainly."""
    action = state.last_action
    if action is None or action.tool != "crm.completeTask":
        return None
    if not _UNDO.search(normalize(message).text):
        return None
    title = str((action.after or action.before or {}).get("title") or "That task")
    return (
        f"I can't reopen a completed task from here, so {title} stays marked complete. "
        "I can add it again as a new task if you like."
    )


def read_intents(
    conversation: Sequence[Message],
    message: str,
    now: datetime,
    timezone: str,
    state: Dialogue,
    results: Sequence[ToolResult] = (),
) -> list[Intent]:
    """What the message asks, read the same way by the planner and the narrator."""
    pinned = follow_up(state, message, now, timezone)
    if pinned is not None:
        return pinned
    intents = with_shifts(understand(conversation, message, now, timezone), message)
    updated = any(r.ok and r.call.tool_name == "crm.updateTask" for r in results)
    return [_named_visit(as_task_due(i) if updated and may_be_a_task(i) else i) for i in intents]


def _named_visit(intent: Intent) -> Intent:
    """ "when's my haircut" among other asks: the list that has it, not just the next one."""
    named = str(slots.service(intent.clause, intent.clause) or "").lower()
    if intent.kind == "next_appointment" and named in _KNOWN_SERVICES:
        return dataclasses.replace(intent, kind="appointments")
    return intent


__all__ = [
    "accepts_offer",
    "as_task_due",
    "case_asked",
    "follow_up",
    "may_be_a_task",
    "offered_case",
    "read_intents",
    "undo_reply",
    "with_shifts",
]
