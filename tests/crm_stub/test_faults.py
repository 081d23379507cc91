"""Fault injection observed from a real aiohttp client: status, latency, hang, hold, reset."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable, Callable

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from crm_stub.app import create_app
from tests.fixtures.crm import CrmAdmin

C1 = "/v1/customers/cust_001"
INVOICES = "/v1/customers/*/invoices"


async def test_status_fault_answers_the_envelope_with_retry_after(crm_admin: CrmAdmin) -> None:
    """A 429 fault answers rate_limited with Retry-After for `times` requests, then normally."""
    await crm_admin.add_fault(method="GET", path=INVOICES, status=429, retry_after_s=2, times=2)
    for _ in range(2):
        async with crm_admin.session.get(crm_admin.base_url + f"{C1}/invoices") as response:
            assert response.status == 429
            assert response.headers["Retry-After"] == "2"
            assert (await response.json())["error"]["code"] == "rate_limited"
    status, body = await crm_admin.get(f"{C1}/invoices")
    assert status == 200
    assert body["balance_cents"] == 15000
    assert await crm_admin.faults() == []


async def test_status_fault_applies_nothing(crm_admin: CrmAdmin) -> None:
    """A write answered by a 503 fault was not applied: retrying it is safe."""
    await crm_admin.add_fault(method="POST", path="/v1/customers/*/tasks", status=503, times=1)
    status, body = await crm_admin.post(
        f"{C1}/tasks", {"title": "Not yet"}, headers={"Idempotency-Key": "f-1"}
    )
    assert (status, body["error"]["code"]) == (503, "unavailable")
    status, _ = await crm_admin.post(
        f"{C1}/tasks", {"title": "Not yet"}, headers={"Idempotency-Key": "f-1"}
    )
    assert status == 201
    _, tasks = await crm_admin.get(f"{C1}/tasks")
    assert [t["title"] for t in tasks["tasks"]].count("Not yet") == 1


async def test_star_matches_exactly_one_segment_and_the_method(crm_admin: CrmAdmin) -> None:
    """`/v1/customers/*/invoices` hits any customer's invoices, not other routes or methods."""
    await crm_admin.add_fault(method="GET", path=INVOICES, status=503)
    assert (await crm_admin.get("/v1/customers/cust_002/invoices"))[0] == 503
    assert (await crm_admin.get(f"{C1}/invoices"))[0] == 503
    assert (await crm_admin.get(C1))[0] == 200
    assert (await crm_admin.get(f"{C1}/tasks"))[0] == 200
    assert (await crm_admin.post(f"{C1}/invoices"))[0] == 405
    [fault] = await crm_admin.faults()
    assert fault["hits"] == 2
    assert fault["times"] is None


async def test_latency_fault_delays_only_its_route(crm_admin: CrmAdmin) -> None:
    """A slowed invoices call is overtaken by a profile call sent after it."""
    await crm_admin.add_fault(method="GET", path=INVOICES, latency_ms=1000, times=1)
    finished: list[str] = []

    async def fetch(path: str, label: str) -> None:
        status, _ = await crm_admin.get(path)
        assert status == 200
        finished.append(label)

    slow = asyncio.create_task(fetch(f"{C1}/invoices", "invoices"))
    await crm_admin.wait_until_seen("GET /v1/customers/{cid}/invoices")
    await fetch(C1, "profile")
    await slow
    assert finished == ["profile", "invoices"]
    log = await crm_admin.requests(limit=2)
    assert log[0]["fault_kind"] == "latency"


async def test_hang_never_answers_and_does_not_block_others(crm_admin: CrmAdmin) -> None:
    """A hung request times out at the client while other requests are still served."""
    await crm_admin.add_fault(method="GET", path=INVOICES, hang=True)
    with pytest.raises(asyncio.TimeoutError):
        async with crm_admin.session.get(
            crm_admin.base_url + f"{C1}/invoices", timeout=aiohttp.ClientTimeout(total=0.3)
        ):
            pass
    assert (await crm_admin.get(C1))[0] == 200
    hung = [r for r in await crm_admin.requests() if r["path"].endswith("/invoices")]
    assert hung[-1]["status"] is None
    assert hung[-1]["fault_kind"] == "hang"


async def test_hang_is_released_by_shutdown() -> None:
    """Stopping the stub ends a hung request at once (the client sees a disconnect)."""
    runner = web.AppRunner(create_app(today=dt.date.today()))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}"
    headers = {"Authorization": "Bearer dev-crm-token"}
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.post(url + "/admin/faults", json={"path": "/healthz", "hang": True}):
            pass
        hung = asyncio.create_task(session.get(url + "/healthz"))
        await CrmAdmin(session, url).wait_until_seen("GET /healthz")
        await runner.cleanup()
        with pytest.raises(aiohttp.ClientConnectionError):
            await hung


TASKS = "/v1/customers/*/tasks"


async def test_hold_keeps_a_write_in_flight_until_its_release(crm_admin: CrmAdmin) -> None:
    """A held add is in flight (a duplicate meanwhile is 409), applied only once the
    fault is released, and answered then; a later add is not held (times: 1)."""
    fault = await crm_admin.add_fault(method="POST", path=TASKS, hold=True, times=1)
    assert fault["hold"] is True
    headers = {"Idempotency-Key": "held-1"}
    body = {"title": "Held task"}
    held = asyncio.create_task(crm_admin.post(f"{C1}/tasks", body, headers=headers))
    await crm_admin.wait_until_in_flight("held-1")
    status, duplicate = await crm_admin.post(f"{C1}/tasks", body, headers=headers)
    assert status == 409, duplicate
    _, listed = await crm_admin.get(f"{C1}/tasks")
    assert "Held task" not in [t["title"] for t in listed["tasks"]]
    assert not held.done()
    await crm_admin.release(fault)
    status, made = await held
    assert status == 201, made
    _, listed = await crm_admin.get(f"{C1}/tasks")
    assert [t["title"] for t in listed["tasks"]].count("Held task") == 1
    assert (await crm_admin.post(f"{C1}/tasks", {"title": "Not held"}))[0] == 201
    made_log = [r for r in await crm_admin.requests() if r["status"] == 201]
    assert sorted(str(r["fault_kind"]) for r in made_log) == ["None", "hold"], made_log
    # Released once: a second release, or one of no hold fault, is 404.
    assert (await crm_admin.post(f"/admin/faults/{fault['id']}/release"))[0] == 404
    assert (await crm_admin.post("/admin/faults/flt_999/release"))[0] == 404


async def test_clearing_or_removing_a_hold_lets_its_requests_go_on(crm_admin: CrmAdmin) -> None:
    """A hold removed by id, or cleared with the rest, holds nothing any more."""
    first = await crm_admin.add_fault(method="GET", path=INVOICES, hold=True, times=1)
    held = asyncio.create_task(crm_admin.get(f"{C1}/invoices"))
    await crm_admin.wait_until_seen("GET /v1/customers/{cid}/invoices")
    assert not held.done()
    assert (await crm_admin.delete(f"/admin/faults/{first['id']}"))[0] == 204
    assert (await held)[0] == 200
    await crm_admin.add_fault(method="GET", path=INVOICES, hold=True)
    held = asyncio.create_task(crm_admin.get(f"{C1}/invoices"))
    await crm_admin.wait_until_seen("GET /v1/customers/{cid}/invoices", count=2)
    assert not held.done()
    await crm_admin.clear_faults()
    assert (await held)[0] == 200


async def test_a_held_write_goes_on_when_the_stub_stops() -> None:
    """Stopping the stub lets a held write finish (applied and answered), as it does a
    slow one: the database closes after it."""
    runner = web.AppRunner(create_app(today=dt.date.today()))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}"
    headers = {"Authorization": "Bearer dev-crm-token"}
    async with aiohttp.ClientSession(headers=headers) as session:
        admin = CrmAdmin(session, url)
        await admin.add_fault(method="POST", path=TASKS, hold=True)
        held = asyncio.create_task(
            admin.post(f"{C1}/tasks", {"title": "Held"}, headers={"Idempotency-Key": "h"})
        )
        await admin.wait_until_in_flight("h")
        await runner.cleanup()
        assert (await held)[0] == 201


async def test_reset_closes_the_connection(crm_admin: CrmAdmin) -> None:
    """A reset fault drops the connection: the client gets a connection error, no answer."""
    await crm_admin.add_fault(method="GET", path=INVOICES, reset=True)
    connector = aiohttp.TCPConnector(force_close=True)
    async with aiohttp.ClientSession(
        connector=connector, headers={"Authorization": "Bearer dev-crm-token"}
    ) as session:
        with pytest.raises(aiohttp.ClientConnectionError):
            async with session.get(crm_admin.base_url + f"{C1}/invoices"):
                pass
    entry = (await crm_admin.requests(limit=1))[0]
    assert (entry["status"], entry["fault_kind"]) == (None, "reset")


async def test_reset_after_apply_loses_the_answer_not_the_write(crm_admin: CrmAdmin) -> None:
    """apply_after: the task is created, the answer is lost, and a keyed retry replays it."""
    await crm_admin.add_fault(
        method="POST", path="/v1/customers/*/tasks", reset=True, apply_after=True, times=1
    )
    headers = {"Idempotency-Key": "lost-answer"}
    with pytest.raises(aiohttp.ClientConnectionError):
        await crm_admin.post(f"{C1}/tasks", {"title": "Applied"}, headers=headers)
    status, body = await crm_admin.post(f"{C1}/tasks", {"title": "Applied"}, headers=headers)
    assert status == 201
    assert body["title"] == "Applied"
    _, tasks = await crm_admin.get(f"{C1}/tasks")
    assert [t["title"] for t in tasks["tasks"]].count("Applied") == 1
    stats = await crm_admin.stats()
    assert stats["writes_applied"]["POST /v1/customers/{cid}/tasks"] == 1
    posts = [r for r in await crm_admin.requests() if r["method"] == "POST"]
    assert [(r["status"], r["fault_kind"], r["replayed"]) for r in posts] == [
        (None, "reset", False),
        (201, None, True),
    ]
    assert {r["idempotency_key"] for r in posts} == {"lost-answer"}


async def test_hang_after_apply_then_retry_gets_the_stored_answer(crm_admin: CrmAdmin) -> None:
    """A write that times out after being applied: the keyed retry is a replay, not a 409."""
    await crm_admin.add_fault(
        method="POST", path="/v1/customers/*/tickets", hang=True, apply_after=True, times=1
    )
    body = {"subject": "Timed out", "body": "but saved"}
    headers = {"Idempotency-Key": "hung-write"}
    with pytest.raises(asyncio.TimeoutError):
        async with crm_admin.session.post(
            crm_admin.base_url + f"{C1}/tickets",
            json=body,
            headers=headers,
            timeout=aiohttp.ClientTimeout(total=0.3),
        ):
            pass
    status, replayed = await crm_admin.post(f"{C1}/tickets", body, headers=headers)
    assert status == 201
    _, tickets = await crm_admin.get(f"{C1}/tickets")
    assert [t["id"] for t in tickets["tickets"]].count(replayed["id"]) == 1


async def test_status_after_apply(crm_admin: CrmAdmin) -> None:
    """apply_after with a status: the client sees 502 although the appointment was cancelled."""
    _, listed = await crm_admin.get(f"{C1}/appointments")
    aid = listed["appointments"][0]["id"]
    await crm_admin.add_fault(
        method="POST", path="/v1/customers/*/appointments/*/cancel", status=502,
        apply_after=True, times=1,
    )  # fmt: skip
    status, body = await crm_admin.post(f"{C1}/appointments/{aid}/cancel")
    assert (status, body["error"]["code"]) == (502, "unavailable")
    _, cancelled = await crm_admin.get(f"{C1}/appointments?status=cancelled")
    assert aid in {a["id"] for a in cancelled["appointments"]}


async def test_faults_are_listed_removed_and_cleared(crm_admin: CrmAdmin) -> None:
    """GET lists active faults; DELETE by id removes one; DELETE all clears the rest."""
    first = await crm_admin.add_fault(path=INVOICES, status=500)
    second = await crm_admin.add_fault(path="/v1/customers/*", latency_ms=5, times=3)
    assert [f["id"] for f in await crm_admin.faults()] == [first["id"], second["id"]]
    assert second["times"] == 3
    assert second["method"] == "*"
    assert (await crm_admin.delete(f"/admin/faults/{first['id']}"))[0] == 204
    assert (await crm_admin.delete(f"/admin/faults/{first['id']}"))[0] == 404
    assert [f["id"] for f in await crm_admin.faults()] == [second["id"]]
    assert (await crm_admin.get(f"{C1}/invoices"))[0] == 200
    await crm_admin.clear_faults()
    assert await crm_admin.faults() == []


@pytest.mark.parametrize(
    ("spec", "field"),
    [
        ({"path": INVOICES}, "needs status, hang, reset, hold or latency_ms"),
        ({"path": INVOICES, "status": 503, "hang": True}, "exclude each other"),
        ({"path": INVOICES, "status": 503, "hold": True}, "hold excludes"),
        ({"path": INVOICES, "hold": True, "apply_after": True}, "hold excludes"),
        ({"path": INVOICES, "status": 200}, "status"),
        ({"path": "v1/customers", "status": 503}, "path"),
        ({"path": "/admin/stats", "status": 503}, "path"),
        ({"path": INVOICES, "status": 503, "method": "FETCH"}, "method"),
        ({"path": INVOICES, "status": 503, "times": 0}, "times"),
        ({"path": INVOICES, "latency_ms": -5}, "latency_ms"),
        ({"path": INVOICES, "status": 503, "colour": "red"}, "colour"),
        ({"path": INVOICES, "retry_after_s": 3, "latency_ms": 5}, "retry_after_s"),
    ],
)
async def test_bad_fault_specs_are_400(
    crm_admin: CrmAdmin, spec: dict[str, object], field: str
) -> None:
    """A fault that is malformed or does nothing is refused with a message naming why."""
    status, body = await crm_admin.post("/admin/faults", spec)
    assert status == 400
    assert field in body["error"]["message"]


async def test_admin_routes_absent_when_faults_are_disabled(
    aiohttp_client: Callable[
        [web.Application], Awaitable[TestClient[web.Request, web.Application]]
    ],
) -> None:
    """With faults_enabled=False (production), /admin answers 404 and the API still works."""
    client = await aiohttp_client(create_app(today=dt.date.today(), faults_enabled=False))
    headers = {"Authorization": "Bearer dev-crm-token"}
    response = await client.post(
        "/admin/faults", json={"path": INVOICES, "status": 503}, headers=headers
    )
    assert response.status == 404
    assert (await client.get(f"{C1}/invoices", headers=headers)).status == 200


async def test_startup_latency_slows_the_api_but_not_admin(
    aiohttp_server: Callable[[web.Application], Awaitable[TestServer]],
) -> None:
    """--latency-ms delays API routes: an admin call sent later answers first."""
    server = await aiohttp_server(create_app(today=dt.date.today(), latency_ms=800, jitter_ms=100))
    finished: list[str] = []
    async with aiohttp.ClientSession(headers={"Authorization": "Bearer dev-crm-token"}) as session:
        admin = CrmAdmin(session, str(server.make_url("/")).rstrip("/"))

        async def fetch(path: str) -> None:
            assert (await admin.get(path))[0] == 200
            finished.append(path)

        api = asyncio.create_task(fetch(C1))
        await admin.wait_until_seen("GET /v1/customers/{cid}")
        await fetch("/admin/faults")
        await api
    assert finished == ["/admin/faults", C1]


async def test_one_reset_on_a_get_is_absorbed_by_aiohttps_own_retry(crm_admin: CrmAdmin) -> None:
    """aiohttp retries an idempotent request once after a reset: `times: 1` goes unnoticed."""
    await crm_admin.add_fault(method="GET", path=INVOICES, reset=True, times=1)
    status, _ = await crm_admin.get(f"{C1}/invoices")
    assert status == 200
    log = [(r["status"], r["fault_kind"]) for r in await crm_admin.requests()]
    assert log == [(None, "reset"), (200, None)]


async def test_probability_hits_only_a_share_of_matching_requests(crm_admin: CrmAdmin) -> None:
    """A 30 % fault hits some requests and spares others, the same way for one seed."""
    await crm_admin.add_fault(method="GET", path=INVOICES, status=503, probability=0.3, seed=7)
    statuses = [(await crm_admin.get(f"{C1}/invoices"))[0] for _ in range(60)]
    failed = statuses.count(503)
    assert 0 < failed < 60
    assert statuses.count(200) == 60 - failed
    await crm_admin.clear_faults()
    await crm_admin.add_fault(method="GET", path=INVOICES, status=503, probability=0.3, seed=7)
    again = [(await crm_admin.get(f"{C1}/invoices"))[0] for _ in range(60)]
    assert again == statuses
