"""Replay: a recorded conversation replays the same; a change shows as a named diff."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from assistant.fakes import EchoNarrator, ScriptedNarrator, ScriptedPlanner, calls
from assistant.recording.format import read_recording
from assistant.recording.runner import ModelSet, replay, replay_file
from assistant.schema import FinalDecision, PlanRequest, ToolCallsDecision
from assistant.settings import Settings
from assistant.tools.catalog import Catalog
from tests.recording.conftest import RECORDED_NOW, Say, record_conversation
from tests.recording.conversations import backend, planner, record_everything

SEED_ACK = "Sure, I'll look up your upcoming appointments and check your billing."


def edit_event(path: Path, turn: int, kind: str, **changes: Any) -> None:
    """Change the first recorded `kind` event of `turn` in the file."""
    lines = path.read_text().splitlines()
    for index, line in enumerate(lines):
        record = json.loads(line)
        if record.get("turn") == turn and record.get("event", {}).get("type") == kind:
            record["event"].update(changes)
            lines[index] = json.dumps(record)
            break
    else:
        raise AssertionError(f"no {kind} in turn {turn}")
    path.write_text("\n".join(lines) + "\n")


async def test_a_recorded_conversation_replays_without_a_difference(
    tmp_path: Path, catalog: Catalog, settings: Settings
) -> None:
    """Partial failure, confirmation, yes, a cancelled turn and a plain answer all replay."""
    path = await record_everything(tmp_path, catalog)
    report = await replay_file(path, catalog=catalog, settings=settings)
    assert report.ok, report.render()
    assert [turn.number for turn in report.turns] == [1, 2, 3, 4, 5]
    assert report.render().startswith(f"PASS {path} (5 turns,")


async def test_one_changed_event_fails_with_a_diff_naming_it(
    tmp_path: Path, catalog: Catalog, settings: Settings
) -> None:
    """An edited acknowledgement: the report names the turn, the event and both texts."""
    path = await record_everything(tmp_path, catalog)
    edit_event(path, 1, "ack.done", text="Sure, one moment.")
    report = await replay_file(path, catalog=catalog, settings=settings)
    assert not report.ok
    text = report.render()
    assert text.startswith(f"FAIL {path}")
    assert "turn 1 'Show me my appointments and my billing':" in text
    assert "(ack.done): text differ" in text
    assert '- recorded: {"type": "ack.done", "round": 1, "text": "Sure, one moment."' in text
    assert f'+ replayed: {{"type": "ack.done", "round": 1, "text": "{SEED_ACK}"' in text
    assert [turn.number for turn in report.turns if not turn.ok] == [1]


async def test_update_rewrites_the_file_and_then_it_passes(
    tmp_path: Path, catalog: Catalog, settings: Settings
) -> None:
    """--update after a deliberate change: the file takes the new events and replays clean."""
    path = await record_everything(tmp_path, catalog)
    edit_event(path, 2, "turn.done", status="failed")
    report = await replay_file(path, catalog=catalog, settings=settings, update=True)
    assert not report.ok
    assert "updated: the file now holds the replayed conversation" in report.render()
    rewritten = read_recording(path).turns()
    assert rewritten[1].events[-1]["status"] == "ok"
    assert rewritten[1].events[-1]["awaiting_confirmation"]["tool"] == "crm.deleteTask"
    again = await replay_file(path, catalog=catalog, settings=settings)
    assert again.ok, again.render()


async def test_a_reworded_waiting_hint_shows_in_the_acknowledgement(
    tmp_path: Path, catalog: Catalog, settings: Settings
) -> None:
    """An operator's catalog change is caught: the ack events differ, naming both texts."""
    path = await record_everything(tmp_path, catalog)
    reworded = Catalog(
        [
            tool.model_copy(update={"waiting_hint": "looking at your invoices"})
            if tool.name == "crm.getOpenInvoices"
            else tool
            for tool in catalog.tools
        ],
        digest="reworded",
    )
    report = await replay_file(path, catalog=reworded, settings=settings)
    text = report.render()
    assert not report.ok
    assert "look at your invoices" in text
    assert f"recorded with tool catalog {catalog.digest}, replayed with reworded" in text


async def test_replay_gives_the_engine_the_recorded_clock(
    tmp_path: Path, catalog: Catalog, settings: Settings
) -> None:
    """Recorded on 2021-03-01, replayed today: live models are given the recorded `now`."""
    path = await record_conversation(
        tmp_path,
        catalog,
        ScriptedPlanner(calls("crm.listTasks"), FinalDecision(text="")),
        EchoNarrator(),
        backend(),
        [Say("my tasks")],
    )
    live = ScriptedPlanner(calls("crm.listTasks"), FinalDecision(text=""))
    report = await replay(
        read_recording(path),
        catalog=catalog,
        settings=settings,
        models="live",
        live_models=ModelSet(live, EchoNarrator()),
    )
    assert report.ok, report.render()
    assert [request.now for request in live.requests] == [RECORDED_NOW, RECORDED_NOW]


async def test_live_models_that_answer_differently_show_in_the_diff(
    tmp_path: Path, catalog: Catalog, settings: Settings
) -> None:
    """A narrator with new wording, against the recorded tool results: the answer differs."""
    path = await record_everything(tmp_path, catalog)
    reworded = ScriptedNarrator(*[["Your appointment is booked; billing is unreachable."]] * 4)
    report = await replay(
        read_recording(path),
        catalog=catalog,
        settings=settings,
        models="live",
        live_models=ModelSet(planner(), reworded),
    )
    (first, *_) = report.turns
    assert "(answer.delta): text differ" in "\n".join(first.diff)
    assert "billing is unreachable" in "\n".join(first.diff)


async def test_a_tool_call_the_recording_lacks_is_named_and_blocks_update(
    tmp_path: Path, catalog: Catalog, settings: Settings
) -> None:
    """A live planner asking for tickets where the recording asked for tasks: named, no update."""
    path = await record_conversation(
        tmp_path,
        catalog,
        ScriptedPlanner(calls("crm.listTasks"), FinalDecision(text="")),
        EchoNarrator(),
        backend(),
        [Say("my tasks")],
    )
    before = path.read_text()

    def other(request: PlanRequest) -> Any:
        return calls("crm.listOpenTickets")

    report = await replay(
        read_recording(path),
        catalog=catalog,
        settings=settings,
        models="live",
        live_models=ModelSet(ScriptedPlanner(other, FinalDecision(text="")), EchoNarrator()),
    )
    assert not report.ok and not report.updatable
    assert "the engine called crm.listOpenTickets {}, which the recording has no result for" in (
        report.render()
    )
    updated = await replay_file(path, catalog=catalog, settings=settings, update=True)
    assert updated.ok and path.read_text() == before


class StreamingPlanner:
    """Hands each call over as a streaming model would, then writes its answer in pieces."""

    async def decide(self, request: PlanRequest) -> FinalDecision | ToolCallsDecision:
        if request.round == 1:
            decision = calls("crm.listUpcomingAppointments", "crm.getOpenInvoices")
            for call in decision.calls:
                await asyncio.sleep(0)
                if request.on_call is not None:
                    await request.on_call(call)
            return decision
        pieces = ["You have two appointments. ", "You owe $150.00."]
        for piece in pieces:
            if request.on_text is not None:
                await request.on_text(piece)
        return FinalDecision(text="".join(pieces))


async def test_calls_started_early_and_a_streamed_answer_replay_the_same(
    tmp_path: Path, catalog: Catalog, settings: Settings
) -> None:
    """The calls a model handed over mid-stream and the answer it streamed are recorded,
    and the replay starts the same calls early and speaks the same pieces."""
    path = await record_conversation(
        tmp_path,
        catalog,
        StreamingPlanner(),
        EchoNarrator(),
        backend(),
        [Say("Show me my appointments and my billing")],
    )
    records = [json.loads(line) for line in path.read_text().splitlines()]
    decisions = [r for r in records if r.get("kind") == "decision"]
    assert decisions[0]["streamed_calls"] == ["c_1", "c_2"]
    assert decisions[1]["streamed_text"] == ["You have two appointments. ", "You owe $150.00."]
    events = [r["event"] for r in records if "event" in r]
    kinds = [e["type"] for e in events]
    # Started mid-stream, announced in PROTOCOL.md's order: after the round's ack.done.
    assert kinds.index("ack.done") < kinds.index("tool.started")
    report = await replay_file(path, catalog=catalog, settings=settings)
    assert report.ok, report.render()
