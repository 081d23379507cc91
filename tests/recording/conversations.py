"""A recorded conversation with the fakes that touches every engine behaviour replay pins.

Turn 1: appointments and billing, billing down (partial, retry_after_s kept).
Turn 2: "delete the grocery task": list, then delete asked → confirmation question.
Turn 3: "yes": the pending delete runs.
Turn 4: support cases, cancelled while the lookup is slow.
Turn 5: "hello": a final answer, no tools.
"""

from __future__ import annotations

from pathlib import Path

from assistant.errors import ToolFailure
from assistant.fakes import EchoNarrator, FakeToolBackend, ScriptedPlanner, calls
from assistant.schema import FinalDecision, PlanRequest, ToolCall, ToolCallsDecision
from assistant.tools.catalog import Catalog
from tests.recording.conftest import Say, record_conversation

TASKS = {
    "tasks": [
        {"id": "task_1", "title": "Buy groceries", "status": "pending"},
        {"id": "task_2", "title": "Renew car insurance", "status": "pending"},
    ]
}
APPOINTMENTS = {"appointments": [{"id": "apt_1", "service": "Dental cleaning"}]}
BILLING_DOWN = ToolFailure("unavailable", "billing answered 503", retry_after_s=2.0)

MESSAGES = [
    Say("Show me my appointments and my billing", message_id="m1"),
    Say("delete the grocery task", message_id="m2"),
    Say("yes", message_id="m3"),
    Say("any open support cases?", message_id="m4", cancel_on="tool.started"),
    Say("hello", message_id="m5"),
]


def delete_after_listing(request: PlanRequest) -> ToolCallsDecision:
    return ToolCallsDecision(
        calls=(
            ToolCall(call_id="c_9", tool_name="crm.deleteTask", arguments={"task_id": "task_1"}),
        )
    )


def planner() -> ScriptedPlanner:
    return ScriptedPlanner(
        calls("crm.listUpcomingAppointments", "crm.getOpenInvoices"),
        FinalDecision(text=""),
        calls("crm.listTasks"),
        delete_after_listing,
        calls("crm.listOpenTickets"),
        FinalDecision(text="Hello! I can check appointments, billing, tasks and cases."),
    )


def backend() -> FakeToolBackend:
    return FakeToolBackend(
        results={
            "crm.listUpcomingAppointments": APPOINTMENTS,
            "crm.listTasks": TASKS,
            "crm.deleteTask": {"deleted": True, "task_id": "task_1"},
        },
        failures={"crm.getOpenInvoices": BILLING_DOWN},
        delays_s={"crm.listOpenTickets": 30},
    )


async def record_everything(directory: Path, catalog: Catalog) -> Path:
    """The five-turn conversation above, recorded to a file in `directory`."""
    return await record_conversation(
        directory, catalog, planner(), EchoNarrator(), backend(), MESSAGES
    )
