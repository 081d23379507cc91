"""Bad input and bad credentials: always a JSON envelope with the right status, never a 500."""

from __future__ import annotations

import io
from typing import Any

import aiohttp
import pytest

from tests.fixtures.crm import CrmAdmin

C1 = "/v1/customers/cust_001"


async def raw_post(
    admin: CrmAdmin, path: str, data: bytes | io.BytesIO
) -> tuple[int, dict[str, Any]]:
    headers = {"Content-Type": "application/json"}
    async with admin.session.post(admin.base_url + path, data=data, headers=headers) as response:
        return response.status, await response.json()


@pytest.mark.parametrize(
    ("path", "data", "field"),
    [
        (f"{C1}/tasks", b'{"title": "x"', "malformed JSON"),
        (f"{C1}/tasks", b"[1, 2]", "JSON object"),
        (f"{C1}/tasks", b'"just a string"', "JSON object"),
        (f"{C1}/tasks", b"", "JSON object"),
        (f"{C1}/tasks", b'{"title": 42}', "title:"),
        (f"{C1}/tasks", b'{"title": ""}', "title:"),
        (f"{C1}/tasks", b'{"title": "x", "priority": "urgent"}', "priority:"),
        (f"{C1}/tasks", b'{"title": "x", "due_on": "next week"}', "due_on:"),
        (f"{C1}/tasks", b'{"title": "x", "due_on": "2025-02-30"}', "due_on:"),
        (f"{C1}/tasks", b'{"title": "x", "colour": "red"}', "colour: unknown field"),
        (f"{C1}/tasks", b'{"description": "no title"}', "title:"),
        (f"{C1}/appointments", b'{"service": "Haircut", "starts_at": "tomorrow"}', "starts_at:"),
        (f"{C1}/appointments", b'{"service": "Haircut", "starts_at": 1767225600}', "starts_at:"),
        (f"{C1}/tickets", b'{"subject": "x", "body": ["not", "text"]}', "body:"),
        (f"{C1}/appointments/appt_0001/cancel", b'{"reason": "busy"}', "reason: unknown field"),
        (f"{C1}/tasks/task_0001/complete", b"nonsense", "malformed JSON"),
    ],
)
async def test_bad_bodies_are_400_naming_the_problem(
    crm_admin: CrmAdmin, path: str, data: bytes, field: str
) -> None:
    """Malformed JSON, wrong types, missing, unknown and bad-date fields: 400 invalid_request."""
    status, body = await raw_post(crm_admin, path, data)
    assert status == 400
    error = body["error"]
    assert isinstance(error, dict)
    assert error["code"] == "invalid_request"
    assert field in error["message"]


async def test_bad_patch_body_changes_nothing(crm_admin: CrmAdmin) -> None:
    """A PATCH that fails validation leaves the task as it was."""
    _, before = await crm_admin.get(f"{C1}/tasks")
    tid = before["tasks"][0]["id"]
    status, _ = await crm_admin.patch(f"{C1}/tasks/{tid}", {"title": "ok", "priority": 3})
    assert status == 400
    _, after = await crm_admin.get(f"{C1}/tasks")
    assert after == before


async def test_unknown_route_is_a_json_404(crm_admin: CrmAdmin) -> None:
    """An unknown route answers the not_found envelope, not HTML."""
    status, body = await crm_admin.get("/v2/whatever")
    assert status == 404
    assert body["error"]["code"] == "not_found"


async def test_wrong_method_is_a_json_405(crm_admin: CrmAdmin) -> None:
    """PUT on a route that has no PUT answers 405 with the envelope and an Allow header."""
    async with crm_admin.session.put(crm_admin.base_url + f"{C1}/tasks") as response:
        assert response.status == 405
        assert "POST" in response.headers["Allow"]
        body = await response.json()
    assert body["error"]["code"] == "invalid_request"


@pytest.mark.parametrize(
    "authorization", [None, "Bearer wrong-token", "dev-crm-token", "Basic ZGV2OmRldg=="]
)
async def test_missing_or_wrong_token_is_401(crm_url: str, authorization: str | None) -> None:
    """Every route but /healthz needs the service token as a Bearer credential."""
    headers = {} if authorization is None else {"Authorization": authorization}
    async with (
        aiohttp.ClientSession() as session,
        session.get(crm_url + f"{C1}/tasks", headers=headers) as response,
    ):
        assert response.status == 401
        assert response.headers["WWW-Authenticate"] == "Bearer"
        body = await response.json()
    assert body["error"]["code"] == "unauthorized"


async def test_admin_routes_need_the_token_too(crm_url: str) -> None:
    """Fault injection cannot be reached without the service token."""
    async with (
        aiohttp.ClientSession() as session,
        session.post(crm_url + "/admin/faults", json={"path": "/healthz", "status": 503}) as resp,
    ):
        assert resp.status == 401


async def test_a_sweep_of_odd_requests_never_answers_500(crm_admin: CrmAdmin) -> None:
    """Whatever a client sends, the answer is a 4xx envelope, never an internal error."""
    odd = [
        ("GET", "/v1/customers/"),
        ("GET", "/v1/customers/by-phone/"),
        ("GET", "/v1/customers/by-phone/%2B"),
        ("GET", "/v1/customers/cust_001/appointments?status="),
        ("PATCH", "/v1/customers/cust_001/appointments/appt_0001"),
        ("POST", "/v1/customers/cust_001/appointments/nope/cancel"),
        ("DELETE", "/v1/customers/cust_001"),
        ("POST", "/healthz"),
        ("GET", "/admin/requests?limit=-3"),
        ("GET", "/admin/requests?limit=lots"),
        ("DELETE", "/admin/faults/flt_404"),
    ]
    for method, path in odd:
        status, body = await crm_admin.call(method, path)
        assert 400 <= status < 500, (method, path, status)
        assert body["error"]["code"] in {"invalid_request", "not_found"}, (method, path)


async def test_oversized_body_is_a_4xx_envelope(crm_admin: CrmAdmin) -> None:
    """A body past the server's limit is refused with the envelope, not a crash."""
    status, body = await raw_post(
        crm_admin, f"{C1}/tickets", io.BytesIO(b'{"subject": "' + b"x" * 2_000_000)
    )
    assert status == 413
    assert body["error"]["code"] == "invalid_request"
