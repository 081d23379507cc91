"""A visit named bare, then when: "cleaning thursday 10am" after "when's my cleaning?".

Typed so, with no verb and nothing saying it is one more, it was read as a booking and
BOOKED A SECOND CLEANING beside the one the customer had just asked about. Said of the one
visit of that kind the conversation last read out, it is as likely a move of that visit:
so the move is asked first ("Would you like me to move it to Thursday at 10 AM?"), and a
yes makes it. A second one meant is a word away ("no, book another"). With no such visit
read out (a cold "massage friday 5pm", or two cleanings), it stays the booking it was.

It is read in `followup.understand`, from the conversation itself (the listing is in its
tool results), so that the yes, which reads the earlier message again, finds the same move.

Said cold, with no lookup of the visits earlier in the conversation, it BOOKED A SECOND
CLEANING all the same: the visits are now looked up first (`looked_up_first`), and the
message read again against that listing; the yes, reading the earlier message again, is
given that turn's own lookup (`understand(..., looked_up=)`). "no, book another" (or "a new
one") to the move asked books one more at the day and hour said (`another_of_the_asked`;
it asked the time again).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from assistant.language import Intent, detect_intents
from assistant.language.grammar import needs_consent
from assistant.language.lexicon import SERVICES
from assistant.language.patterns import rx
from assistant.language.slots import service
from assistant.schema import (
    AssistantTurn,
    Message,
    PlanRequest,
    ToolCall,
    ToolCallsDecision,
    ToolExchange,
    ToolResult,
    UserTurn,
)

# The visit's own name first (a service, never words around it: "book a haircut…" is
# asked with its verb), then only when.
_VISIT_THEN_WHEN = rx(
    r"^(?:(?:so|ok|okay|um|umm|uh|erm|and|right|just|oh|then|yeah|well|hey|hi|hello)\W+)*"
    r"(?:(?:my|the) )?(?P<what>"
    + "|".join(sorted((re.escape(name) for name in SERVICES), key=len, reverse=True))
    + r")(?:\W+(?:to|for|on|at)\b|\W*(?:->|=>|:|-)|,)?\W*"
    # ("10 a.m.": an hour said with its dots)
    r"(?P<when>(?:mon|tue|wed|thu|fri|sat|sun|today|tomorrow|next|this|the \d|\d)[a-z0-9:. ]*?)"
    r"(?: please| pls| thanks)?\W*$"
)
# Words that say the visit is one more, not the one there is.
# ("same day", "same time" are read by the rules of their own, references.py)
_ONE_MORE = rx(r"\b(?:another|a second|one more|new|also|too|as well|again|extra|same)\b")
_READS = frozenset({"crm.listUpcomingAppointments", "crm.getNextAppointment"})


_LOOKUP = "crm.listUpcomingAppointments"


def _visits_of(results: Sequence[ToolResult]) -> list[dict[str, Any]] | None:
    """The visits of the last appointment lookup among `results`; None if there is none."""
    for result in reversed(results):
        if not result.ok or result.call.tool_name not in _READS:
            continue
        body = result.result
        if not isinstance(body, dict):
            continue
        listed = body.get("appointments")
        if isinstance(listed, list):
            return [v for v in listed if isinstance(v, dict)]
        return [body] if body.get("id") else []
    return None


def _last_visits_read(conversation: Sequence[Message]) -> list[dict[str, Any]] | None:
    """The visits of the conversation's last appointment lookup; None if there was none."""
    for message in reversed(conversation):
        if isinstance(message, ToolExchange):
            visits = _visits_of(message.results)
            if visits is not None:
                return visits
    return None


def _bare(text: str) -> re.Match[str] | None:
    """A visit named bare, then when, with nothing saying it is one more."""
    said = text.lower().strip()
    match = _VISIT_THEN_WHEN.match(said)
    return None if match is None or _ONE_MORE.search(said) else match


_SAID_OF_ONE = rx(
    r"^(?:(?:so|ok|okay|um|umm|uh|erm|and|right|just|oh|then|yeah|well|hey|hi|hello)\W+)*"
    r"(?:my|the) "
)


def _as_a_booking(text: str, now: datetime, timezone: str) -> list[Intent]:
    """What the bare visit and when reads as; said of one ("my haircut saturday 11am", "the
    dental cleaning friday 9am please"), read as a question of that day, it is read as the
    words alone would be, a booking, when a day and an hour are said (never a question)."""
    intents = detect_intents(text, now, timezone)
    if (
        len(intents) == 1
        and not intents[0].writes
        and "?" not in text
        and _SAID_OF_ONE.match(text.lower().strip())
        and (match := _bare(text)) is not None
    ):
        alone = detect_intents(f"{match.group('what')} {match.group('when')}", now, timezone)
        if len(alone) == 1 and alone[0].kind == "book_appointment" and not alone[0].missing:
            return [dataclasses.replace(alone[0], clause=intents[0].clause)]
    return intents


def of_one_moved(
    intents: list[Intent],
    text: str,
    conversation: Sequence[Message],
    now: datetime,
    timezone: str,
    looked_up: Sequence[ToolResult] = (),
) -> list[Intent]:
    """ "my haircut saturday 11am" (read as a question of Saturday), of the one haircut
    there is: its move, asked first, as for the same words without "my"; `intents`
    otherwise (a question it stays, with none such read out)."""
    if len(intents) != 1 or intents[0].writes or _SAID_OF_ONE.match(text.lower().strip()) is None:
        return intents
    booking = _as_a_booking(text, now, timezone)
    if booking == intents:
        return intents
    booking = [dataclasses.replace(booking[0], clause=text.lower().strip())]
    moved = visit_read_out_moved(booking, conversation, now, timezone, looked_up)
    return intents if moved == booking else moved


def looked_up_first(request: PlanRequest, now: datetime, timezone: str) -> ToolCallsDecision | None:
    """The visits looked up first, for a bare visit and when said with none read out yet in
    the conversation ("cleaning thursday 10am", cold): the booking it reads as may be a
    move of the one there is (asked then, `visit_read_out_moved`). None otherwise."""
    if request.round > 1 or request.turn_results or _bare(request.user_message) is None:
        return None
    if not any(tool.name == _LOOKUP for tool in request.tools):
        return None
    if _last_visits_read(request.conversation) is not None:
        return None  # read out before: the listing there is the one it is read against
    # ("my haircut saturday 11am", read as a question of Saturday: looked up the same, then
    # read against that listing by `of_one_moved`)
    intents = _as_a_booking(request.user_message, now, timezone)
    if len(intents) != 1 or intents[0].kind != "book_appointment" or intents[0].missing:
        return None  # ("haircut on tuesday please": its hour is asked, as for a booking)
    return ToolCallsDecision(calls=(ToolCall(call_id="c_1_1", tool_name=_LOOKUP, arguments={}),))


def looked_up_only(request: PlanRequest) -> bool:
    """This turn has only read the visits `looked_up_first` asked for."""
    results = request.turn_results
    return (
        len(results) == 1
        and results[0].call.tool_name == _LOOKUP
        and results[0].round == 1
        and _bare(request.user_message) is not None
        # ("my haircut saturday 11am" of none such: the question of Saturday it was read as)
        and _SAID_OF_ONE.match(request.user_message.lower().strip()) is None
    )


def visit_read_out_moved(
    intents: list[Intent],
    conversation: Sequence[Message],
    now: datetime,
    timezone: str,
    looked_up: Sequence[ToolResult] = (),
) -> list[Intent]:
    """A bare visit and when, of the one visit of that kind last read out: its move, asked
    before it is made; otherwise `intents` as they were. `looked_up`: the results of the
    turn that message began (read again for the yes to the move asked), newer than any
    lookup of the conversation before it."""
    if len(intents) != 1 or intents[0].kind != "book_appointment" or intents[0].when is None:
        return intents
    clause = intents[0].clause
    match = _VISIT_THEN_WHEN.match(clause)
    if match is None or _ONE_MORE.search(clause):
        return intents
    named = service(match.group("what"), match.group("what"))
    visits = None
    if named is not None:
        visits = _visits_of(looked_up)
        if visits is None:
            visits = _last_visits_read(conversation)
    if not visits or named is None:
        return intents
    same = [
        v
        for v in visits
        if str(v.get("service", "")).lower() == named.lower() and v.get("status") != "cancelled"
    ]
    if len(same) != 1:
        return intents
    found = detect_intents(f"move my {match.group('what')} to {match.group('when')}", now, timezone)
    if len(found) != 1 or found[0].kind != "reschedule_appointment":
        return intents
    return [needs_consent(dataclasses.replace(found[0], clause=clause))]


# A reply to the move asked that wants one more instead: "no, book another", "no i want a
# new one", "a second one please".
_ANOTHER_WANTED = rx(
    r"\b(?:another|a new one|a new|a second|one more|an extra|separate|book(?: it| one)?)\b"
)
_MOVE_ASKED = rx(r"\bmove your\b.*\?\s*$")


def another_of_the_asked(
    conversation: Sequence[Message], text: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """ "no, book another" to "Would you like me to move your dental cleaning to Thursday
    at 10 AM…?", asked of a bare visit and when: the booking that message read as, at the
    day and hour it said (was: "When would you like your dental cleaning?"). None for any
    other reply, or one that says a day or hour of its own."""
    said = text.lower()
    if _ANOTHER_WANTED.search(said) is None or len(said.split()) > 8:
        return None
    users = [i for i, m in enumerate(conversation) if isinstance(m, UserTurn)][-2:]
    if len(users) != 2:
        return None
    answers = [
        m
        for m in conversation[users[0] + 1 : users[1]]
        if isinstance(m, AssistantTurn) and m.kind == "answer"
    ]
    if not answers or _MOVE_ASKED.search(answers[-1].text) is None:
        return None
    earlier = conversation[users[0]]
    assert isinstance(earlier, UserTurn)
    if _bare(earlier.text) is None:
        return None
    reply = detect_intents(text, now, timezone)
    if any(i.when is not None or i.kind not in ("book_appointment",) for i in reply):
        return None  # "no, book another for friday", "no, cancel it": read as said
    named = service(said, said)
    asked = _as_a_booking(earlier.text, now, timezone)
    if len(asked) != 1 or asked[0].kind != "book_appointment" or asked[0].missing:
        return None
    if named is not None and named != asked[0].arguments.get("service"):
        return None  # another service named: read as said
    return [dataclasses.replace(asked[0], clause=text)]


__all__ = [
    "another_of_the_asked",
    "looked_up_first",
    "looked_up_only",
    "of_one_moved",
    "visit_read_out_moved",
]
