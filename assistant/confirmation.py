"""Confirmation of destructive calls: the question naming the exact target, and yes/no."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from assistant.schema import ToolCall, ToolResult

_YES = re.compile(
    r"^(?:(?:yes|yeah|yep|yup|ya|sure|ok|okay|correct|right|absolutely|definitely|please|"
    r"confirm(?:ed)?|affirmative|go ahead|do it|go for it|that's right|that is right|"
    r"i'm sure|i am sure|of course|please do|sounds good|alright|all right|fine)"
    r"[\s,.!]*)+(?:(?:please|thanks|thank you|now|then|do it|go ahead|delete it|cancel it)"
    r"[\s,.!]*)*$",
    re.IGNORECASE,
)
_NO = re.compile(
    r"^(?:no|nope|nah|don't|do not|never ?mind|cancel that|stop|wait|not now|"
    r"keep it|leave it|no thanks|no thank you)\b",
    re.IGNORECASE,
)


def is_affirmative(text: str) -> bool:
    """True for a message that means yes ("yes", "yeah go ahead", "sure, do it")."""
    return bool(_YES.match(text.strip().lower().replace("’", "'")))


def is_negative(text: str) -> bool:
    """True for a message that means no ("no", "nope, keep it", "never mind")."""
    return bool(_NO.match(text.strip().lower().replace("’", "'")))


def _items(results: Iterable[ToolResult]) -> Iterator[dict[str, Any]]:
    """Every object with an id found in the results (tasks, appointments, …)."""
    for result in results:
        if not isinstance(result.result, dict):
            continue
        for value in result.result.values():
            if isinstance(value, list):
                yield from (item for item in value if isinstance(item, dict) and "id" in item)
            elif isinstance(value, dict) and "id" in value:
                yield value


def _find(results: Iterable[ToolResult], item_id: object) -> dict[str, Any] | None:
    return next((item for item in _items(results) if item.get("id") == item_id), None)


def _when(starts_at: str, timezone: str) -> str:
    try:
        moment = datetime.fromisoformat(starts_at).astimezone(ZoneInfo(timezone))
    except (ValueError, KeyError):
        return ""
    hour = moment.strftime("%I:%M %p").lstrip("0")
    return f" on {moment:%A}, {moment:%B} {moment.day} at {hour}"


def confirmation_prompt(call: ToolCall, results: Iterable[ToolResult], timezone: str) -> str:
    """ "Are you sure you want to delete the task 'Buy groceries'?" (names the target)."""
    results = list(results)
    if call.tool_name == "crm.deleteTask":
        task = _find(results, call.arguments.get("task_id"))
        target = f"the task '{task['title']}'" if task else "that task"
        return f"Are you sure you want to delete {target}?"
    if call.tool_name == "crm.cancelAppointment":
        appointment = _find(results, call.arguments.get("appointment_id"))
        if appointment is None:
            return "Are you sure you want to cancel that appointment?"
        service = str(appointment.get("service") or "appointment")
        when = _when(str(appointment.get("starts_at", "")), timezone)
        return f"Are you sure you want to cancel your {service.lower()}{when}?"
    return "Are you sure you want me to go ahead with that?"


def declined_answer(call: ToolCall) -> str:
    if call.tool_name == "crm.deleteTask":
        return "Okay, I won't delete it. The task stays on your list."
    if call.tool_name == "crm.cancelAppointment":
        return "Okay, I won't cancel it. Your appointment stays booked."
    return "Okay, I won't go ahead with that."
