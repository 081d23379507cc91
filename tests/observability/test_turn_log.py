"""One JSON log line per turn, and the trace id in turn.done, error events and the CRM."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from assistant.errors import ModelUnavailable
from assistant.logs import JsonFormatter
from tests.fakes import EchoNarrator, FakeToolBackend, ScriptedPlanner
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin


class JsonLines(logging.Handler):
    """The lines `serve` would print: formatted when logged, inside the turn's context."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.setFormatter(JsonFormatter())
        self.lines: list[dict[str, Any]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(self.format(record)))


@pytest.fixture
def turn_lines() -> Iterator[list[dict[str, Any]]]:
    logger = logging.getLogger("assistant.turns")
    handler, level = JsonLines(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield handler.lines
    logger.removeHandler(handler)
    logger.setLevel(level)


async def test_one_line_per_turn_with_every_call(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, turn_lines: list[dict[str, Any]]
) -> None:
    """A turn with a failing billing call logs one line: trace, session, customer, status,
    each call's tool, status, error code, attempts and latency, and the timings."""
    await crm_admin.add_fault(method="GET", path="/v1/customers/*/invoices", status=404)
    chat = await (await make_assistant()).connect()
    events = await chat.say("Show me my appointments and my billing")
    done = events[-1]
    [line] = turn_lines
    turn = line["turn"]
    assert (line["trace_id"], turn["trace_id"]) == (done["trace_id"], done["trace_id"])
    assert turn["session_id"] == chat.session_id
    assert (turn["customer_id"], turn["status"]) == ("cust_001", "partial")
    calls = {call["tool"]: call for call in turn["calls"]}
    assert calls["crm.getOpenInvoices"]["status"] == "error"
    assert calls["crm.getOpenInvoices"]["error_code"] == "not_found"
    assert calls["crm.listUpcomingAppointments"]["error_code"] is None
    assert all(call["attempts"] == 1 and call["latency_ms"] >= 0 for call in calls.values())
    assert turn["truncated_calls"] == 0
    assert set(turn["timings_ms"]) == {"decision", "ack", "tools", "answer", "total"}


async def test_trace_id_in_turn_done_matches_the_crm(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """turn.done's trace_id is the X-Trace-Id every CRM request of that turn carried."""
    chat = await (await make_assistant()).connect()
    first = (await chat.say("What do I owe?"))[-1]
    second = (await chat.say("What do I owe?"))[-1]
    assert len(first["trace_id"]) == 32 and first["trace_id"] != second["trace_id"]
    traces = [r["trace_id"] for r in await crm_admin.requests() if "invoices" in r["path"]]
    assert traces[-2:] == [first["trace_id"], second["trace_id"]]


async def test_error_events_carry_the_trace_id(make_assistant: MakeAssistant) -> None:
    """A model_unavailable error names the turn's trace id, the same as turn.done's."""
    planner = ScriptedPlanner(ModelUnavailable("down"))
    assistant = await make_assistant(
        planner=planner, narrator=EchoNarrator(), tool_backend=FakeToolBackend()
    )
    events = await (await assistant.connect()).say("hello")
    [error] = [e for e in events if e["type"] == "error"]
    assert error["trace_id"] == events[-1]["trace_id"]
    assert error["code"] == "model_unavailable"
