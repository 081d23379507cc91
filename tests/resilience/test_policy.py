"""Resilience against the real CRM stub with injected faults: retries, 429s, deadlines,
writes applied exactly once, and the circuit breaker."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from assistant.engine import Engine, EngineConfig
from assistant.fakes import EchoNarrator, ScriptedPlanner, calls
from assistant.schema import CustomerContext, Event, FinalDecision, TurnDone
from assistant.session import Session
from assistant.tools.breaker import BreakerRegistry
from assistant.tools.catalog import Catalog, load_catalog
from assistant.tools.crm import CrmClient
from assistant.tools.crm_tools import CrmTools
from assistant.tools.executor import ToolExecutor
from assistant.tools.resilience import CallPolicy
from tests.engine.conftest import CATALOG_PATH
from tests.fixtures.crm import CrmAdmin

INVOICES = "/v1/customers/*/invoices"
TASKS = "/v1/customers/*/tasks"


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Harness:
    """An engine over the real CRM client and the real stub."""

    def __init__(self, crm: CrmTools, catalog: Catalog, clock: FakeClock) -> None:
        self.crm = crm
        self.catalog = catalog
        self.clock = clock
        self.breakers = BreakerRegistry(failure_threshold=5, cooldown_s=15, clock=clock)
        self.session = Session(
            customer=CustomerContext(customer_id="cust_001"), tools=catalog.tools
        )
        self.events: list[dict[str, Any]] = []
        self.tool_started = asyncio.Event()

    async def emit(self, event: Event) -> None:
        self.events.append(event.to_wire())
        if event.type == "tool.started":
            self.tool_started.set()

    def engine(self, *steps: Any, deadline_s: float = 8.0) -> Engine:
        executor = ToolExecutor(self.catalog, self.crm, CallPolicy(self.breakers))
        return Engine(
            # The turn's text is a placeholder: the script is the request.
            ScriptedPlanner(*steps, reads_the_words=True),
            EchoNarrator(),
            executor,
            EngineConfig(turn_deadline_s=deadline_s),
        )

    async def turn(self, *steps: Any, deadline_s: float = 8.0) -> TurnDone:
        engine = self.engine(*steps, deadline_s=deadline_s)
        return await asyncio.wait_for(
            engine.run_turn(self.session, "a request", self.emit), deadline_s + 5
        )


@pytest.fixture
async def harness(crm_url: str, crm_token: str) -> AsyncIterator[Harness]:
    async with aiohttp.ClientSession() as http:
        catalog = load_catalog(CATALOG_PATH)
        crm = CrmTools(CrmClient(http, crm_url, crm_token), catalog)
        yield Harness(crm, catalog, FakeClock())


def call_of(done: TurnDone, tool: str) -> dict[str, Any]:
    return next(c for c in done.tool_calls if c["tool"] == tool)


async def test_two_503s_then_success_takes_three_attempts(
    harness: Harness, crm_admin: CrmAdmin
) -> None:
    """Billing answers 503 twice, then works: the call succeeds on its third attempt."""
    await crm_admin.add_fault(method="GET", path=INVOICES, status=503, times=2)
    done = await harness.turn(calls("crm.getOpenInvoices"), FinalDecision(text=""))
    invoices = call_of(done, "crm.getOpenInvoices")
    assert invoices["status"] == "ok"
    assert invoices["attempts"] == 3
    assert done.status == "ok"


async def test_429_with_retry_after_is_waited_out(harness: Harness, crm_admin: CrmAdmin) -> None:
    """A 429 asking to wait 1 s fits in the deadline: the call waits and succeeds."""
    await crm_admin.add_fault(method="GET", path=INVOICES, status=429, retry_after_s=1, times=1)
    done = await harness.turn(calls("crm.getOpenInvoices"), FinalDecision(text=""))
    invoices = call_of(done, "crm.getOpenInvoices")
    assert invoices["status"] == "ok"
    assert invoices["attempts"] == 2


async def test_retry_after_past_the_deadline_fails_fast_as_rate_limited(
    harness: Harness, crm_admin: CrmAdmin
) -> None:
    """Asked to wait 30 s with an 8 s deadline: rate_limited at once, the wait named."""
    await crm_admin.add_fault(method="GET", path=INVOICES, status=429, retry_after_s=30)
    done = await harness.turn(calls("crm.getOpenInvoices"), FinalDecision(text=""))
    invoices = call_of(done, "crm.getOpenInvoices")
    assert invoices["error"]["code"] == "rate_limited"
    assert invoices["attempts"] == 1
    assert "30 s" in invoices["error"]["message"]


async def test_a_hanging_route_times_out_while_its_sibling_answers(
    harness: Harness, crm_admin: CrmAdmin
) -> None:
    """Billing hangs: that call times out at the deadline, appointments answer, partial."""
    await crm_admin.add_fault(method="GET", path=INVOICES, hang=True)
    done = await harness.turn(
        calls("crm.listUpcomingAppointments", "crm.getOpenInvoices"),
        FinalDecision(text=""),
        deadline_s=1.0,
    )
    assert call_of(done, "crm.listUpcomingAppointments")["status"] == "ok"
    assert call_of(done, "crm.getOpenInvoices")["error"]["code"] == "timeout"
    assert done.status == "partial"


async def test_a_reset_post_is_retried_with_the_same_key_and_applied_once(
    harness: Harness, crm_admin: CrmAdmin
) -> None:
    """The connection resets under addTask: retried with its key, one task created."""
    await crm_admin.add_fault(method="POST", path=TASKS, reset=True, times=1)
    done = await harness.turn(
        calls(("crm.addTask", {"title": "Water the plants"})), FinalDecision(text="")
    )
    add = call_of(done, "crm.addTask")
    assert add["status"] == "ok"
    assert add["attempts"] == 2
    posts = [r for r in await crm_admin.requests() if r["method"] == "POST"]
    assert len(posts) == 2
    assert posts[0]["idempotency_key"] == posts[1]["idempotency_key"] is not None
    _, body = await crm_admin.get("/v1/customers/cust_001/tasks")
    titles = [task["title"] for task in body["tasks"]]
    assert titles.count("Water the plants") == 1


async def test_a_write_that_timed_out_after_being_applied_is_not_applied_twice(
    harness: Harness, crm_admin: CrmAdmin
) -> None:
    """The stub applies the write, then answers too late: the retry gets the stored reply."""
    await crm_admin.add_fault(method="POST", path=TASKS, latency_ms=2500, apply_after=True, times=1)
    done = await harness.turn(
        calls(("crm.addTask", {"title": "Book the vet"})), FinalDecision(text="")
    )
    add = call_of(done, "crm.addTask")
    assert add["status"] == "ok"
    assert add["attempts"] >= 2
    _, body = await crm_admin.get("/v1/customers/cust_001/tasks")
    assert [task["title"] for task in body["tasks"]].count("Book the vet") == 1
    stats = await crm_admin.stats()
    applied = sum(v for k, v in stats["writes_applied"].items() if "tasks" in k)
    assert applied == 1


async def test_persistent_500s_open_the_breaker_and_a_probe_closes_it(
    harness: Harness, crm_admin: CrmAdmin
) -> None:
    """Five failures open billing's breaker: later calls fail fast without a request;
    after the cool-down one probe goes out and, the route healed, closes it."""
    await crm_admin.add_fault(method="GET", path=INVOICES, status=500)
    await harness.turn(calls("crm.getOpenInvoices"), FinalDecision(text=""))
    await harness.turn(calls("crm.getOpenInvoices"), FinalDecision(text=""))
    assert harness.breakers.states()["crm.getOpenInvoices"] == "open"
    seen = len(await crm_admin.requests(limit=500))

    done = await harness.turn(
        calls("crm.getOpenInvoices", "crm.listUpcomingAppointments"), FinalDecision(text="")
    )
    invoices = call_of(done, "crm.getOpenInvoices")
    assert invoices["error"]["code"] == "circuit_open"
    assert invoices["attempts"] == 0
    assert call_of(done, "crm.listUpcomingAppointments")["status"] == "ok"
    requests = (await crm_admin.requests(limit=500))[seen:]
    assert [r["path"] for r in requests if "invoices" in r["path"]] == []

    await crm_admin.clear_faults()
    harness.clock.now += 16  # past the cool-down
    done = await harness.turn(calls("crm.getOpenInvoices"), FinalDecision(text=""))
    assert call_of(done, "crm.getOpenInvoices")["status"] == "ok"
    assert harness.breakers.states()["crm.getOpenInvoices"] == "closed"


async def test_a_failed_probe_opens_the_breaker_again(
    harness: Harness, crm_admin: CrmAdmin
) -> None:
    """Half-open, the probe fails: open again, and only one request went out."""
    await crm_admin.add_fault(method="GET", path=INVOICES, status=503)
    await harness.turn(calls("crm.getOpenInvoices"), FinalDecision(text=""))
    await harness.turn(calls("crm.getOpenInvoices"), FinalDecision(text=""))
    harness.clock.now += 16
    seen = len(await crm_admin.requests(limit=500))
    done = await harness.turn(calls("crm.getOpenInvoices"), FinalDecision(text=""))
    assert call_of(done, "crm.getOpenInvoices")["attempts"] == 1
    assert harness.breakers.states()["crm.getOpenInvoices"] == "open"
    assert len(await crm_admin.requests(limit=500)) - seen == 1


async def test_4xx_are_not_retried_and_do_not_open_the_breaker(
    harness: Harness, crm_admin: CrmAdmin
) -> None:
    """A 404 is an answer: one attempt, not_found, the breaker stays closed."""
    for _ in range(6):
        done = await harness.turn(
            calls(("crm.completeTask", {"task_id": "task_nope"})), FinalDecision(text="")
        )
        complete = call_of(done, "crm.completeTask")
        assert complete["error"]["code"] == "not_found"
        assert complete["attempts"] == 1
    assert harness.breakers.states()["crm.completeTask"] == "closed"


async def test_cancel_during_a_write_lets_it_finish_once(
    harness: Harness, crm_admin: CrmAdmin
) -> None:
    """turn.cancel while addTask is at the CRM: it completes, is reported, exists once."""
    await crm_admin.add_fault(method="POST", path=TASKS, latency_ms=300, times=1)
    engine = harness.engine(calls(("crm.addTask", {"title": "Pick up dry cleaning"})))
    turn = engine.start_turn(harness.session, "add it", harness.emit)
    await crm_admin.wait_until_seen("POST /v1/customers/{cid}/tasks")
    turn.cancel()
    done = await asyncio.wait_for(turn.wait(), 5)
    assert done.status == "cancelled"
    assert call_of(done, "crm.addTask")["status"] == "ok"
    _, body = await crm_admin.get("/v1/customers/cust_001/tasks")
    assert [t["title"] for t in body["tasks"]].count("Pick up dry cleaning") == 1
