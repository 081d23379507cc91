"""The catalog's `crm.*` tools bound to the CRM client: the production `ToolBackend`.

Each tool of config/tools.yaml maps to one CRM call; its result is the CRM's JSON,
wrapped only where needed so that every result is a JSON object a narrator can read
(`getNextAppointment` → `{"appointment": … | null}`, `deleteTask` →
`{"deleted": true, "task_id": …}`). The customer id always comes from the session,
never from the arguments. Failures are the client's `ToolFailure`s, passed through.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from assistant.errors import ToolFailure
from assistant.schema import CustomerContext, ToolDefinition
from assistant.tools.crm import CrmClient, Json, TaskStatus


@dataclass(frozen=True, slots=True)
class _Call:
    """One attempt of one tool, as a handler sees it."""

    customer_id: str
    arguments: Mapping[str, Any]
    idempotency_key: str | None
    trace_id: str

    def required(self, name: str) -> str:
        value = self.arguments.get(name)
        if not isinstance(value, str) or not value:
            raise ToolFailure("invalid_arguments", f"{name} is required")
        return value

    def optional(self, name: str) -> Any:
        return self.arguments.get(name)


_Handler = Callable[[_Call], Awaitable[Json]]
_TASK_STATUSES: dict[str, TaskStatus] = {
    "pending": "pending",
    "completed": "completed",
    "all": "all",
}


class CrmTools:
    """Performs the catalog's CRM tools through a `CrmClient` (implements `ToolBackend`)."""

    def __init__(self, client: CrmClient) -> None:
        self._client = client
        self._handlers: dict[str, _Handler] = {
            "crm.getCustomerProfile": self._get_customer_profile,
            "crm.listUpcomingAppointments": self._list_upcoming_appointments,
            "crm.getNextAppointment": self._get_next_appointment,
            "crm.bookAppointment": self._book_appointment,
            "crm.rescheduleAppointment": self._reschedule_appointment,
            "crm.cancelAppointment": self._cancel_appointment,
            "crm.getOpenInvoices": self._get_open_invoices,
            "crm.listTasks": self._list_tasks,
            "crm.addTask": self._add_task,
            "crm.completeTask": self._complete_task,
            "crm.updateTask": self._update_task,
            "crm.deleteTask": self._delete_task,
            "crm.listOpenTickets": self._list_open_tickets,
            "crm.createTicket": self._create_ticket,
            "crm.updateContactInfo": self._update_contact_info,
            "crm.listAppointments": self._list_appointments,
            "crm.listInvoices": self._list_invoices,
            "crm.listTickets": self._list_tickets,
        }

    def supports(self, tool_name: str) -> bool:
        return tool_name in self._handlers

    async def invoke(
        self,
        tool: ToolDefinition,
        customer_id: str,
        arguments: Mapping[str, Any],
        *,
        idempotency_key: str | None,
        trace_id: str,
    ) -> Json:
        handler = self._handlers.get(tool.name)
        if handler is None:
            # The app checks `supports` at start, so reaching this is a wiring bug.
            raise ToolFailure("internal", f"no CRM binding for tool {tool.name}")
        return await handler(_Call(customer_id, arguments, idempotency_key, trace_id))

    # --- session start and the telephony bridge ----------------------------------------

    async def customer_context(self, customer_id: str, trace_id: str) -> CustomerContext:
        """Who a session speaks for, from the CRM profile (ToolFailure when unknown)."""
        return _context(await self._client.get_customer(customer_id, trace_id=trace_id))

    async def find_customer_by_phone(self, e164: str, trace_id: str) -> CustomerContext | None:
        """The customer a caller's number belongs to, or None when no one has it."""
        try:
            profile = await self._client.get_customer_by_phone(e164, trace_id=trace_id)
        except ToolFailure as failure:
            if failure.code == "not_found":
                return None
            raise
        return _context(profile)

    # --- reads -------------------------------------------------------------------------

    async def _get_customer_profile(self, call: _Call) -> Json:
        return await self._client.get_customer(call.customer_id, trace_id=call.trace_id)

    async def _list_upcoming_appointments(self, call: _Call) -> Json:
        return await self._client.list_appointments(
            call.customer_id, status="upcoming", trace_id=call.trace_id
        )

    async def _get_next_appointment(self, call: _Call) -> Json:
        listing = await self._client.list_appointments(
            call.customer_id, status="upcoming", trace_id=call.trace_id
        )
        # The CRM sorts by start time, so the first upcoming one is the next.
        appointments = listing["appointments"]
        return {"appointment": appointments[0] if appointments else None}

    async def _get_open_invoices(self, call: _Call) -> Json:
        return await self._client.list_invoices(
            call.customer_id, status="open", trace_id=call.trace_id
        )

    async def _list_tasks(self, call: _Call) -> Json:
        status = _TASK_STATUSES.get(call.optional("status") or "all")
        if status is None:
            raise ToolFailure("invalid_arguments", "status must be pending, completed or all")
        return await self._client.list_tasks(
            call.customer_id, status=status, trace_id=call.trace_id
        )

    async def _list_open_tickets(self, call: _Call) -> Json:
        return await self._client.list_tickets(
            call.customer_id, status="open", trace_id=call.trace_id
        )

    async def _list_appointments(self, call: _Call) -> Json:
        status = _listed_status(call, ("upcoming", "past", "cancelled", "all"), "all")
        return await self._client.list_appointments(
            call.customer_id, status=status, trace_id=call.trace_id
        )

    async def _list_invoices(self, call: _Call) -> Json:
        status = _listed_status(call, ("open", "paid", "all"), "all")
        return await self._client.list_invoices(
            call.customer_id, status=status, trace_id=call.trace_id
        )

    async def _list_tickets(self, call: _Call) -> Json:
        status = _listed_status(call, ("open", "closed", "all"), "all")
        return await self._client.list_tickets(
            call.customer_id, status=status, trace_id=call.trace_id
        )

    # --- writes ------------------------------------------------------------------------

    async def _book_appointment(self, call: _Call) -> Json:
        return await self._client.book_appointment(
            call.customer_id,
            service=call.required("service"),
            starts_at=call.required("starts_at"),
            trace_id=call.trace_id,
            idempotency_key=call.idempotency_key,
        )

    async def _reschedule_appointment(self, call: _Call) -> Json:
        return await self._client.reschedule_appointment(
            call.customer_id,
            call.required("appointment_id"),
            starts_at=call.required("starts_at"),
            trace_id=call.trace_id,
            idempotency_key=call.idempotency_key,
        )

    async def _cancel_appointment(self, call: _Call) -> Json:
        return await self._client.cancel_appointment(
            call.customer_id,
            call.required("appointment_id"),
            trace_id=call.trace_id,
            idempotency_key=call.idempotency_key,
        )

    async def _add_task(self, call: _Call) -> Json:
        return await self._client.add_task(
            call.customer_id,
            title=call.required("title"),
            description=call.optional("description"),
            priority=call.optional("priority"),
            due_on=call.optional("due_on"),
            trace_id=call.trace_id,
            idempotency_key=call.idempotency_key,
        )

    async def _complete_task(self, call: _Call) -> Json:
        return await self._client.complete_task(
            call.customer_id,
            call.required("task_id"),
            trace_id=call.trace_id,
            idempotency_key=call.idempotency_key,
        )

    async def _update_task(self, call: _Call) -> Json:
        return await self._client.update_task(
            call.customer_id,
            call.required("task_id"),
            title=call.optional("title"),
            description=call.optional("description"),
            priority=call.optional("priority"),
            due_on=call.optional("due_on"),
            trace_id=call.trace_id,
            idempotency_key=call.idempotency_key,
        )

    async def _delete_task(self, call: _Call) -> Json:
        task_id = call.required("task_id")
        await self._client.delete_task(
            call.customer_id,
            task_id,
            trace_id=call.trace_id,
            idempotency_key=call.idempotency_key,
        )
        return {"deleted": True, "task_id": task_id}

    async def _create_ticket(self, call: _Call) -> Json:
        return await self._client.create_ticket(
            call.customer_id,
            subject=call.required("subject"),
            body=call.required("body"),
            trace_id=call.trace_id,
            idempotency_key=call.idempotency_key,
        )

    async def _update_contact_info(self, call: _Call) -> Json:
        email, phone = call.optional("email"), call.optional("phone")
        if email is None and phone is None:
            raise ToolFailure("invalid_arguments", "give a new email address or phone number")
        return await self._client.update_customer(
            call.customer_id,
            email=email,
            phone=phone,
            trace_id=call.trace_id,
            idempotency_key=call.idempotency_key,
        )


def _context(profile: Json) -> CustomerContext:
    customer_id = profile.get("id")
    if not isinstance(customer_id, str):
        raise ToolFailure("internal", "the customer records answered a profile without an id")
    name, timezone = profile.get("name"), profile.get("timezone")
    return CustomerContext(
        customer_id=customer_id,
        name=name if isinstance(name, str) else None,
        timezone=timezone if isinstance(timezone, str) and timezone else "UTC",
    )


def _listed_status(call: _Call, allowed: tuple[str, ...], default: str) -> Any:
    """The `status` filter asked for, one of `allowed` (a clear error otherwise)."""
    status = call.optional("status") or default
    if status not in allowed:
        raise ToolFailure("invalid_arguments", f"status must be {', '.join(allowed)}")
    return status  # one of the route's Literal statuses, checked just above
