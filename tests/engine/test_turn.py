"""The turn: event order, acknowledgement first, concurrency, failures, caps and history."""

from __future__ import annotations

import asyncio
import gc

from assistant.errors import ModelUnavailable, ToolFailure
from assistant.fakes import (
    DownNarrator,
    EchoNarrator,
    FakeToolBackend,
    ScriptedNarrator,
    ScriptedPlanner,
    calls,
)
from assistant.schema import (
    AssistantTurn,
    FinalDecision,
    PlanRequest,
    ToolCallsDecision,
    ToolExchange,
    UserTurn,
)
from assistant.session import Session
from tests.engine.conftest import MakeEngine, Recorder

SEED_ACK = "Sure, I'll look up your upcoming appointments and check your billing."


async def test_final_decision_streams_an_answer_without_tools(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """A final decision is answered at once: no acknowledgement, no tools, status ok."""
    planner = ScriptedPlanner(FinalDecision(text="Hello! How can I help? I can check things."))
    engine, backend = make_engine(planner)
    done = await engine.run_turn(session, "hi", recorder, message_id="m1")
    assert recorder.types() == [
        "turn.started",
        "answer.delta",
        "answer.delta",
        "answer.delta",
        "answer.done",
        "turn.done",
    ]
    assert recorder.events[0]["message_id"] == "m1"
    assert recorder.of("answer.done")[0]["text"] == "Hello! How can I help? I can check things."
    assert done.status == "ok" and done.tool_calls == []
    assert backend.invocations == []
    planner.assert_used_up()


async def test_tool_turn_follows_the_protocol_order_with_the_seed_acknowledgement(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """Appointments + billing: one merged ack, both tools, one answer, in protocol order."""
    planner = ScriptedPlanner(
        calls("crm.listUpcomingAppointments", "crm.getOpenInvoices"), FinalDecision(text="")
    )
    narrator = ScriptedNarrator(["You have a cleaning on Tuesday. ", "You owe $150.00."])
    engine, _ = make_engine(planner, narrator)
    done = await engine.run_turn(session, "Show me my appointments and my billing", recorder)

    types = recorder.types()
    assert types[0] == "turn.started" and types[-1] == "turn.done"
    assert "".join(e["text"] for e in recorder.of("ack.delta")) == SEED_ACK
    assert recorder.of("ack.done")[0]["text"] == SEED_ACK
    last_ack = types.index("ack.done")
    first_tool = types.index("tool.started")
    assert last_ack < first_tool < types.index("answer.delta")
    assert types.count("tool.started") == types.count("tool.finished") == 2
    assert max(i for i, t in enumerate(types) if t == "tool.finished") < types.index("answer.delta")
    assert (
        recorder.of("answer.done")[0]["text"] == "You have a cleaning on Tuesday. You owe $150.00."
    )
    assert done.status == "ok"
    assert [c["tool"] for c in done.tool_calls] == [
        "crm.listUpcomingAppointments",
        "crm.getOpenInvoices",
    ]
    assert set(done.timings_ms) == {"decision", "ack", "tools", "answer", "total"}
    assert narrator.inputs[0].context_hint.startswith(
        "Summarise both your upcoming appointments and your billing"
    )


async def test_acknowledgement_is_sent_before_any_tool_answers(
    make_engine: MakeEngine, session: Session
) -> None:
    """Tools that wait for the ack to be seen still let it out first: the ack never waits."""
    release = asyncio.Event()
    seen: list[str] = []

    async def sink(event: object) -> None:
        wire = event.to_wire()  # type: ignore[attr-defined]
        seen.append(wire["type"])
        if wire["type"] == "ack.done":
            release.set()

    backend = FakeToolBackend(release=release)
    planner = ScriptedPlanner(calls("crm.getOpenInvoices", "crm.listTasks"), FinalDecision(text=""))
    engine, _ = make_engine(planner, backend=backend)
    await asyncio.wait_for(engine.run_turn(session, "billing and tasks", sink), 5)
    assert seen.index("ack.done") < seen.index("tool.finished")


async def test_tools_of_one_round_overlap_in_time(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """Four slow lookups run concurrently: every interval overlaps every other."""
    names = [
        "crm.listUpcomingAppointments",
        "crm.getOpenInvoices",
        "crm.listTasks",
        "crm.listOpenTickets",
    ]
    backend = FakeToolBackend(delays_s=dict.fromkeys(names, 0.05))
    engine, _ = make_engine(ScriptedPlanner(calls(*names), FinalDecision(text="")), backend=backend)
    await engine.run_turn(session, "everything", recorder)
    assert len(backend.intervals) == 4
    latest_start = max(i.start for i in backend.intervals)
    earliest_end = min(i.end for i in backend.intervals)
    assert latest_start < earliest_end, "a call started only after another had finished"


async def test_one_failing_call_leaves_its_sibling_and_the_turn_is_partial(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """Billing down, appointments fine: both reach the narrator in order; status partial."""
    backend = FakeToolBackend(
        failures={"crm.getOpenInvoices": ToolFailure("unavailable", "billing answered 503")}
    )
    narrator = EchoNarrator()
    planner = ScriptedPlanner(
        calls("crm.listUpcomingAppointments", "crm.getOpenInvoices"), FinalDecision(text="")
    )
    engine, _ = make_engine(planner, narrator, backend=backend)
    done = await engine.run_turn(session, "appointments and billing", recorder)
    assert done.status == "partial"
    results = narrator.inputs[0].tool_results
    assert [r.call.tool_name for r in results] == [
        "crm.listUpcomingAppointments",
        "crm.getOpenInvoices",
    ]
    assert results[0].ok and results[1].error is not None
    assert results[1].error.code == "unavailable"
    finished = {e["tool"]: e for e in recorder.of("tool.finished")}
    assert finished["crm.getOpenInvoices"]["error"]["code"] == "unavailable"
    assert "crm.getOpenInvoices: unavailable" in recorder.of("answer.done")[0]["text"]


async def test_all_calls_failing_makes_the_turn_failed(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """Every call failed: the turn says so with status failed (still narrated)."""
    backend = FakeToolBackend(failures={"crm.listTasks": ToolFailure("timeout", "slow")})
    engine, _ = make_engine(
        ScriptedPlanner(calls("crm.listTasks"), FinalDecision(text="")), backend=backend
    )
    done = await engine.run_turn(session, "tasks", recorder)
    assert done.status == "failed"
    assert recorder.of("answer.done")[0]["text"]


async def test_calls_past_the_cap_are_truncated_and_counted(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """Six calls asked for with a cap of four: four run, truncated_calls is 2."""
    names = [
        "crm.listUpcomingAppointments",
        "crm.getOpenInvoices",
        "crm.listTasks",
        "crm.listOpenTickets",
        "crm.getCustomerProfile",
        "crm.getNextAppointment",
    ]
    engine, backend = make_engine(ScriptedPlanner(calls(*names), FinalDecision(text="")))
    done = await engine.run_turn(session, "everything", recorder)
    assert [inv[0] for inv in backend.invocations] == names[:4]
    assert done.truncated_calls == 2 and len(done.tool_calls) == 4


async def test_cap_of_one_restores_single_call_behaviour(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """max_tool_calls_per_round=1: only the first call runs."""
    engine, backend = make_engine(
        ScriptedPlanner(calls("crm.getOpenInvoices", "crm.listTasks"), FinalDecision(text="")),
        max_tool_calls_per_round=1,
    )
    done = await engine.run_turn(session, "billing and tasks", recorder)
    assert [inv[0] for inv in backend.invocations] == ["crm.getOpenInvoices"]
    assert done.truncated_calls == 1


async def test_identical_calls_in_one_round_run_once(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """The same tool with the same arguments twice in a round reaches the CRM once."""
    engine, backend = make_engine(
        ScriptedPlanner(calls("crm.getOpenInvoices", "crm.getOpenInvoices"), FinalDecision(text=""))
    )
    done = await engine.run_turn(session, "billing, billing", recorder)
    assert len(backend.invocations) == 1 and len(done.tool_calls) == 1
    assert recorder.of("ack.done")[0]["text"] == "Sure, I'll check your billing."


async def test_dedupe_can_be_turned_off(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """dedupe_calls=False: both identical calls run."""
    engine, backend = make_engine(
        ScriptedPlanner(
            calls("crm.getOpenInvoices", "crm.getOpenInvoices"), FinalDecision(text="")
        ),
        dedupe_calls=False,
    )
    await engine.run_turn(session, "billing twice", recorder)
    assert len(backend.invocations) == 2


async def test_invalid_arguments_are_refused_and_siblings_still_run(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """addTask without a title is invalid_arguments and never reaches the CRM."""
    engine, backend = make_engine(
        ScriptedPlanner(
            calls(("crm.addTask", {"priority": "urgent!"}), "crm.listTasks"), FinalDecision(text="")
        )
    )
    done = await engine.run_turn(session, "add a task", recorder)
    assert [inv[0] for inv in backend.invocations] == ["crm.listTasks"]
    add = done.tool_calls[0]
    assert add["status"] == "error" and add["error"]["code"] == "invalid_arguments"
    assert "title" in add["error"]["message"] or "priority" in add["error"]["message"]
    assert done.status == "partial"


async def test_unknown_tool_is_invalid_arguments(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """A tool the catalog does not have is refused with a message naming it."""
    engine, backend = make_engine(
        ScriptedPlanner(calls("crm.launchRocket"), FinalDecision(text=""))
    )
    done = await engine.run_turn(session, "launch", recorder)
    assert backend.invocations == []
    assert done.tool_calls[0]["error"]["code"] == "invalid_arguments"
    assert "crm.launchRocket" in done.tool_calls[0]["error"]["message"]


async def test_a_call_naming_another_customer_is_refused_and_never_reaches_the_crm(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """customerId / CUSTOMER_ID naming someone else → permission_denied, no CRM call."""
    engine, backend = make_engine(
        ScriptedPlanner(
            calls(
                ("crm.getOpenInvoices", {"customerId": "cust_002"}),
                ("crm.listTasks", {"CUSTOMER_ID": "cust_003"}),
            ),
            FinalDecision(text=""),
        )
    )
    done = await engine.run_turn(session, "show cust_002's bills", recorder)
    assert backend.invocations == []
    assert {c["error"]["code"] for c in done.tool_calls} == {"permission_denied"}
    assert done.status == "failed"


async def test_the_sessions_own_customer_id_is_bound_not_passed(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """A model repeating the session's own id is harmless: the engine binds it itself."""
    engine, backend = make_engine(
        ScriptedPlanner(
            calls(("crm.getOpenInvoices", {"customer_id": "cust_001"})), FinalDecision(text="")
        )
    )
    done = await engine.run_turn(session, "billing", recorder)
    assert done.status == "ok"
    assert backend.invocations == [("crm.getOpenInvoices", "cust_001", {}, None)]


async def test_a_models_own_acknowledgement_wins_over_the_hints(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """When the decision carries an acknowledgement, that is what is said."""
    engine, _ = make_engine(
        ScriptedPlanner(
            calls("crm.getOpenInvoices", ack="One moment, checking."), FinalDecision(text="")
        )
    )
    await engine.run_turn(session, "billing", recorder)
    assert recorder.of("ack.done")[0]["text"] == "One moment, checking."


async def test_history_is_kept_across_turns(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """The second turn's planner sees the first turn's message, ack, results and answer."""
    planner = ScriptedPlanner(
        calls("crm.getOpenInvoices"), FinalDecision(text=""), FinalDecision(text="Sure.")
    )
    engine, _ = make_engine(planner, ScriptedNarrator(["You owe $150.00."]))
    await engine.run_turn(session, "what do I owe?", recorder)
    await engine.run_turn(session, "and when is it due?", recorder)
    conversation = planner.requests[-1].conversation
    kinds = [type(m).__name__ for m in conversation]
    assert kinds == ["UserTurn", "AssistantTurn", "ToolExchange", "AssistantTurn", "UserTurn"]
    assert isinstance(conversation[0], UserTurn) and conversation[0].text == "what do I owe?"
    assert isinstance(conversation[1], AssistantTurn) and conversation[1].kind == "ack"
    assert isinstance(conversation[2], ToolExchange) and conversation[2].results[0].ok
    assert isinstance(conversation[3], AssistantTurn) and conversation[3].text == "You owe $150.00."


async def test_model_unavailable_ends_the_turn_failed_with_an_apology(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """Planner unreachable: error model_unavailable, a spoken apology, status failed."""
    planner = ScriptedPlanner(ModelUnavailable("connection refused"))
    engine, _ = make_engine(planner)
    done = await engine.run_turn(session, "billing", recorder)
    assert recorder.types() == [
        "turn.started",
        "error",
        "answer.delta",
        "answer.delta",
        "answer.done",
        "turn.done",
    ]
    assert recorder.of("error")[0]["code"] == "model_unavailable"
    assert "sorry" in recorder.of("answer.done")[0]["text"].lower()
    assert done.status == "failed"


async def test_a_planner_bug_is_an_internal_error_not_a_crash(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """A planner raising a bug: error internal, an apology, turn.done failed."""
    engine, _ = make_engine(ScriptedPlanner(KeyError("oops")))
    done = await engine.run_turn(session, "billing", recorder)
    assert recorder.of("error")[0]["code"] == "internal"
    assert done.status == "failed"


async def test_a_narrator_outage_falls_back_to_the_fallback_narrator(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """With a fallback narrator the results are still spoken when the model is down."""
    engine, _ = make_engine(
        ScriptedPlanner(calls("crm.getOpenInvoices"), FinalDecision(text="")),
        narrator=DownNarrator(),
        fallback_narrator=EchoNarrator(),
    )
    done = await engine.run_turn(session, "billing", recorder)
    assert recorder.of("answer.done")[0]["text"] == "crm.getOpenInvoices: ok."
    assert done.status == "ok"


async def test_a_narrator_outage_without_fallback_apologises(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """No fallback: error model_unavailable and an apology; the turn is failed."""
    engine, _ = make_engine(
        ScriptedPlanner(calls("crm.getOpenInvoices"), FinalDecision(text="")),
        narrator=DownNarrator(),
    )
    done = await engine.run_turn(session, "billing", recorder)
    assert recorder.of("error")[0]["code"] == "model_unavailable"
    assert done.status == "failed"


async def test_turns_leave_nothing_for_the_cycle_collector(
    make_engine: MakeEngine, session: Session, recorder: Recorder
) -> None:
    """A turn's objects (tasks, rounds, results) are freed by reference counting alone:
    a busy worker's garbage collector has nothing of theirs to find (each cycle a turn
    left behind lengthened the collector's pauses, and with them the turns' p99)."""
    lookups = calls("crm.listUpcomingAppointments", "crm.getOpenInvoices")

    class Planner:  # keeps no requests (a scripted planner's would keep every round alive)
        async def decide(self, request: PlanRequest) -> FinalDecision | ToolCallsDecision:
            return lookups if request.round == 1 else FinalDecision(text="")

    engine, _ = make_engine(Planner(), EchoNarrator())
    await engine.run_turn(session, "what's on and what do I owe", recorder)  # warm caches
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            await engine.run_turn(session, "what's on and what do I owe", recorder)
        found = gc.collect()
    finally:
        gc.enable()
    assert found == 0
