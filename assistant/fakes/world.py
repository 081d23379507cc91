"""A small in-memory customer for the embedded model's unit tests.

Maria (America/Los_Angeles) on Saturday, March 1, 2025 at noon, shaped like the CRM
seed's `cust_001`: a dental cleaning on Monday and a haircut on Friday, one open
invoice of $150.00, three pending tasks ("Buy groceries", "Renew car insurance",
"Schedule eye exam") and a completed one, one open ticket. `play` runs one turn the
way the engine does (round after round, destructive calls held for confirmation)
without the engine, so that the planner's own decisions are what is tested; the
end-to-end tests through the engine and the CRM stub live with the engine.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from assistant.models.embedded import EmbeddedNarrator, EmbeddedPlanner
from assistant.schema import (
    AssistantTurn,
    CustomerContext,
    FinalDecision,
    Message,
    NarratorInput,
    PlanRequest,
    ToolCall,
    ToolError,
    ToolExchange,
    ToolResult,
    UserTurn,
)
from assistant.tools.catalog import Catalog, load_catalog

TIMEZONE = "America/Los_Angeles"
NOW = datetime(2025, 3, 1, 12, 0, tzinfo=ZoneInfo(TIMEZONE))
CUSTOMER = CustomerContext(customer_id="cust_001", name="Maria Garcia", timezone=TIMEZONE)
CATALOG: Catalog = load_catalog(Path(__file__).resolve().parents[2] / "config" / "tools.yaml")


def day(offset: int) -> str:
    return (NOW.date() + timedelta(days=offset)).isoformat()


def moment(offset: int, hour: int, minute: int = 0) -> str:
    return (NOW.replace(hour=hour, minute=minute) + timedelta(days=offset)).isoformat()


def task(
    task_id: str, title: str, priority: str, due: int | None, done: bool = False
) -> dict[str, Any]:
    return {
        "id": task_id,
        "title": title,
        "description": None,
        "priority": priority,
        "status": "completed" if done else "pending",
        "due_on": None if due is None else day(due),
        "created_at": moment(-5, 9),
        "completed_at": moment(-1, 17) if done else None,
    }


TASKS = [
    task("task_1", "Buy groceries", "normal", 1),
    task("task_2", "Renew car insurance", "high", 7),
    task("task_3", "Schedule eye exam", "low", None),
    task("task_4", "Call the pharmacy", "normal", -1, done=True),
]
APPOINTMENTS: list[dict[str, Any]] = [
    {
        "id": "appt_1",
        "service": "Dental cleaning",
        "starts_at": moment(2, 10),
        "ends_at": moment(2, 11),
        "status": "scheduled",
        "location": "Downtown Dental, 120 Market St",
        "notes": "Please arrive 10 minutes early.",
    },
    {
        "id": "appt_2",
        "service": "Haircut",
        "starts_at": moment(6, 14, 30),
        "ends_at": moment(6, 15, 15),
        "status": "scheduled",
        "location": "Studio Nine, 48 Valencia St",
        "notes": None,
    },
]
PAST: list[dict[str, Any]] = [
    {
        "id": "appt_0",
        "service": "Haircut",
        "starts_at": moment(-60, 11),
        "ends_at": moment(-60, 11, 45),
        "status": "past",
        "location": "Studio Nine, 48 Valencia St",
        "notes": None,
    }
]
CANCELLED: list[dict[str, Any]] = [
    {
        "id": "appt_3",
        "service": "Consultation",
        "starts_at": moment(4, 11, 30),
        "ends_at": moment(4, 12),
        "status": "cancelled",
        "location": "Main office, 1 Embarcadero Center",
        "notes": None,
    }
]
PAID = [
    {
        "id": "inv_0",
        "description": "Haircut",
        "amount_cents": 4500,
        "currency": "USD",
        "issued_on": day(-65),
        "due_on": day(-35),
        "status": "paid",
    }
]
INVOICES: dict[str, Any] = {
    "invoices": [
        {
            "id": "inv_1",
            "description": "Dental cleaning",
            "amount_cents": 15000,
            "currency": "USD",
            "issued_on": day(-10),
            "due_on": day(20),
            "status": "open",
        }
    ],
    "balance_cents": 15000,
    "currency": "USD",
}
TICKETS = {
    "tickets": [
        {
            "id": "tkt_1",
            "subject": "Question about my last invoice",
            "status": "open",
            "priority": "normal",
            "opened_at": moment(-4, 15),
            "updated_at": moment(-1, 16),
        }
    ]
}
PROFILE = {
    "id": "cust_001",
    "name": "Maria Garcia",
    "email": "maria.garcia@example.com",
    "phone": "+14155550101",
    "timezone": TIMEZONE,
    "tier": "gold",
}


def answer(call: ToolCall, tasks: list[dict[str, Any]] | None = None) -> Any:
    """What the CRM would answer to `call` for Maria."""
    tasks = TASKS if tasks is None else tasks
    name, args = call.tool_name, call.arguments
    if name == "crm.listTasks":
        return {"tasks": copy.deepcopy(tasks)}
    if name == "crm.listUpcomingAppointments":
        return {"appointments": copy.deepcopy(APPOINTMENTS)}
    if name == "crm.getNextAppointment":
        return {"appointment": copy.deepcopy(APPOINTMENTS[0])}
    if name == "crm.getOpenInvoices":
        return copy.deepcopy(INVOICES)
    if name == "crm.listOpenTickets":
        return copy.deepcopy(TICKETS)
    if name in ("crm.getCustomerProfile", "crm.updateContactInfo"):
        return {**PROFILE, **args}
    if name in ("crm.completeTask", "crm.updateTask"):
        found = dict(next(t for t in tasks if t["id"] == args["task_id"]))
        found.update({k: v for k, v in args.items() if k != "task_id"})
        if name == "crm.completeTask":
            found["status"] = "completed"
        return found
    if name == "crm.deleteTask":
        return {"deleted": True, "task_id": args["task_id"]}
    if name == "crm.addTask":
        return {"id": "task_9", "status": "pending", "priority": "normal", "due_on": None, **args}
    if name == "crm.bookAppointment":
        return {"id": "appt_9", "status": "scheduled", "location": "Studio Nine", **args}
    if name in ("crm.rescheduleAppointment", "crm.cancelAppointment"):
        found = dict(next(a for a in APPOINTMENTS if a["id"] == args["appointment_id"]))
        found["starts_at"] = args.get("starts_at", found["starts_at"])
        if name == "crm.cancelAppointment":
            found["status"] = "cancelled"
        return found
    if name == "crm.listAppointments":
        return {"appointments": copy.deepcopy(PAST + APPOINTMENTS + CANCELLED)}
    if name == "crm.listInvoices":
        # As the CRM does: by status (open, paid or all; all when not given).
        every = INVOICES["invoices"] + PAID
        status = args.get("status", "all")
        chosen = every if status == "all" else [i for i in every if i["status"] == status]
        return {**copy.deepcopy(INVOICES), "invoices": copy.deepcopy(chosen)}
    if name == "crm.listTickets":
        return copy.deepcopy(TICKETS)
    if name == "crm.createTicket":
        return {"id": "tkt_9", "status": "open", "priority": "normal", **args}
    raise AssertionError(f"unexpected call {name}")


@dataclass
class Turn:
    """What one turn did: tools called per round, the held call, the spoken answer."""

    rounds: list[list[ToolCall]] = field(default_factory=list)
    results: list[ToolResult] = field(default_factory=list)
    held: ToolCall | None = None
    answer: str = ""
    pieces: list[str] = field(default_factory=list)
    # The planner's own final text, which the engine speaks instead of narrating (a
    # question answered from the results); `answer` is then the narrator's.
    final: str | None = None

    @property
    def tools(self) -> list[str]:
        return [call.tool_name for calls in self.rounds for call in calls]


async def play(
    text: str,
    history: list[Message] | None = None,
    *,
    failures: dict[str, str] | None = None,
    tasks: list[dict[str, Any]] | None = None,
    max_rounds: int = 3,
) -> Turn:
    """One turn of `text` (appended to `history`, which gains what was said)."""
    history = [] if history is None else history
    history.append(UserTurn(text=text))
    planner, turn = EmbeddedPlanner(), Turn()
    final: str | None = None
    for round_no in range(1, max_rounds + 2):
        request = PlanRequest(
            conversation=tuple(history),
            tools=CATALOG.tools,
            customer=CUSTOMER,
            now=NOW,
            round=round_no,
            turn_results=tuple(turn.results),
        )
        decision = await planner.decide(request)
        if isinstance(decision, FinalDecision):
            final = decision.text or None
            break
        assert round_no <= max_rounds, "the planner keeps asking for tools"
        turn.rounds.append(list(decision.calls))
        results = []
        for call in decision.calls:
            problem = CATALOG.argument_error(call.tool_name, call.arguments)
            assert problem is None, problem
            tool = CATALOG.get(call.tool_name)
            if tool is not None and tool.effect == "destructive" and turn.held is None:
                turn.held = call
                turn.rounds[-1].remove(call)
                continue
            code = (failures or {}).get(call.tool_name)
            if code is not None:
                error = ToolError(code=code, message="injected")
                results.append(ToolResult(call=call, round=round_no, status="error", error=error))
            else:
                result = answer(call, tasks)
                results.append(ToolResult(call=call, round=round_no, status="ok", result=result))
        turn.results.extend(results)
        if results:
            history.append(ToolExchange(round=round_no, results=tuple(results)))
        if turn.held is not None:
            break
    turn.final = final
    if final is not None and not turn.results:
        turn.answer, turn.pieces = final, [final]
    else:
        prompt = (
            f"Are you sure you want to go ahead with {turn.held.tool_name}?" if turn.held else None
        )
        request_n = NarratorInput(
            user_message=text,
            tool_results=tuple(turn.results),
            context_hint="",
            customer=CUSTOMER,
            now=NOW,
            conversation=tuple(history),
            confirmation_prompt=prompt,
        )
        turn.pieces = [piece async for piece in EmbeddedNarrator().narrate(request_n)]
        turn.answer = "".join(turn.pieces)
    history.append(AssistantTurn(kind="answer", text=turn.answer))
    return turn
