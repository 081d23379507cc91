"""An hour asked for a booking answered "same as before", "the usual time": which earlier
visit is meant is not said (the last one of that service, or the one booked ahead), so the
visits are looked up and the question asked again naming the hours they were at ("Your
last haircut was at 11 AM, and the one on Sunday is at 2:30 PM. What time on Saturday works
for you?"). It was "Sorry, I didn't catch that".
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from assistant.language import detect_intents
from assistant.language.text import normalize
from assistant.models.embedded.followup import SAME_AS_BEFORE, asked_about
from assistant.models.embedded.user_turns import last_user
from assistant.schema import (
    AssistantTurn,
    FinalDecision,
    PlanRequest,
    ToolCall,
    ToolCallsDecision,
    UserTurn,
)
from assistant.speech import local_now

_LOOKUP = "crm.listAppointments"


def _time_asked(request: PlanRequest) -> str | None:
    """The assistant's last answer, when it asked the hour ("What time on Saturday works
    for you?")."""
    conversation = request.conversation
    last = last_user(conversation)
    if last is None:
        return None
    for message in reversed(conversation[:last]):
        if isinstance(message, AssistantTurn) and message.kind == "answer":
            text = message.text.strip()
            return text if text.endswith("?") and "what time" in text.lower() else None
        if isinstance(message, UserTurn):
            return None
    return None


def same_hour_asked(request: PlanRequest) -> FinalDecision | ToolCallsDecision | None:
    """The lookup, then the question naming the hours "before" could mean; None unless the
    message says only "same as before" to the hour asked of a booking."""
    low = request.user_message.lower()
    if "same" not in low and "usual" not in low and "before" not in low:
        return None  # (nearly every message)
    if not SAME_AS_BEFORE.match(normalize(request.user_message).text):
        return None
    question = _time_asked(request)
    earlier = asked_about(request.conversation)
    if question is None or earlier is None:
        return None
    timezone = request.customer.timezone if request.customer else "UTC"
    booked = [
        i for i in detect_intents(earlier, request.now, timezone) if i.kind == "book_appointment"
    ]
    service = str(booked[0].arguments.get("service") or "") if len(booked) == 1 else ""
    if not service:
        return None
    results = [r for r in request.turn_results if r.call.tool_name == _LOOKUP and r.ok]
    if not results:
        if not any(tool.name == _LOOKUP for tool in request.tools):
            return None
        call = ToolCall.model_construct(
            call_id=f"c_{request.round}_1", tool_name=_LOOKUP, arguments={"status": "all"}
        )
        return ToolCallsDecision(calls=(call,))
    now = local_now(request.now, timezone)
    zone = now.tzinfo or ZoneInfo("UTC")
    visits = []
    for result in results:
        body = result.result if isinstance(result.result, dict) else {}
        for visit in body.get("appointments") or []:
            if not isinstance(visit, dict) or str(visit.get("service", "")).lower() != (
                service.lower()
            ):
                continue
            if visit.get("status") == "cancelled":
                continue
            try:
                start = datetime.fromisoformat(str(visit.get("starts_at"))).astimezone(zone)
            except ValueError:
                continue
            visits.append(start)
    past = sorted(v for v in visits if v <= now)
    ahead = sorted(v for v in visits if v > now)
    named = service.lower()
    told = []
    if past:
        told.append(f"your last {named} was at {_hour(past[-1])}")
    if ahead:
        day = f"{ahead[0]:%A}, {ahead[0]:%B} {ahead[0].day}"
        told.append(f"the one booked on {day} is at {_hour(ahead[0])}")
    if not told:
        return FinalDecision(text=f"I don't see an earlier {named} to go by. {question}")
    said = ", and ".join(told)
    return FinalDecision(text=f"{said[:1].upper()}{said[1:]}. {question}")


def _hour(moment: datetime) -> str:
    return moment.strftime("%I:%M %p").lstrip("0").replace(":00", "")


__all__ = ["same_hour_asked"]
