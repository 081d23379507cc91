"""Engine overhead: 2,000 turns of 4 instant tool calls, no transport, no network.

    python -m bench.engine [--turns 2000] [--json]

Prints the per-turn orchestration overhead (planner, narrator and tools cost nothing
here, so all that is measured is the engine), beside a hand-written minimal turn doing
the same work (decide, one merged acknowledgement, four concurrent calls, narrate, the
same events) and the ratio of the two. The engine's turn asks the planner a second time
after the results, as it asks a model; it is also timed with a planner that says at once
that its calls are its last round (one decision, as in the minimal turn; the embedded
planner does so for lookups). And a parallel check: the median turn with each
of the 4 tools sleeping 50 ms, beside the same turn run one call at a time.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import statistics
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from assistant.acknowledge import ack_pieces
from assistant.engine import Engine, EngineConfig
from assistant.fakes import FakeToolBackend
from assistant.schema import (
    AckDelta,
    AckDone,
    AnswerDelta,
    AnswerDone,
    CustomerContext,
    Event,
    FinalDecision,
    NarratorInput,
    PlanRequest,
    ToolCall,
    ToolCallsDecision,
    ToolDefinition,
    ToolFinished,
    ToolResult,
    ToolStarted,
    TurnDone,
    TurnStarted,
)
from assistant.session import Session
from assistant.tools.catalog import Catalog, load_catalog
from assistant.tools.executor import ToolExecutor

CATALOG = Path(__file__).resolve().parents[1] / "config" / "tools.yaml"
TOOLS = (
    "crm.listUpcomingAppointments",
    "crm.getOpenInvoices",
    "crm.listTasks",
    "crm.listOpenTickets",
)
DECISION = ToolCallsDecision(
    calls=tuple(ToolCall(call_id=f"c_{i}", tool_name=name) for i, name in enumerate(TOOLS))
)
DONE = FinalDecision(text="")
CUSTOMER = CustomerContext(customer_id="cust_001")


LAST_ROUND = DECISION.model_copy(update={"last_round": True})


class BenchPlanner:
    """Four calls in round 1, then done: the shape of a four-intent request. Asked again
    after the results (as a model is), or, with `says_done`, saying at once that the
    calls are its last round (as the embedded planner does for lookups)."""

    def __init__(self, *, says_done: bool = False) -> None:
        self._first = LAST_ROUND if says_done else DECISION

    async def decide(self, request: PlanRequest) -> FinalDecision | ToolCallsDecision:
        return self._first if request.round == 1 else DONE


class BenchNarrator:
    async def narrate(self, request: NarratorInput) -> AsyncIterator[str]:
        yield "Here is everything. "
        yield "That's all."


async def _sink(event: Event) -> None:
    return None


def _engine(
    delay_s: float, *, sequential: bool = False, says_done: bool = False
) -> tuple[Engine, Session]:
    catalog = load_catalog(CATALOG)
    backend = FakeToolBackend(delays_s=dict.fromkeys(TOOLS, delay_s) if delay_s else {})
    config = EngineConfig(max_tool_calls_per_round=1 if sequential else 4, max_rounds=8)
    planner = BenchPlanner(says_done=says_done)
    engine = Engine(planner, BenchNarrator(), ToolExecutor(catalog, backend), config)
    session = Session(customer=CustomerContext(customer_id="cust_001"), tools=catalog.tools)
    return engine, session


async def _turn_times(engine: Engine, session: Session, turns: int) -> list[float]:
    times = []
    for _ in range(turns):
        session.history.clear()
        started = time.perf_counter()
        await engine.run_turn(session, "Give me everything", _sink)
        times.append(time.perf_counter() - started)
    return times


async def _minimal_turn(
    planner: BenchPlanner, narrator: BenchNarrator, backend: FakeToolBackend, catalog: Catalog
) -> None:
    """The same turn written by hand: no policies, no checks, no bookkeeping beyond the
    events a client needs. What the engine costs beyond this is its own overhead."""
    emit = _sink
    turn_id = "t_1"
    await emit(TurnStarted(turn_id, None))
    request = PlanRequest(
        conversation=(), tools=catalog.tools, customer=CUSTOMER, now=datetime.now(UTC), round=1
    )
    decision = await planner.decide(request)
    assert isinstance(decision, ToolCallsDecision)
    tools = [catalog.get(call.tool_name) for call in decision.calls]
    pieces = ack_pieces([tool.waiting_hint for tool in tools if tool is not None])
    for piece in pieces:
        await emit(AckDelta(turn_id, 1, piece))
    await emit(AckDone(turn_id, 1, "".join(pieces)))
    for call in decision.calls:
        await emit(ToolStarted(turn_id, 1, call.call_id, call.tool_name, call.arguments))

    async def run(call: ToolCall, tool: ToolDefinition | None) -> ToolResult:
        assert tool is not None
        result = await backend.invoke(tool, "cust_001", {}, idempotency_key=None, trace_id="t")
        await emit(ToolFinished(turn_id, 1, call.call_id, call.tool_name, "ok", None, 0, 1))
        return ToolResult(call=call, status="ok", result=result)

    results = await asyncio.gather(*(run(c, t) for c, t in zip(decision.calls, tools, strict=True)))
    answer = []
    async for piece in narrator.narrate(
        NarratorInput(
            user_message="Give me everything", tool_results=tuple(results), context_hint=""
        )
    ):
        answer.append(piece)
        await emit(AnswerDelta(turn_id, piece))
    await emit(AnswerDone(turn_id, "".join(answer)))
    calls = [{"call_id": r.call.call_id, "tool": r.call.tool_name, "status": "ok"} for r in results]
    await emit(TurnDone(turn_id, "ok", calls, 0, None, {}))


_MINIMAL_CATALOG = load_catalog(CATALOG)
# One backend across every block, as the engine's: both keep a record of each call.
_MINIMAL_BACKEND = FakeToolBackend()


async def _minimal_times(turns: int) -> list[float]:
    catalog, backend = _MINIMAL_CATALOG, _MINIMAL_BACKEND
    planner, narrator = BenchPlanner(), BenchNarrator()
    times = []
    for _ in range(turns):
        started = time.perf_counter()
        await _minimal_turn(planner, narrator, backend, catalog)
        times.append(time.perf_counter() - started)
    return times


async def _sequential_times(turns: int, delay_s: float) -> list[float]:
    """The same four calls awaited one after another, for comparison."""
    catalog = load_catalog(CATALOG)
    backend = FakeToolBackend(delays_s=dict.fromkeys(TOOLS, delay_s))
    times = []
    for _ in range(turns):
        started = time.perf_counter()
        for name in TOOLS:
            tool = catalog.get(name)
            assert tool is not None
            await backend.invoke(tool, "cust_001", {}, idempotency_key=None, trace_id="t")
        times.append(time.perf_counter() - started)
    return times


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def run(turns: int) -> dict[str, Any]:
    engine, session = _engine(0.0)
    once, once_session = _engine(0.0, says_done=True)
    await _turn_times(engine, session, 200)  # warm-up
    await _turn_times(once, once_session, 200)
    await _minimal_times(200)
    gc.collect()
    # In alternating blocks, so that all see the same machine (a shared machine's speed
    # drifts over seconds, and the ratio is what is reported).
    times: list[float] = []
    one_decision: list[float] = []
    minimal: list[float] = []
    block = 100
    for _ in range(max(1, turns // block)):
        times += await _turn_times(engine, session, block)
        one_decision += await _turn_times(once, once_session, block)
        minimal += await _minimal_times(block)
    slow_engine, slow_session = _engine(0.05)
    parallel = await _turn_times(slow_engine, slow_session, 15)
    sequential = await _sequential_times(5, 0.05)
    return {
        "turns": turns,
        "overhead_p50_us": round(_percentile(times, 0.50) * 1e6, 1),
        "overhead_p99_us": round(_percentile(times, 0.99) * 1e6, 1),
        "overhead_mean_us": round(statistics.fmean(times) * 1e6, 1),
        "minimal_turn_p50_us": round(_percentile(minimal, 0.50) * 1e6, 1),
        "engine_vs_minimal_p50": round(_percentile(times, 0.50) / _percentile(minimal, 0.50), 2),
        # The same turn when the planner says its calls are its last round: one decision,
        # as in the minimal turn.
        "one_decision_p50_us": round(_percentile(one_decision, 0.50) * 1e6, 1),
        "one_decision_vs_minimal_p50": round(
            _percentile(one_decision, 0.50) / _percentile(minimal, 0.50), 2
        ),
        "parallel_check_ms": round(statistics.median(parallel) * 1e3, 1),
        "sequential_check_ms": round(statistics.median(sequential) * 1e3, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=2000)
    parser.add_argument("--json", action="store_true", help="print only the JSON figures")
    args = parser.parse_args()
    figures = asyncio.run(run(args.turns))
    if args.json:
        print(json.dumps(figures))
        return
    print(json.dumps(figures, indent=2))
    print(
        f"engine overhead p50 {figures['overhead_p50_us']} µs, p99 {figures['overhead_p99_us']} µs"
        f" per 4-call turn ({figures['engine_vs_minimal_p50']}× a hand-written minimal turn, "
        f"{figures['minimal_turn_p50_us']} µs; {figures['one_decision_vs_minimal_p50']}× when "
        f"the planner says its calls are its last round); 4 × 50 ms tools: "
        f"{figures['parallel_check_ms']} ms concurrently vs "
        f"{figures['sequential_check_ms']} ms one after another"
    )


if __name__ == "__main__":
    main()
