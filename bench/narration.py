"""The embedded narrator's CPU per answer, on answers of every kind and inside a turn.

    python -m bench.narration [--repeat 2000] [--in-turn] [--sessions 30] [--turns 60]

By default, `answer_text` is timed on a fixed set of answers (appointments, invoices,
tasks, tickets, a booking, a task added, a case opened, a failure, a confirmation asked),
each after the planner's reading of the same message (which the narrator's shares), as in
a turn; the CPU time of this thread, so that a busy machine does not count.

`--in-turn` serves the whole app as `bench.sessions` does, every session saying
"Show me my appointments and my billing", and reports the CPU `answer_text` took per turn
beside the server's whole CPU per turn. Inside a server the same code costs about twice
what it costs alone (caches shared with the rest of the turn): compare like with like.
"""

from __future__ import annotations

import argparse
import time
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from assistant.models.embedded import narrator, references
from assistant.schema import (
    AssistantTurn,
    CustomerContext,
    NarratorInput,
    ToolCall,
    ToolError,
    ToolExchange,
    ToolResult,
    UserTurn,
)

ZONE = ZoneInfo("America/Los_Angeles")
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZONE).astimezone(ZoneInfo("UTC"))  # as the engine
CUSTOMER = CustomerContext(customer_id="cust_001", name="Maria Garcia", timezone=ZONE.key)

APPOINTMENTS = {
    "appointments": [
        {
            "id": f"appt_000{n}",
            "service": service,
            "starts_at": starts_at,
            "status": "upcoming",
            "location": "Downtown Dental, 120 Market St",
            "notes": None,
        }
        for n, (service, starts_at) in enumerate(
            [
                ("Dental cleaning", "2030-01-15T10:00:00-08:00"),
                ("Haircut", "2030-01-20T14:30:00-08:00"),
                ("Eye exam", "2030-02-03T09:15:00-08:00"),
            ],
            start=1,
        )
    ]
}
INVOICES = {
    "invoices": [
        {"id": "inv_0001", "description": "Dental cleaning", "amount_cents": 15000,
         "currency": "USD", "due_on": "2030-01-10", "status": "open"},
        {"id": "inv_0002", "description": "Haircut", "amount_cents": 4500,
         "currency": "USD", "due_on": "2030-02-03", "status": "open"},
    ],
    "balance_cents": 19500,
    "currency": "USD",
}  # fmt: skip
TASKS = {
    "tasks": [
        {"id": "task_0001", "title": "Buy groceries", "priority": "normal",
         "status": "pending", "due_on": "2030-01-15"},
        {"id": "task_0002", "title": "Renew car insurance", "priority": "high",
         "status": "pending", "due_on": "2030-01-30"},
        {"id": "task_0004", "title": "Call the pharmacy", "priority": "normal",
         "status": "completed", "due_on": "2030-01-12"},
    ]
}  # fmt: skip
TICKETS = {
    "tickets": [
        {"id": "tkt_0001", "subject": "Question about my last invoice", "status": "open",
         "priority": "normal", "opened_at": "2030-01-10T15:20:00+00:00"}
    ]
}  # fmt: skip


def _result(tool: str, payload: Any, arguments: dict[str, Any] | None = None) -> ToolResult:
    call = ToolCall(call_id=f"c_{tool}", tool_name=tool, arguments=arguments or {})
    return ToolResult(call=call, status="ok", result=payload)


def _failed(tool: str, arguments: dict[str, Any]) -> ToolResult:
    call = ToolCall(call_id=f"c_{tool}", tool_name=tool, arguments=arguments)
    error = ToolError(code="not_found", message="the task list answered 404")
    return ToolResult(call=call, status="error", error=error)


def _ask(said: str, *results: ToolResult, confirm: str | None = None) -> NarratorInput:
    earlier = (
        UserTurn(text="hi"),
        AssistantTurn(kind="answer", text="Hello! How can I help?"),
        UserTurn(text=said),
        AssistantTurn(kind="ack", text="One moment."),
        ToolExchange(round=1, results=results),
    )
    return NarratorInput(
        user_message=said,
        tool_results=results,
        context_hint="",
        customer=CUSTOMER,
        now=NOW,
        conversation=earlier,
        confirmation_prompt=confirm,
    )


def answers() -> dict[str, NarratorInput]:
    """One request of each kind the narrator speaks of."""
    listing = _result("crm.listUpcomingAppointments", APPOINTMENTS)
    invoices = _result("crm.getOpenInvoices", INVOICES)
    tasks = _result("crm.listTasks", TASKS)
    booked = {**APPOINTMENTS["appointments"][2], "id": "appt_0009"}
    added = {"id": "task_0009", "title": "Buy milk", "priority": "normal", "status": "pending"}
    opened = {"id": "tkt_0009", "subject": "Question about a charge", "status": "open"}
    return {
        "appointments and billing": _ask(
            "Show me my appointments and my billing", listing, invoices
        ),
        "tasks": _ask("what's on my to-do list", tasks),
        "tickets": _ask("any open support cases?", _result("crm.listOpenTickets", TICKETS)),
        "booked": _ask(
            "book an eye exam on february 3rd at 9:15am",
            _result("crm.bookAppointment", booked, {"service": "Eye exam"}),
        ),
        "task added": _ask("remind me to buy milk", _result("crm.addTask", added)),
        "case opened": _ask(
            "open a ticket about a charge", _result("crm.createTicket", opened)
        ),
        "failure": _ask(
            "mark buy groceries as done",
            tasks,
            _failed("crm.completeTask", {"task_id": "task_0001"}),
        ),
        "confirmation": _ask(
            "delete the grocery task",
            tasks,
            confirm="Are you sure you want to delete the task 'Buy groceries'?",
        ),
    }  # fmt: skip


def _planner_reads(request: NarratorInput) -> None:
    """What the planner reads of the message before the narrator speaks (shared)."""
    assert request.now is not None
    timezone = CUSTOMER.timezone
    references.follow_up(request.dialogue, request.user_message, request.now, timezone)
    references.read_intents(
        request.conversation, request.user_message, request.now, timezone, request.dialogue
    )


def time_answers(repeat: int) -> dict[str, float]:
    """CPU µs per answer of each kind: the best of five blocks of `repeat`."""
    timed: dict[str, float] = {}
    for label, request in answers().items():
        best = float("inf")
        for _ in range(5):
            spent = 0.0
            for _ in range(repeat):
                _planner_reads(request)
                started = time.thread_time()
                narrator.answer_text(request)
                spent += time.thread_time() - started
            best = min(best, spent / repeat)
        timed[label] = 1e6 * best
    return timed


def time_in_turn(sessions: int, turns: int) -> tuple[float, float]:
    """(answer_text's CPU µs per turn, the server's CPU ms per turn) in bench.sessions."""
    from bench import sessions as served  # starts processes: only when asked

    spent = [0.0, 0]
    inner = narrator.answer_text

    def counted(request: NarratorInput) -> str:
        started = time.thread_time()
        try:
            return inner(request)
        finally:
            spent[0] += time.thread_time() - started
            spent[1] += 1

    narrator.answer_text = counted
    try:
        report = served.run(sessions, turns, texts=(served.SAME_TURN,))
    finally:
        narrator.answer_text = inner
    return 1e6 * spent[0] / max(1, int(spent[1])), report["server_cpu_ms_per_turn"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=2000)
    parser.add_argument("--in-turn", action="store_true")
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--turns", type=int, default=60)
    args = parser.parse_args()
    if args.in_turn:
        answer_us, server_ms = time_in_turn(args.sessions, args.turns)
        print(f"answer_text {answer_us:.1f} µs CPU per turn; server {server_ms} ms CPU per turn")
        return
    for label, micros in time_answers(args.repeat).items():
        print(f"{micros:7.1f} µs  {label}")


if __name__ == "__main__":
    main()
