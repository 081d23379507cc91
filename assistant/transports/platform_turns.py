"""Turns answered to whoever asked: the conversation runner's `Frames` for the platforms.

On the websocket every event goes to the one socket. A voice platform asks instead:
each chat completions request, each Retell `response_required`, waits for the turn
answering it. So each message gets its own `TurnStream`, and the runner's events are
routed to the stream of the message they answer:

    stream = frames.open(message_id)
    conversation.submit(Message(text, message_id))
    async for item in stream:          # the turn's events, then its `TurnEnd`
        ...

A stream the platform gave up on (a newer request barged in, the client went away) is
`abandon`ed: its reader stops at once, later events of its turn are dropped, and a
message that had not started yet is skipped by the runner.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Final

from assistant.conversation import Message
from assistant.engine import Turn
from assistant.schema import AckDelta, AnswerDelta, Event, EventSink

# Two failed answers in a row hand the conversation to a person (PLATFORMS.md).
FAILURES_BEFORE_HANDOFF: Final = 2
SORRY: Final = "I'm sorry, something went wrong on my side. Please try that again."


@dataclass(frozen=True, slots=True)
class TurnEnd:
    """The turn is over, with its status. `raised`: the engine itself raised, so nothing
    was answered and the asker is told sorry here; a turn that ends `failed` the usual
    way (its tools all failed, a model was down) has spoken its own honest answer."""

    status: str
    raised: bool = False


class TurnStream:
    """One message's turn as its asker sees it: events in order, then a `TurnEnd`."""

    def __init__(self, message_id: str) -> None:
        self.message_id = message_id
        self.abandoned = False
        self.turn_id: str | None = None
        self._items: asyncio.Queue[Event | TurnEnd | None] = asyncio.Queue()

    def put(self, item: Event | TurnEnd) -> None:
        if not self.abandoned:
            self._items.put_nowait(item)

    def abandon(self) -> None:
        """Nobody listens any more: the reader stops now, the rest is dropped."""
        if not self.abandoned:
            self.abandoned = True
            self._items.put_nowait(None)

    async def __aiter__(self) -> AsyncIterator[Event | TurnEnd]:
        while True:
            item = await self._items.get()
            if item is None or self.abandoned:  # nothing queued is said after a barge-in
                return
            yield item
            if isinstance(item, TurnEnd):
                return


class RoutedFrames:
    """The `Frames` of a platform conversation: each turn's events to its message's stream."""

    def __init__(self) -> None:
        self._streams: dict[str, TurnStream] = {}
        self.failures_in_row = 0

    def open(self, message_id: str) -> TurnStream:
        stream = self._streams[message_id] = TurnStream(message_id)
        return stream

    def sink(self, message: Message) -> EventSink | None:
        stream = self._streams.get(message.message_id or "")
        if stream is None or stream.abandoned:
            self._streams.pop(message.message_id or "", None)
            return None  # superseded before it started: not run at all

        async def emit(event: Event) -> None:
            if stream.turn_id is None:
                stream.turn_id = getattr(event, "turn_id", None)
            stream.put(event)

        return emit

    async def turn_failed(self, message: Message, turn: Turn) -> None:
        stream = self._streams.get(message.message_id or "")
        if stream is not None:
            stream.turn_id = stream.turn_id or turn.turn_id
            stream.put(TurnEnd("failed", raised=True))

    async def turn_ended(self, message: Message, turn: Turn, status: str) -> None:
        if status in ("ok", "partial"):
            self.failures_in_row = 0
        elif status == "failed":
            self.failures_in_row += 1
        stream = self._streams.pop(message.message_id or "", None)
        if stream is not None:
            stream.put(TurnEnd(status))

    def wants_handoff(self) -> bool:
        """Two failed answers in a row: offer a person (once; the count starts again)."""
        if self.failures_in_row >= FAILURES_BEFORE_HANDOFF:
            self.failures_in_row = 0
            return True
        return False


class Spoken:
    """The text a turn says, as pieces: the acknowledgement, then the answer.

    A new part (another round's acknowledgement, the answer) that would run on from
    the last one gets a leading space, so the pieces read as one text.
    """

    def __init__(self) -> None:
        self.text = ""
        self._part: object = None

    def piece(self, event: Event | TurnEnd) -> str | None:
        """The text `event` adds to what is said, or None."""
        if isinstance(event, AckDelta):
            part: object = ("ack", event.round)
            text = event.text
        elif isinstance(event, AnswerDelta):
            part, text = "answer", event.text
        elif isinstance(event, TurnEnd) and event.raised:
            # Only then: after an answer of its own it read twice (was: a failed lookup's
            # honest answer followed by "something went wrong on my side").
            part, text = "sorry", SORRY
        else:
            return None
        return self.say(part, text)

    def say(self, part: object, text: str) -> str | None:
        if not text:
            return None
        joins = part != self._part and self.text and not self.text[-1:].isspace()
        if joins and not text[:1].isspace():
            text = " " + text
        self._part = part
        self.text += text
        return text


__all__ = [
    "FAILURES_BEFORE_HANDOFF",
    "SORRY",
    "RoutedFrames",
    "Spoken",
    "TurnEnd",
    "TurnStream",
]
