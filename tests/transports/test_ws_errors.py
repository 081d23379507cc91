"""/v1/ws: every PROTOCOL.md error code leaves the connection usable; close codes."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from aiohttp import WSMsgType, web

from assistant.errors import ModelUnavailable
from assistant.fakes import FakeToolBackend, ScriptedNarrator, ScriptedPlanner, calls
from assistant.schema import FinalDecision
from assistant.transports import ws
from tests.fixtures.app import AssistantHarness, MakeAssistant, WsConversation


def _greeter(*extra: Any) -> ScriptedPlanner:
    """A planner that answers `extra` steps, then one more final answer ("Still here.")."""
    return ScriptedPlanner(*extra, FinalDecision(text="Still here."))


async def _still_answers(chat: WsConversation) -> None:
    """The proof that the connection stayed open: a following turn succeeds."""
    events = await chat.say("are you there?")
    assert events[-1]["type"] == "turn.done"
    assert events[-1]["status"] == "ok"
    assert [e["text"] for e in events if e["type"] == "answer.done"] == ["Still here."]


async def _assistant(
    make_assistant: MakeAssistant, planner: ScriptedPlanner | None = None, **overrides: Any
) -> AssistantHarness:
    return await make_assistant(
        planner=planner or _greeter(),
        narrator=ScriptedNarrator(),
        tool_backend=FakeToolBackend(),
        **overrides,
    )


@pytest.mark.parametrize(
    ("frame", "named"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "not an array"),
        ('"hello"', "JSON object"),
        ('{"type": "user.shout", "text": "hi"}', "user.shout"),
        ('{"text": "hi"}', "'type'"),
        ('{"type": "user.message"}', "'text' is required"),
        ('{"type": "user.message", "text": 5}', "'text' must be a string"),
        ('{"type": "user.message", "text": "hi", "id": 7}', "'id' must be a string"),
        ('{"type": "user.message", "text": "hi", "mood": "happy"}', "'mood'"),
        ('{"type": "user.message", "text": "   "}', "'text' is empty"),
        ('{"type": "turn.cancel", "turn_id": "t_99"}', "t_99"),
    ],
    ids=[
        "not-json",
        "array",
        "string",
        "unknown-type",
        "no-type",
        "missing-text",
        "text-not-string",
        "id-not-string",
        "extra-field",
        "blank-text",
        "cancel-unknown-turn",
    ],
)
async def test_invalid_message_names_the_problem_and_keeps_the_connection(
    make_assistant: MakeAssistant, frame: str, named: str
) -> None:
    """A malformed frame gets error invalid_message saying what was wrong; talk goes on."""
    assistant = await _assistant(make_assistant)
    chat = await assistant.connect()
    await chat.ws.send_str(frame)
    error = await chat.next_event()
    assert error["type"] == "error"
    assert error["code"] == "invalid_message"
    assert named in error["message"]
    await _still_answers(chat)


async def test_text_too_long_is_refused_and_the_connection_stays(
    make_assistant: MakeAssistant,
) -> None:
    """A message over max_text_chars gets text_too_long (with its id); no turn starts."""
    assistant = await _assistant(make_assistant, max_text_chars=20)
    chat = await assistant.connect()
    await chat.send_message("x" * 21, id="long")
    error = await chat.next_event()
    assert error == {
        "type": "error",
        "code": "text_too_long",
        "message": "the message is 21 characters; the limit is 20",
        "message_id": "long",
    }
    await _still_answers(chat)


async def test_fifth_waiting_message_is_busy_and_the_queue_runs_in_order(
    make_assistant: MakeAssistant,
) -> None:
    """While a turn runs, 4 messages queue and run in order; the 5th waiting gets busy."""
    release = asyncio.Event()
    planner = ScriptedPlanner(
        calls("crm.listTasks"),
        FinalDecision(text=""),
        *(FinalDecision(text=f"Answer to m{n}.") for n in range(2, 6)),
        FinalDecision(text="Still here."),
    )
    assistant = await make_assistant(
        planner=planner,
        narrator=ScriptedNarrator(["Your tasks are fine."]),
        tool_backend=FakeToolBackend(release=release),
    )
    chat = await assistant.connect()
    await chat.send_message("my tasks", id="m1")
    await chat.next_of("tool.started")  # the first turn is running, held in its tool
    for n in range(2, 7):
        await chat.send_message(f"message {n}", id=f"m{n}")
    busy = await chat.next_event()
    assert busy["type"] == "error"
    assert busy["code"] == "busy"
    assert busy["message_id"] == "m6"
    release.set()
    for _ in range(5):
        await chat.events_until("turn.done")
    started = [e["message_id"] for e in chat.events if e["type"] == "turn.started"]
    assert started == ["m1", "m2", "m3", "m4", "m5"]
    answers = [e["text"] for e in chat.events if e["type"] == "answer.done"]
    assert answers == [
        "Your tasks are fine.",
        "Answer to m2.",
        "Answer to m3.",
        "Answer to m4.",
        "Answer to m5.",
    ]
    # Turns never overlap: each starts after the previous one is done.
    kinds = [e["type"] for e in chat.events if e["type"] in ("turn.started", "turn.done")]
    assert kinds == ["turn.started", "turn.done"] * 5
    await _still_answers(chat)
    planner.assert_used_up()


def _rate_window(app: web.Application) -> None:
    # Budgets of "N per 2 s" rather than per minute, so that waiting them out is quick.
    app[ws.WS_TUNING] = ws.WsTuning(rate_period_s=2.0)


async def test_session_rate_limit_refuses_with_retry_after(
    make_assistant: MakeAssistant,
) -> None:
    """Past the session's budget a message gets rate_limited with retry_after_s; honouring
    it, the next message goes through."""
    assistant = await _assistant(
        make_assistant,
        _greeter(FinalDecision(text="One."), FinalDecision(text="Two.")),
        session_messages_per_minute=2,
        configure=_rate_window,
    )
    chat = await assistant.connect()
    assert [e["type"] for e in await chat.say("one")][-1] == "turn.done"
    assert [e["type"] for e in await chat.say("two")][-1] == "turn.done"
    await chat.send_message("three", id="m3")
    error = await chat.next_event()
    assert error["code"] == "rate_limited"
    assert error["message_id"] == "m3"
    assert error["retry_after_s"] == 1.0
    assert 'message_rate_limited_count_total{scope="session"} 1.0' in (
        await assistant.metrics_text()
    )
    await asyncio.sleep(error["retry_after_s"])  # as a well-behaved client would
    await _still_answers(chat)


async def test_customer_rate_limit_is_shared_across_sessions(
    make_assistant: MakeAssistant,
) -> None:
    """A customer's budget covers all their sessions; another customer is unaffected."""
    assistant = await _assistant(
        make_assistant,
        _greeter(FinalDecision(text="One."), FinalDecision(text="Two.")),
        customer_messages_per_minute=2,
        configure=_rate_window,
    )
    first = await assistant.connect("cust_001")
    second = await assistant.connect("cust_001")
    await first.say("one")
    await first.say("two")
    await second.send_message("three")
    error = await second.next_event()
    assert error["code"] == "rate_limited"
    assert "customer" in error["message"]
    assert error["retry_after_s"] == 1.0
    assert 'message_rate_limited_count_total{scope="customer"} 1.0' in (
        await assistant.metrics_text()
    )
    other = await assistant.connect("cust_002")
    await _still_answers(other)


async def test_planner_bug_is_internal_and_the_connection_stays(
    make_assistant: MakeAssistant,
) -> None:
    """A planner raising a bug: error internal for that turn, turn.done failed, talk goes on."""
    assistant = await _assistant(make_assistant, _greeter(RuntimeError("a bug")))
    chat = await assistant.connect()
    events = await chat.say("hello")
    errors = [e for e in events if e["type"] == "error"]
    assert [(e["code"], e["turn_id"]) for e in errors] == [("internal", events[0]["turn_id"])]
    assert events[-1]["status"] == "failed"
    assert "a bug" not in json.dumps(events)  # the bug's details stay in the logs
    await _still_answers(chat)


async def test_a_turn_that_crashes_still_ends_with_turn_done(
    make_assistant: MakeAssistant,
) -> None:
    """A narrator bug that escapes the engine: error internal and turn.done failed."""
    assistant = await make_assistant(
        planner=_greeter(calls("crm.listTasks"), FinalDecision(text="")),
        narrator=ScriptedNarrator(RuntimeError("narrator bug")),
        tool_backend=FakeToolBackend(),
    )
    chat = await assistant.connect()
    events = await chat.say("my tasks")
    turn_id = events[0]["turn_id"]
    assert {"type": "error", "code": "internal", "turn_id": turn_id} in [
        {k: e.get(k) for k in ("type", "code", "turn_id")} for e in events
    ]
    assert events[-1]["turn_id"] == turn_id
    assert events[-1]["status"] == "failed"
    await _still_answers(chat)


async def test_model_unavailable_apologises_and_the_connection_stays(
    make_assistant: MakeAssistant,
) -> None:
    """Planner down: error model_unavailable, a spoken apology, turn.done failed."""
    assistant = await _assistant(make_assistant, _greeter(ModelUnavailable("down")))
    chat = await assistant.connect()
    events = await chat.say("hello")
    assert [e["code"] for e in events if e["type"] == "error"] == ["model_unavailable"]
    answer = next(e["text"] for e in events if e["type"] == "answer.done")
    assert "sorry" in answer.lower()
    assert events[-1]["status"] == "failed"
    await _still_answers(chat)


async def test_oversized_frame_closes_with_1009(make_assistant: MakeAssistant) -> None:
    """A frame over 64 KiB closes the socket with 1009 (message too big)."""
    assistant = await _assistant(make_assistant)
    chat = await assistant.connect()
    await chat.send_message("x" * 65536)
    code, _ = await chat.expect_close()
    assert code == 1009


async def test_binary_frame_closes_with_1003(make_assistant: MakeAssistant) -> None:
    """A binary frame closes the socket with 1003 (unsupported data)."""
    assistant = await _assistant(make_assistant)
    chat = await assistant.connect()
    await chat.ws.send_bytes(b'{"type": "user.message", "text": "hi"}')
    code, reason = await chat.expect_close()
    assert code == 1003
    assert "binary" in reason


async def test_a_client_that_stops_answering_pings_is_disconnected(
    make_assistant: MakeAssistant,
) -> None:
    """The heartbeat pings; a client that never pongs is dropped and its session closed."""
    assistant = await _assistant(make_assistant, heartbeat_s=0.1)
    socket = await assistant.open_ws(
        headers={"Authorization": f"Bearer {assistant.token()}"}, autoping=False
    )
    kinds = []
    while not socket.closed:
        message = await socket.receive(timeout=10)
        kinds.append(message.type)
    assert kinds[0] is WSMsgType.TEXT  # session.ready
    assert WSMsgType.PING in kinds
    # The server's session count drops once its handler has wound down.
    while 'active_sessions{transport="ws"} 0.0' not in await assistant.metrics_text():  # noqa: ASYNC110
        await asyncio.sleep(0.01)
