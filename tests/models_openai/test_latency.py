"""Latency with a streaming model: tools start as their calls stream in, the answer does
not wait for the slowest tool, and a model's answer is spoken as it is written.

Proved by structure against the scripted server (real HTTP, the real `openai` client):
a Gate pauses the model's stream until the engine has done what it must do first, and a
held tool answers only once the answer has begun. A Gate that timed out means the
engine waited for the stream's end.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from assistant import guard
from assistant.answer_stream import NOT_RUN
from assistant.engine import Engine, EngineConfig
from assistant.fakes import FakeToolBackend
from assistant.fakes.openai_server import (
    Chunk,
    Gate,
    OpenAIServer,
    content,
    finish,
    fragment,
    text_reply,
    tool_delta,
)
from assistant.models.openai_compat import OpenAINarrator, OpenAIPlanner
from assistant.schema import Event
from assistant.session import Session
from assistant.tools.executor import ToolExecutor
from tests.models_openai.helpers import CATALOG, CUSTOMER

Models = tuple[OpenAIPlanner, OpenAINarrator]
APPOINTMENTS = "crm_listUpcomingAppointments"
BILLING = "crm_getOpenInvoices"


class Events:
    """The turn's events as wire JSON; `on(kind, action)` reacts to an event as it comes."""

    def __init__(self) -> None:
        self.wire: list[dict[str, Any]] = []
        self._reactions: list[tuple[Callable[[dict[str, Any]], bool], Callable[[], None]]] = []

    def on(self, match: Callable[[dict[str, Any]], bool], action: Callable[[], None]) -> None:
        self._reactions.append((match, action))

    async def __call__(self, event: Event) -> None:
        wire = event.to_wire()
        self.wire.append(wire)
        for match, action in self._reactions:
            if match(wire):
                action()

    def index(self, kind: str, **fields: Any) -> int:
        for n, event in enumerate(self.wire):
            if event["type"] == kind and all(event.get(k) == v for k, v in fields.items()):
                return n
        raise AssertionError(f"no {kind} {fields} in {[e['type'] for e in self.wire]}")

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [event for event in self.wire if event["type"] == kind]

    def answer(self) -> str:
        return "".join(event["text"] for event in self.of("answer.delta"))


def call(index: int, call_id: str, name: str, arguments: str = "{}") -> list[Chunk]:
    """One streamed call: its first fragment, then the arguments in pieces."""
    chunks = [tool_delta(fragment(index=index, call_id=call_id, name=name, arguments=""))]
    for start in range(0, len(arguments), 7):
        piece = arguments[start : start + 7]
        chunks.append(tool_delta(fragment(index=index, arguments=piece)))
    return chunks


def when_invoked(backend: FakeToolBackend, tool: str, action: Callable[[], None]) -> None:
    """Run `action` as the backend receives `tool`'s request (the call has started)."""
    backend.on_invoke = lambda name: action() if name == tool else None


def started(call_id: str) -> Callable[[dict[str, Any]], bool]:
    return lambda event: event["type"] == "tool.started" and event["call_id"] == call_id


def answering(event: dict[str, Any]) -> bool:
    return event["type"] == "answer.delta"


@pytest.fixture
def backend() -> FakeToolBackend:
    return FakeToolBackend(
        results={
            "crm.listUpcomingAppointments": {"appointments": []},
            "crm.getOpenInvoices": {"balance": "42.50", "invoices": []},
        }
    )


@pytest.fixture
def make_engine(openai_models: Models, backend: FakeToolBackend) -> Callable[..., Engine]:
    def make(**config: Any) -> Engine:
        planner, narrator = openai_models
        return Engine(planner, narrator, ToolExecutor(CATALOG, backend), EngineConfig(**config))

    return make


@pytest.fixture
def session() -> Session:
    return Session(customer=CUSTOMER, tools=CATALOG.tools)


async def test_a_read_starts_while_the_decision_is_still_streaming(
    openai_server: OpenAIServer,
    make_engine: Callable[..., Engine],
    session: Session,
    backend: FakeToolBackend,
) -> None:
    """The first read reaches the CRM before the model has streamed the second call, after
    the ack.delta naming it; its tool events follow the round's ack.done (PROTOCOL.md)."""
    after_first = Gate(bound_s=5)
    openai_server.stream(
        [
            content("", role=True),
            *call(0, "call_a", APPOINTMENTS),
            after_first,
            *call(1, "call_b", BILLING),
            finish("tool_calls"),
        ]
    )
    openai_server.stream(text_reply("You have no appointments. ", "You owe $42.50."))
    events = Events()
    said_at_start: list[list[str]] = []

    def first_read_started() -> None:
        said_at_start.append([event["text"] for event in events.of("ack.delta")])
        after_first.open()

    when_invoked(backend, "crm.listUpcomingAppointments", first_read_started)
    await make_engine().run_turn(session, "Show me my appointments and my billing", events)
    assert after_first.reached and not after_first.timed_out
    acks = [event["text"] for event in events.of("ack.delta")]
    assert acks[:2] == ["Sure, I'll look up your upcoming appointments", " and check your billing"]
    assert said_at_start == [acks[:1]]  # named before it started, the billing not yet
    assert events.index("ack.done") < events.index("tool.started", call_id="call_a")
    assert events.index("tool.started", call_id="call_a") < events.index(
        "tool.started", call_id="call_b"
    )
    assert events.of("ack.done")[0]["text"] == "".join(acks)
    assert events.of("ack.done")[0]["text"].endswith("check your billing.")
    assert [e["call_id"] for e in events.of("tool.finished")].count("call_a") == 1


async def test_a_write_waits_for_the_end_of_the_decision(
    openai_server: OpenAIServer,
    make_engine: Callable[..., Engine],
    session: Session,
    backend: FakeToolBackend,
) -> None:
    """A task to add is not started on a partial decision, even once its call is whole;
    the read streamed before it is."""
    before_end = Gate(bound_s=5)
    seen_at_gate: list[list[str]] = []
    openai_server.stream(
        [
            content("", role=True),
            *call(0, "call_a", APPOINTMENTS),
            *call(1, "call_w", "crm_addTask", '{"title": "Call the dentist"}'),
            before_end,
            finish("tool_calls"),
        ]
    )
    openai_server.stream(text_reply("Done: the task is added and you have no appointments."))
    events = Events()

    def at_gate() -> None:
        seen_at_gate.append([name for name, *_ in backend.invocations])
        before_end.open()

    when_invoked(backend, "crm.listUpcomingAppointments", at_gate)
    await make_engine().run_turn(session, "Show my appointments and add call the dentist", events)
    assert seen_at_gate == [["crm.listUpcomingAppointments"]]
    assert events.index("tool.started", call_id="call_w") > events.index("ack.done")
    assert [name for name, *_ in backend.invocations].count("crm.addTask") == 1


async def test_the_answer_begins_before_the_slow_tool_finishes(
    openai_server: OpenAIServer,
    make_engine: Callable[..., Engine],
    session: Session,
    backend: FakeToolBackend,
) -> None:
    """With one tool slow, the ready results are spoken while it runs, the answer is
    completed in the same turn when it answers, and no sentence is said twice."""
    billing = asyncio.Event()
    backend.held = {"crm.getOpenInvoices": billing}
    openai_server.stream(
        [
            content("", role=True),
            *call(0, "call_a", APPOINTMENTS),
            *call(1, "call_b", BILLING),
            finish("tool_calls"),
        ]
    )
    openai_server.stream(
        text_reply("You have no upcoming appointments. ", "I'm still checking your billing.")
    )
    openai_server.stream(text_reply("Your balance is $42.50."))
    events = Events()
    events.on(answering, billing.set)
    asked_when_billing_came: list[int] = []
    events.on(
        lambda e: e["type"] == "tool.finished" and e["call_id"] == "call_b",
        lambda: asked_when_billing_came.append(len(openai_server.requests)),
    )
    done = await make_engine(progress_after_s=0.01).run_turn(
        session, "Show me my appointments and my billing", events
    )
    assert events.index("answer.delta") < events.index("tool.finished", call_id="call_b")
    finished_a = events.index("tool.finished", call_id="call_a")
    assert finished_a < events.index("answer.delta")
    answer = events.of("answer.done")
    assert len(answer) == 1
    assert answer[0]["text"] == (
        "You have no upcoming appointments. I'm still checking your billing. "
        "Your balance is $42.50."
    )
    assert events.wire[-1]["type"] == "turn.done" and done.status == "ok"
    # The first part was asked with only the ready result, the second told what was said.
    first, second = openai_server.requests[1], openai_server.requests[2]
    assert "still running (checking your billing)" in first["messages"][0]["content"]
    assert [m["tool_call_id"] for m in first["messages"] if m["role"] == "tool"] == ["call_a"]
    assert "You have no upcoming appointments." in second["messages"][0]["content"]
    assert len(openai_server.requests) == 3  # no third decision: the answer had begun
    # No longer than before: after the slow tool, one model stream, as without this (the
    # round-2 answer); the decision, the fast tool and the first part were all before it.
    assert asked_when_billing_came == [2]


async def test_nothing_is_told_early_when_the_request_asks_for_a_change(
    openai_server: OpenAIServer,
    make_engine: Callable[..., Engine],
    session: Session,
    backend: FakeToolBackend,
) -> None:
    """A lookup that serves an action is not narrated while another read is slow: the
    model decides the action with every result, then answers."""
    slow = asyncio.Event()
    backend.held = {"crm.getOpenInvoices": slow}
    openai_server.stream(
        [
            content("", role=True),
            *call(0, "call_a", APPOINTMENTS),
            *call(1, "call_b", BILLING),
            finish("tool_calls"),
        ]
    )
    openai_server.stream(text_reply("You have no appointment to cancel, and you owe $42.50."))
    events = Events()
    # The slow read answers well past the threshold (ten times it) after the other one.
    loop = asyncio.get_running_loop()
    events.on(started("call_b"), lambda: loop.call_later(0.1, slow.set))
    await make_engine(progress_after_s=0.01).run_turn(
        session, "Cancel my appointment tomorrow and show my billing", events
    )
    assert events.index("tool.finished", call_id="call_b") < events.index("answer.delta")


async def test_a_written_answer_is_spoken_while_the_model_writes_it(
    openai_server: OpenAIServer, make_engine: Callable[..., Engine], session: Session
) -> None:
    """A later round's answer goes out sentence by sentence: the first sentence is spoken
    before the model has streamed the second."""
    mid_answer = Gate(bound_s=5)
    openai_server.stream(
        [content("", role=True), *call(0, "call_b", BILLING), finish("tool_calls")]
    )
    openai_server.stream(
        [
            content("", role=True),
            content("Your balance is "),
            content("$42.50. "),
            mid_answer,
            content("Nothing else is due."),
            finish("stop"),
        ]
    )
    events = Events()
    events.on(answering, mid_answer.open)
    await make_engine().run_turn(session, "What do I owe?", events)
    assert mid_answer.reached and not mid_answer.timed_out
    pieces = [event["text"] for event in events.of("answer.delta")]
    assert pieces == ["Your balance is $42.50. ", "Nothing else is due."]
    assert events.of("answer.done")[0]["text"] == "Your balance is $42.50. Nothing else is due."


async def test_a_claim_in_a_streamed_answer_is_never_spoken(
    openai_server: OpenAIServer, make_engine: Callable[..., Engine], session: Session
) -> None:
    """Each streamed sentence is judged before it goes out: a claimed change no tool made
    is replaced by the not-done line, and nothing after it is said."""
    openai_server.stream(
        [content("", role=True), *call(0, "call_b", BILLING), finish("tool_calls")]
    )
    openai_server.stream(
        text_reply("You owe $42.50. ", "I've cancelled your appointment. ", "Anything else?")
    )
    events = Events()
    await make_engine().run_turn(session, "What do I owe? And cancel tomorrow", events)
    answer = events.of("answer.done")[0]["text"]
    assert answer == f"You owe $42.50. {guard.NOT_DONE}"
    assert "cancelled" not in events.answer()


async def test_an_announcement_is_held_until_the_stream_shows_what_it_was(
    openai_server: OpenAIServer, make_engine: Callable[..., Engine], session: Session
) -> None:
    """Text that announces an action, followed by tool calls, is the next round's
    acknowledgement, never an answer piece; the calls run."""
    openai_server.stream(
        [content("", role=True), *call(0, "call_b", BILLING), finish("tool_calls")]
    )
    openai_server.stream(
        [
            content("", role=True),
            content("Let me also check your appointments. "),
            *call(0, "call_a", APPOINTMENTS),
            finish("tool_calls"),
        ]
    )
    openai_server.stream(text_reply("You owe $42.50 and have no appointments."))
    events = Events()
    await make_engine().run_turn(session, "What do I owe?", events)
    assert [e["text"] for e in events.of("ack.done")][1] == "Let me also check your appointments."
    assert events.index("tool.finished", call_id="call_a") < events.index("answer.delta")
    assert events.of("answer.done")[0]["text"] == "You owe $42.50 and have no appointments."


async def test_with_the_new_behaviour_off_the_order_is_as_before(
    openai_server: OpenAIServer, make_engine: Callable[..., Engine], session: Session
) -> None:
    """Turned off, the acknowledgement is whole before any tool starts (the benchmark's
    'before')."""
    openai_server.stream(
        [
            content("", role=True),
            *call(0, "call_a", APPOINTMENTS),
            *call(1, "call_b", BILLING),
            finish("tool_calls"),
        ]
    )
    openai_server.stream(text_reply("You have no appointments and owe $42.50."))
    events = Events()
    engine = make_engine(start_tools_early=False, progress_after_s=0, stream_answers=False)
    await engine.run_turn(session, "Show me my appointments and my billing", events)
    assert events.index("ack.done") < events.index("tool.started")
    assert events.of("ack.done")[0]["text"] == (
        "Sure, I'll look up your upcoming appointments and check your billing."
    )


async def test_a_turn_cancelled_mid_decision_stops_the_reads_already_started(
    openai_server: OpenAIServer,
    make_engine: Callable[..., Engine],
    session: Session,
    backend: FakeToolBackend,
) -> None:
    """Barge-in while the model is still streaming: the read started early is cancelled,
    reported once, and listed in turn.done."""
    backend.held = {"crm.listUpcomingAppointments": asyncio.Event()}  # never answers
    openai_server.stream(
        [
            content("", role=True),
            *call(0, "call_a", APPOINTMENTS),
            Gate(bound_s=1),  # the model "thinks" until the turn is cancelled
            *call(1, "call_b", BILLING),
            finish("tool_calls"),
        ]
    )
    events = Events()
    turns: list[Any] = []
    when_invoked(backend, "crm.listUpcomingAppointments", lambda: turns[0].cancel())
    turns.append(make_engine().start_turn(session, "Show my appointments and billing", events))
    done = await turns[0].wait()
    assert done.status == "cancelled"
    finished = [e for e in events.of("tool.finished") if e["call_id"] == "call_a"]
    assert len(finished) == 1 and finished[0]["error"]["code"] == "cancelled"
    assert [c["call_id"] for c in done.tool_calls] == ["call_a"]
    assert "call_b" not in [e.get("call_id") for e in events.wire]


async def test_calls_after_a_spoken_answer_are_not_run_and_the_answer_says_so(
    openai_server: OpenAIServer,
    make_engine: Callable[..., Engine],
    session: Session,
    backend: FakeToolBackend,
) -> None:
    """A model that answers, then calls a tool: what was said stands, the call is not
    started (not even a read), and the answer ends by saying the rest was not done."""
    openai_server.stream(
        [content("", role=True), *call(0, "call_b", BILLING), finish("tool_calls")]
    )
    openai_server.stream(
        [
            content("", role=True),
            content("You owe $42.50. "),
            content("Anything else"),
            *call(0, "call_a", APPOINTMENTS),
            finish("tool_calls"),
        ]
    )
    events = Events()
    await make_engine().run_turn(session, "What do I owe?", events)
    assert "call_a" not in [e.get("call_id") for e in events.wire]
    assert [name for name, *_ in backend.invocations] == ["crm.getOpenInvoices"]
    answer = events.of("answer.done")[0]["text"]
    assert answer.startswith("You owe $42.50. Anything else")
    assert answer.endswith(NOT_RUN)


async def test_the_models_own_acknowledgement_comes_first_and_is_the_only_one(
    openai_server: OpenAIServer,
    make_engine: Callable[..., Engine],
    session: Session,
    backend: FakeToolBackend,
) -> None:
    """With text before its calls, the model's words are the acknowledgement: spoken before
    the first read starts, with no waiting hints added, whole in ack.done."""
    after_first = Gate(bound_s=5)
    openai_server.stream(
        [
            content("", role=True),
            content("Sure, let me check both."),
            *call(0, "call_a", APPOINTMENTS),
            after_first,
            *call(1, "call_b", BILLING),
            finish("tool_calls"),
        ]
    )
    openai_server.stream(text_reply("You have no appointments and owe $42.50."))
    events = Events()
    when_invoked(backend, "crm.listUpcomingAppointments", after_first.open)
    await make_engine().run_turn(session, "Show me my appointments and my billing", events)
    assert not after_first.timed_out
    assert [e["text"] for e in events.of("ack.delta")] == ["Sure, let me check both."]
    assert events.index("ack.delta") < events.index("ack.done")
    assert events.index("ack.done") < events.index("tool.started", call_id="call_a")
    assert events.of("ack.done")[0]["text"] == "Sure, let me check both."


async def test_a_pending_question_is_still_asked_when_the_model_answers_in_a_later_round(
    openai_server: OpenAIServer, make_engine: Callable[..., Engine], session: Session
) -> None:
    """A delete held for a yes: the model's later answer is not streamed in its place;
    the answer ends with the question and the turn awaits the confirmation."""
    openai_server.stream(
        [
            content("", role=True),
            *call(0, "call_d", "crm_deleteTask", '{"task_id": "task_7"}'),
            *call(1, "call_b", BILLING),
            finish("tool_calls"),
        ]
    )
    openai_server.stream(text_reply("You owe $42.50. ", "I've deleted that task."))
    openai_server.stream(text_reply("You owe $42.50."))  # the narrator, asked to ask
    events = Events()
    done = await make_engine().run_turn(session, "Delete task 7 and tell me what I owe", events)
    assert done.awaiting_confirmation is not None
    answer = events.of("answer.done")[0]["text"]
    assert answer.endswith(done.awaiting_confirmation["prompt"])
    assert "deleted" not in events.answer()
