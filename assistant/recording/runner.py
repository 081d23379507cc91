"""Replaying a recording through the real engine and comparing what it sends.

Models `recorded` (the default) answer with the recorded decisions and narrations,
so a difference is the engine's doing (acknowledgements, order, caps, dedup,
chaining, confirmations, statuses). Models `live` are the configured ones running
for real against the recorded tool results: a difference shows what a model or
prompt change does to a real conversation. Either way the engine's clock is the
recorded one, so a recording made on one day replays the same on any later day.

The replay is itself recorded (in memory), which is what `--update` writes back.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from assistant.engine import Engine, EngineConfig
from assistant.models.registry import ModelSet, build_models
from assistant.recording.compare import diff_events, normalise
from assistant.recording.format import (
    Header,
    Recording,
    Turn,
    TurnRecord,
    read_recording,
    write_recording,
)
from assistant.recording.recorder import (
    RecordingNarrator,
    RecordingPlanner,
    RecordSink,
    SessionRecording,
)
from assistant.recording.replay import (
    Note,
    ReplayCallPolicy,
    ReplayNarrator,
    ReplayPlanner,
    ReplayScript,
    ReplayToolBackend,
)
from assistant.schema import Event
from assistant.session import Session
from assistant.settings import Settings
from assistant.tools.catalog import Catalog
from assistant.tools.executor import ToolExecutor

Models = Literal["recorded", "live"]

# A replayed turn needs no real waiting; one still running after this is stuck.
WATCHDOG_S = 10.0


@dataclass(slots=True)
class TurnReport:
    number: int
    text: str
    diff: list[str]
    notes: list[Note]

    @property
    def ok(self) -> bool:
        return not self.diff and not self.notes


@dataclass(slots=True)
class ReplayReport:
    source: str
    turns: list[TurnReport]
    replayed: Recording
    events: int = 0
    infos: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(turn.ok for turn in self.turns)

    @property
    def updatable(self) -> bool:
        """False when the engine needed an input the recording lacks: record it again."""
        return not any(note.unrecorded_input for turn in self.turns for note in turn.notes)

    def render(self) -> str:
        verdict = "PASS" if self.ok else "FAIL"
        lines = [f"{verdict} {self.source} ({len(self.turns)} turns, {self.events} events)"]
        lines += [f"  note: {info}" for info in self.infos]
        for turn in self.turns:
            if turn.ok:
                continue
            lines.append(f"  turn {turn.number} {turn.text!r}:")
            lines += [f"    {line}" for line in turn.diff]
            for note in turn.notes:
                lines += [f"    {line}" for line in f"! {note.text}".splitlines()]
        return "\n".join(lines)


def cancel_point(events: Sequence[dict[str, Any]], catalog: Catalog) -> int | None:
    """How many events a cancelled turn had sent when the cancel came, or None.

    After a cancel the engine only reports calls (reads cancelled, writes in flight
    finishing) and ends the turn, so the cancel came before that tail.
    """
    if not events or events[-1].get("type") != "turn.done":
        return None
    if events[-1].get("status") != "cancelled":
        return None
    point = len(events) - 1
    while point > 1 and _after_cancel(events[point - 1], catalog):
        point -= 1
    return point


def _after_cancel(event: dict[str, Any], catalog: Catalog) -> bool:
    if event.get("type") != "tool.finished":
        return False
    if (event.get("error") or {}).get("code") == "cancelled":
        return True
    tool = catalog.get(str(event.get("tool")))
    return tool is not None and tool.writes


def _engine_config(knobs: dict[str, Any]) -> EngineConfig:
    names = {f.name for f in dataclasses.fields(EngineConfig)}
    return EngineConfig(**{key: value for key, value in knobs.items() if key in names})


def recorded_models(script: ReplayScript, header: Header) -> ModelSet:
    """Stand-ins answering from the recording, with the helpers the recording had."""
    return ModelSet(
        ReplayPlanner(script),
        ReplayNarrator(script),
        ReplayPlanner(script, "follow_up") if header.follow_up else None,
        ReplayNarrator(script, "fallback") if header.fallback_narrator else None,
    )


def configured_models(settings: Settings, catalog: Catalog) -> ModelSet:
    """The models `assistant serve` would run with these settings."""
    return build_models(settings, catalog)


async def replay(
    recording: Recording,
    *,
    catalog: Catalog,
    settings: Settings,
    models: Models = "recorded",
    live_models: ModelSet | None = None,
    source: str = "recording",
) -> ReplayReport:
    """Run every finished turn of `recording` through the engine and compare its events.

    `live_models` replaces the configured models in `live` mode (tests pass fakes).
    """
    header = recording.header
    script = ReplayScript(recording, live=models == "live")
    if models == "recorded":
        chosen = recorded_models(script, header)
    else:
        chosen = live_models or configured_models(settings, catalog)
    follow_up, fallback = chosen.follow_up, chosen.fallback_narrator
    engine = Engine(
        RecordingPlanner(chosen.planner),
        RecordingNarrator(chosen.narrator),
        ToolExecutor(catalog, ReplayToolBackend(script), ReplayCallPolicy()),
        _engine_config(header.engine),
        follow_up=RecordingPlanner(follow_up, "follow_up") if follow_up else None,
        fallback_narrator=RecordingNarrator(fallback, "fallback") if fallback else None,
        clock=script.now,
    )
    customer = header.customer
    session = Session(customer=customer, tools=catalog.tools if customer else ())
    session.remember(*header.history)
    new_header = header.model_copy(
        update={
            "catalog_digest": catalog.digest,
            "backend": header.backend if models == "recorded" else settings.backend,
        }
    )
    written: list[TurnRecord] = []
    recorder = SessionRecording(session, new_header, _collect(written))
    report = ReplayReport(source, [], Recording(new_header, written))
    if header.catalog_digest != catalog.digest:
        report.infos.append(
            f"recorded with tool catalog {header.catalog_digest}, replayed with {catalog.digest}"
        )
    for turn in recording.turns():
        if not turn.finished or turn.user is None:
            report.infos.append(f"turn {turn.number} skipped: it never finished when recorded")
            continue
        script.begin(turn)
        got = await _run_turn(engine, session, turn, recorder, script, catalog)
        script.end()
        report.events += len(turn.events)
        diff = diff_events(normalise(turn.events), normalise(got))
        notes = script.notes.get(turn.number, [])
        report.turns.append(TurnReport(turn.number, turn.user.text, diff, notes))
    recorder.close()
    return report


def _collect(into: list[TurnRecord]) -> RecordSink:
    def sink(record: Header | TurnRecord) -> None:
        if not isinstance(record, Header):
            into.append(record)

    return sink


async def _run_turn(
    engine: Engine,
    session: Session,
    turn: Turn,
    recorder: SessionRecording,
    script: ReplayScript,
    catalog: Catalog,
) -> list[dict[str, Any]]:
    """One turn, cancelled at the recorded point if it was; its events as wire JSON."""
    assert turn.user is not None
    cancel_at = cancel_point(turn.events, catalog)
    got: list[dict[str, Any]] = []
    running: list[Any] = []

    async def sink(event: Event) -> None:
        got.append(event.to_wire())
        if len(got) == cancel_at and running:
            # No await after this: the cancel lands at the turn's next suspension,
            # as a cancel from the socket did when it was recorded.
            running[0].cancel()

    started = engine.start_turn(
        session, turn.user.text, recorder.wrap_emit(sink), message_id=turn.user.message_id
    )
    running.append(started)
    waiting = asyncio.ensure_future(started.wait())
    done, _ = await asyncio.wait({waiting}, timeout=WATCHDOG_S)
    if not done:
        script.note(f"the turn did not finish within {WATCHDOG_S:.0f} s; it was cancelled")
        started.cancel()
    await waiting
    return got


async def replay_file(
    path: Path,
    *,
    catalog: Catalog,
    settings: Settings,
    models: Models = "recorded",
    update: bool = False,
) -> ReplayReport:
    """Replay one file; with `update`, rewrite it when it differs and can be rewritten."""
    recording = read_recording(path)
    report = await replay(
        recording, catalog=catalog, settings=settings, models=models, source=str(path)
    )
    if update and not report.ok:
        if report.updatable:
            write_recording(path, report.replayed)
            report.infos.append("updated: the file now holds the replayed conversation")
        else:
            report.infos.append(
                "not updated: the engine needed inputs the recording lacks; record it again"
            )
    return report
