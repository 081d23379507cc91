"""The CRM tools that change something: what the embedded planner's follow-ups and its
narrator treat as a write (a result to tell as done, a change to keep in view)."""

from __future__ import annotations

WRITE_TOOLS = frozenset(
    {
        "crm.bookAppointment",
        "crm.rescheduleAppointment",
        "crm.cancelAppointment",
        "crm.addTask",
        "crm.completeTask",
        "crm.updateTask",
        "crm.deleteTask",
        "crm.createTicket",
        "crm.updateContactInfo",
    }
)
