"""Recording: what a session's file holds, and that recording off changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

from assistant.engine import EngineConfig
from assistant.errors import ModelUnavailable
from assistant.fakes import EchoNarrator, FakeToolBackend, ScriptedNarrator, ScriptedPlanner, calls
from assistant.recording.format import (
    FORMAT_VERSION,
    DecisionRecord,
    NarrationRecord,
    ToolResultRecord,
    UserRecord,
    read_recording,
)
from assistant.recording.recorder import instrument
from assistant.schema import FinalDecision, PlanRequest, ToolCallsDecision
from assistant.session import Session
from assistant.settings import Settings
from assistant.tools.catalog import Catalog
from tests.recording.conftest import CUSTOMER, RECORDED_NOW, Say, record_conversation
from tests.recording.conversations import APPOINTMENTS, MESSAGES, planner, record_everything


async def test_the_file_holds_header_messages_decisions_narrations_results_and_events(
    tmp_path: Path, catalog: Catalog
) -> None:
    """Every input and output of the session is in the file, exactly as it happened."""
    recording = read_recording(await record_everything(tmp_path, catalog))
    header = recording.header
    assert header.format_version == FORMAT_VERSION
    assert header.backend == "embedded"
    assert header.catalog_digest == catalog.digest
    assert header.customer == CUSTOMER
    assert header.engine["max_tool_calls_per_round"] == 4

    turns = recording.turns()
    assert [t.user.text for t in turns if t.user] == [m.text for m in MESSAGES]
    assert [t.user.message_id for t in turns if t.user] == ["m1", "m2", "m3", "m4", "m5"]

    first = turns[0]
    assert [d.decision for d in first.decisions] == list(planner()._steps[:2])
    assert all(d.now == RECORDED_NOW for d in first.decisions)
    assert [d.round for d in first.decisions] == [1, 2]
    results = {r.result.call.tool_name: r.result for r in first.tool_results}
    assert results["crm.listUpcomingAppointments"].result == APPOINTMENTS
    billing = results["crm.getOpenInvoices"].error
    assert billing is not None and (billing.code, billing.retry_after_s) == ("unavailable", 2.0)
    assert first.narrations[0].pieces == [
        "crm.listUpcomingAppointments: ok. ",
        "crm.getOpenInvoices: unavailable. ",
    ]
    assert first.events[0]["type"] == "turn.started" and first.events[-1]["status"] == "partial"

    confirmation = turns[1].events[-1]["awaiting_confirmation"]
    assert confirmation["tool"] == "crm.deleteTask"
    assert turns[2].decisions == [], "a yes runs the pending call without the planner"
    # The tasks read again first (still as the question named them?), then the delete.
    ran = [r.result.call.tool_name for r in turns[2].tool_results]
    assert [tool for tool in ran if tool != "crm.listTasks"] == ["crm.deleteTask"]
    cancelled = turns[3].tool_results[0].result
    assert cancelled.error is not None and cancelled.error.code == "cancelled"
    assert turns[3].events[-1]["status"] == "cancelled"


async def test_records_of_a_turn_come_in_the_order_they_happened(
    tmp_path: Path, catalog: Catalog
) -> None:
    """User message, then turn.started, decisions and events, tool results before turn.done."""
    path = await record_everything(tmp_path, catalog)
    kinds = [json.loads(line)["kind"] for line in path.read_text().splitlines()]
    first_turn = kinds[1 : kinds.index("event", kinds.index("tool_result")) + 1]
    assert first_turn[:3] == ["user", "event", "decision"]
    assert kinds[0] == "header"
    records = read_recording(path).records
    done = next(
        i for i, r in enumerate(records) if getattr(r, "event", {}).get("type") == "turn.done"
    )
    assert isinstance(records[done - 1], ToolResultRecord)
    assert isinstance(records[0], UserRecord)


async def test_a_planner_failure_is_recorded_as_its_error(tmp_path: Path, catalog: Catalog) -> None:
    """A model that could not be reached leaves its error in the file, not a decision."""
    path = await record_conversation(
        tmp_path,
        catalog,
        ScriptedPlanner(ModelUnavailable("planner timed out")),
        EchoNarrator(),
        FakeToolBackend(),
        [Say("billing please")],
    )
    (turn,) = read_recording(path).turns()
    (decision,) = turn.decisions
    assert decision.decision is None
    assert decision.error is not None
    assert (decision.error.type, decision.error.message) == (
        "ModelUnavailable",
        "planner timed out",
    )
    assert turn.events[-1]["status"] == "failed"


async def test_acknowledgement_pieces_a_planner_streams_are_recorded(
    tmp_path: Path, catalog: Catalog
) -> None:
    """A planner that speaks before its tool calls: the pieces are kept with its decision."""

    async def streams(request: PlanRequest) -> ToolCallsDecision:
        assert request.on_ack is not None
        for piece in ("One moment, ", "checking your billing."):
            await request.on_ack(piece)
        decision = calls("crm.getOpenInvoices", ack="One moment, checking your billing.")
        return decision.model_copy(update={"acknowledgement_streamed": True})

    path = await record_conversation(
        tmp_path,
        catalog,
        ScriptedPlanner(streams, FinalDecision(text="")),
        ScriptedNarrator(["You owe nothing."]),
        FakeToolBackend(),
        [Say("what do I owe?")],
    )
    (turn,) = read_recording(path).turns()
    assert isinstance(turn.decisions[0], DecisionRecord)
    assert turn.decisions[0].ack_pieces == ["One moment, ", "checking your billing."]
    acks = [e["text"] for e in turn.events if e["type"] == "ack.delta"]
    assert acks == ["One moment, ", "checking your billing."]
    assert isinstance(turn.narrations[0], NarrationRecord)
    assert turn.narrations[0].pieces == ["You owe nothing."]


async def test_recording_off_leaves_models_and_events_untouched(
    settings: Settings, catalog: Catalog
) -> None:
    """With no record directory nothing is wrapped and no file is opened."""
    scripted, narrator = ScriptedPlanner(), EchoNarrator()
    wired = instrument(
        scripted, narrator, settings=settings, catalog=catalog, engine=EngineConfig()
    )
    assert wired.planner is scripted and wired.narrator is narrator
    recording = wired.recorder.open(Session(customer=CUSTOMER, tools=catalog.tools))

    async def emit(event: object) -> None:
        return None

    assert recording.wrap_emit(emit) is emit  # type: ignore[arg-type]
    assert not recording.enabled
    recording.close()
