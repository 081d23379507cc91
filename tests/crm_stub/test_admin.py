"""Inspection and reset: /admin/stats, /admin/requests, /admin/reset."""

from __future__ import annotations

from tests.fixtures.crm import CrmAdmin

C1 = "/v1/customers/cust_001"


async def test_stats_count_requests_per_route_pattern(crm_admin: CrmAdmin) -> None:
    """Requests are counted per method and route pattern, whatever the customer id."""
    await crm_admin.get(f"{C1}/invoices")
    await crm_admin.get("/v1/customers/cust_002/invoices")
    await crm_admin.get(f"{C1}/tasks")
    await crm_admin.post(f"{C1}/tasks", {"title": "Counted"})
    stats = await crm_admin.stats()
    assert stats["requests"] == {
        "GET /v1/customers/{cid}/invoices": 2,
        "GET /v1/customers/{cid}/tasks": 1,
        "POST /v1/customers/{cid}/tasks": 1,
    }
    assert stats["writes_applied"] == {"POST /v1/customers/{cid}/tasks": 1}
    assert stats["total_requests"] == 4


async def test_failed_writes_are_not_counted_as_applied(crm_admin: CrmAdmin) -> None:
    """A refused write (400, 404) is a request seen but not a write applied."""
    await crm_admin.post(f"{C1}/tasks", {"title": ""})
    await crm_admin.post("/v1/customers/cust_999/tasks", {"title": "x"})
    stats = await crm_admin.stats()
    assert stats["requests"]["POST /v1/customers/{cid}/tasks"] == 2
    assert stats["writes_applied"] == {}


async def test_request_log_shows_customer_key_and_trace(crm_admin: CrmAdmin) -> None:
    """The log names the path asked for, the idempotency key and the trace id, newest last."""
    await crm_admin.get(f"{C1}/appointments?status=all", headers={"X-Trace-Id": "trace-1"})
    await crm_admin.post(
        "/v1/customers/cust_002/tasks",
        {"title": "Logged"},
        headers={"X-Trace-Id": "trace-2", "Idempotency-Key": "log-key"},
    )
    first, second = await crm_admin.requests(limit=2)
    assert first["method"] == "GET"
    assert first["path"] == f"{C1}/appointments"
    assert first["query"] == "status=all"
    assert (first["status"], first["trace_id"], first["idempotency_key"]) == (200, "trace-1", None)
    assert second["path"] == "/v1/customers/cust_002/tasks"
    assert (second["status"], second["trace_id"]) == (201, "trace-2")
    assert second["idempotency_key"] == "log-key"
    assert second["at"] >= first["at"]


async def test_request_log_limit_and_admin_calls_are_not_logged(crm_admin: CrmAdmin) -> None:
    """?limit=N gives the last N; inspecting the stub does not show up in its own log."""
    for cid in ("cust_001", "cust_002", "cust_003"):
        await crm_admin.get(f"/v1/customers/{cid}")
    await crm_admin.stats()
    last_two = await crm_admin.requests(limit=2)
    assert [r["path"] for r in last_two] == ["/v1/customers/cust_002", "/v1/customers/cust_003"]
    assert len(await crm_admin.requests()) == 3


async def test_unauthorised_requests_are_logged(crm_admin: CrmAdmin) -> None:
    """A request with a wrong token is seen (status 401), so a test can spot a bad client."""
    await crm_admin.get(C1, headers={"Authorization": "Bearer nope"})
    [entry] = await crm_admin.requests()
    assert entry["status"] == 401


async def test_reset_reloads_seed_and_clears_everything(crm_admin: CrmAdmin) -> None:
    """After /admin/reset: a deleted task is back, and stats, log and faults are empty."""
    _, tasks = await crm_admin.get(f"{C1}/tasks")
    groceries = next(t for t in tasks["tasks"] if t["title"] == "Buy groceries")
    await crm_admin.delete(f"{C1}/tasks/{groceries['id']}")
    await crm_admin.add_fault(path="/v1/customers/*/invoices", status=503)
    await crm_admin.reset()
    _, restored = await crm_admin.get(f"{C1}/tasks")
    assert restored == tasks
    assert await crm_admin.faults() == []
    # Only what came after the reset is left: the GET just above.
    assert [r["path"] for r in await crm_admin.requests()] == [f"{C1}/tasks"]
    stats = await crm_admin.stats()
    assert (stats["requests"], stats["writes_applied"]) == (
        {"GET /v1/customers/{cid}/tasks": 1},
        {},
    )
    assert (await crm_admin.get(f"{C1}/invoices"))[0] == 200
