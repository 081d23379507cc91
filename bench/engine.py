"""Engine overhead: 2,000 turns of 4 instant tool calls, no transport, no network.

    python -m bench.engine [--turns 2000] [--json]

Prints the per-turn orchestration overhead (planner, narrator and tools cost nothing
here, so all that is measured is the engine), and a parallel check: the median turn
with each of the 4 tools sleeping 50 ms, beside the same turn run one call at a time.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import statistics
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from assistant.engine import Engine, EngineConfig
from assistant.fakes import FakeToolBackend
from assistant.schema import (
    CustomerContext,
    Event,
    FinalDecision,
    NarratorInput,
    PlanRequest,
    ToolCall,
    ToolCallsDecision,
)
from assistant.session import Session
from assistant.tools.catalog import load_catalog
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


class BenchPlanner:
    """Four calls in round 1, then done: the shape of a four-intent request."""

    async def decide(self, request: PlanRequest) -> FinalDecision | ToolCallsDecision:
        return DECISION if request.round == 1 else DONE


class BenchNarrator:
    async def narrate(self, request: NarratorInput) -> AsyncIterator[str]:
        yield "Here is everything. "
        yield "That's all."


async def _sink(event: Event) -> None:
    return None


def _engine(delay_s: float, *, sequential: bool = False) -> tuple[Engine, Session]:
    catalog = load_catalog(CATALOG)
    backend = FakeToolBackend(delays_s=dict.fromkeys(TOOLS, delay_s) if delay_s else {})
    config = EngineConfig(max_tool_calls_per_round=1 if sequential else 4, max_rounds=8)
    engine = Engine(BenchPlanner(), BenchNarrator(), ToolExecutor(catalog, backend), config)
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
    await _turn_times(engine, session, 200)  # warm-up
    gc.collect()
    times = await _turn_times(engine, session, turns)
    slow_engine, slow_session = _engine(0.05)
    parallel = await _turn_times(slow_engine, slow_session, 15)
    sequential = await _sequential_times(5, 0.05)
    return {
        "turns": turns,
        "overhead_p50_us": round(_percentile(times, 0.50) * 1e6, 1),
        "overhead_p99_us": round(_percentile(times, 0.99) * 1e6, 1),
        "overhead_mean_us": round(statistics.fmean(times) * 1e6, 1),
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
        f" per 4-call turn; 4 × 50 ms tools: {figures['parallel_check_ms']} ms concurrently vs "
        f"{figures['sequential_check_ms']} ms one after another"
    )


if __name__ == "__main__":
    main()
