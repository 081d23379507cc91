"""The Prometheus series a turn leaves: turns by status, calls by tool and outcome."""

from __future__ import annotations

from assistant.engine import Engine, EngineConfig
from assistant.errors import ToolFailure
from assistant.fakes import EchoNarrator, FakeToolBackend, ScriptedPlanner, calls
from assistant.metrics import Metrics
from assistant.schema import FinalDecision
from assistant.session import Session
from assistant.tools.catalog import Catalog
from assistant.tools.executor import ToolExecutor
from tests.engine.conftest import Recorder


async def test_turns_and_calls_are_counted_per_status_tool_and_error_code(
    catalog: Catalog, session: Session
) -> None:
    """Two partial turns count twice in one series each; a failed call also by its code."""
    metrics = Metrics()
    backend = FakeToolBackend(
        failures={"crm.getOpenInvoices": ToolFailure("not_found", "billing answered 404")}
    )
    both = calls("crm.listUpcomingAppointments", "crm.getOpenInvoices")
    planner = ScriptedPlanner(both, FinalDecision(text=""), both, FinalDecision(text=""))
    executor = ToolExecutor(catalog, backend, metrics=metrics)
    engine = Engine(planner, EchoNarrator(), executor, EngineConfig(), metrics=metrics)
    for _ in range(2):
        await engine.run_turn(session, "appointments and billing", Recorder())
    text = metrics.render().decode()
    assert 'turn_count_total{status="partial"} 2.0' in text
    assert 'tool_call_count_total{outcome="ok",tool="crm.listUpcomingAppointments"} 2.0' in text
    assert 'tool_call_count_total{outcome="not_found",tool="crm.getOpenInvoices"} 2.0' in text
    assert 'tool_call_error_count_total{code="not_found",tool="crm.getOpenInvoices"} 2.0' in text
    assert 'tool_call_seconds_count{tool="crm.listUpcomingAppointments"} 2.0' in text
