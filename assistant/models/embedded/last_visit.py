""" "Book me the same as my last visit, next monday at 9": the service of the latest past
visit, looked up first when the conversation has not read it.

The grammar alone reads no service in "the same as my last visit", and asks what to
book. Here the words are replaced by the service of the visit meant ("book me an annual
checkup, next monday at 9"), so every rule after this one sees a plain booking.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from assistant.dialogue_state import Item
from assistant.language import detect_intents
from assistant.language.patterns import rx
from assistant.schema import FinalDecision, PlanRequest, ToolCall, ToolCallsDecision, UserTurn

# "the same as my last visit", "the same thing I had last time", "another one of what I had
# at my last visit": the service of the latest visit had.
_SAME_AS_LAST = rx(
    r"\b(?:(?:the )?same(?: thing| one| service| again| kind of (?:thing|appointment|visit))?"
    r"(?: as| that| like)?|another one of|another of)"
    r"\s*(?:what )?(?:i had |i got |i came in for )?(?:at |for |on |in )?(?:my |the )?"
    r"(?:last|previous) (?:time|visit|appointment|booking)\b"
    r"|\b(?:(?:the )?same (?:thing|one|service)|what|whatever) i had"
    r" (?:last time|the last time|at my last visit|at my last appointment|last)\b"
)
LOOKUP = "crm.listAppointments"
# A question about the last visit ("what was the same as last time?"), not a request.
_ASKED = rx(r"\?|^(?:what|when|which|where|how|did|was|is|do)\b")


def says_last_visit(text: str) -> bool:
    """The message books what the last visit was ("the same as last time")."""
    return _SAME_AS_LAST.search(text.lower()) is not None


def _last_past(items: list[Item], now: datetime) -> Item | None:
    past = [
        item
        for item in items
        if item.get("status") in ("past", "completed")
        and isinstance(item.get("starts_at"), str)
        and datetime.fromisoformat(str(item["starts_at"])) < now
    ]
    return max(past, key=lambda item: str(item["starts_at"]), default=None)


def _known(request: PlanRequest) -> tuple[list[Item], bool]:
    """The visits known (this turn's listing first, then the conversation's), and whether
    this turn read them."""
    found: list[Item] = []
    read = False
    for result in request.turn_results:
        if result.call.tool_name == LOOKUP and result.ok and isinstance(result.result, dict):
            read = True
            found += [a for a in result.result.get("appointments") or [] if isinstance(a, dict)]
    found += [*request.dialogue.last_listed_of("appointment")]
    return found, read


def read_last_visit(
    request: PlanRequest,
) -> PlanRequest | ToolCallsDecision | FinalDecision | None:
    """The request with "the same as my last visit" said as that visit's service; a lookup
    of the past visits when none is known yet; an answer when there is none; None when the
    message does not say it."""
    message = request.user_message
    text = message.lower()
    match = _SAME_AS_LAST.search(text)
    if match is None or len(text) != len(message):
        return None
    items, read = _known(request)
    last = _last_past(items, request.now)
    if last is None:
        if not read and request.round <= 1 and any(t.name == LOOKUP for t in request.tools):
            call = ToolCall(call_id="c_1_1", tool_name=LOOKUP, arguments={"status": "past"})
            return ToolCallsDecision(calls=(call,))
        return FinalDecision(
            text="I don't see a past visit on your account to book again. "
            "What would you like to book?"
        )
    service = str(last.get("service") or "").lower()
    if not service:
        return None
    article = "an" if service[:1] in "aeiou" else "a"
    said = f"{text[: match.start()]}{article} {service}{text[match.end() :]}"
    if not _ASKED.search(text):
        timezone = request.customer.timezone if request.customer else "UTC"
        kinds = {i.kind for i in detect_intents(said, request.now, timezone)}
        if not kinds & {"book_appointment", "reschedule_appointment", "cancel_appointment"}:
            # "same as last time please", with no verb: a booking of it, its time asked.
            said = f"book {article} {service}{text[match.end() :]}"
    conversation = list(request.conversation)
    for index in range(len(conversation) - 1, -1, -1):
        if isinstance(conversation[index], UserTurn):
            conversation[index] = UserTurn(text=said)
            break
    return dataclasses.replace(request, conversation=tuple(conversation))


def looked_up_only(request: PlanRequest) -> bool:
    """This turn has read only the past visits: the request is planned now as a first
    round would be."""
    results = request.turn_results
    return len(results) == 1 and results[0].call.tool_name == LOOKUP and results[0].round == 1


__all__ = ["LOOKUP", "looked_up_only", "read_last_visit", "says_last_visit"]
