"""A soak run: many sessions, many turns, random CRM faults; then the books are checked.

Used by the bounded soak test in the suite and by the larger `bench/soak.py`. Each
session belongs to one seeded customer and runs its turns one after another; the
sessions run concurrently against one engine and one CRM stub with faults on a share
of requests. Afterwards:

- every turn ended with exactly one `turn.done`;
- every started call got exactly one `tool.finished`, with the same call id;
- what each turn said of its write matches the CRM afterwards: a task reported added
  exists exactly once, one reported failed does not exist, one reported not confirmed
  yet exists at most once (nothing applied twice, nothing lost, nothing misreported);
- no task is left running.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from assistant.engine import Engine, EngineConfig
from assistant.fakes import EchoNarrator, ScriptedPlanner
from assistant.schema import CustomerContext, Event, FinalDecision, ToolCall, ToolCallsDecision
from assistant.session import Session
from assistant.tools.breaker import BreakerRegistry
from assistant.tools.catalog import load_catalog
from assistant.tools.crm import CrmClient
from assistant.tools.crm_tools import CrmTools
from assistant.tools.executor import ToolExecutor
from assistant.tools.resilience import CallPolicy

CATALOG = Path(__file__).resolve().parents[1] / "config" / "tools.yaml"
READS = [
    "crm.listUpcomingAppointments",
    "crm.getOpenInvoices",
    "crm.listTasks",
    "crm.listOpenTickets",
    "crm.getCustomerProfile",
    "crm.getNextAppointment",
]
FAULTS: list[dict[str, Any]] = [
    {"method": "GET", "path": "/v1/customers/*/invoices", "status": 503},
    {"method": "GET", "path": "/v1/customers/*/appointments", "status": 500},
    {"method": "GET", "path": "/v1/customers/*/tasks", "reset": True},
    {"method": "GET", "path": "/v1/customers/*/tickets", "latency_ms": 150},
    {"method": "GET", "path": "/v1/customers/*", "status": 429, "retry_after_s": 0.2},
    {"method": "POST", "path": "/v1/customers/*/tasks", "reset": True},
    {"method": "POST", "path": "/v1/customers/*/tasks", "status": 503, "apply_after": True},
    # Slow writes: answered after the write's timeout; the resend meets 409 in progress.
    {"method": "POST", "path": "/v1/customers/*/tasks", "latency_ms": 2500},
    # Lost replies: applied, then the connection is cut before the answer.
    {"method": "POST", "path": "/v1/customers/*/tasks", "reset": True, "apply_after": True},
]


@dataclass
class SoakReport:
    sessions: int
    turns: int
    calls: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    turn_ms: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    writes_reported_ok: int = 0
    writes_reported_failed: int = 0
    writes_reported_unconfirmed: int = 0
    mismatches: int = 0
    doubles: int = 0
    duration_s: float = 0.0

    def figures(self) -> dict[str, Any]:
        ordered = sorted(self.turn_ms) or [0.0]
        return {
            "sessions": self.sessions,
            "turns": self.turns,
            "tool_calls": self.calls,
            "turn_status": dict(self.statuses),
            "call_outcomes": dict(self.outcomes),
            "writes_ok": self.writes_reported_ok,
            "writes_failed": self.writes_reported_failed,
            "writes_unconfirmed": self.writes_reported_unconfirmed,
            "told_vs_crm_mismatches": self.mismatches,
            "doubles": self.doubles,
            "turn_p50_ms": round(statistics.median(ordered), 1),
            "turn_p99_ms": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 1),
            "duration_s": round(self.duration_s, 2),
            "problems": len(self.problems),
        }


async def install_faults(
    admin: aiohttp.ClientSession, crm_url: str, rate: float, seed: int
) -> None:
    for index, fault in enumerate(FAULTS):
        body = {**fault, "probability": rate, "seed": seed + index}
        async with admin.post(f"{crm_url}/admin/faults", json=body) as response:
            assert response.status == 201, await response.text()


def _decision(rng: random.Random, title: str) -> ToolCallsDecision:
    reads = rng.sample(READS, rng.randint(1, 3))
    calls = [ToolCall(call_id=f"c_{i}", tool_name=name) for i, name in enumerate(reads)]
    calls.append(ToolCall(call_id="c_w", tool_name="crm.addTask", arguments={"title": title}))
    return ToolCallsDecision(calls=tuple(calls))


async def _session(
    engine_for: Any,
    customer: str,
    turns: int,
    rng: random.Random,
    report: SoakReport,
    titles: dict[str, list[tuple[str, str]]],
) -> None:
    catalog_tools = load_catalog(CATALOG).tools
    session = Session(customer=CustomerContext(customer_id=customer), tools=catalog_tools)
    for number in range(turns):
        title = f"Soak {customer} {session.session_id} #{number}"
        events: list[dict[str, Any]] = []

        async def emit(event: Event, events: list[dict[str, Any]] = events) -> None:
            events.append(event.to_wire())

        engine: Engine = engine_for(_decision(rng, title))
        started = time.perf_counter()
        await engine.run_turn(session, f"turn {number}", emit)
        report.turn_ms.append((time.perf_counter() - started) * 1000)
        _check_turn(events, report, f"{customer} turn {number}")
        done = events[-1]
        for call in done["tool_calls"]:
            report.calls += 1
            report.outcomes[call["status"] if call["error"] is None else call["error"]["code"]] += 1
            if call["tool"] == "crm.addTask":
                titles.setdefault(customer, []).append((title, _told(call)))


def _check_turn(events: list[dict[str, Any]], report: SoakReport, where: str) -> None:
    kinds = [event["type"] for event in events]
    if kinds.count("turn.done") != 1 or kinds[-1] != "turn.done":
        report.problems.append(f"{where}: turn.done missing or repeated: {kinds}")
        return
    report.statuses[events[-1]["status"]] += 1
    started = Counter(e["call_id"] for e in events if e["type"] == "tool.started")
    finished = Counter(e["call_id"] for e in events if e["type"] == "tool.finished")
    if started != finished or any(count != 1 for count in finished.values()):
        report.problems.append(f"{where}: started {dict(started)} finished {dict(finished)}")


def _told(call: dict[str, Any]) -> str:
    """What the customer was told of a write: added, not done, or not confirmed yet."""
    if call["status"] == "ok":
        return "ok"
    return "unconfirmed" if (call["error"] or {}).get("unconfirmed") else "failed"


# What the CRM may hold of a write, by what the customer was told of it.
_CONSISTENT = {"ok": {1}, "failed": {0}, "unconfirmed": {0, 1}}


async def _check_books(
    admin: aiohttp.ClientSession,
    crm_url: str,
    report: SoakReport,
    titles: dict[str, list[tuple[str, str]]],
) -> None:
    for customer, written in titles.items():
        async with admin.get(f"{crm_url}/v1/customers/{customer}/tasks") as response:
            tasks = (await response.json())["tasks"]
        counts = Counter(task["title"] for task in tasks)
        for title, told in written:
            found = counts.get(title, 0)
            if told == "ok":
                report.writes_reported_ok += 1
            elif told == "unconfirmed":
                report.writes_reported_unconfirmed += 1
            else:
                report.writes_reported_failed += 1
            if found > 1:
                report.doubles += 1
            if found not in _CONSISTENT[told]:
                report.mismatches += 1
                report.problems.append(f"{title!r} told {told}, found {found} times in the CRM")


async def soak(
    crm_url: str,
    token: str,
    *,
    sessions: int,
    turns: int,
    fault_rate: float = 0.1,
    seed: int = 1,
    deadline_s: float = 8.0,
) -> SoakReport:
    """Run the soak against a CRM stub at `crm_url` and check the books."""
    report = SoakReport(sessions=sessions, turns=sessions * turns)
    catalog = load_catalog(CATALOG)
    baseline = asyncio.all_tasks()
    titles: dict[str, list[tuple[str, str]]] = {}
    headers = {"Authorization": f"Bearer {token}"}
    connector = aiohttp.TCPConnector(limit=200)
    async with (
        aiohttp.ClientSession(headers=headers) as admin,
        aiohttp.ClientSession(connector=connector) as http,
    ):
        await install_faults(admin, crm_url, fault_rate, seed)
        crm = CrmTools(CrmClient(http, crm_url, token), catalog)
        policy = CallPolicy(BreakerRegistry(failure_threshold=50))
        executor = ToolExecutor(catalog, crm, policy)
        config = EngineConfig(turn_deadline_s=deadline_s)

        def engine_for(decision: ToolCallsDecision) -> Engine:
            # "turn N" is a placeholder: the scripted writes are the requests.
            planner = ScriptedPlanner(decision, FinalDecision(text=""), reads_the_words=True)
            return Engine(planner, EchoNarrator(), executor, config)

        rng = random.Random(seed)
        started = time.perf_counter()
        await asyncio.gather(
            *(
                _session(
                    engine_for,
                    f"cust_{(index % 20) + 1:03d}",
                    turns,
                    random.Random(rng.random()),
                    report,
                    titles,
                )
                for index in range(sessions)
            )
        )
        report.duration_s = time.perf_counter() - started
        async with admin.delete(f"{crm_url}/admin/faults"):
            pass
        await _check_books(admin, crm_url, report, titles)
    await asyncio.sleep(0)
    leaked = [task for task in asyncio.all_tasks() - baseline if not task.done()]
    if leaked:
        report.problems.append(f"{len(leaked)} tasks left running: {leaked[:3]}")
    return report
