"""Rounds, confirmations, forced follow-ups and cancellation, on the engine alone."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from assistant.engine import Engine
from assistant.errors import ToolFailure
from assistant.fakes import EchoNarrator, FakeToolBackend, ScriptedPlanner, Step, calls
from assistant.schema import FinalDecision, PlanRequest, ToolCall, ToolCallsDecision, TurnDone
from assistant.session import Session
from assistant.tools.catalog import Catalog
from tests.engine.conftest import MakeEngine, Recorder

TASKS = {
    "tasks": [
        {"id": "task_1", "title": "Buy groceries", "status": "pending"},
        {"id": "task_2", "title": "Renew car insurance", "status": "pending"},
    ]
}


def delete_after_listing(request: PlanRequest) -> ToolCallsDecision:
    assert request.round == 2
    assert request.turn_results[0].result == TASKS
    return ToolCallsDecision(
        calls=(
            ToolCall(call_id="c_2_1", tool_name="crm.deleteTask", arguments={"task_id": "task_1"}),
        )
    )


def tasks_backend() -> FakeToolBackend:
    return FakeToolBackend(
        results={"crm.listTasks": TASKS, "crm.deleteTask": {"deleted": True, "task_id": "task_1"}}
    )


async def ask_to_delete(
    make_engine: MakeEngine,
    session: Session,
    recorder: Recorder,
    *more_steps: Step,
    **config: Any,
) -> tuple[Engine, FakeToolBackend, ScriptedPlanner, TurnDone]:
    """Run 'delete the grocery task' up to its confirmation question."""
    planner = ScriptedPlanner(calls("crm.listTasks"), delete_after_listing, *more_steps)
    engine, backend = make_engine(planner, EchoNarrator(), backend=tasks_backend(), **config)
    done = await engine.run_turn(session, "delete the grocery task", recorder)
    return engine, backend, planner, done


async def test_a_destructive_call_waits_for_confirmation_naming_its_target(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """Delete is not run on the model's word: the turn asks, naming the exact task."""
    _, backend, _, done = await ask_to_delete(make_engine, session, recorder)
    assert [inv[0] for inv in backend.invocations] == ["crm.listTasks"]
    prompt = "Are you sure you want to delete the task 'Buy groceries'?"
    assert done.awaiting_confirmation == {
        "tool": "crm.deleteTask",
        "arguments": {"task_id": "task_1"},
        "prompt": prompt,
        "calls": [{"tool": "crm.deleteTask", "arguments": {"task_id": "task_1"}}],
    }
    assert recorder.of("answer.done")[-1]["text"].endswith(prompt)


@pytest.mark.parametrize("yes", ["yes", "Yeah go ahead", "sure, do it"])
async def test_yes_runs_exactly_the_pending_call(
    make_engine: MakeEngine, session: Session, recorder: Recorder, yes: str
) -> None:
    """The next message meaning yes deletes that task, once, without asking the planner."""
    engine, backend, planner, _ = await ask_to_delete(make_engine, session, recorder)
    done = await engine.run_turn(session, yes, recorder)
    deletes = [inv for inv in backend.invocations if inv[0] == "crm.deleteTask"]
    assert len(deletes) == 1
    assert deletes[0][2] == {"task_id": "task_1"}
    assert deletes[0][3] is not None, "a write carries an idempotency key"
    assert done.status == "ok"
    assert done.awaiting_confirmation is None
    planner.assert_used_up()


async def test_no_drops_the_pending_call(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """'No' answers that nothing was deleted, and nothing is."""
    engine, backend, _, _ = await ask_to_delete(make_engine, session, recorder)
    done = await engine.run_turn(session, "no", recorder)
    assert "crm.deleteTask" not in [inv[0] for inv in backend.invocations]
    assert "won't delete" in recorder.of("answer.done")[-1]["text"]
    assert done.awaiting_confirmation is None
    assert session.pending is None


async def test_anything_else_drops_the_pending_call_and_is_a_new_request(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """Another request instead of yes: the planner handles it; the delete never runs."""
    engine, backend, planner, _ = await ask_to_delete(
        make_engine, session, recorder, calls("crm.getOpenInvoices"), FinalDecision(text="")
    )
    await engine.run_turn(session, "actually, what do I owe?", recorder)
    assert [inv[0] for inv in backend.invocations] == ["crm.listTasks", "crm.getOpenInvoices"]
    assert session.pending is None
    planner.assert_used_up()


async def test_an_expired_confirmation_is_not_applied(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """A 'yes' after the confirmation expired deletes nothing; the planner hears it."""
    now = [datetime.now(UTC)]
    engine, backend, planner, _ = await ask_to_delete(
        make_engine,
        session,
        recorder,
        FinalDecision(text="Yes to what?"),
        confirmation_ttl_s=60,
        clock=lambda: now[0],
    )
    now[0] += timedelta(seconds=61)  # the engine's clock: no real waiting
    await engine.run_turn(session, "yes", recorder)
    assert "crm.deleteTask" not in [inv[0] for inv in backend.invocations]
    assert recorder.of("answer.done")[-1]["text"] == "Yes to what?"
    planner.assert_used_up()


async def test_a_confirmation_belongs_to_its_own_session_only(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """Another session of the same customer saying yes does not run the pending call."""
    engine, backend, _, _ = await ask_to_delete(
        make_engine, session, recorder, FinalDecision(text="Nothing is pending.")
    )
    other = Session(customer=session.customer, tools=session.tools)
    other.pending = session.pending  # as if leaked across sessions
    await engine.run_turn(other, "yes", recorder)
    assert "crm.deleteTask" not in [inv[0] for inv in backend.invocations]


async def test_yes_with_nothing_pending_goes_to_the_planner(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """A stray 'yes' is an ordinary message."""
    engine, backend = make_engine(ScriptedPlanner(FinalDecision(text="Happy to help.")))
    done = await engine.run_turn(session, "yes", recorder)
    assert backend.invocations == []
    assert done.status == "ok"


async def test_calls_past_the_round_limit_are_skipped(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """A planner that keeps asking: round 3 is reported skipped with round_limit."""
    planner = ScriptedPlanner(
        calls("crm.listTasks"),
        calls(("crm.listTasks", {"status": "pending"})),
        calls(("crm.listTasks", {"status": "completed"})),
    )
    narrator = EchoNarrator()
    engine, backend = make_engine(planner, narrator, max_rounds=2)
    done = await engine.run_turn(session, "tasks, tasks, tasks", recorder)
    assert len(backend.invocations) == 2
    assert [c["round"] for c in done.tool_calls] == [1, 2, 3]
    skipped = done.tool_calls[2]
    assert skipped["status"] == "skipped"
    assert skipped["error"]["code"] == "round_limit"
    assert done.status == "partial"
    assert "round_limit" in recorder.of("answer.done")[-1]["text"]
    finished = recorder.of("tool.finished")
    assert len(finished) == len(recorder.of("tool.started")) == 3


async def test_each_round_acknowledges_only_new_hints(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """Round 2 with a new tool gets its own ack; a repeated hint is not spoken again."""
    planner = ScriptedPlanner(
        calls("crm.listTasks"),
        calls(("crm.completeTask", {"task_id": "task_1"}), ("crm.listTasks", {"status": "all"})),
        FinalDecision(text=""),
    )
    engine, _ = make_engine(planner, backend=tasks_backend())
    await engine.run_turn(session, "complete the grocery task", recorder)
    acks = recorder.of("ack.done")
    assert [a["round"] for a in acks] == [1, 2]
    assert acks[1]["text"] == "Now I'll mark that task complete."


async def test_forced_follow_up_acts_when_the_planner_stops_after_a_lookup(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """The model listed tasks and stopped; the engine completes the one asked for."""
    planner = ScriptedPlanner(calls("crm.listTasks"), FinalDecision(text="You have 2 tasks."))

    def follow_up_step(request: PlanRequest) -> ToolCallsDecision:
        return ToolCallsDecision(
            calls=(
                ToolCall(call_id="f_1", tool_name="crm.listTasks", arguments={}),  # already made
                ToolCall(
                    call_id="f_2", tool_name="crm.completeTask", arguments={"task_id": "task_1"}
                ),
            )
        )

    follow_up = ScriptedPlanner(follow_up_step)
    engine, backend = make_engine(planner, backend=tasks_backend(), follow_up=follow_up)
    done = await engine.run_turn(session, "complete the grocery task", recorder)
    assert [inv[0] for inv in backend.invocations] == ["crm.listTasks", "crm.completeTask"]
    assert [(c["tool"], c["round"]) for c in done.tool_calls] == [
        ("crm.listTasks", 1),
        ("crm.completeTask", 2),
    ]
    follow_up.assert_used_up()


async def test_a_failing_second_round_call_keeps_the_first_rounds_results(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """The task vanished between list and complete: not_found, listing still narrated."""
    backend = tasks_backend()
    backend.failures = {"crm.completeTask": ToolFailure("not_found", "no such task")}
    planner = ScriptedPlanner(
        calls("crm.listTasks"),
        calls(("crm.completeTask", {"task_id": "task_1"})),
        FinalDecision(text=""),
    )
    narrator = EchoNarrator()
    engine, _ = make_engine(planner, narrator, backend=backend)
    done = await engine.run_turn(session, "complete the grocery task", recorder)
    assert done.status == "partial"
    assert [r.status for r in narrator.inputs[0].tool_results] == ["ok", "error"]


async def test_cancel_stops_reads_and_ends_the_turn_cancelled(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """turn.cancel during a slow lookup: the call is cancelled, the turn says cancelled."""
    started = asyncio.Event()

    async def sink(event: object) -> None:
        await recorder(event)  # type: ignore[arg-type]
        if recorder.types()[-1] == "tool.started":
            started.set()

    backend = FakeToolBackend(delays_s={"crm.getOpenInvoices": 30})
    engine, _ = make_engine(ScriptedPlanner(calls("crm.getOpenInvoices")), backend=backend)
    turn = engine.start_turn(session, "billing", sink)
    await started.wait()
    turn.cancel()
    done = await asyncio.wait_for(turn.wait(), 5)
    assert done.status == "cancelled"
    assert done.tool_calls[0]["error"]["code"] == "cancelled"
    assert recorder.types()[-1] == "turn.done"
    assert len(recorder.of("tool.finished")) == 1


async def test_cancel_lets_a_write_in_flight_finish_and_reports_it(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """A write already sent completes; its outcome is in turn.done, never lost."""
    started = asyncio.Event()

    async def sink(event: object) -> None:
        await recorder(event)  # type: ignore[arg-type]
        if recorder.types()[-1] == "tool.started" and (
            recorder.of("tool.started")[-1]["tool"] == "crm.addTask"
        ):
            started.set()

    backend = FakeToolBackend(delays_s={"crm.addTask": 0.1, "crm.getOpenInvoices": 30})
    planner = ScriptedPlanner(calls(("crm.addTask", {"title": "Call mom"}), "crm.getOpenInvoices"))
    engine, _ = make_engine(planner, backend=backend)
    turn = engine.start_turn(session, "add call mom and check my bill", sink)
    await started.wait()
    turn.cancel()
    done = await asyncio.wait_for(turn.wait(), 5)
    by_tool = {c["tool"]: c for c in done.tool_calls}
    assert done.status == "cancelled"
    assert by_tool["crm.addTask"]["status"] == "ok"
    assert by_tool["crm.getOpenInvoices"]["error"]["code"] == "cancelled"


async def test_closing_the_session_cancels_the_turn_without_leaking_tasks(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """A hard cancel (socket closed) propagates and leaves no task behind."""
    backend = FakeToolBackend(delays_s={"crm.getOpenInvoices": 30})
    engine, _ = make_engine(ScriptedPlanner(calls("crm.getOpenInvoices")), backend=backend)
    before = asyncio.all_tasks()
    owner = asyncio.create_task(engine.run_turn(session, "billing", recorder))
    await asyncio.sleep(0.05)
    owner.cancel()
    with pytest.raises(asyncio.CancelledError):
        await owner
    await asyncio.sleep(0)
    assert asyncio.all_tasks() - before == set()


async def test_a_confirmed_delete_is_validated_once(
    make_engine: MakeEngine,
    session: Session,
    recorder: Recorder,
    catalog: Catalog,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The delete's arguments are checked against the catalog once, from the question
    to the 'yes' that runs it, not again at every check on the way."""
    checked: list[str] = []
    original = catalog.argument_error

    def spy(name: str, arguments: Mapping[str, Any]) -> str | None:
        checked.append(name)
        return original(name, arguments)

    monkeypatch.setattr(catalog, "argument_error", spy)
    engine, backend, _, _ = await ask_to_delete(
        make_engine, session, recorder, FinalDecision(text="Done.")
    )
    await engine.run_turn(session, "yes", recorder)
    assert "crm.deleteTask" in [inv[0] for inv in backend.invocations]
    assert checked.count("crm.deleteTask") == 1


async def test_a_planner_that_says_its_round_was_the_last_is_not_asked_again(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """Calls marked as the last round: their results go to the narrator at once, with no
    second decision (the script has none: a second call would fail the turn)."""
    reads = ToolCallsDecision(
        calls=(ToolCall(call_id="c_1", tool_name="crm.listTasks"),), last_round=True
    )
    planner = ScriptedPlanner(reads)
    engine, backend = make_engine(planner, EchoNarrator(), backend=tasks_backend())
    done = await engine.run_turn(session, "what's on my list", recorder)
    assert done.status == "ok"
    assert len(planner.requests) == 1
    assert [name for name, *_ in backend.invocations] == ["crm.listTasks"]
    assert recorder.types()[-2:] == ["answer.done", "turn.done"]
