"""An `Intent`: one thing a customer asked for, with what is known of it from the words."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Literal

from assistant.language.dates import When
from assistant.language.targets import TargetRef

IntentKind = Literal[
    "appointments",
    "next_appointment",
    "book_appointment",
    "reschedule_appointment",
    "cancel_appointment",
    "billing",
    "tasks",
    "task_summary",
    "add_task",
    "complete_task",
    "update_task",
    "delete_task",
    "tickets",
    "create_ticket",
    "profile",
    "update_contact",
]

TOOL_OF: dict[str, str] = {
    "appointments": "crm.listUpcomingAppointments",
    "next_appointment": "crm.getNextAppointment",
    "book_appointment": "crm.bookAppointment",
    "reschedule_appointment": "crm.rescheduleAppointment",
    "cancel_appointment": "crm.cancelAppointment",
    "billing": "crm.getOpenInvoices",
    "tasks": "crm.listTasks",
    "task_summary": "crm.listTasks",
    "add_task": "crm.addTask",
    "complete_task": "crm.completeTask",
    "update_task": "crm.updateTask",
    "delete_task": "crm.deleteTask",
    "tickets": "crm.listOpenTickets",
    "create_ticket": "crm.createTicket",
    "profile": "crm.getCustomerProfile",
    "update_contact": "crm.updateContactInfo",
}
TASK_ACTIONS = frozenset({"complete_task", "update_task", "delete_task"})
APPOINTMENT_ACTIONS = frozenset({"reschedule_appointment", "cancel_appointment"})


@dataclass(frozen=True, slots=True)
class Intent:
    """One thing asked for.

    `arguments` are the action's arguments known from the words alone (never the
    target's id). `lookup` is set for find-then-act intents: the listing tool whose
    result `assistant.resolve` searches for `target`. `missing` names what must be
    asked before acting ("when", "title", "service"…); a write is never guessed.
    """

    kind: IntentKind
    arguments: Mapping[str, Any] = field(default_factory=dict)
    target: TargetRef | None = None
    when: When | None = None
    missing: tuple[str, ...] = ()
    clause: str = ""
    # A move said relative to the appointment's own time ("an hour earlier").
    shift: timedelta | None = None
    # Asks said in the same message that no rule read ("…and sort out the thing with my
    # card"), as said: the answer names them as not understood (language/unheard.py).
    unheard: tuple[str, ...] = ()

    @property
    def tool(self) -> str:
        return TOOL_OF[self.kind]

    @property
    def lookup(self) -> str | None:
        if self.kind in TASK_ACTIONS or (self.kind == "add_task" and self.target is not None):
            # (a to-do named to be added again: its title is looked up)
            return "crm.listTasks"
        if self.kind in APPOINTMENT_ACTIONS:
            target = self.target
            if (
                target is not None
                and target.position == 1
                and not (target.words or target.day or target.weekday is not None)
            ):
                return "crm.getNextAppointment"
            return "crm.listUpcomingAppointments"
        return None

    @property
    def needs_target(self) -> bool:
        return self.lookup is not None

    @property
    def complete(self) -> bool:
        return not self.missing

    @property
    def writes(self) -> bool:
        return self.kind not in READ_KINDS


READ_KINDS = frozenset(
    {"appointments", "next_appointment", "billing", "tasks", "task_summary", "tickets", "profile"}
)

# "mark the groceries and the insurance tasks as done": one verb around several
# targets; their "and" becomes this marker, which the rule splits on.
TARGETS_JOINER = " ++ "
