"""The conversation runner survives a turn stopped before its task began to run."""

from __future__ import annotations

import asyncio
from typing import Any

from assistant.conversation import Message, open_conversation
from assistant.engine import Turn
from assistant.fakes import FakeToolBackend
from assistant.schema import Event, EventSink, ToolFinished, TurnDone
from tests.fixtures.app import MakeAssistant


class Collect:
    """Frames that keep every event of every turn, and signal each turn's end."""

    def __init__(self) -> None:
        self.events: list[tuple[str, Event]] = []
        self.ended: asyncio.Queue[tuple[str, str]] = asyncio.Queue()

    def sink(self, message: Message) -> EventSink:
        async def emit(event: Event) -> None:
            self.events.append((message.text, event))

        return emit

    async def turn_failed(self, message: Message, turn: Turn) -> None:
        return None

    async def turn_ended(self, message: Message, turn: Turn, status: str) -> None:
        self.ended.put_nowait((message.text, status))


async def test_a_turn_cancelled_before_it_starts_ends_cancelled_and_the_next_runs(
    make_assistant: MakeAssistant,
) -> None:
    """A barge-in landing between the turn's creation and its first step: the turn ends
    `cancelled` with turn.started and turn.done, and the next message is answered."""
    harness = await make_assistant()
    engine = harness.services.engine
    start_turn = engine.start_turn
    first = True

    def cancel_first_at_once(*args: Any, **kwargs: Any) -> Turn:
        nonlocal first
        turn = start_turn(*args, **kwargs)
        if first:
            first = False
            turn.cancel()  # its task has not run a single step yet
        return turn

    engine.start_turn = cancel_first_at_once  # type: ignore[method-assign]
    frames = Collect()
    conversation = await open_conversation(harness.services, "cust_001", frames, transport="t")
    conversation.start()
    try:
        conversation.submit(Message("what do I owe"))
        conversation.submit(Message("how many tasks do I have"))
        ended = [await asyncio.wait_for(frames.ended.get(), 10) for _ in range(2)]
    finally:
        await conversation.close()

    assert ended == [("what do I owe", "cancelled"), ("how many tasks do I have", "ok")]
    first_turn = [event for text, event in frames.events if text == "what do I owe"]
    assert [event.type for event in first_turn] == ["turn.started", "turn.done"]
    assert isinstance(first_turn[-1], TurnDone)
    assert first_turn[-1].status == "cancelled"


async def test_closing_during_a_turn_ends_it_cancelled_and_tells_the_transport_no_more(
    make_assistant: MakeAssistant,
) -> None:
    """The connection going away mid-turn: the read in flight stops, the turn still ends
    `cancelled` with its tool.finished and turn.done, the session keeps the turn, and the
    transport is not told of the turn's end (nobody is listening)."""
    release = asyncio.Event()
    started = asyncio.Event()
    backend = FakeToolBackend(release=release, on_invoke=lambda _name: started.set())
    harness = await make_assistant(tool_backend=backend)
    frames = Collect()
    conversation = await open_conversation(harness.services, "cust_001", frames, transport="t")
    conversation.start()
    conversation.submit(Message("what do I owe"))
    await asyncio.wait_for(started.wait(), 10)

    await asyncio.wait_for(conversation.close(), 10)

    types = [event.type for _, event in frames.events]
    assert types[0] == "turn.started" and types[-1] == "turn.done"
    finished = [event for _, event in frames.events if isinstance(event, ToolFinished)]
    assert [event.status for event in finished] == ["error"]
    assert finished[0].error == {"code": "cancelled", "message": "the request was cancelled"}
    done = frames.events[-1][1]
    assert isinstance(done, TurnDone) and done.status == "cancelled"
    assert frames.ended.empty()
    stored = await harness.services.sessions.load(conversation.session.session_id)
    assert stored is not None
    assert [message.role for message in stored.history][:1] == ["user"]
