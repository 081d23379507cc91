"""The CRM client: HTTP statuses and aiohttp exceptions mapped to tool error codes.

Three kinds of CRM: a scripted one (a real aiohttp server on port 0 answering what
each test tells it to) for every status and odd body; aioresponses for the exact
shapes of the aiohttp client's own error paths (resets, disconnects, bodies cut
short); and the real CRM stub (tests/fixtures/crm.py) with its fault injection, to
prove the mapping end to end and that trace ids and idempotency keys reach the CRM.
"""

from __future__ import annotations

import asyncio
import errno
import json
import socket
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from aioresponses import aioresponses
from yarl import URL

from assistant.errors import ToolFailure
from assistant.tools.crm import SYSTEM_NAMES, CrmClient, Json, _query_string, parse_retry_after
from tests.fixtures.crm import CrmAdmin


@dataclass
class Seen:
    method: str
    raw_path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: bytes


@dataclass
class ScriptedCrm:
    """What the fake CRM answers next, and every request it saw."""

    status: int = 200
    body: bytes = b"{}"
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    seen: list[Seen] = field(default_factory=list)

    def answer(self, status: int, body: Any = None, **headers: str) -> None:
        self.status, self.headers = status, headers
        if isinstance(body, dict):
            self.body, self.content_type = json.dumps(body).encode(), "application/json"
        else:
            self.body, self.content_type = (body or "").encode(), "text/html"

    async def handle(self, request: web.Request) -> web.StreamResponse:
        self.seen.append(
            Seen(
                request.method,
                request.raw_path.split("?")[0],
                dict(request.query),
                dict(request.headers),
                await request.read(),
            )
        )
        return web.Response(
            status=self.status,
            body=self.body if self.status != 204 else None,
            content_type=self.content_type if self.status != 204 else None,
            headers=self.headers,
        )


_BILLING, _TASKS = SYSTEM_NAMES["billing"], SYSTEM_NAMES["tasks"]
_SCHEDULING = SYSTEM_NAMES["scheduling"]


# The CRM requests these tests make, through the client's one request path.
def _invoices(crm: CrmClient, *, trace_id: str) -> Awaitable[Json]:
    path = ("cust_001", "invoices")
    params = {"status": "open"}
    return crm.request("GET", _BILLING, path, trace_id=trace_id, params=params, expect="invoices")


def _list_tasks(crm: CrmClient, *, trace_id: str, status: str = "all") -> Awaitable[Json]:
    path, params = ("cust_001", "tasks"), {"status": status}
    return crm.request("GET", _TASKS, path, trace_id=trace_id, params=params, expect="tasks")


def _add_task(
    crm: CrmClient, *, trace_id: str, idempotency_key: str | None = None, **fields: Any
) -> Awaitable[Json]:
    path = ("cust_001", "tasks")
    return crm.request(
        "POST", _TASKS, path, trace_id=trace_id, idempotency_key=idempotency_key, body=fields
    )


def _complete_task(crm: CrmClient, task_id: str, *, trace_id: str) -> Awaitable[Json]:
    path = ("cust_001", "tasks", task_id, "complete")
    return crm.request("POST", _TASKS, path, trace_id=trace_id)


def _delete_task(crm: CrmClient, task_id: str, *, trace_id: str) -> Awaitable[Json]:
    return crm.request("DELETE", _TASKS, ("cust_001", "tasks", task_id), trace_id=trace_id)


def _book(crm: CrmClient, *, trace_id: str, **fields: Any) -> Awaitable[Json]:
    path = ("cust_001", "appointments")
    return crm.request("POST", _SCHEDULING, path, trace_id=trace_id, body=fields)


@pytest.fixture
async def scripted() -> AsyncIterator[tuple[ScriptedCrm, CrmClient]]:
    fake = ScriptedCrm()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", fake.handle)
    async with TestServer(app) as server, aiohttp.ClientSession() as session:
        yield fake, CrmClient(session, str(server.make_url("")), "test-token")


@pytest.fixture
async def mocked() -> AsyncIterator[tuple[aioresponses, CrmClient]]:
    with aioresponses() as mock:
        async with aiohttp.ClientSession() as session:
            yield mock, CrmClient(session, "http://crm.test", "test-token")


INVOICES = "http://crm.test/v1/customers/cust_001/invoices?status=open"


async def _failure(call: Awaitable[object]) -> ToolFailure:
    with pytest.raises(ToolFailure) as caught:
        await call
    return caught.value


def _envelope(code: str, message: str) -> dict[str, object]:
    return {"error": {"code": code, "message": message}}


# --- statuses ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (400, "invalid_arguments"),
        (401, "internal"),
        (403, "permission_denied"),
        (404, "not_found"),
        (409, "conflict"),
        (422, "invalid_arguments"),
        (429, "rate_limited"),
        (500, "unavailable"),
        (502, "unavailable"),
        (503, "unavailable"),
        (504, "unavailable"),
        (405, "internal"),
        (302, "internal"),
    ],
)
async def test_each_status_maps_to_its_tool_error_code(
    scripted: tuple[ScriptedCrm, CrmClient], status: int, code: str
) -> None:
    """Every HTTP status the CRM can answer becomes the PROTOCOL.md tool error code."""
    fake, crm = scripted
    fake.answer(status, _envelope("x", "something was off"))
    failure = await _failure(_invoices(crm, trace_id="t-1"))
    assert failure.code == code
    assert failure.retryable == (code == "unavailable")


async def test_bad_request_carries_the_crms_message(
    scripted: tuple[ScriptedCrm, CrmClient],
) -> None:
    """A 400 tells the narrator what the CRM found wrong, naming the field."""
    fake, crm = scripted
    fake.answer(400, _envelope("invalid_request", "due_on: not a date"))
    failure = await _failure(_add_task(crm, title="x", due_on="soon", trace_id="t"))
    assert failure.code == "invalid_arguments"
    assert failure.message == "the task list answered 400: due_on: not a date"


async def test_refused_credentials_are_an_internal_failure_saying_so(
    scripted: tuple[ScriptedCrm, CrmClient],
) -> None:
    """A 401 is our service token's fault, not the customer's: internal, plainly worded."""
    fake, crm = scripted
    fake.answer(401, _envelope("unauthorized", "bad token"))
    failure = await _failure(_invoices(crm, trace_id="t"))
    assert (failure.code, failure.message) == (
        "internal",
        "the CRM refused the assistant's credentials",
    )


async def test_a_reused_idempotency_key_is_a_conflict(
    scripted: tuple[ScriptedCrm, CrmClient],
) -> None:
    """422 for a key reused with another body is a clash between writes, not bad input."""
    fake, crm = scripted
    fake.answer(422, _envelope("invalid_state", "Idempotency-Key reused with a different body"))
    failure = await _failure(_add_task(crm, title="x", trace_id="t", idempotency_key="k1"))
    assert failure.code == "conflict"


async def test_an_invalid_state_is_invalid_arguments_with_the_crms_message(
    scripted: tuple[ScriptedCrm, CrmClient],
) -> None:
    """422 such as booking in the past reaches the narrator as invalid_arguments."""
    fake, crm = scripted
    fake.answer(422, _envelope("invalid_state", "starts_at is in the past"))
    failure = await _failure(
        _book(crm, service="Haircut", starts_at="2000-01-01T10:00:00+00:00", trace_id="t")
    )
    assert failure.code == "invalid_arguments"
    assert failure.message == "the scheduling system answered 422: starts_at is in the past"


async def test_server_errors_are_short_and_human(
    scripted: tuple[ScriptedCrm, CrmClient],
) -> None:
    """A 503 with an HTML page reads as a sentence naming the part of the CRM."""
    fake, crm = scripted
    fake.answer(503, "<html>upstream down</html>")
    failure = await _failure(_invoices(crm, trace_id="t"))
    assert (failure.code, failure.message) == ("unavailable", "the billing system answered 503")


async def test_429_carries_retry_after_seconds(scripted: tuple[ScriptedCrm, CrmClient]) -> None:
    """A 429's Retry-After in seconds reaches the policy as retry_after_s."""
    fake, crm = scripted
    fake.answer(429, _envelope("rate_limited", "slow down"), **{"Retry-After": "7"})
    failure = await _failure(_invoices(crm, trace_id="t"))
    assert (failure.code, failure.retry_after_s) == ("rate_limited", 7.0)
    assert failure.message == "the billing system is rate limiting requests; it asks to wait 7 s"


async def test_429_carries_retry_after_as_an_http_date(
    scripted: tuple[ScriptedCrm, CrmClient],
) -> None:
    """A 429's Retry-After given as an HTTP date becomes the seconds until that date."""
    fake, crm = scripted
    when = datetime.now(UTC) + timedelta(hours=1)
    fake.answer(429, None, **{"Retry-After": format_datetime(when, usegmt=True)})
    failure = await _failure(_invoices(crm, trace_id="t"))
    assert failure.code == "rate_limited"
    assert failure.retry_after_s is not None
    assert 3000 < failure.retry_after_s <= 3600


async def test_429_without_retry_after_has_no_wait(
    scripted: tuple[ScriptedCrm, CrmClient],
) -> None:
    """A 429 with no usable Retry-After is still rate_limited, with no invented wait."""
    fake, crm = scripted
    fake.answer(429, None, **{"Retry-After": "whenever"})
    failure = await _failure(_invoices(crm, trace_id="t"))
    assert (failure.code, failure.retry_after_s) == ("rate_limited", None)


@pytest.mark.parametrize(
    ("header", "seconds"),
    [
        ("120", 120.0),
        (" 1.5 ", 1.5),
        ("-3", 0.0),
        ("Wed, 21 Oct 2015 07:28:30 GMT", 30.0),
        ("Wed, 21 Oct 2015 07:27:00 GMT", 0.0),
        ("nan", None),
        ("soon", None),
        ("", None),
        (None, None),
    ],
)
def test_retry_after_parsing(header: str | None, seconds: float | None) -> None:
    """Retry-After as delay-seconds or HTTP-date; past dates mean now; junk means unknown."""
    now = datetime(2015, 10, 21, 7, 28, 0, tzinfo=UTC)
    assert parse_retry_after(header, now=now) == seconds


# --- bodies ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    ["<html>proxy error</html>", '{"invoices": [', "[1, 2, 3]", '{"unexpected": true}', ""],
    ids=["html", "truncated-json", "array", "wrong-shape", "empty"],
)
async def test_malformed_success_bodies_are_internal(
    scripted: tuple[ScriptedCrm, CrmClient], body: str
) -> None:
    """A 200 whose body is not the JSON object expected is `internal`, never passed on."""
    fake, crm = scripted
    fake.answer(200, body)
    failure = await _failure(_invoices(crm, trace_id="t"))
    assert failure.code == "internal"
    assert not failure.retryable
    assert failure.message.startswith("the billing system answered with")


async def test_valid_json_with_an_escaped_lone_surrogate_is_still_read(
    scripted: tuple[ScriptedCrm, CrmClient],
) -> None:
    """JSON the fast parser refuses but that is valid (a lone surrogate, escaped) is read."""
    fake, crm = scripted
    fake.answer(200, '{"invoices": [{"id": "INV-1", "memo": "a \\ud800 b"}]}')
    fake.content_type = "application/json"
    document = await _invoices(crm, trace_id="t")
    assert document == {"invoices": [{"id": "INV-1", "memo": "a \ud800 b"}]}


async def test_delete_answering_204_returns_nothing(
    scripted: tuple[ScriptedCrm, CrmClient],
) -> None:
    """A 204 with no body is a success, not a malformed answer."""
    fake, crm = scripted
    fake.answer(204)
    await _delete_task(crm, "task_1", trace_id="t")
    assert (fake.seen[0].method, fake.seen[0].raw_path) == (
        "DELETE",
        "/v1/customers/cust_001/tasks/task_1",
    )


async def test_listed_items_naming_another_customer_are_left_out(
    scripted: tuple[ScriptedCrm, CrmClient],
) -> None:
    """A listing carrying an item whose `customer_id` is another customer's keeps only
    this customer's items (never read out as theirs, never written on)."""
    fake, crm = scripted
    mine, theirs = {"id": "task_1", "title": "Mine"}, {"id": "task_9", "customer_id": "cust_002"}
    fake.answer(200, {"tasks": [mine, {**mine, "id": "task_2", "customer_id": "cust_001"}, theirs]})
    document = await _list_tasks(crm, trace_id="t")
    assert [item["id"] for item in document["tasks"]] == ["task_1", "task_2"]


async def test_a_profile_of_another_customer_is_internal(
    scripted: tuple[ScriptedCrm, CrmClient],
) -> None:
    """The customer's own route answering another customer's record fails."""
    fake, crm = scripted
    fake.answer(200, {"id": "cust_002", "name": "James Smith", "email": "james@example.com"})
    failure = await _failure(crm.get_customer("cust_001", trace_id="t"))
    assert failure.code == "internal" and not failure.unconfirmed


@pytest.mark.parametrize(
    "body",
    [{"tasks": [{"id": "task_1"}]}, {}, {"id": "appt_9", "customer_id": "cust_002"}, "<html>"],
    ids=["a-listing", "empty", "another-customer", "not-json"],
)
async def test_a_write_answered_2xx_without_its_record_is_unconfirmed(
    scripted: tuple[ScriptedCrm, CrmClient], body: Any
) -> None:
    """A booking answered 201 with what is not its record may have been applied: the
    failure is marked unconfirmed (never told as not done)."""
    fake, crm = scripted
    fake.answer(201, body)
    failure = await _failure(_book(crm, trace_id="t", service="Facial"))
    assert failure.code == "internal" and failure.unconfirmed


async def test_a_delete_answered_200_with_any_body_is_done(
    scripted: tuple[ScriptedCrm, CrmClient],
) -> None:
    """A DELETE's 2xx says the item is gone, whatever its body."""
    fake, crm = scripted
    fake.answer(200, {"ok": True})
    assert await _delete_task(crm, "task_1", trace_id="t") == {"ok": True}


# --- what is sent ------------------------------------------------------------------


async def test_headers_carry_token_trace_id_and_idempotency_key(
    scripted: tuple[ScriptedCrm, CrmClient],
) -> None:
    """Every request has the service token and trace id; a write its idempotency key."""
    fake, crm = scripted
    fake.answer(201, {"id": "task_9", "title": "Call mom"})
    await _add_task(crm, title="Call mom", trace_id="trace-w", idempotency_key="key-1")
    fake.answer(200, {"tasks": []})
    await _list_tasks(crm, status="pending", trace_id="trace-r")
    write, read = fake.seen
    assert write.headers["X-Trace-Id"] == "trace-w"
    assert write.headers["Idempotency-Key"] == "key-1"
    assert write.headers["Authorization"] == "Bearer test-token"
    assert write.body == b'{"title": "Call mom"}'
    assert read.headers["X-Trace-Id"] == "trace-r"
    assert "Idempotency-Key" not in read.headers
    assert read.query == {"status": "pending"}


@pytest.mark.parametrize(
    "value", ["pending", "a b", "x&y=z", "50%+1", "café ☕", "a/b?c#d", "", "~-._*'()"]
)
def test_a_query_is_encoded_as_aiohttp_encodes_params(value: str) -> None:
    """The query the client puts into the URL itself (once per distinct query) is, byte
    for byte, the URL aiohttp built from `params` on every request before."""
    route = "http://127.0.0.1:8081/v1/customers/cust_001/tasks"
    params = {"status": value, "due": "2026-05-01T09:00:00+02:00"}
    for _ in range(2):
        ours = URL(route + _query_string(tuple(params.items())), encoded=True)
        theirs = URL(route, encoded=True).extend_query(params)
        assert str(ours) == str(theirs)
        assert ours.raw_path_qs == theirs.raw_path_qs


async def test_a_query_reaches_the_crm_decoded_as_given(
    scripted: tuple[ScriptedCrm, CrmClient],
) -> None:
    """Query values with spaces, '&', '=', '+' and accents arrive as they were given."""
    fake, crm = scripted
    for status in ("a b", "x&y=z", "1+1", "café"):
        fake.answer(200, {"tasks": []})
        await _list_tasks(crm, status=status, trace_id="t")
        assert fake.seen[-1].query == {"status": status}
        assert fake.seen[-1].raw_path == "/v1/customers/cust_001/tasks"


async def test_a_write_without_a_key_sends_none(scripted: tuple[ScriptedCrm, CrmClient]) -> None:
    """No idempotency key given means no Idempotency-Key header, not an empty one."""
    fake, crm = scripted
    fake.answer(200, {"id": "task_1", "status": "completed"})
    assert (await _complete_task(crm, "task_1", trace_id="t"))["status"] == "completed"
    assert "Idempotency-Key" not in fake.seen[0].headers


async def test_ids_cannot_walk_to_another_route(scripted: tuple[ScriptedCrm, CrmClient]) -> None:
    """An id with slashes or dots stays one path segment, or is refused before sending,
    the second time as the first (segments are kept once encoded)."""
    fake, crm = scripted
    for _ in range(2):
        fake.answer(200, {"id": "x"})
        await _complete_task(crm, "../../cust_002/tasks/task_1", trace_id="t")
        assert fake.seen[-1].raw_path == (
            "/v1/customers/cust_001/tasks/..%2F..%2Fcust_002%2Ftasks%2Ftask_1/complete"
        )
        failure = await _failure(_complete_task(crm, "..", trace_id="t"))
        assert failure.code == "invalid_arguments"
    assert len(fake.seen) == 2


async def test_phone_lookup_sends_the_number_as_one_segment(
    scripted: tuple[ScriptedCrm, CrmClient],
) -> None:
    """The telephony lookup reaches /by-phone/ with the E.164 number intact."""
    fake, crm = scripted
    fake.answer(200, {"id": "cust_001"})
    await crm.get_customer_by_phone("+14155550101", trace_id="t")
    assert fake.seen[0].raw_path == "/v1/customers/by-phone/%2B14155550101"


# --- exceptions --------------------------------------------------------------------


@pytest.mark.parametrize(
    "exception",
    [
        aiohttp.ClientOSError(errno.ECONNRESET, "Connection reset by peer"),
        aiohttp.ServerDisconnectedError(),
        aiohttp.ClientPayloadError("Response payload is not completed"),
    ],
    ids=["reset", "disconnected", "cut-short"],
)
async def test_connection_failures_are_retryable_unavailable(
    mocked: tuple[aioresponses, CrmClient], exception: Exception
) -> None:
    """A reset, a disconnect or a body cut short is `unavailable` and marked a connection error."""
    mock, crm = mocked
    mock.get(INVOICES, exception=exception)
    failure = await _failure(_invoices(crm, trace_id="t"))
    assert failure.code == "unavailable"
    assert failure.connection_error
    assert failure.retryable
    assert failure.message == "the billing system could not be reached"


@pytest.mark.parametrize(
    "exception",
    [TimeoutError(), aiohttp.SocketTimeoutError("Timeout on reading data")],
    ids=["total", "socket-read"],
)
async def test_session_timeouts_are_timeout(
    mocked: tuple[aioresponses, CrmClient], exception: Exception
) -> None:
    """The session's own timeouts (total or socket read) become `timeout`, not `unavailable`."""
    mock, crm = mocked
    mock.get(INVOICES, exception=exception)
    failure = await _failure(_invoices(crm, trace_id="t"))
    assert failure.code == "timeout"
    assert failure.retryable


async def test_refused_connection_is_retryable_unavailable() -> None:
    """A CRM that is not listening (connection refused) is `unavailable`, a connection error."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    async with aiohttp.ClientSession() as session:
        crm = CrmClient(session, f"http://127.0.0.1:{port}", "t")
        failure = await _failure(crm.get_customer("cust_001", trace_id="t"))
    assert (failure.code, failure.connection_error) == ("unavailable", True)


async def test_real_session_timeout_is_timeout() -> None:
    """A CRM that never answers, under the session's own timeout, fails as `timeout`."""
    never = asyncio.Event()

    async def hang(request: web.Request) -> web.Response:
        await never.wait()
        return web.json_response({})

    app = web.Application()
    app.router.add_get("/v1/customers/{cid}", hang)
    async with TestServer(app) as server:
        timeout = aiohttp.ClientTimeout(total=0.2)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            crm = CrmClient(session, str(server.make_url("")), "t")
            failure = await _failure(crm.get_customer("cust_001", trace_id="t"))
    assert failure.code == "timeout"
    assert failure.message == "the customer records did not answer in time"


# --- the real CRM stub -------------------------------------------------------------


@pytest.fixture
async def stub(crm_url: str, crm_token: str) -> AsyncIterator[CrmClient]:
    async with aiohttp.ClientSession() as session:
        yield CrmClient(session, crm_url, crm_token)


@pytest.mark.parametrize(
    ("fault", "code", "message"),
    [
        ({"status": 503}, "unavailable", "the billing system answered 503"),
        ({"status": 500}, "unavailable", "the billing system answered 500"),
        # aiohttp itself resends an idempotent request once after a reset (RFC 9112
        # section 9.3.1), so a GET fails only when its resend is reset too.
        ({"reset": True, "times": 2}, "unavailable", "the billing system could not be reached"),
        (
            {"status": 429, "retry_after_s": 2},
            "rate_limited",
            "the billing system is rate limiting requests; it asks to wait 2 s",
        ),
    ],
    ids=["503", "500", "reset", "429"],
)
async def test_stub_faults_map_to_codes(
    stub: CrmClient, crm_admin: CrmAdmin, fault: dict[str, Any], code: str, message: str
) -> None:
    """Each injected fault reaches the client as its code; once it is spent, all is well."""
    await crm_admin.add_fault(
        method="GET", path="/v1/customers/*/invoices", **{"times": 1, **fault}
    )
    failure = await _failure(_invoices(stub, trace_id="t"))
    assert (failure.code, failure.message) == (code, message)
    assert failure.retry_after_s == (2.0 if code == "rate_limited" else None)
    assert failure.connection_error == ("reset" in fault)
    assert (await _invoices(stub, trace_id="t"))["balance_cents"] == 15000


async def test_stub_reset_write_is_unavailable_and_not_resent(
    stub: CrmClient, crm_admin: CrmAdmin
) -> None:
    """A POST whose connection is reset fails as a connection error; nothing resends it."""
    await crm_admin.add_fault(method="POST", path="/v1/customers/*/tasks", reset=True, times=1)
    failure = await _failure(_add_task(stub, title="Call mom", trace_id="t", idempotency_key="k0"))
    assert (failure.code, failure.connection_error) == ("unavailable", True)
    assert (await crm_admin.stats())["requests"]["POST /v1/customers/{cid}/tasks"] == 1
    titles = [t["title"] for t in (await _list_tasks(stub, trace_id="t"))["tasks"]]
    assert "Call mom" not in titles


async def test_stub_hang_under_the_session_timeout_is_timeout(
    crm_url: str, crm_token: str, crm_admin: CrmAdmin
) -> None:
    """A hanging CRM route, cut off by the session's own timeout, fails as `timeout`."""
    await crm_admin.add_fault(method="GET", path="/v1/customers/*/tasks", hang=True, times=1)
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=0.3)) as session:
        crm = CrmClient(session, crm_url, crm_token)
        failure = await _failure(_list_tasks(crm, trace_id="t"))
        assert failure.code == "timeout"
        assert failure.message == "the task list did not answer in time"


async def test_stub_wrong_service_token_is_internal(crm_url: str) -> None:
    """A CRM that refuses our token gives `internal` with a message saying whose fault it is."""
    async with aiohttp.ClientSession() as session:
        crm = CrmClient(session, crm_url, "not-the-token")
        failure = await _failure(crm.get_customer("cust_001", trace_id="t"))
    assert (failure.code, failure.message) == (
        "internal",
        "the CRM refused the assistant's credentials",
    )


async def test_stub_another_customers_task_is_not_found(
    stub: CrmClient, crm_admin: CrmAdmin
) -> None:
    """cust_002's task asked for under cust_001 is `not_found`, and stays pending."""
    _, listing = await crm_admin.get("/v1/customers/cust_002/tasks?status=pending")
    theirs = listing["tasks"][0]["id"]
    failure = await _failure(_complete_task(stub, theirs, trace_id="t"))
    assert failure.code == "not_found"
    _, after = await crm_admin.get("/v1/customers/cust_002/tasks?status=pending")
    assert theirs in [task["id"] for task in after["tasks"]]


async def test_stub_bad_field_is_invalid_arguments_naming_it(stub: CrmClient) -> None:
    """A field the CRM rejects (a due date that is not a date) comes back naming the field."""
    failure = await _failure(_add_task(stub, title="x", due_on="someday", trace_id="t"))
    assert failure.code == "invalid_arguments"
    assert failure.message.startswith("the task list answered 400: due_on")


async def test_stub_booking_in_the_past_is_invalid_arguments(stub: CrmClient) -> None:
    """The CRM's 422 for a past start time reaches the narrator as invalid_arguments."""
    failure = await _failure(
        _book(stub, service="Haircut", starts_at="2001-02-03T10:00:00+00:00", trace_id="t")
    )
    assert failure.code == "invalid_arguments"
    assert "is in the past" in failure.message


async def test_stub_key_reused_with_another_body_is_conflict(stub: CrmClient) -> None:
    """One idempotency key reused for a different task is a `conflict`, not applied."""
    first = await _add_task(stub, title="Water plants", trace_id="t", idempotency_key="k")
    failure = await _failure(
        _add_task(stub, title="Walk the dog", trace_id="t", idempotency_key="k")
    )
    assert failure.code == "conflict"
    titles = [t["title"] for t in (await _list_tasks(stub, trace_id="t"))["tasks"]]
    assert "Walk the dog" not in titles
    assert titles.count(first["title"]) == 1


async def test_stub_key_still_in_flight_is_conflict(stub: CrmClient, crm_admin: CrmAdmin) -> None:
    """A duplicate sent while the first write is still processing is a `conflict`."""
    await crm_admin.add_fault(method="POST", path="/v1/customers/*/tasks", latency_ms=500, times=1)
    first = asyncio.create_task(
        _add_task(stub, title="Water plants", trace_id="t", idempotency_key="k2")
    )
    await crm_admin.wait_until_in_flight("k2")
    failure = await _failure(
        _add_task(stub, title="Water plants", trace_id="t", idempotency_key="k2")
    )
    assert failure.code == "conflict"
    assert (await first)["title"] == "Water plants"


async def test_stub_replayed_write_is_applied_once(stub: CrmClient) -> None:
    """The same write sent twice with one key creates one task and answers it twice."""
    first = await _add_task(stub, title="Call mom", trace_id="t", idempotency_key="k3")
    again = await _add_task(stub, title="Call mom", trace_id="t", idempotency_key="k3")
    assert again == first
    titles = [t["title"] for t in (await _list_tasks(stub, trace_id="t"))["tasks"]]
    assert titles.count("Call mom") == 1


async def test_stub_sees_trace_id_and_idempotency_key(stub: CrmClient, crm_admin: CrmAdmin) -> None:
    """The CRM's request log shows each call's trace id, and the write's idempotency key."""
    await stub.get_customer("cust_001", trace_id="trace-read")
    await _add_task(stub, title="Call mom", trace_id="trace-write", idempotency_key="k4")
    created = await _add_task(stub, title="Call dad", trace_id="t")
    await _delete_task(stub, created["id"], trace_id="trace-delete")
    read, write, _, delete = await crm_admin.requests(limit=4)
    assert (read["method"], read["trace_id"], read["idempotency_key"]) == (
        "GET",
        "trace-read",
        None,
    )
    assert (write["method"], write["trace_id"], write["idempotency_key"]) == (
        "POST",
        "trace-write",
        "k4",
    )
    assert (delete["method"], delete["trace_id"], delete["status"]) == (
        "DELETE",
        "trace-delete",
        204,
    )
