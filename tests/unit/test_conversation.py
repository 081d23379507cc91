"""The conversation runner on its own: what a new transport gets by translating frames."""

from __future__ import annotations

import asyncio

from assistant.conversation import CancelOutcome, Message, open_conversation
from assistant.engine import Turn
from assistant.fakes import FakeToolBackend, ScriptedNarrator, ScriptedPlanner, calls
from assistant.schema import Event, EventSink, FinalDecision
from tests.fixtures.app import MakeAssistant


class ListFrames:
    """A transport whose 'frames' are (message text, event type) pairs in a list."""

    def __init__(self) -> None:
        self.frames: list[tuple[str, str]] = []
        self.ended: list[tuple[str, str]] = []

    def sink(self, message: Message) -> EventSink:
        async def emit(event: Event) -> None:
            self.frames.append((message.text, str(event.to_wire()["type"])))

        return emit

    async def turn_failed(self, message: Message, turn: Turn) -> None:
        self.frames.append((message.text, "failed"))

    async def turn_ended(self, message: Message, turn: Turn, status: str) -> None:
        self.ended.append((message.text, status))


async def test_a_transport_gets_turns_one_at_a_time_in_order(
    make_assistant: MakeAssistant,
) -> None:
    """Two messages submitted at once run one after the other: every event of the first
    turn comes before any of the second, and each ends once with its status."""
    assistant = await make_assistant(
        planner=ScriptedPlanner(FinalDecision(text="Hi."), FinalDecision(text="Bye.")),
        narrator=ScriptedNarrator(),
        tool_backend=FakeToolBackend(),
    )
    frames = ListFrames()
    conversation = await open_conversation(assistant.services, "cust_001", frames, transport="list")
    conversation.start()
    try:
        conversation.submit(Message("hello"))
        conversation.submit(Message("goodbye"))
        while len(frames.ended) < 2:  # noqa: ASYNC110 - the runner has no event to await
            await asyncio.sleep(0.01)
    finally:
        await conversation.close()
    said = [text for text, _ in frames.frames]
    assert "hello" not in said[said.index("goodbye") :]
    assert frames.frames[0] == ("hello", "turn.started")
    assert frames.frames[-1] == ("goodbye", "turn.done")
    assert frames.ended == [("hello", "ok"), ("goodbye", "ok")]


async def test_cancel_stops_the_running_turn_and_wind_down_returns_the_rest(
    make_assistant: MakeAssistant,
) -> None:
    """A cancel ends the running turn 'cancelled'; winding down hands back the message
    still queued, which never runs; a cancel naming no turn says so."""
    release = asyncio.Event()
    backend = FakeToolBackend(release=release)
    assistant = await make_assistant(
        planner=ScriptedPlanner(calls("crm.listTasks"), FinalDecision(text="")),
        narrator=ScriptedNarrator(["Here."]),
        tool_backend=backend,
    )
    frames = ListFrames()
    conversation = await open_conversation(assistant.services, "cust_001", frames, transport="list")
    conversation.start()
    try:
        conversation.submit(Message("my tasks", "m1"))
        conversation.submit(Message("and my bills", "m2"))
        while not backend.invocations:  # noqa: ASYNC110 - the tool call has begun
            await asyncio.sleep(0.01)
        running = conversation.turn
        assert running is not None
        assert conversation.cancel("t_99") is CancelOutcome.UNKNOWN
        dropped = await conversation.wind_down(grace_s=5)
    finally:
        await conversation.close()
    assert [m.message_id for m in dropped] == ["m2"]
    assert frames.ended == [("my tasks", "cancelled")]
    assert conversation.cancel(running.turn_id) is CancelOutcome.FINISHED
    assert all(text == "my tasks" for text, _ in frames.frames)
