"""Recording sessions to JSON Lines: model wrappers and one `SessionRecording` per session.

How it hooks in without the engine or the models knowing: `instrument()` wraps the
planner and narrator once per app; a transport opens one `SessionRecording` per
session and hands the engine `recording.wrap_emit(emit)`. That wrapped sink runs in
the turn's own task, so on `turn.started` it marks the task's context as belonging to
this recording and turn; the model wrappers find it there and write their record.
Tool results are taken from the session history at `turn.done`: the engine keeps
exactly one result per call there, with its payload, error and attempts.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextvars import ContextVar
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, TypeVar

from assistant.engine import EngineConfig
from assistant.models.base import Narrator, Planner
from assistant.recording.format import (
    DecisionRecord,
    EventRecord,
    Header,
    ModelError,
    ModelSource,
    NarrationRecord,
    NarratorSource,
    ToolResultRecord,
    TurnRecord,
    UserRecord,
    dump_record,
)
from assistant.schema import (
    Event,
    EventSink,
    FinalDecision,
    NarratorInput,
    PlanRequest,
    ToolCall,
    ToolCallsDecision,
    ToolExchange,
    TurnDone,
    TurnStarted,
    UserTurn,
)
from assistant.session import Session
from assistant.settings import Settings
from assistant.tools.catalog import Catalog

log = logging.getLogger(__name__)

RecordSink = Callable[[Header | TurnRecord], None]
_M = TypeVar("_M", UserTurn, ToolExchange)


@dataclasses.dataclass(frozen=True, slots=True)
class _Tap:
    recording: SessionRecording
    turn: int


# Set in a turn's task by the recording's event sink on `turn.started`.
_ACTIVE: ContextVar[_Tap | None] = ContextVar("recording_tap", default=None)


class SessionRecording:
    """One session's recording. Disabled (a no-op) when made without a sink."""

    def __init__(self, session: Session, header: Header, sink: RecordSink | None) -> None:
        self._session = session
        self._sink = sink
        self._turn = 0
        self._turn_started = time.perf_counter()
        self._held: list[TurnRecord] = []  # turn.started, until the user message is known
        self._mark = session.next_entry_id  # the first history entry of this turn
        if sink is not None:
            sink(header)

    @property
    def enabled(self) -> bool:
        return self._sink is not None

    @property
    def path(self) -> Path | None:
        """The file being written, when recording to a file."""
        return getattr(self._sink, "path", None)

    def wrap_emit(self, emit: EventSink) -> EventSink:
        """The sink to give the engine: records every event, then passes it on."""
        if self._sink is None:
            return emit

        async def recorded(event: Event) -> None:
            self._on_event(event)
            await emit(event)

        return recorded

    def follow(self, session: Session) -> None:
        """The conversation goes on in `session` (the stored one, after a turn of it ran on
        another connection): tool results are read from its history from now on."""
        self._session = session
        self._mark = session.next_entry_id

    def close(self) -> None:
        """End the recording; a turn still running is left unfinished in the file."""
        self._flush_user()
        sink, self._sink = self._sink, None
        closer = getattr(sink, "close", None)
        if callable(closer):
            closer()

    # --- called by the event sink and the model wrappers ----------------------------

    def _on_event(self, event: Event) -> None:
        wire = event.to_wire()
        if isinstance(event, TurnStarted):
            self._flush_user()
            self._turn += 1
            self._turn_started = time.perf_counter()
            self._mark = self._session.next_entry_id
            self._held = [EventRecord(turn=self._turn, event=wire, at_ms=0.0)]
            _ACTIVE.set(_Tap(self, self._turn))
            return
        self._flush_user()
        if isinstance(event, TurnDone):
            for exchange in self._new_history(ToolExchange):
                for result in exchange.results:
                    self._write(ToolResultRecord(turn=self._turn, result=result))
        at_ms = round((time.perf_counter() - self._turn_started) * 1000, 3)
        self._write(EventRecord(turn=self._turn, event=wire, at_ms=at_ms))

    def _flush_user(self) -> None:
        """Write the turn's user message (the engine remembers it after `turn.started`)."""
        if not self._held:
            return
        held, self._held = self._held, []
        texts = [message.text for message in self._new_history(UserTurn)]
        started = held[0]
        message_id = started.event.get("message_id") if isinstance(started, EventRecord) else None
        self._write(
            UserRecord(turn=self._turn, text=texts[0] if texts else "", message_id=message_id)
        )
        for record in held:
            self._write(record)

    def _new_history(self, kind: type[_M]) -> list[_M]:
        return [m for m in self._session.entries_since(self._mark) if isinstance(m, kind)]

    def _write(self, record: TurnRecord) -> None:
        if self._sink is not None:
            self._sink(record)


def _active() -> _Tap | None:
    tap = _ACTIVE.get()
    if tap is None or not tap.recording.enabled:
        return None
    tap.recording._flush_user()
    return tap


def _model_error(exc: BaseException) -> ModelError:
    return ModelError(type=type(exc).__name__, message=str(exc))


class RecordingPlanner:
    """A planner that writes each decision, exactly as returned, to the active recording."""

    def __init__(self, inner: Planner, source: ModelSource = "planner") -> None:
        self.inner = inner
        self._source: ModelSource = source

    async def decide(self, request: PlanRequest) -> FinalDecision | ToolCallsDecision:
        tap = _active()
        if tap is None:
            return await self.inner.decide(request)
        pieces: list[str] = []
        if request.on_ack is not None:
            streamed = request.on_ack

            async def on_ack(piece: str) -> None:
                pieces.append(piece)
                await streamed(piece)

            request = dataclasses.replace(request, on_ack=on_ack)
        texts: list[str] = []
        handed: list[str] = []
        if request.on_text is not None:
            text_sink = request.on_text

            async def on_text(piece: str) -> None:
                texts.append(piece)
                await text_sink(piece)

            request = dataclasses.replace(request, on_text=on_text)
        if request.on_call is not None:
            call_sink = request.on_call

            async def on_call(call: ToolCall) -> None:
                handed.append(call.call_id)
                await call_sink(call)

            request = dataclasses.replace(request, on_call=on_call)
        record = DecisionRecord(
            turn=tap.turn, source=self._source, round=request.round, now=request.now
        )

        def written(**update: object) -> DecisionRecord:
            update.update(ack_pieces=pieces, streamed_text=texts, streamed_calls=handed)
            return record.model_copy(update=update)

        try:
            decision = await self.inner.decide(request)
        except asyncio.CancelledError:
            tap.recording._write(written(cancelled=True))
            raise
        except Exception as exc:
            tap.recording._write(written(error=_model_error(exc)))
            raise
        tap.recording._write(written(decision=decision))
        return decision


class RecordingNarrator:
    """A narrator that writes the pieces it streamed (and how it ended) to the recording."""

    def __init__(self, inner: Narrator, source: NarratorSource = "narrator") -> None:
        self.inner = inner
        self._source: NarratorSource = source

    async def narrate(self, request: NarratorInput) -> AsyncIterator[str]:
        tap = _active()
        stream = self.inner.narrate(request)
        if tap is None:
            try:
                async for piece in stream:
                    yield piece
            finally:
                await _close(stream)
            return
        pieces: list[str] = []
        ending: dict[str, Any] = {}
        try:
            async for piece in stream:
                pieces.append(piece)
                yield piece
        except (asyncio.CancelledError, GeneratorExit):
            ending = {"cancelled": True}
            raise
        except Exception as exc:
            ending = {"error": _model_error(exc)}
            raise
        finally:
            await _close(stream)
            tap.recording._write(
                NarrationRecord(
                    turn=tap.turn,
                    source=self._source,
                    now=request.now,
                    context_hint=request.context_hint,
                    confirmation_prompt=request.confirmation_prompt,
                    pieces=pieces,
                    **ending,
                )
            )


async def _close(stream: AsyncIterator[str]) -> None:
    aclose = getattr(stream, "aclose", None)
    if aclose is not None:
        await aclose()


class _FileSink:
    """Appends records to a file, flushed per line so a crash keeps what was said."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[str] | None = path.open("a", encoding="utf-8")

    def __call__(self, record: Header | TurnRecord) -> None:
        if self._file is None:
            return
        try:
            self._file.write(dump_record(record) + "\n")
            self._file.flush()
        except OSError as exc:  # a full disk must not break the conversation
            log.warning("recording to %s stopped: %s", self.path, exc)
            self.close()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


class Recorder:
    """Opens a recording per session: into `directory`, or disabled when it is None."""

    def __init__(
        self,
        directory: Path | None,
        *,
        backend: str,
        catalog_digest: str,
        engine: EngineConfig,
        follow_up: bool = False,
        fallback_narrator: bool = False,
    ) -> None:
        self.directory = directory
        self._backend = backend
        self._catalog_digest = catalog_digest
        self._engine = dataclasses.asdict(engine)
        self._follow_up = follow_up
        self._fallback_narrator = fallback_narrator

    def header(self, session: Session) -> Header:
        return Header(
            backend=self._backend,
            catalog_digest=self._catalog_digest,
            customer=session.customer,
            started_at=datetime.now(UTC),
            engine=self._engine,
            follow_up=self._follow_up,
            fallback_narrator=self._fallback_narrator,
            history=tuple(session.history),
        )

    def open(self, session: Session) -> SessionRecording:
        """The session's recording; `wrap_emit` is the identity when recording is off."""
        if self.directory is None:
            return SessionRecording(session, self.header(session), None)
        header = self.header(session)
        customer = session.customer.customer_id if session.customer else "anonymous"
        name = f"{header.started_at:%Y%m%d-%H%M%S}-{customer}-{session.session_id}.jsonl"
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            sink = _FileSink(self.directory / name)
        except OSError as exc:
            log.warning("cannot record session %s: %s", session.session_id, exc)
            return SessionRecording(session, header, None)
        log.info("recording session %s to %s", session.session_id, sink.path)
        return SessionRecording(session, header, sink)


@dataclasses.dataclass(frozen=True, slots=True)
class Instrumented:
    """The models to give the engine, and the recorder for the transports."""

    planner: Planner
    narrator: Narrator
    follow_up: Planner | None
    fallback_narrator: Narrator | None
    recorder: Recorder


def instrument(
    planner: Planner,
    narrator: Narrator,
    *,
    settings: Settings,
    catalog: Catalog,
    engine: EngineConfig,
    follow_up: Planner | None = None,
    fallback_narrator: Narrator | None = None,
) -> Instrumented:
    """Wrap the models for recording when `settings.record_dir` is set; else pass through."""
    directory = settings.resolve(settings.record_dir) if settings.record_dir else None
    recorder = Recorder(
        directory,
        backend=settings.backend,
        catalog_digest=catalog.digest,
        engine=engine,
        follow_up=follow_up is not None,
        fallback_narrator=fallback_narrator is not None,
    )
    if directory is None:
        return Instrumented(planner, narrator, follow_up, fallback_narrator, recorder)
    return Instrumented(
        RecordingPlanner(planner),
        RecordingNarrator(narrator),
        RecordingPlanner(follow_up, "follow_up") if follow_up else None,
        RecordingNarrator(fallback_narrator, "fallback") if fallback_narrator else None,
        recorder,
    )
