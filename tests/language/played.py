"""What a turn wrote, played in the test world: shared by the held-out rule tests."""

from __future__ import annotations

from typing import Any

from assistant.fakes.world import play

MOVE = "crm.rescheduleAppointment"
BOOK = "crm.bookAppointment"
CANCEL = "crm.cancelAppointment"
ADD = "crm.addTask"
UPDATE = "crm.updateTask"
DELETE = "crm.deleteTask"
COMPLETE = "crm.completeTask"
CONTACT = "crm.updateContactInfo"
TICKET = "crm.createTicket"


async def writes(text: str) -> list[tuple[str, dict[str, Any]]]:
    """Every write a turn made or held, with its arguments."""
    turn = await play(text)
    calls = [c for calls in turn.rounds for c in calls] + ([turn.held] if turn.held else [])
    return [
        (c.tool_name, dict(c.arguments))
        for c in calls
        if not c.tool_name.split(".")[1].startswith(("list", "get"))
    ]
