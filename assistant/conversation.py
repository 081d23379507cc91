"""One conversation's life, whatever carries it: the runner every transport shares.

A transport (the websocket protocol, the telephony bridge, and later an
OpenAI-compatible endpoint or another voice platform) only translates frames. It
opens a conversation, hands it the customer's messages, and says where each turn's
events go; the runner does the rest, the same way for everyone:

    conversation = await open_conversation(services, customer_id, frames, transport="ws")
    conversation.start()                        # the worker: one turn at a time
    conversation.submit(Message(text, message_id))
    conversation.cancel(turn_id)                # turn.cancel / barge-in: cooperative
    dropped = await conversation.wind_down(grace_s)   # expiry, lifetime, shutdown
    await conversation.close()                  # always, when the connection is gone

What the runner owns: the session (opened through `Services.open_session`, kept in
the session store between turns, each turn under the session's lock: session_store.py), its
recording (opened, every turn's events wrapped, closed), the demo timelines, the
`sessions` gauge, the queue with one worker, the running turn, how a turn is stopped
(always cooperatively: reads stop, a write in flight finishes, the turn ends
`cancelled`), and the bounded wind-down. What the transport gives it is a `Frames`:
where a turn's events go as it starts, and what to tell the client when the engine
itself failed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

from assistant.engine import Turn
from assistant.errors import StoreUnavailable
from assistant.heard_here import HeardHere
from assistant.heard_state import align_to_heard
from assistant.recording.recorder import SessionRecording
from assistant.resent import answer_again
from assistant.schema import AnswerDelta, AnswerDone, EventSink, TurnDone, TurnStarted
from assistant.schema import Message as HistoryEntry
from assistant.services import Services
from assistant.session import Session

log = logging.getLogger(__name__)

# How long a resume waits for a turn of the session still running elsewhere (a dropped
# socket's write finishing): under the browser widget's wait for session.ready (10 s).
RESUME_WAIT_S = 5.0


@dataclass(frozen=True, slots=True)
class Message:
    """One thing the customer said, as the transport received it."""

    text: str
    message_id: str | None = None
    # What the platform says the customer last heard from us before saying this (its
    # history or transcript); None when it does not say. History is aligned to it.
    heard: str | None = None
    # When it arrived (wall-clock seconds): a "yes" sent before the question it would
    # answer was asked (typed ahead, or from another tab) confirms nothing.
    received_at: float = field(default_factory=time.time)


class Frames(Protocol):
    """The transport's side: where events go, in its own frames."""

    def sink(self, message: Message) -> EventSink | None:
        """Where the events of the turn answering `message` go, asked as it starts;
        None skips the message (the call was handed off meanwhile)."""
        ...

    async def turn_failed(self, message: Message, turn: Turn) -> None:
        """The engine raised (a bug, logged by the runner): tell the client."""
        ...

    async def turn_ended(self, message: Message, turn: Turn, status: str) -> None:
        """After every turn, with its status ("failed" when the engine raised)."""
        ...


class CancelOutcome(Enum):
    CANCELLED = "cancelled"  # the running turn is stopping
    IDLE = "idle"  # no turn was running and none was named
    FINISHED = "finished"  # the named turn ended while the cancel was on its way
    UNKNOWN = "unknown"  # no such turn: the transport says so


class Conversation:
    """One session's turns, one at a time, in the order they were said."""

    def __init__(
        self,
        services: Services,
        session: Session,
        frames: Frames,
        *,
        transport: str,
        recording: SessionRecording | None = None,
        heard_apart: bool = False,
    ) -> None:
        """`heard_apart`: each connection of the session is a listener of its own (the
        websocket's tabs and devices), so references are read against what this one
        heard (assistant.heard_here); a call answered by several workers is one listener."""
        self.session = session
        self._services = services
        self._frames = frames
        self._transport = transport
        self._recording = recording
        # A plain list and a worker task that runs only while messages wait: an idle
        # session holds neither an asyncio.Queue nor a task parked on it (~4 KiB each).
        self._queue: list[Message] = []
        self._outstanding = 0  # accepted, not yet answered: the running one and the queued
        self._turn: Turn | None = None
        self._finished: set[str] = set()
        self._worker: asyncio.Task[None] | None = None
        self._started = False
        self._ending = False
        self._closed = False
        self._gauge = services.metrics.sessions.labels(transport)
        # What this connection heard, when the session is open on others too.
        self._heard = HeardHere.of(session) if heard_apart else None

    # --- the transport's handle -------------------------------------------------------

    @property
    def turn(self) -> Turn | None:
        """The running turn, if any."""
        return self._turn

    @property
    def outstanding(self) -> int:
        """Messages accepted and not yet answered (the running one included)."""
        return self._outstanding

    @property
    def question_waits(self) -> bool:
        """A question of the last turn still waits for the customer's yes or no."""
        return self.session.question_waits(self._services.engine.now().timestamp())

    @property
    def ending(self) -> bool:
        """True once `wind_down` has begun: no new message will run."""
        return self._ending

    async def resume(
        self, session_id: str, customer_id: str | None, *, wait_s: float = RESUME_WAIT_S
    ) -> bool:
        """Continue the stored session `session_id` instead of this fresh one, when the
        store still holds it and it is this customer's; before any message ran only.
        The fresh session is forgotten. False (nothing changes) otherwise."""
        if self._outstanding or self._finished or self._turn is not None:
            return False
        store = self._services.sessions
        try:
            earlier = await store.load(session_id)
        except StoreUnavailable as exc:
            # PROTOCOL.md: a session that cannot be continued leaves the new one standing,
            # never an error; the client hears `resumed: false`.
            log.warning("session %s not resumed: %s", session_id, exc)
            return False
        if earlier is None or earlier.session_id == self.session.session_id:
            return False
        owner = earlier.customer.customer_id if earlier.customer else None
        if customer_id is None or owner != customer_id:
            return False  # another customer's session is never resumed
        # A turn of it may still be running (the dropped socket's, finishing its write):
        # read the session once that turn is over, so the client is told how it ended.
        # Bounded: past `wait_s` the session goes on from what is stored.
        # Bounded too by the store: unreachable now, it goes on from what was read.
        settled = False
        with contextlib.suppress(TimeoutError, StoreUnavailable):
            async with asyncio.timeout(wait_s), store.lock(session_id):
                earlier = await store.load(session_id) or earlier
                settled = True
        with contextlib.suppress(StoreUnavailable):  # the fresh one's TTL ends it anyway
            await store.delete(self.session.session_id)
        self.session = earlier
        if self._heard is not None:
            # What session.ready's last_turn tells, unless a turn was still running.
            self._heard = HeardHere.of(earlier, unsettled=not settled)
        if self._recording is not None:
            self._recording.close()
            self._recording = (
                self._services.recorder.open(earlier) if self._services.recorder else None
            )
        return True

    def start(self) -> None:
        """Start the worker; counted in the `sessions` gauge until `close`."""
        self._gauge.inc()
        self._started = True
        self._wake()

    def submit(self, message: Message) -> None:
        """Queue `message`; it runs after the turns before it."""
        self._outstanding += 1
        self._queue.append(message)
        self._wake()

    def _wake(self) -> None:
        """Start the worker when a message waits and none is running."""
        if not self._started or self._ending or not self._queue:
            return
        if self._worker is None or self._worker.done():
            self._worker = asyncio.create_task(
                self._work(), name=f"{self._transport}-turns-{self.session.session_id}"
            )

    def cancel(self, turn_id: str | None = None) -> CancelOutcome:
        """Stop the running turn (only if it is `turn_id`, when one is named)."""
        turn = self._turn
        if turn_id is not None and (turn is None or turn.turn_id != turn_id):
            return CancelOutcome.FINISHED if turn_id in self._finished else CancelOutcome.UNKNOWN
        if turn is None:
            return CancelOutcome.IDLE
        turn.cancel()
        return CancelOutcome.CANCELLED

    async def wind_down(self, grace_s: float, *, finish_turn: bool = False) -> list[Message]:
        """Stop taking messages, let the running turn end by the usual rules (for at
        most `grace_s`), and hand back the queued messages that will not run. With
        `finish_turn` the running turn is first given `grace_s` to be answered in full,
        and stopped only past it."""
        self._ending = True
        worker = self._worker
        if finish_turn and self._turn is not None and worker is not None:
            await asyncio.wait([worker], timeout=grace_s)
        if self._turn is not None:
            self._turn.cancel()  # cooperative: reads stop, a write in flight finishes
        elif worker is not None:
            worker.cancel()  # idle: nothing to wait for
        if worker is not None:
            await asyncio.wait([worker], timeout=grace_s)
        dropped, self._queue = self._queue, []
        return dropped

    async def close(self) -> None:
        """The connection is gone: stop the running turn and wait until it has ended.

        The wait outlasts a cancellation of our own (a server shutting down, a test
        server dropping the handler): a write in flight is finishing, and the turn's
        end is bounded by its calls' timeouts. Our cancellation is passed on afterwards.
        """
        if self._closed:
            return
        self._closed = True
        self._ending = True
        interrupted = False
        try:
            worker = self._worker
            if self._turn is not None:
                # Stopped through its turn: the worker, waiting on the turn's own task,
                # ends as soon as the turn has (it sees `_closed`).
                self._turn.cancel()
            elif worker is not None:
                worker.cancel()
            if worker is not None:
                while not worker.done():
                    try:
                        await asyncio.wait([worker])
                    except asyncio.CancelledError:
                        interrupted = True
        finally:
            if self._started:
                self._gauge.dec()
            if self._recording is not None:
                self._recording.close()
            # The session stays in the store for the resume window (session.resume).
        if interrupted:
            raise asyncio.CancelledError

    # --- the worker -------------------------------------------------------------------

    async def _work(self) -> None:
        # Until the queue is empty; a message left when ending is handed back by `wind_down`.
        try:
            while self._queue and not self._ending:
                message = self._queue.pop(0)
                try:
                    await self._run(message)
                finally:
                    self._outstanding -= 1
        finally:
            self._worker = None  # idle: the next message starts another

    async def _run(self, message: Message) -> None:
        emit = self._frames.sink(message)
        if emit is None:
            return
        if self._recording is not None:
            emit = self._recording.wrap_emit(emit)
        if self._services.timelines is not None:
            emit = self._services.timelines.wrap_emit(emit, message.text)
        engine, store = self._services.engine, self._services.sessions
        turn: Turn | None = None
        status = "failed"
        try:
            async with store.lock(self.session.session_id):
                latest = await store.latest(self.session)
                if latest is not self.session:
                    # A turn of this session ran on another connection since (a second tab,
                    # a reconnect): this one goes on from what that turn left.
                    self.session = latest
                    if self._recording is not None:
                        self._recording.follow(latest)
                again = answer_again(self.session, message.message_id, message.text)
                if again is not None:
                    # The last message sent again (its answer lost with a dropped socket):
                    # answered as before, nothing run again (assistant/resent.py).
                    log.info("the last message, sent again, is answered as before")
                    turn = await _said_again(emit, message.message_id, again)
                    status = "ok"
                else:
                    question_heard = self._heard is None or self._heard.apply(self.session)
                    self.session.last_message_id = message.message_id
                    if message.heard is not None and align_to_heard(self.session, message.heard):
                        log.info("history aligned to what the platform says was heard")
                    turn = engine.start_turn(
                        self.session,
                        message.text,
                        emit,
                        message_id=message.message_id,
                        received_at=message.received_at,
                        question_heard=question_heard,
                    )
                    self._turn = turn
                    try:
                        # The runner stops a turn cooperatively (`cancel`, `wind_down`, `close`)
                        # and never cancels the worker meanwhile, so the worker waits on the
                        # turn's own task: its end wakes the worker at once (no shield between).
                        try:
                            done = await _ended(turn)
                        finally:
                            if self._closed:
                                # Closed meanwhile: nothing more to tell, whatever the turn's end
                                # (as when the worker itself was cancelled with the connection).
                                raise asyncio.CancelledError
                        if done is None:  # stopped before it began: end it as the engine would
                            done = TurnDone(turn.turn_id, "cancelled", [], 0, None, {})
                            await emit(TurnStarted(turn.turn_id, message.message_id))
                            await emit(done)
                        status = done.status
                    except asyncio.CancelledError:
                        raise
                    except Exception:
                        log.exception("turn %s failed", turn.turn_id)
                        status = "failed"
                        await self._frames.turn_failed(message, turn)
                    finally:
                        self._turn = None
                        self._finished.add(turn.turn_id)
                        if self._heard is not None:
                            self._heard = HeardHere.of(self.session)
                        await store.save(self.session)
        except StoreUnavailable as exc:
            if turn is None:
                # The session could not be locked or read: nothing ran, and the customer
                # hears that, rather than silence or a turn from a copy that may be old.
                log.warning("a message was not acted on: %s", exc)
                turn = await _not_run(emit, message.message_id)
            else:
                # The turn ran and was answered; only its save was lost. This copy is the
                # newest there is, and the next turn goes on from it (store.latest).
                log.warning("turn %s ran but was not saved: %s", turn.turn_id, exc)
        await self._frames.turn_ended(message, turn, status)


# Said when the session store cannot be reached: the message was not acted on.
STORE_DOWN_ANSWER = (
    "Sorry, I can't reach my records of our conversation just now, so I haven't done "
    "anything with that: nothing was changed. Please say it again in a moment."
)


async def _not_run(emit: EventSink, message_id: str | None) -> Turn:
    """A turn that only says the message was not acted on, ended `failed`."""
    turn_id = f"t_{os.urandom(5).hex()}"

    async def say() -> TurnDone:
        await emit(TurnStarted(turn_id, message_id))
        await emit(AnswerDelta(turn_id, STORE_DOWN_ANSWER))
        await emit(AnswerDone(turn_id, STORE_DOWN_ANSWER))
        done = TurnDone(turn_id, "failed", [], 0, None, {})
        await emit(done)
        return done

    turn = Turn(asyncio.create_task(say(), name="turn-not-run"), turn_id)
    await turn.wait()
    return turn


async def _said_again(emit: EventSink, message_id: str | None, text: str) -> Turn:
    """A turn that only gives the last turn's answer again, ended `ok`: nothing runs
    (assistant/resent.py)."""
    turn_id = f"t_{os.urandom(5).hex()}"

    async def say() -> TurnDone:
        await emit(TurnStarted(turn_id, message_id))
        await emit(AnswerDelta(turn_id, text))
        await emit(AnswerDone(turn_id, text))
        done = TurnDone(turn_id, "ok", [], 0, None, {})
        await emit(done)
        return done

    turn = Turn(asyncio.create_task(say(), name="turn-said-again"), turn_id)
    await turn.wait()
    return turn


async def _ended(turn: Turn) -> TurnDone | None:
    """The turn's end. None: the turn was cancelled before its task began (its coroutine
    never ran, so it reports nothing itself). A cancellation of the worker from outside
    the runner reaches the turn's task too; the turn is then waited for, and the
    cancellation goes on."""
    waiting = turn.task
    try:
        return await waiting
    except asyncio.CancelledError:
        current = asyncio.current_task()
        if waiting.cancelled() and (current is None or current.cancelling() == 0):
            return None  # the turn's own task was cancelled, not this worker
        turn.cancel()
        await asyncio.wait([waiting])
        if not waiting.cancelled():
            waiting.exception()  # retrieved: the turn reports its own failures
        raise


async def open_conversation(
    services: Services,
    customer_id: str | None,
    frames: Frames,
    *,
    transport: str,
    trace_id: str = "",
    history: Sequence[HistoryEntry] = (),
    heard_apart: bool = False,
) -> Conversation:
    """A new session for `customer_id` (None: an unknown caller, no tools), with its
    recording open; `start()` it, and `close()` it when the connection is gone.
    `history`: what was said before, when the client holds the conversation (a voice
    platform's messages); the recording keeps it, so the conversation replays."""
    session = await services.open_session(customer_id, trace_id=trace_id)
    session.remember(*history)
    try:
        await services.sessions.save(session)
    except StoreUnavailable as exc:
        # The connection is not refused for it: the session is saved with its first turn,
        # and a message the store stops then is told as not acted on.
        log.warning("a new session is not stored yet: %s", exc)
    recording = services.recorder.open(session) if services.recorder else None
    return Conversation(
        services, session, frames, transport=transport, recording=recording, heard_apart=heard_apart
    )


__all__ = [
    "RESUME_WAIT_S",
    "CancelOutcome",
    "Conversation",
    "Frames",
    "Message",
    "open_conversation",
]
