"""/v1/ws: whole turns through the real app: event order, cancellation, memory."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from assistant.fakes import (
    EchoNarrator,
    FakeToolBackend,
    HangingToolBackend,
    ScriptedNarrator,
    ScriptedPlanner,
    calls,
)
from assistant.schema import AssistantTurn, FinalDecision, UserTurn
from tests.fixtures.app import MakeAssistant

_ABBREVIATIONS = {
    "turn.started": "S",
    "ack.delta": "a",
    "ack.done": "A",
    "tool.started": "t",
    "tool.finished": "T",
    "answer.delta": "n",
    "answer.done": "N",
    "turn.done": "D",
}


def _shape(events: list[dict[str, Any]]) -> str:
    """The event types as one letter each, so that order can be matched by a pattern."""
    return "".join(_ABBREVIATIONS.get(e["type"], "?") for e in events)


async def test_tool_calls_turn_against_the_crm_follows_the_protocol_order(
    make_assistant: MakeAssistant,
) -> None:
    """turn.started, ack.delta… ack.done, tool.started…, tool.finished…, answer.delta…,
    answer.done, turn.done, all with the turn id, for two real CRM lookups."""
    planner = ScriptedPlanner(
        calls("crm.listUpcomingAppointments", "crm.getOpenInvoices"), FinalDecision(text="")
    )
    narrator = ScriptedNarrator(["You have an appointment, ", "and you owe nothing."])
    assistant = await make_assistant(planner=planner, narrator=narrator)
    chat = await assistant.connect("cust_001")
    events = await chat.say("Show me my appointments and my billing", id="m1")

    assert re.fullmatch(r"Sa+Att(TT)n+ND", _shape(events)), _shape(events)
    turn_id = events[0]["turn_id"]
    assert all(e["turn_id"] == turn_id for e in events)
    assert events[0]["message_id"] == "m1"
    ack = next(e for e in events if e["type"] == "ack.done")
    assert ack["text"] == "Sure, I'll look up your upcoming appointments and check your billing."
    assert ack["round"] == 1
    finished = {e["tool"]: e for e in events if e["type"] == "tool.finished"}
    assert set(finished) == {"crm.listUpcomingAppointments", "crm.getOpenInvoices"}
    assert all(e["status"] == "ok" and e["error"] is None for e in finished.values())
    assert events[-2]["text"] == "You have an appointment, and you owe nothing."
    done = events[-1]
    assert done["status"] == "ok"
    assert [c["tool"] for c in done["tool_calls"]] == [
        "crm.listUpcomingAppointments",
        "crm.getOpenInvoices",
    ]
    assert done["truncated_calls"] == 0
    assert done["awaiting_confirmation"] is None
    assert set(done["timings_ms"]) == {"decision", "ack", "tools", "answer", "total"}
    planner.assert_used_up()
    narrator.assert_used_up()


async def test_final_decision_turn_has_no_ack_and_no_tools(make_assistant: MakeAssistant) -> None:
    """A final answer: turn.started, answer.delta…, answer.done, turn.done and nothing else."""
    assistant = await make_assistant(
        planner=ScriptedPlanner(FinalDecision(text="Hello! How can I help?")),
        narrator=ScriptedNarrator(),
        tool_backend=FakeToolBackend(),
    )
    chat = await assistant.connect()
    events = await chat.say("hi")
    assert re.fullmatch(r"Sn+ND", _shape(events)), _shape(events)
    assert events[0]["message_id"] is None
    assert events[-2]["text"] == "Hello! How can I help?"
    assert events[-1]["status"] == "ok"
    assert events[-1]["tool_calls"] == []


async def test_turn_cancel_mid_turn_ends_cancelled_and_the_next_message_works(
    make_assistant: MakeAssistant,
) -> None:
    """turn.cancel while a lookup hangs: turn.done cancelled, then the session answers again."""
    planner = ScriptedPlanner(calls("crm.listTasks"), FinalDecision(text="Still here."))
    assistant = await make_assistant(
        planner=planner,
        narrator=EchoNarrator(),
        tool_backend=FakeToolBackend(release=asyncio.Event()),  # never released
    )
    chat = await assistant.connect()
    await chat.send_message("my tasks")
    started = await chat.next_of("tool.started")
    await chat.cancel(started["turn_id"])
    rest = await chat.events_until("turn.done")
    finished = [e for e in rest if e["type"] == "tool.finished"]
    assert [(e["status"], e["error"]["code"]) for e in finished] == [("error", "cancelled")]
    assert rest[-1]["turn_id"] == started["turn_id"]
    assert rest[-1]["status"] == "cancelled"
    events = await chat.say("are you there?")
    assert events[-1]["status"] == "ok"
    assert events[-2]["text"] == "Still here."
    planner.assert_used_up()


async def test_turn_cancel_without_an_id_stops_the_current_turn(
    make_assistant: MakeAssistant,
) -> None:
    """turn.cancel with no turn_id (barge-in) stops whatever turn is running."""
    assistant = await make_assistant(
        planner=ScriptedPlanner(calls("crm.listTasks")),
        narrator=EchoNarrator(),
        tool_backend=FakeToolBackend(release=asyncio.Event()),
    )
    chat = await assistant.connect()
    await chat.send_message("my tasks")
    await chat.next_of("tool.started")
    await chat.cancel()
    done = await chat.next_of("turn.done")
    assert done["status"] == "cancelled"


async def test_cancel_for_a_turn_that_just_ended_is_ignored(make_assistant: MakeAssistant) -> None:
    """A turn.cancel racing the turn's end is not an error: the turn is simply over."""
    assistant = await make_assistant(
        planner=ScriptedPlanner(FinalDecision(text="Done."), FinalDecision(text="Again.")),
        narrator=ScriptedNarrator(),
        tool_backend=FakeToolBackend(),
    )
    chat = await assistant.connect()
    first = await chat.say("hi")
    await chat.cancel(first[-1]["turn_id"])
    second = await chat.say("hi again")
    assert [e["type"] for e in second if e["type"] == "error"] == []
    assert second[-2]["text"] == "Again."


async def test_closing_the_socket_cancels_the_running_turn(make_assistant: MakeAssistant) -> None:
    """A client that goes away mid-turn: its lookups are cancelled, the session is closed."""
    backend = HangingToolBackend()
    assistant = await make_assistant(
        planner=ScriptedPlanner(calls("crm.listTasks")),
        narrator=EchoNarrator(),
        tool_backend=backend,
    )
    chat = await assistant.connect()
    assert 'active_sessions{transport="ws"} 1.0' in await assistant.metrics_text()
    await chat.send_message("my tasks")
    await backend.started.wait()
    await chat.close()
    await asyncio.wait_for(backend.cancelled.wait(), timeout=5)
    # The session count drops once the handler has wound down.
    while 'active_sessions{transport="ws"} 0.0' not in await assistant.metrics_text():  # noqa: ASYNC110
        await asyncio.sleep(0.01)


async def test_history_is_kept_across_turns(make_assistant: MakeAssistant) -> None:
    """The second turn's planner sees the first turn's message, acknowledgement and answer."""
    planner = ScriptedPlanner(
        calls("crm.listTasks"), FinalDecision(text=""), FinalDecision(text="The first one.")
    )
    assistant = await make_assistant(
        planner=planner,
        narrator=ScriptedNarrator(["You have two tasks."]),
        tool_backend=FakeToolBackend(),
    )
    chat = await assistant.connect()
    first = await chat.say("what are my tasks?")
    ack = next(e["text"] for e in first if e["type"] == "ack.done")
    await chat.say("which one is due first?")
    conversation = planner.requests[-1].conversation
    said = [
        (type(m).__name__, getattr(m, "kind", None), m.text)
        for m in conversation
        if isinstance(m, UserTurn | AssistantTurn)
    ]
    assert said == [
        ("UserTurn", None, "what are my tasks?"),
        ("AssistantTurn", "ack", ack),
        ("AssistantTurn", "answer", "You have two tasks."),
        ("UserTurn", None, "which one is due first?"),
    ]


async def test_two_sessions_of_one_customer_have_separate_histories(
    make_assistant: MakeAssistant,
) -> None:
    """Each connection is its own session: one tab's conversation is not in another's."""
    planner = ScriptedPlanner(FinalDecision(text="One."), FinalDecision(text="Two."))
    assistant = await make_assistant(
        planner=planner, narrator=ScriptedNarrator(), tool_backend=FakeToolBackend()
    )
    first = await assistant.connect("cust_001")
    second = await assistant.connect("cust_001")
    assert first.session_id != second.session_id
    await first.say("first tab")
    await second.say("second tab")
    seen = [m.text for m in planner.requests[-1].conversation if isinstance(m, UserTurn)]
    assert seen == ["second tab"]
