"""Writes that went through in a turn the customer stopped before hearing about them.

A turn cancelled by barge-in (a caller talking over us, a platform's newer request or
response_id) lets its writes finish, so the CRM is never left half-changed; but the
answer that would have said so is never spoken. The caller may even have stopped us to
take it back ("yes, wait, no"), and a next answer of "Okay, no problem" would tell
them the opposite of what the CRM holds. So the engine keeps one line per such write
in the dialogue state (`Dialogue.untold`) and the next answer begins with them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from assistant.confirmation import when_said
from assistant.schema import ToolResult
from assistant.speech import join_and

LEAD = "Just so you know, that went through:"


def _what(result: ToolResult, timezone: str) -> str | None:
    """ "your haircut on Sunday, November 29 at 2:30 PM is cancelled" from the reply."""
    body: dict[str, Any] = result.result if isinstance(result.result, dict) else {}
    service = str(body.get("service") or "appointment").lower()
    when = when_said(str(body.get("starts_at", "")), timezone)
    title = body.get("title")
    task = f"the task '{title}'" if title else "that task"
    match result.call.tool_name:
        case "crm.cancelAppointment":
            return f"your {service}{when} is cancelled"
        case "crm.bookAppointment":
            return f"your {service}{when} is booked"
        case "crm.rescheduleAppointment":
            return f"your {service} is moved to{when.removeprefix(' on')}"
        case "crm.addTask":
            return f"{task} is added"
        case "crm.completeTask":
            return f"{task} is marked complete"
        case "crm.updateTask":
            return f"{task} is updated"
        case "crm.deleteTask":
            return "that task is deleted"
        case "crm.createTicket":
            subject = body.get("subject")
            return f"a support case about '{subject}' is open" if subject else "a case is open"
        case "crm.updateContactInfo":
            return "your contact details are updated"
    return None


def untold_writes(results: Iterable[ToolResult], told: set[str], timezone: str) -> tuple[str, ...]:
    """One clause per write of `results` that went through and was not told."""
    clauses = (
        _what(result, timezone)
        for result in results
        if result.ok and result.call.call_id not in told
    )
    return tuple(clause for clause in clauses if clause)


def untold_preface(clauses: tuple[str, ...]) -> str | None:
    if not clauses:
        return None
    return f"{LEAD} {join_and(list(clauses))}."


def too_late(clauses: tuple[str, ...]) -> str:
    """The answer to a "no" that came after the write went through."""
    return (
        f"I'm sorry, that had already gone through: {join_and(list(clauses))}. "
        "If you'd like it changed back, just tell me what to do."
    )


__all__ = ["LEAD", "too_late", "untold_preface", "untold_writes"]
