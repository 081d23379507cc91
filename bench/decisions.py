"""How long the embedded planner takes to decide, on every phrasing the tests know.

    python -m bench.decisions [--repeat 5] [--json]
    python -m bench.decisions --dump FILE   # every decision, one a line, to diff two checkouts

Each request of tests/data (phrasings, held-out requests, every turn of the written
conversations) is decided in round 1, and again in round 2 with the results its calls
would get, once with an empty dialogue state and once with a full one (tasks and
appointments listed, one in focus, a last action, an offered case), as the engine
would ask. Prints p50, p99 and the worst decision in milliseconds; the budget is 2 ms.
With --dump, each decision is written out instead (a change meant to make the planner
cheaper, not different, leaves the file the same).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
from pathlib import Path
from typing import Any

from assistant.dialogue import advance
from assistant.dialogue_state import Dialogue
from assistant.fakes.world import APPOINTMENTS, CATALOG, CUSTOMER, NOW, TASKS, answer
from assistant.models.embedded import EmbeddedPlanner
from assistant.schema import PlanRequest, ToolCall, ToolCallsDecision, ToolResult, UserTurn

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
READS = frozenset(tool.name for tool in CATALOG.tools if tool.effect == "read")


def _texts() -> list[str]:
    texts: list[str] = []
    for name in ("phrasings.jsonl", "heldout.jsonl", "dev.jsonl"):
        for line in (DATA / name).read_text().splitlines():
            if line.strip():
                texts.append(json.loads(line)["text"])
    for name in ("conversations.jsonl", "conversations_heldout.jsonl"):
        for line in (DATA / name).read_text().splitlines():
            if line.strip():
                texts.extend(turn["say"] for turn in json.loads(line)["turns"])
    return texts


def _full_dialogue() -> Dialogue:
    def result(tool: str, body: Any, **arguments: Any) -> ToolResult:
        call = ToolCall(call_id="c", tool_name=tool, arguments=arguments)
        return ToolResult(call=call, round=1, status="ok", result=body)

    state = advance(None, [result("crm.listTasks", {"tasks": TASKS})], "my tasks", "…")
    state = advance(
        state,
        [result("crm.listUpcomingAppointments", {"appointments": APPOINTMENTS})],
        "when is my haircut",
        "Your haircut is on Friday.",
    )
    moved = {**APPOINTMENTS[1], "starts_at": APPOINTMENTS[1]["starts_at"]}
    state = advance(
        state,
        [result("crm.rescheduleAppointment", moved, appointment_id="appt_2")],
        "move it",
        "Done. Would you like me to open a support case?",
    )
    return state


# Each decision made, when they are to be written out (--dump).
DECIDED: list[Any] | None = None


def _timed(planner: EmbeddedPlanner, request: PlanRequest, samples: list[float]) -> Any:
    started = time.perf_counter()
    decision = planner.plan(request)
    samples.append((time.perf_counter() - started) * 1000)
    if DECIDED is not None:
        DECIDED.append(decision)
    return decision


def run(repeat: int) -> dict[str, float]:
    planner = EmbeddedPlanner()
    texts = _texts()
    samples: list[float] = []
    # A collection pause is not the planner's cost (the machine may also be shared: the
    # worst case is noisier than p99).
    gc.collect()
    gc.disable()
    try:
        _measure(planner, texts, repeat, samples)
    finally:
        gc.enable()
    ordered = sorted(samples)
    return {
        "decisions": len(samples),
        "p50_ms": statistics.median(ordered),
        "p99_ms": ordered[int(len(ordered) * 0.99) - 1],
        "max_ms": ordered[-1],
    }


def _measure(planner: EmbeddedPlanner, texts: list[str], repeat: int, samples: list[float]) -> None:
    for _ in range(repeat):
        for dialogue in (Dialogue(), _full_dialogue()):
            for text in texts:
                request = PlanRequest(
                    conversation=(UserTurn(text=text),),
                    tools=CATALOG.tools,
                    customer=CUSTOMER,
                    now=NOW,
                    dialogue=dialogue,
                )
                decision = _timed(planner, request, samples)
                if not isinstance(decision, ToolCallsDecision):
                    continue
                results = tuple(
                    ToolResult(call=call, round=1, status="ok", result=answer(call))
                    for call in decision.calls
                    if call.tool_name in READS
                )
                if results:
                    second = PlanRequest(
                        conversation=request.conversation,
                        tools=request.tools,
                        customer=CUSTOMER,
                        now=NOW,
                        round=2,
                        turn_results=results,
                        dialogue=dialogue,
                    )
                    _timed(planner, second, samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--dump", type=Path, help="write every decision to this file")
    args = parser.parse_args()
    if args.dump is not None:
        global DECIDED
        DECIDED = []
        _measure(EmbeddedPlanner(), _texts(), 1, [])
        args.dump.write_text("".join(f"{decision!r}\n" for decision in DECIDED))
        print(f"{len(DECIDED)} decisions written to {args.dump}")
        return
    report = run(args.repeat)
    if args.json:
        print(json.dumps(report))
        return
    print(
        f"{report['decisions']:.0f} decisions: p50 {report['p50_ms']:.3f} ms, "
        f"p99 {report['p99_ms']:.3f} ms, worst {report['max_ms']:.3f} ms (budget 2 ms)"
    )


if __name__ == "__main__":
    main()
