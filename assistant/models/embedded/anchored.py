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
from collections.abc import Iterable
from datetime import datetime, timedelta

from assistant.dialogue_state import Item
from assistant.language.lexicon import SERVICES
from assistant.language.patterns import rx
from assistant.models.embedded.pinning import zone_of
from assistant.schema import FinalDecision, PlanRequest, ToolCall, ToolCallsDecision, UserTurn

_OFFSET = {"day after": 1, "day before": -1, "same day as": 0, "week after": 7, "week before": -7}
_SERVICE_WORDS = "|".join(sorted((re.escape(name) for name in SERVICES), key=len, reverse=True))
_ANCHOR = rx(
    rf"\b(?P<lead>(?:to|for|on) )?(?:the )?(?P<rel>day after|day before|same day as|week after"
    rf"|week before) (?:my|the|your) (?P<what>{_SERVICE_WORDS})"
    rf"(?: (?:appointment|visit|booking))?\b"
)
LOOKUP = "crm.listUpcomingAppointments"
_LISTINGS = frozenset({LOOKUP, "crm.listAppointments", "crm.getNextAppointment"})


def _items(request: PlanRequest) -> tuple[list[Item], bool]:
    """The visits known: this turn's listings first, then the conversation's; and whether a
    listing was read this turn."""
    found: list[Item] = []
    read = False
    for result in request.turn_results:
        if result.call.tool_name not in _LISTINGS or not result.ok:
            continue
        read = True
        body = result.result if isinstance(result.result, dict) else {}
        listed = body.get("appointments") or [body.get("appointment")]
        found += [item for item in listed if isinstance(item, dict)]
    state = request.dialogue
    found += [*state.last_listed_of("appointment")]
    if (focus := state.focus_of("appointment")) is not None:
        found.append(focus)
    return found, read


def _start(item: Item, service: str, now: datetime) -> datetime | None:
    if str(item.get("service") or "").lower() != service.lower():
        return None
    if item.get("status") == "cancelled" or not isinstance(item.get("starts_at"), str):
        return None
    start = datetime.fromisoformat(str(item["starts_at"]))
    return start if start > now else None


def _first_start(items: Iterable[Item], service: str, now: datetime) -> datetime | None:
    starts = [start for item in items if (start := _start(item, service, now)) is not None]
    return min(starts, default=None)


def read_days(request: PlanRequest) -> PlanRequest | ToolCallsDecision | FinalDecision | None:
    """The request with the day counted from the visit named; a lookup of the visits when
    none is known yet; an answer when there is no such visit; None when no day is said
    by another visit."""
    text = request.user_message
    if len(text.lower()) == len(text):
        text = text.lower()  # the same places in both (read lower-cased all the same)
    match = _ANCHOR.search(text.lower())
    if match is None:
        return None
    service = SERVICES[match.group("what")]
    items, read = _items(request)
    start = _first_start(items, service, request.now)
    lookup = any(tool.name == LOOKUP for tool in request.tools)
    if start is None and not read and request.round <= 1 and lookup:
        call = ToolCall(call_id="c_1_1", tool_name=LOOKUP, arguments={})
        return ToolCallsDecision(calls=(call,))
    if start is None:
        noun = service.lower()
        return FinalDecision(
            text=f"I couldn't find an upcoming {noun} to count that day from. "
            "Which day would you like instead?"
        )
    zone = zone_of(request.customer.timezone if request.customer else "UTC")
    day = start.astimezone(zone).date() + timedelta(days=_OFFSET[match.group("rel")])
    said = f"{match.group('lead') or 'on '}{day:%B} {day.day}"
    told = text[: match.start()] + said + text[match.end() :]
    conversation = list(request.conversation)
    last = max(i for i, message in enumerate(conversation) if isinstance(message, UserTurn))
    conversation[last] = UserTurn(text=told)
    return dataclasses.replace(request, conversation=tuple(conversation))


def counts_from_a_visit(text: str) -> bool:
    """The message says a day by another visit ("the day after my haircut")."""
    return _ANCHOR.search(text.lower()) is not None


def looked_up_only(request: PlanRequest) -> bool:
    """This turn has read only the listing the day is counted from: the request is
    planned now as a first round would be."""
    results = request.turn_results
    return len(results) == 1 and results[0].call.tool_name == LOOKUP and results[0].round == 1
