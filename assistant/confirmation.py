"""Confirmation of destructive calls: the question naming the exact target, and yes/no."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from assistant.language.confirm import is_affirmative
from assistant.language.confirm import is_negative as says_no
from assistant.schema import ToolCall, ToolResult

__all__ = ["confirmation_prompt", "declined_answer", "is_affirmative", "is_negative"]

# Past this many words a "no" carries a new request ("no, show me my billing instead"),
# which the planner should hear; a bare "no" is answered here.
_BARE_NO_WORDS = 4


def is_negative(text: str) -> bool:
    """True for a bare no ("no", "nope, keep it", "never mind")."""
    return says_no(text) and len(text.split()) <= _BARE_NO_WORDS


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
