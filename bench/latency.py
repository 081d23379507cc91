"""Latency with a streaming model: when the caller hears something, before and after.

    python -m bench.latency [--runs 3] [--json]

A scripted OpenAI-compatible server (real HTTP, the real `openai` client) streams a
decision of four tool calls at 400 ms per call; the tools take 50, 50, 50 and 2,000 ms
(the slow one is the last the model names). The model writes 150 ms per sentence after
a 200 ms first token. Printed, as the median over the runs, in ms from the message:
the first acknowledgement piece, each tool.started, the first answer piece, turn.done.
A second table has every tool at 50 ms: nothing is slow, the model writes the answer.

"before" is the same run with the engine's latency features off (start_tools_early,
progress_after_s, stream_answers): every tool waits for the whole decision, the answer
for every tool and then for the model's whole answer. "after" is the defaults.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

from aiohttp import web
from openai import AsyncOpenAI

from assistant.engine import Engine, EngineConfig
from assistant.fakes import FakeToolBackend
from assistant.fakes.openai_server import (
    Chunk,
    Delay,
    OpenAIServer,
    content,
    finish,
    fragment,
    tool_delta,
)
from assistant.models.openai_compat import build_openai_models
from assistant.schema import CustomerContext, Event
from assistant.session import Session
from assistant.settings import Settings
from assistant.tools.catalog import load_catalog
from assistant.tools.executor import ToolExecutor

CATALOG = load_catalog(Path(__file__).resolve().parents[1] / "config" / "tools.yaml")
CUSTOMER = CustomerContext(customer_id="cust_001", name="Ada", timezone="America/New_York")
MESSAGE = "Show me my appointments, my billing, my tasks and my support cases"
# (catalog name, wire name, latency in seconds), in the order the model names them.
TOOLS = (
    ("crm.listUpcomingAppointments", "crm_listUpcomingAppointments", 0.05),
    ("crm.getOpenInvoices", "crm_getOpenInvoices", 0.05),
    ("crm.listTasks", "crm_listTasks", 0.05),
    ("crm.listOpenTickets", "crm_listOpenTickets", 2.0),
)
PER_CALL_S = 0.4
FIRST_TOKEN_S = 0.2
PER_SENTENCE_S = 0.15
# A deadline long enough that the turn budget never cuts a model short in either column.
DEADLINE_S = 20.0
OFF = EngineConfig(
    turn_deadline_s=DEADLINE_S, start_tools_early=False, progress_after_s=0, stream_answers=False
)
ON = EngineConfig(turn_deadline_s=DEADLINE_S)


def decision() -> list[Chunk | Delay]:
    """Four calls, each taking the model 400 ms to stream."""
    chunks: list[Chunk | Delay] = [content("", role=True)]
    for index, (_, wire, _) in enumerate(TOOLS):
        chunks.append(Delay(PER_CALL_S))
        first = fragment(index=index, call_id=f"call_{index}", name=wire, arguments="")
        chunks.append(tool_delta(first))
        chunks.append(tool_delta(fragment(index=index, arguments="{}")))
    chunks.append(finish("tool_calls"))
    return chunks


def written(*sentences: str) -> list[Chunk | Delay]:
    """A model writing `sentences` at its pace."""
    chunks: list[Chunk | Delay] = [Delay(FIRST_TOKEN_S - PER_SENTENCE_S), content("", role=True)]
    for sentence in sentences:
        chunks += [Delay(PER_SENTENCE_S), content(sentence)]
    chunks.append(finish("stop"))
    return chunks


READY = (
    "You have no upcoming appointments. ",
    "Your balance is zero. ",
    "You have no pending tasks. ",
)
TICKETS = "You have no open support cases."


def script(server: OpenAIServer, config: EngineConfig, slow: bool) -> None:
    server.stream(decision())
    if config.progress_after_s and slow:
        # The narrator, twice: what is ready while the tickets are slow, then the rest.
        server.stream(written(*READY, "I'm still checking your support cases."))
        server.stream(written(TICKETS))
    else:
        # The model's own answer in round 2, once every result is in.
        server.stream(written(*READY, TICKETS))


@dataclass
class Timeline:
    started: float = field(default_factory=time.perf_counter)
    marks: dict[str, float] = field(default_factory=dict)

    async def __call__(self, event: Event) -> None:
        wire = event.to_wire()
        at = (time.perf_counter() - self.started) * 1000
        kind = wire["type"]
        if kind == "tool.started":
            kind = f"tool.started {wire['tool']}"
        self.marks.setdefault(kind, at)


async def one_run(
    base_url: str, server: OpenAIServer, config: EngineConfig, slow: bool
) -> dict[str, float]:
    script(server, config, slow)
    client = AsyncOpenAI(base_url=base_url, api_key="bench", max_retries=0, timeout=10.0)
    settings = Settings(openai_model="bench-model", openai_max_retries=0)
    planner, narrator = build_openai_models(settings, CATALOG, client=client)
    backend = FakeToolBackend(
        delays_s={name: latency if slow else 0.05 for name, _, latency in TOOLS}
    )
    engine = Engine(planner, narrator, ToolExecutor(CATALOG, backend), config)
    timeline = Timeline()
    try:
        await engine.run_turn(Session(customer=CUSTOMER, tools=CATALOG.tools), MESSAGE, timeline)
    finally:
        await client.close()
    assert not server.script, "the run did not use its script"
    assert not server.overruns, "the run asked the model more than scripted"
    return timeline.marks


ROWS = (
    ("first ack piece", "ack.delta"),
    *((f"tool.started {name.removeprefix('crm.')}", f"tool.started {name}") for name, *_ in TOOLS),
    ("first answer piece", "answer.delta"),
    ("turn.done", "turn.done"),
)


async def measure(runs: int, slow: bool) -> dict[str, dict[str, float]]:
    server = OpenAIServer()
    runner = web.AppRunner(server.app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    base_url = f"http://127.0.0.1:{port}/v1"
    table: dict[str, dict[str, float]] = {}
    try:
        for column, config in (("before", OFF), ("after", ON)):
            marks = [await one_run(base_url, server, config, slow) for _ in range(runs)]
            table[column] = {
                label: statistics.median(m.get(key, float("nan")) for m in marks)
                for label, key in ROWS
            }
    finally:
        await runner.cleanup()
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    tables = {
        "tools 50, 50, 50, 2000 ms": asyncio.run(measure(args.runs, slow=True)),
        "tools 50, 50, 50, 50 ms": asyncio.run(measure(args.runs, slow=False)),
    }
    if args.json:
        print(json.dumps(tables, indent=2))
        return
    for title, table in tables.items():
        print(f"{title}; median of {args.runs} runs, ms from the message")
        print(f"{'':40}{'before':>8}{'after':>8}")
        for label, _ in ROWS:
            before, after = table["before"][label], table["after"][label]
            print(f"{label:40}{before:>8.0f}{after:>8.0f}")
        print()


if __name__ == "__main__":
    main()
