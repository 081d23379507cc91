"""Handing a call to a person: when to do it, and what the person is told.

A caller who asks for a person ("I want to talk to a human", "representative,
please") is not sent to the engine: no model should talk them out of it. After two
failed turns in a row the bridge offers the same. Either way the call ends with a
ConversationRelay `end` frame whose `handoffData` (a JSON string) reaches the call
flow's `action` URL, so a Studio flow or a TaskRouter workflow can route the call to
an agent with the reason and a short summary of what was already said and done.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Literal

from assistant.schema import AssistantTurn, CustomerContext, Message, ToolExchange, UserTurn

HandoffReason = Literal["caller_request", "repeated_failures"]

_PERSON = (
    r"(?:a |an |the |some |)(?:real |live |actual |human |customer service |customer support "
    r"|support |service |)(?:person|human|human being|agent|representative|rep|operator|"
    r"someone|somebody|people|staff|member of (?:your |the )?(?:staff|team))"
)
_REQUESTS = (
    # "I want to talk to a person", "can I speak with an agent", "let me talk to someone"
    rf"\b(?:talk|speak|chat)(?:ing)? (?:to|with) {_PERSON}\b",
    # "transfer me", "connect me to a representative", "put me through to an operator";
    # "put me" only through or to a person: "put me down for a haircut", "put me on the
    # waitlist" are bookings (were handed off, and nothing booked)
    rf"\b(?:transfer|connect) me(?: through)?(?: (?:to|with) {_PERSON})?\b",
    rf"\bput me (?:through\b|(?:on )?(?:to|with) {_PERSON}\b)",
    # "get me a human", "I need a real person" (not "I need someone to fix my bill")
    rf"\b(?:get me|give me|need|want) (?!some)(?!people){_PERSON}\b",
)
_HANDOFF = re.compile("|".join(_REQUESTS), re.IGNORECASE)
# The whole utterance is a request: "agent", "representative please", "operator!"
_BARE = re.compile(
    r"^\s*(?:a |an |)(?:human|agent|representative|operator|live agent|real person)"
    r"(?: please)?[\s.!?]*$",
    re.IGNORECASE,
)
# "I don't want to talk to a person" is not a request for one.
_NEGATED = re.compile(r"\b(?:don't|do not|no need to|never)\b[^.?!]*\b(?:talk|speak)\b", re.I)

HANDOFF_LINE = {
    "caller_request": "Of course. I'll connect you with a member of our team now. Please hold.",
    "repeated_failures": (
        "I'm sorry I haven't been able to help. "
        "I'll connect you with a member of our team now. Please hold."
    ),
}
_REASON_TEXT = {
    "caller_request": "The caller asked to talk to a person.",
    "repeated_failures": "The assistant failed to answer twice in a row.",
}
_SUMMARY_CHARS = 600


def wants_person(text: str) -> bool:
    """True when the caller asks to talk to a person instead of the assistant."""
    normalised = text.replace("’", "'")
    if _NEGATED.search(normalised):
        return False
    return bool(_HANDOFF.search(normalised) or _BARE.match(normalised))


def conversation_summary(
    history: Sequence[Message], customer: CustomerContext | None, last_request: str | None = None
) -> str:
    """A few plain sentences for the agent: who is calling, what they asked, what was done."""
    who = "Unknown caller (no account found)."
    if customer is not None:
        name = f"{customer.name} " if customer.name else ""
        who = f"Caller {name}({customer.customer_id})."
    asked = [message.text for message in history if isinstance(message, UserTurn)]
    if last_request:
        asked.append(last_request)
    lines = [who]
    if asked:
        lines.append("Asked: " + "; ".join(f'"{text}"' for text in asked[-4:]) + ".")
    done: list[str] = []
    for message in history:
        if isinstance(message, ToolExchange):
            for result in message.results:
                outcome = result.status if result.error is None else result.error.code
                done.append(f"{result.call.tool_name} ({outcome})")
    if done:
        lines.append("Looked up or changed: " + ", ".join(dict.fromkeys(done[-6:])) + ".")
    answers = [m.text for m in history if isinstance(m, AssistantTurn) and m.kind == "answer"]
    if answers:
        lines.append(f'Last answer: "{answers[-1]}"')
    summary = " ".join(lines)
    if len(summary) > _SUMMARY_CHARS:
        summary = summary[: _SUMMARY_CHARS - 1].rstrip() + "…"
    return summary


def handoff_data(
    reason: HandoffReason,
    history: Sequence[Message],
    customer: CustomerContext | None,
    *,
    call_sid: str = "",
    last_request: str | None = None,
) -> str:
    """The `handoffData` string of the `end` frame: JSON with the reason and a summary."""
    data = {
        # Twilio's examples route on `reasonCode`; `reason` is for the person reading it.
        "reasonCode": "live-agent-handoff",
        "reason": reason,
        "reasonText": _REASON_TEXT[reason],
        "summary": conversation_summary(history, customer, last_request),
        "customerId": customer.customer_id if customer else None,
        "callSid": call_sid or None,
    }
    return json.dumps(data, ensure_ascii=False)


__all__ = ["HANDOFF_LINE", "HandoffReason", "conversation_summary", "handoff_data", "wants_person"]
