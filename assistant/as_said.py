"""Whether a model's write agrees with what the customer said.

A model may book another hour than the one said, move a day, read a local time as UTC,
write a phone number or an email nobody gave, or follow a lookup with a change nobody
asked for. Before a write is made, the engine reads the customer's own words with the
embedded grammar (assistant/language) and compares:

- a time, day, phone number or email other than the one said is a contradiction: the
  write is refused (not made), and the customer hears why;
- a time nobody said, or a write nobody asked for, is not a contradiction but a guess:
  the write waits for a yes, with the question naming what would be done.

Only writes are read this way: a round of reads costs nothing. What cannot be checked
from the words ("an hour earlier", "same time next week": relative to the appointment)
is left to the other checks rather than guessed at.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from enum import Enum
from zoneinfo import ZoneInfo

from assistant.language.confirm import what_was_taken_back
from assistant.language.dates import find_when
from assistant.language.intents import detect_intents
from assistant.language.shifts import bare_clock, find_shift, same_time
from assistant.language.slots import cut_spans, e164
from assistant.language.spoken import written
from assistant.language.text import normalize
from assistant.schema import (
    AssistantTurn,
    Message,
    ToolCall,
    ToolDefinition,
    ToolError,
    ToolResult,
    UserTurn,
)
from assistant.zones import UTC_ZONE, zone_named

# Writes a customer may ask for in the words of another: "book" for a move, "done" for
# an edit. The grammar names one of each pair; either is taken as asked for. ("move my
# haircut" is no booking: a new visit beside the one kept, the old one's cancel waiting
# for a yes, left two haircuts and a question.)
_ALIKE: dict[str, frozenset[str]] = {
    "crm.rescheduleAppointment": frozenset({"crm.bookAppointment"}),
    "crm.completeTask": frozenset({"crm.updateTask"}),
    "crm.updateTask": frozenset({"crm.completeTask"}),
}
_NOT_DIGIT = re.compile(r"\D")


class Verdict(Enum):
    AGREES = "agrees"
    UNSAID = "unsaid"  # a guess: asked about
    CONTRADICTS = "contradicts"  # refused


@dataclass(slots=True)
class _Times:
    """The days and clock times said in one message."""

    days: set[date] = field(default_factory=set)
    weekdays: set[int] = field(default_factory=set)
    clocks: set[tuple[int, int]] = field(default_factory=set)
    vague_time: bool = False
    relative: bool = False

    @property
    def any(self) -> bool:
        return bool(self.days or self.weekdays or self.clocks or self.vague_time or self.relative)


def times_said(text: str, now: datetime) -> _Times:
    """The days and clock times `text` says (`now` the customer's)."""
    said = _Times()
    words = normalize(text).text
    said.relative = find_shift(words) is not None or same_time(words)
    for _ in range(4):  # "move my 3pm on Monday to 5pm on Friday": each said, in turn
        when = find_when(words, now)
        if when is None or not when.spans:
            break
        if when.clock is not None:
            if when.vague_time:
                said.vague_time = True
            else:
                said.clocks.add((when.clock.hour, when.clock.minute))
        if when.weekday is not None:
            said.weekdays.add(when.weekday)
        elif when.day is not None and not when.day_implied and not when.vague_day:
            said.days.add(when.day)
        elif when.vague_day:
            said.relative = True  # "next week": any day of it may be meant
        words = cut_spans(words, list(when.spans))
    if not said.clocks and not said.vague_time:
        # "make it 4", "no, 11": an hour said on its own (a correction), either side of noon.
        bare = bare_clock(words, near=time(12))
        if bare is not None:
            said.clocks |= {(bare.hour % 12, bare.minute), (bare.hour % 12 + 12, bare.minute)}
    return said


def _latest_said(texts: Sequence[str], now: datetime) -> _Times | None:
    """The times of this turn's message, or else of the one before, if given (a reply
    such as "the downtown one" to "which location?" leaves the time where it was said)."""
    for text in texts[:2]:
        said = times_said(text, now)
        if said.any:
            return said
    return None


def _local(value: object, zone: ZoneInfo) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment.astimezone(zone) if moment.tzinfo is not None else None


def _day_value(value: object) -> date | None:
    try:
        return date.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None


def _judge_day(day: date, said: _Times) -> Verdict:
    if said.days or said.weekdays:
        if day in said.days or day.weekday() in said.weekdays:
            return Verdict.AGREES
        return Verdict.AGREES if said.relative else Verdict.CONTRADICTS
    return Verdict.AGREES if said.relative or said.clocks or said.vague_time else Verdict.UNSAID


def judge_times(
    tool: ToolDefinition,
    call: ToolCall,
    texts: Sequence[str],
    now: datetime,
    timezone: str,
    results: Sequence[ToolResult] = (),
) -> tuple[Verdict, str]:
    """How a write's date-time and date arguments stand against the words, and the
    argument judged. A time not said but found in this turn's results (the time an
    appointment has, a slot just listed) is not a guess."""
    properties = tool.parameters.get("properties", {})
    zone = zone_named(timezone)  # an unknown zone: no timed write is made (guard.py)
    local_now = now.astimezone(zone)
    said: _Times | None = None
    worst = (Verdict.AGREES, "")
    for name, schema in properties.items():
        kind = schema.get("format") if isinstance(schema, dict) else None
        if kind not in ("date-time", "date") or name not in call.arguments:
            continue
        if said is None:
            said = _latest_said(texts, local_now) or _Times()
        if kind == "date":
            day = _day_value(call.arguments[name])
            verdict = _judge_day(day, said) if day is not None else Verdict.AGREES
        else:
            moment = _local(call.arguments[name], zone)
            verdict = _judge_moment(moment, said) if moment is not None else Verdict.AGREES
            if verdict is Verdict.UNSAID and moment is not None and _listed(moment, results):
                verdict = Verdict.AGREES
        if verdict is Verdict.CONTRADICTS:
            return verdict, name
        if verdict is Verdict.UNSAID:
            worst = (verdict, name)
    return worst


def _listed(moment: datetime, results: Sequence[ToolResult]) -> bool:
    for result in results:
        if not result.ok or not isinstance(result.result, dict):
            continue
        for value in result.result.values():
            items = value if isinstance(value, list) else [value]
            for item in items:
                if isinstance(item, dict) and _local(item.get("starts_at"), UTC_ZONE) == moment:
                    return True
    return False


def _judge_moment(moment: datetime, said: _Times) -> Verdict:
    if not said.any:
        return Verdict.UNSAID
    if said.relative and not said.clocks:
        return Verdict.AGREES  # "an hour earlier": relative to what the CRM holds
    if said.clocks and not said.relative and (moment.hour, moment.minute) not in said.clocks:
        return Verdict.CONTRADICTS  # ("my 3pm, an hour later" is 4pm: not judged by 3pm)
    day = _judge_day(moment.date(), said)
    if day is not Verdict.AGREES:
        return day
    if not said.clocks and not said.relative:
        # A day without a time, or with only a part of it ("tomorrow morning"): the
        # hour was the model's.
        return Verdict.UNSAID
    return Verdict.AGREES


def judge_contact(call: ToolCall, conversation: Iterable[str]) -> tuple[Verdict, str]:
    """A phone number or an email the customer never said in this conversation is a
    contradiction: identity data is only ever what the customer gave."""
    phone = call.arguments.get("phone")
    email = call.arguments.get("email")
    if not isinstance(phone, str) and not isinstance(email, str):
        return Verdict.AGREES, ""
    texts = list(conversation)
    if isinstance(phone, str) and not any(
        _phone_in(phone, text) and not _said_as_not_hers(phone, text) for text in texts
    ):
        return Verdict.CONTRADICTS, "phone"
    if isinstance(email, str) and not any(
        _email_in(email, text) and not _email_as_not_hers(email, text) for text in texts
    ):
        return Verdict.CONTRADICTS, "email"
    return Verdict.AGREES, ""


def _phone_in(number: str, text: str) -> bool:
    digits = _NOT_DIGIT.sub("", number)
    if len(digits) < 7:
        return False
    norm = normalize(text)
    if any(e164(raw) == number for raw in norm.phones):
        return True
    # Said another way ("07700 900123" for +447700900123): the national digits.
    national = digits[-10:] if len(digits) >= 11 else digits[2:]
    return national in _NOT_DIGIT.sub("", written(text))


_A_NUMBER = re.compile(r"\+?\d[\d\s().-]{5,}\d")
_CLAUSE_END = re.compile(r"[,;.!?](?:\s|$)|\b(?:and|but)\b")
# Said before a number, as what it is not: the old one ("my old number 415…", "change
# it from 415…"), or another person's ("my wife's number is 415…", "his cell is …").
_NOT_HERS = re.compile(
    r"(?:\b(?:old|previous|former|wrong|outdated)\b|\b(?:wife|husband|son|daughter|mom|mum"
    r"|mother|dad|father|partner|friend|brother|sister|boss|neighbou?r|kid|child|grandma"
    r"|grandpa|fiancee?|boyfriend|girlfriend)'?s?\b|\b(?:his|her|their)\s+(?:phone|cell"
    r"|mobile|number|email|e-mail|address)\b)(?:(?!\b(?:to|new|now)\b)[^,;.!?])*$|\bfrom\s*$"
)


def _said_as_not_hers(number: str, text: str) -> bool:
    """Whether `text` says `number` only as the old one or as someone else's: each place
    it is written, the words before it in its clause say so. A number said in words
    ("four one five …") is not read here."""
    digits = _NOT_DIGIT.sub("", number)
    national = digits[-10:] if len(digits) >= 11 else digits[2:]
    found = False
    for match in _A_NUMBER.finditer(text):
        said = _NOT_DIGIT.sub("", match.group())
        if not said or not (national.endswith(said) or said.endswith(national)):
            continue
        found = True
        if _NOT_HERS.search(_clause_before(text, match.start()).lower()) is None:
            return False
    return found


def _clause_before(text: str, at: int) -> str:
    before = text[:at]
    ends = list(_CLAUSE_END.finditer(before))
    return before[ends[-1].end() :] if ends else before


def _email_as_not_hers(address: str, text: str) -> bool:
    """Whether `text` says `address` only as the old one or as someone else's."""
    said = text.lower()
    wanted = address.strip().lower()
    places = [m.start() for m in re.finditer(re.escape(wanted), said)]
    return bool(places) and all(
        _NOT_HERS.search(_clause_before(said, at)) is not None for at in places
    )


def _email_in(address: str, text: str) -> bool:
    wanted = address.strip().lower()
    if "@" not in text and " at " not in text.lower():
        return False
    return wanted in (found.lower() for found in normalize(text).emails)


def request_texts(history: Sequence[Message]) -> tuple[list[str], list[str]]:
    """(the messages that make this request, every message of the customer), newest
    first. The message before this one makes the request too only when the answer in
    between asked a question ("What time?" → "tomorrow at 3pm"); after an answer that
    asked nothing, "thanks!" asks for nothing, whatever the message before asked."""
    customer: list[str] = []
    answered_with_question: bool | None = None
    for message in reversed(history):
        if isinstance(message, UserTurn):
            customer.append(message.text)
        elif (
            len(customer) == 1
            and answered_with_question is None
            and isinstance(message, AssistantTurn)
            and message.kind == "answer"
        ):
            answered_with_question = message.text.rstrip().endswith("?")
    return customer[: 2 if answered_with_question else 1], customer


def asked_for(tool_name: str, texts: Sequence[str], now: datetime, timezone: str) -> bool:
    """Whether the customer asked for this kind of write: in this turn's message, or,
    when it asks for nothing itself ("at 3pm please"), in the one before, if given
    (`request_texts`)."""
    wanted = {tool_name} | _ALIKE.get(tool_name, frozenset())
    for text in texts[:2]:
        tools = {intent.tool for intent in detect_intents(text, now, timezone)}
        if tools & wanted:
            return True
        if tools:
            return False  # the message asked for something else
    return False


# The verbs a customer says a write with, by tool: "don't cancel my haircut, move it
# instead" says not to cancel it, whatever a model then calls. (Not the edits: "don't
# change the title, just the due date" asks for one.)
_VERBS: dict[str, str] = {
    "crm.cancelAppointment": r"cancel|call off",
    "crm.deleteTask": r"delete|remove|erase|take (?:it |that |this )?off",
    "crm.bookAppointment": r"book|schedule",
    "crm.rescheduleAppointment": r"move|reschedule|push|shift",
    "crm.addTask": r"add",
    "crm.completeTask": r"mark|complete|finish|tick|check off",
    "crm.createTicket": r"open|file|create|raise",
}
_DONT = r"\b(?:don't|dont|do not|never|no need to)\s+(?:(?:want to|actually|ever|go and)\s+)?"


def said_not_to(tool_name: str, texts: Sequence[str]) -> bool:
    """Whether this turn's message says not to make this kind of write: it takes back
    what it asked before it ends ("add a task to call the bank. actually no, don't"),
    or says not to with the write's own verb ("don't cancel my haircut, move it
    instead"). A model's write of that kind was not asked for; nor is a question
    offering it."""
    if not texts:
        return False
    text = texts[0]
    if what_was_taken_back(text) is not None:
        return True
    verbs = _VERBS.get(tool_name)
    if verbs is None or not any(word in text.lower() for word in ("don", "not", "never")):
        return False
    said = normalize(text).text.lower()
    negated = {m.end() for m in re.finditer(rf"{_DONT}(?:{verbs})\b", said)}
    # ("don't cancel the haircut, cancel the cleaning": the verb said again, not negated)
    return bool(negated) and all(m.end() in negated for m in re.finditer(rf"\b(?:{verbs})\b", said))


SAID_NOT_TO = "the customer said not to make this change"
LEFT_AS_SAID = "Okay, I've left that as it was, as you said. Is there anything else I can do?"


def said_not_to_refusal(tool_name: str) -> ToolError:
    """The refusal of a write the customer's message said not to make."""
    return ToolError(
        code="invalid_arguments",
        message=f"{SAID_NOT_TO} ({tool_name})",
        say="You said not to, so I haven't changed that.",
    )


def refused_as_said_not_to(results: Iterable[ToolResult]) -> bool:
    """Whether a write of `results` was refused because the customer said not to."""
    return any(r.error is not None and r.error.message.startswith(SAID_NOT_TO) for r in results)


def said_as(field: str, value: object) -> ToolError:
    """The refusal of a write whose `field` contradicts what the customer said."""
    if field in ("phone", "email"):
        what = "number" if field == "phone" else "email address"
        return ToolError(
            code="invalid_arguments",
            message=f"{field} {value} is not one the customer gave",
            say=f"I didn't get that {what} from you as your new one, so I haven't changed "
            "anything. "
            f"What's the new {what}?",
        )
    return ToolError(
        code="invalid_arguments",
        message=f"{field} {value} is not the time the customer said",
        say="I haven't done that: I had a different day or time from the one you said. "
        "Could you tell me the day and time once more?",
    )


__all__ = [
    "LEFT_AS_SAID",
    "SAID_NOT_TO",
    "Verdict",
    "asked_for",
    "judge_contact",
    "judge_times",
    "refused_as_said_not_to",
    "request_texts",
    "said_as",
    "said_not_to",
    "said_not_to_refusal",
]
