"""Whole turns through the real engine with the OpenAI-compatible models and a fake CRM."""

from __future__ import annotations

import json
from typing import Any

import pytest

from assistant.engine import Engine, EngineConfig
from assistant.fakes import FakeToolBackend
from assistant.fakes.openai_server import (
    OpenAIServer,
    content,
    finish,
    text_reply,
    tool_calls_reply,
)
from assistant.models.openai_compat import OpenAINarrator, OpenAIPlanner
from assistant.schema import Event
from assistant.session import Session
from assistant.tools.executor import ToolExecutor
from tests.models_openai.helpers import CATALOG, CUSTOMER

Models = tuple[OpenAIPlanner, OpenAINarrator]


class Events:
    def __init__(self) -> None:
        self.wire: list[dict[str, Any]] = []

    async def __call__(self, event: Event) -> None:
        self.wire.append(event.to_wire())

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [event for event in self.wire if event["type"] == kind]

    def types(self) -> list[str]:
        return [event["type"] for event in self.wire]


@pytest.fixture
def backend() -> FakeToolBackend:
    return FakeToolBackend(
        results={
            "crm.listTasks": [{"id": "task_7", "title": "Buy groceries", "status": "pending"}],
            "crm.getOpenInvoices": {"balance": "42.50", "invoices": []},
        }
    )


@pytest.fixture
def engine(openai_models: Models, backend: FakeToolBackend) -> Engine:
    planner, narrator = openai_models
    return Engine(planner, narrator, ToolExecutor(CATALOG, backend), EngineConfig())


@pytest.fixture
def session() -> Session:
    return Session(customer=CUSTOMER, tools=CATALOG.tools)


async def test_model_acknowledgement_is_spoken_before_the_tools_run(
    openai_server: OpenAIServer, engine: Engine, session: Session
) -> None:
    """The model's preamble goes out as ack.delta before any tool starts, then the answer."""
    openai_server.stream(
        tool_calls_reply(
            ("call_a", "crm_listUpcomingAppointments", "{}"),
            ("call_b", "crm_getOpenInvoices", "{}"),
            preamble=["Sure, let me check ", "both."],
        )
    )
    openai_server.stream(text_reply("You have no appointments. ", "You owe $42.50."))
    events = Events()
    done = await engine.run_turn(session, "Show me my appointments and what I owe", events)
    types = events.types()
    assert types.index("ack.delta") < types.index("ack.done") < types.index("tool.started")
    assert events.of("ack.done")[0]["text"] == "Sure, let me check both."
    assert "".join(e["text"] for e in events.of("answer.delta")).endswith("You owe $42.50.")
    assert done.status == "ok"
    assert openai_server.rejections == []


async def test_bad_calls_are_refused_and_their_siblings_run(
    openai_server: OpenAIServer, engine: Engine, session: Session, backend: FakeToolBackend
) -> None:
    """Broken JSON, an unknown tool and another customer's id never reach the CRM; the rest do."""
    openai_server.stream(
        tool_calls_reply(
            ("call_bad", "crm_listTasks", '{"status": "pend'),
            ("call_unknown", "crm_getWeather", "{}"),
            ("call_other", "crm_getOpenInvoices", '{"customer_id": "cust_002"}'),
            ("call_good", "crm_listUpcomingAppointments", "{}"),
        )
    )
    openai_server.stream(text_reply("I could only get your appointments."))
    done = await engine.run_turn(session, "everything please", Events())
    errors = {call["call_id"]: (call["error"] or {}).get("code") for call in done.tool_calls}
    assert errors == {
        "call_bad": "invalid_arguments",
        "call_unknown": "invalid_arguments",
        "call_other": "permission_denied",
        "call_good": None,
    }
    assert [invocation[0] for invocation in backend.invocations] == ["crm.listUpcomingAppointments"]
    round_two = openai_server.requests[1]["messages"]
    assert [m["tool_call_id"] for m in round_two if m["role"] == "tool"] == [
        "call_bad",
        "call_unknown",
        "call_other",
        "call_good",
    ]
    assert openai_server.rejections == []


async def test_calls_past_the_cap_are_cut_and_counted(
    openai_server: OpenAIServer, engine: Engine, session: Session, backend: FakeToolBackend
) -> None:
    """Six calls asked for, four run, two counted as truncated; the narrator is told."""
    names = ["crm_getCustomerProfile", "crm_listUpcomingAppointments", "crm_getOpenInvoices"]
    names += ["crm_listTasks", "crm_listOpenTickets", "crm_getNextAppointment"]
    openai_server.stream(tool_calls_reply(*((f"call_{i}", n, "{}") for i, n in enumerate(names))))
    openai_server.stream([content("", role=True), finish("stop")])  # planner: nothing more
    openai_server.stream(text_reply("Here is most of it."))  # so the narrator speaks
    done = await engine.run_turn(session, "tell me everything", Events())
    assert done.truncated_calls == 2
    assert len(backend.invocations) == 4
    narration = openai_server.requests[2]["messages"]
    assert "2 more request(s) were not attempted" in narration[0]["content"]
    assert [m["role"] for m in narration].count("tool") == 4
    assert openai_server.rejections == []


async def test_find_then_act_chains_two_rounds(
    openai_server: OpenAIServer, engine: Engine, session: Session, backend: FakeToolBackend
) -> None:
    """List the tasks, then complete the one found by title, then answer: all accepted."""
    openai_server.stream(tool_calls_reply(("call_1", "crm_listTasks", '{"status": "pending"}')))
    openai_server.stream(tool_calls_reply(("call_2", "crm_completeTask", '{"task_id": "task_7"}')))
    openai_server.stream(text_reply("Done, Buy groceries is complete."))
    events = Events()
    done = await engine.run_turn(session, "complete the grocery task", events)
    assert [(name, args) for name, _, args, _ in backend.invocations] == [
        ("crm.listTasks", {"status": "pending"}),
        ("crm.completeTask", {"task_id": "task_7"}),
    ]
    assert [call["round"] for call in done.tool_calls] == [1, 2]
    third = openai_server.requests[2]["messages"]
    assert [m["role"] for m in third][1:] == ["user", "assistant", "tool", "assistant", "tool"]
    assert json.loads(third[3]["content"])[0]["id"] == "task_7"
    assert openai_server.rejections == []
    assert "".join(e["text"] for e in events.of("answer.delta")) == (
        "Done, Buy groceries is complete."
    )


async def test_model_down_fails_the_turn_and_the_next_one_works(
    openai_server: OpenAIServer, engine: Engine, session: Session
) -> None:
    """The model unreachable: a failed turn with an apology; the same session then answers."""
    openai_server.fail(503)
    events = Events()
    first = await engine.run_turn(session, "what do I owe", events)
    assert first.status == "failed"
    assert events.of("error")[0]["code"] == "model_unavailable"
    assert "sorry" in "".join(e["text"] for e in events.of("answer.delta")).lower()
    openai_server.stream(text_reply("Hello again!"))
    second = await engine.run_turn(session, "hello", Events())
    assert second.status == "ok"
    assert openai_server.rejections == []
