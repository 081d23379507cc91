"""The OpenAI-compatible planner over the real `openai` client and an in-process server."""

from __future__ import annotations

import json
import re

import pytest

from assistant.errors import ModelUnavailable
from assistant.fakes.openai_server import (
    Gate,
    OpenAIServer,
    content,
    finish,
    fragment,
    text_reply,
    tool_calls_reply,
    tool_delta,
)
from assistant.models.openai_compat import RAW_ARGUMENTS_KEY, OpenAINarrator, OpenAIPlanner
from assistant.schema import AssistantTurn, FinalDecision, ToolCallsDecision, ToolExchange, UserTurn
from tests.models_openai.helpers import failed, ok, plan_request
from tests.models_openai.shapes import EXPECTED, SHAPES

Models = tuple[OpenAIPlanner, OpenAINarrator]


@pytest.mark.parametrize("shape", SHAPES)
async def test_every_stream_shape_becomes_the_same_decision(
    shape: str, openai_server: OpenAIServer, openai_models: Models
) -> None:
    """Over real HTTP, each server's way of streaming parallel calls gives the same two calls."""
    openai_server.stream(SHAPES[shape]())
    decision = await openai_models[0].decide(plan_request())
    assert isinstance(decision, ToolCallsDecision)
    assert [(call.tool_name, call.arguments) for call in decision.calls] == EXPECTED


async def test_request_offers_every_tool_in_parallel_with_valid_names(
    openai_server: OpenAIServer, openai_models: Models
) -> None:
    """The request streams, offers the catalog as functions, parallel, with no customer id."""
    openai_server.stream(text_reply("Hello!"))
    await openai_models[0].decide(plan_request("hi"))
    body = openai_server.requests[0]
    assert body["stream"] is True
    assert body["model"] == "test-model"
    assert body["tool_choice"] == "auto"
    assert body["parallel_tool_calls"] is True
    names = [tool["function"]["name"] for tool in body["tools"]]
    assert "crm_getOpenInvoices" in names
    assert all(re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", name) for name in names)
    assert "customer" not in json.dumps([tool["function"]["parameters"] for tool in body["tools"]])


async def test_system_prompt_gives_the_customers_local_date_and_rules(
    openai_server: OpenAIServer, openai_models: Models
) -> None:
    """The model is told today's date in the customer's timezone and that ids are bound."""
    openai_server.stream(text_reply("Hello!"))
    await openai_models[0].decide(plan_request("hi"))
    system = openai_server.requests[0]["messages"][0]
    assert system["role"] == "system"
    assert "Tuesday, June 3, 2025" in system["content"]
    assert "2025-06-03T14:05-04:00" in system["content"]
    assert "customer id is never a parameter" in system["content"]
    assert "in parallel" in system["content"]
    assert openai_server.requests[0]["messages"][-1] == {"role": "user", "content": "hi"}


async def test_plain_text_is_a_final_answer_and_never_an_acknowledgement(
    openai_server: OpenAIServer, openai_models: Models
) -> None:
    """A reply without tool calls is the answer; nothing goes out as an acknowledgement."""
    acks: list[str] = []

    async def on_ack(piece: str) -> None:
        acks.append(piece)

    openai_server.stream(text_reply("You're welcome", ", Ada!"))
    decision = await openai_models[0].decide(plan_request("thanks", on_ack=on_ack))
    assert decision == FinalDecision(text="You're welcome, Ada!")
    assert acks == []


async def test_text_before_tool_calls_streams_as_the_acknowledgement(
    openai_server: OpenAIServer, openai_models: Models
) -> None:
    """The model's own words before its calls reach on_ack while it still streams; words
    after the calls began are not spoken as the acknowledgement (they come before any
    tool ran)."""
    gate = Gate()
    acks: list[str] = []

    async def on_ack(piece: str) -> None:
        acks.append(piece)
        gate.open()  # the server is paused mid-stream until this runs

    openai_server.stream(
        [
            content("", role=True),
            content("Sure, let me "),
            content("check your billing"),
            tool_delta(fragment(index=0, call_id="call_a", name="crm_getOpenInvoices")),
            gate,
            content(" and appointments."),
            tool_delta(fragment(index=0, arguments="{}")),
            finish("tool_calls"),
        ]
    )
    decision = await openai_models[0].decide(plan_request(on_ack=on_ack))
    assert gate.reached
    assert not gate.timed_out, "on_ack was not called before the stream went on"
    assert acks == ["Sure, let me check your billing"]
    assert isinstance(decision, ToolCallsDecision)
    assert decision.acknowledgement == "Sure, let me check your billing"
    assert decision.acknowledgement_streamed is True
    assert [call.tool_name for call in decision.calls] == ["crm.getOpenInvoices"]


async def test_no_text_means_no_acknowledgement_so_the_hints_speak(
    openai_server: OpenAIServer, openai_models: Models
) -> None:
    """Calls with no preamble leave the acknowledgement empty for the engine's hint merger."""
    acks: list[str] = []

    async def on_ack(piece: str) -> None:
        acks.append(piece)

    openai_server.stream(tool_calls_reply(("call_a", "crm_getOpenInvoices", "{}")))
    decision = await openai_models[0].decide(plan_request(on_ack=on_ack))
    assert isinstance(decision, ToolCallsDecision)
    assert decision.acknowledgement is None
    assert decision.acknowledgement_streamed is False
    assert acks == []


async def test_bad_calls_are_returned_for_the_engine_to_answer(
    openai_server: OpenAIServer, openai_models: Models
) -> None:
    """Broken JSON, an unknown tool and another customer's id all come back, siblings intact."""
    openai_server.stream(
        tool_calls_reply(
            ("call_bad", "crm_listTasks", '{"status": "pend'),
            ("call_unknown", "crm_getWeather", "{}"),
            ("call_other", "crm_getOpenInvoices", '{"customer_id": "cust_002"}'),
            ("call_good", "crm_listUpcomingAppointments", "{}"),
        )
    )
    decision = await openai_models[0].decide(plan_request())
    assert isinstance(decision, ToolCallsDecision)
    assert [(call.call_id, call.tool_name, call.arguments) for call in decision.calls] == [
        ("call_bad", "crm.listTasks", {RAW_ARGUMENTS_KEY: '{"status": "pend'}),
        ("call_unknown", "crm_getWeather", {}),
        ("call_other", "crm.getOpenInvoices", {"customer_id": "cust_002"}),
        ("call_good", "crm.listUpcomingAppointments", {}),
    ]


async def test_more_calls_than_the_cap_are_all_returned(
    openai_server: OpenAIServer, openai_models: Models
) -> None:
    """The planner does not cut: the engine truncates past the cap and counts what it cut."""
    names = ["crm_getCustomerProfile", "crm_listUpcomingAppointments", "crm_getOpenInvoices"]
    names += ["crm_listTasks", "crm_listOpenTickets", "crm_getNextAppointment"]
    openai_server.stream(tool_calls_reply(*((f"call_{i}", n, "{}") for i, n in enumerate(names))))
    decision = await openai_models[0].decide(plan_request())
    assert isinstance(decision, ToolCallsDecision)
    assert len(decision.calls) == 6


async def test_second_round_sees_the_first_rounds_calls_answered(
    openai_server: OpenAIServer, openai_models: Models
) -> None:
    """Round 2 sends round 1's calls each with its tool message; the server accepts the chain."""
    tasks = [{"id": "task_7", "title": "Buy groceries", "status": "pending"}]
    conversation = (
        UserTurn(text="Complete the grocery task and check my billing"),
        AssistantTurn(kind="ack", text="Sure, one moment."),
        ToolExchange(
            round=1,
            results=(
                ok("call_1", "crm.listTasks", tasks, status="pending"),
                failed("call_2", "crm.getOpenInvoices", "timeout", "billing did not answer"),
            ),
        ),
    )
    openai_server.stream(tool_calls_reply(("call_3", "crm_completeTask", '{"task_id": "task_7"}')))
    decision = await openai_models[0].decide(plan_request(conversation=conversation, round_no=2))
    assert isinstance(decision, ToolCallsDecision)
    assert [(c.tool_name, c.arguments) for c in decision.calls] == [
        ("crm.completeTask", {"task_id": "task_7"})
    ]
    assert openai_server.rejections == []
    messages = openai_server.requests[0]["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool", "tool"]
    assert messages[2]["content"] == "Sure, one moment."
    assert [c["function"]["name"] for c in messages[2]["tool_calls"]] == [
        "crm_listTasks",
        "crm_getOpenInvoices",
    ]
    assert json.loads(messages[3]["content"]) == tasks
    assert json.loads(messages[4]["content"])["error"]["code"] == "timeout"
    assert "round 2" in messages[0]["content"]


async def test_empty_first_reply_is_a_model_failure(
    openai_server: OpenAIServer, openai_models: Models
) -> None:
    """A model that says nothing and calls nothing is reported unavailable, not silence."""
    openai_server.stream([content("", role=True), finish("stop")])
    with pytest.raises(ModelUnavailable, match="neither text nor tool calls"):
        await openai_models[0].decide(plan_request())


async def test_empty_later_reply_lets_the_engine_narrate(
    openai_server: OpenAIServer, openai_models: Models
) -> None:
    """In a later round an empty reply means done: an empty final decision, not an error."""
    conversation = (
        UserTurn(text="my tasks"),
        ToolExchange(round=1, results=(ok("call_1", "crm.listTasks", []),)),
    )
    openai_server.stream([content("", role=True), finish("stop")])
    decision = await openai_models[0].decide(plan_request(conversation=conversation, round_no=2))
    assert decision == FinalDecision(text="")
