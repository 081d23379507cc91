"""The CRM client: typed calls to the CRM's REST API (shared/CRM_API.md).

This is the boundary where HTTP meets the assistant. Every HTTP status and every
aiohttp exception is translated here, once, into a `ToolFailure` with a PROTOCOL.md
tool error code; nothing above this module sees an aiohttp type:

    status / exception                         code               retried by the policy
    400                                        invalid_arguments  no
    401 (our service token refused)            internal           no
    403                                        permission_denied  no
    404                                        not_found          no
    409 (e.g. idempotency key in flight)       conflict           no
    422 idempotency key reused, other body     conflict           no
    422 any other invalid_state                invalid_arguments  no
    429                                        rate_limited       per Retry-After
    5xx                                        unavailable        yes
    other statuses, non-JSON or odd bodies     internal           no
    session timeout                            timeout            yes
    reset, refused, disconnected, cut short    unavailable        yes (connection_error)

422 is split because the CRM uses `invalid_state` for two different things: a request
that cannot apply (booking in the past, moving a cancelled appointment) is something
the customer can change, so it is `invalid_arguments` with the CRM's message for the
narrator; an idempotency key reused with another body is a clash between two writes,
so it is `conflict`.

The client neither retries nor sets per-call timeouts: the executor's `CallPolicy`
owns timeouts, retries, Retry-After and the circuit breaker. (One resend does happen
below us: aiohttp sends an idempotent request, GET or DELETE, once more when its
connection is reset or closed before any answer, as RFC 9112 section 9.3.1 allows for
stale keep-alive connections. A write keeps its Idempotency-Key on that resend.)
It uses the app's one `aiohttp.ClientSession`, which it does not own or close; the
app gives that session a total timeout per request (`crm_timeout_s`), so no request,
set-up's profile fetch included, can wait longer. A `Bulkhead` (bulkhead.py) caps the
requests in flight per part of the CRM and per customer below the pool size.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, Literal
from urllib.parse import quote

import aiohttp
from yarl import URL

from assistant import tracing
from assistant.errors import ToolFailure
from assistant.tools.bulkhead import Bulkhead

Json = dict[str, Any]
AppointmentStatus = Literal["upcoming", "past", "cancelled", "all"]
InvoiceStatus = Literal["open", "paid", "all"]
TaskStatus = Literal["pending", "completed", "all"]
TicketStatus = Literal["open", "closed", "all"]
Priority = Literal["low", "normal", "high"]

# How each part of the CRM is named in messages the narrator may repeat to a customer.
_ACCOUNTS = "the customer records"
_SCHEDULING = "the scheduling system"
_BILLING = "the billing system"
_TASKS = "the task list"
_SUPPORT = "the support system"


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (delay-seconds or HTTP-date), or None."""
    if value is None or not value.strip():
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:  # RFC 9110 dates are GMT; a bare one is read as such
            when = when.replace(tzinfo=UTC)
        seconds = (when - (now or datetime.now(UTC))).total_seconds()
    if seconds != seconds:  # NaN
        return None
    return max(0.0, seconds)


def _segment(value: str) -> str:
    """One path segment, percent-encoded so an id can never walk to another route."""
    if value in ("", ".", ".."):
        raise ToolFailure("invalid_arguments", f"{value!r} is not a valid id")
    return quote(value, safe="")


def _crm_message(body: bytes) -> str | None:
    """The message of the CRM's error envelope, when the body is one."""
    try:
        document = json.loads(body)
    except ValueError:
        return None
    if isinstance(document, dict) and isinstance(document.get("error"), dict):
        message = document["error"].get("message")
        if isinstance(message, str) and message:
            return message
    return None


def _failure_for_status(
    system: str, status: int, body: bytes, headers: Mapping[str, str]
) -> ToolFailure:
    """The ToolFailure for a non-2xx answer of `system`."""
    crm_message = _crm_message(body)
    answered = f"{system} answered {status}"
    detail = f"{answered}: {crm_message}" if crm_message else answered
    if status == 400:
        return ToolFailure("invalid_arguments", detail)
    if status == 401:
        # The customer did nothing wrong: our service token is wrong or missing.
        return ToolFailure("internal", "the CRM refused the assistant's credentials")
    if status == 403:
        return ToolFailure("permission_denied", detail)
    if status == 404:
        return ToolFailure("not_found", detail)
    if status == 409:
        return ToolFailure("conflict", detail)
    if status == 422:
        if crm_message and "idempotency" in crm_message.lower():
            return ToolFailure("conflict", detail)
        return ToolFailure("invalid_arguments", detail)
    if status == 429:
        retry_after_s = parse_retry_after(headers.get("Retry-After"))
        wait = f"; it asks to wait {retry_after_s:g} s" if retry_after_s is not None else ""
        return ToolFailure(
            "rate_limited", f"{system} is rate limiting requests{wait}", retry_after_s=retry_after_s
        )
    if status >= 500:
        return ToolFailure("unavailable", answered)
    return ToolFailure("internal", detail)


class CrmClient:
    """Typed calls to the CRM over the app's one `aiohttp.ClientSession`."""

    def __init__(
        self,
        session: aiohttp.ClientSession,
        base_url: str,
        token: str,
        *,
        bulkhead: Bulkhead | None = None,
    ) -> None:
        self._session = session
        self._base = base_url.rstrip("/")
        self._auth = f"Bearer {token}"
        self._bulkhead = bulkhead

    # --- customers -----------------------------------------------------------------

    async def get_customer(self, customer_id: str, *, trace_id: str) -> Json:
        return await self._get(_ACCOUNTS, (customer_id,), trace_id)

    async def get_customer_by_phone(self, e164: str, *, trace_id: str) -> Json:
        return await self._get(_ACCOUNTS, ("by-phone", e164), trace_id)

    async def update_customer(
        self,
        customer_id: str,
        *,
        email: str | None = None,
        phone: str | None = None,
        trace_id: str,
        idempotency_key: str | None = None,
    ) -> Json:
        body = _given(email=email, phone=phone)
        path = (customer_id,)
        return await self._send("PATCH", _ACCOUNTS, path, body, trace_id, idempotency_key)

    # --- appointments --------------------------------------------------------------

    async def list_appointments(
        self, customer_id: str, *, status: AppointmentStatus = "upcoming", trace_id: str
    ) -> Json:
        path = (customer_id, "appointments")
        return await self._get(_SCHEDULING, path, trace_id, status=status, expect="appointments")

    async def book_appointment(
        self,
        customer_id: str,
        *,
        service: str,
        starts_at: str,
        trace_id: str,
        idempotency_key: str | None = None,
    ) -> Json:
        body = {"service": service, "starts_at": starts_at}
        path = (customer_id, "appointments")
        return await self._send("POST", _SCHEDULING, path, body, trace_id, idempotency_key)

    async def reschedule_appointment(
        self,
        customer_id: str,
        appointment_id: str,
        *,
        starts_at: str,
        trace_id: str,
        idempotency_key: str | None = None,
    ) -> Json:
        body = {"starts_at": starts_at}
        path = (customer_id, "appointments", appointment_id)
        return await self._send("PATCH", _SCHEDULING, path, body, trace_id, idempotency_key)

    async def cancel_appointment(
        self,
        customer_id: str,
        appointment_id: str,
        *,
        trace_id: str,
        idempotency_key: str | None = None,
    ) -> Json:
        path = (customer_id, "appointments", appointment_id, "cancel")
        return await self._send("POST", _SCHEDULING, path, None, trace_id, idempotency_key)

    # --- invoices ------------------------------------------------------------------

    async def list_invoices(
        self, customer_id: str, *, status: InvoiceStatus = "open", trace_id: str
    ) -> Json:
        path = (customer_id, "invoices")
        return await self._get(_BILLING, path, trace_id, status=status, expect="invoices")

    # --- tasks ---------------------------------------------------------------------

    async def list_tasks(
        self, customer_id: str, *, status: TaskStatus = "all", trace_id: str
    ) -> Json:
        path = (customer_id, "tasks")
        return await self._get(_TASKS, path, trace_id, status=status, expect="tasks")

    async def add_task(
        self,
        customer_id: str,
        *,
        title: str,
        description: str | None = None,
        priority: Priority | None = None,
        due_on: str | None = None,
        trace_id: str,
        idempotency_key: str | None = None,
    ) -> Json:
        body = _given(title=title, description=description, priority=priority, due_on=due_on)
        path = (customer_id, "tasks")
        return await self._send("POST", _TASKS, path, body, trace_id, idempotency_key)

    async def update_task(
        self,
        customer_id: str,
        task_id: str,
        *,
        title: str | None = None,
        description: str | None = None,
        priority: Priority | None = None,
        due_on: str | None = None,
        trace_id: str,
        idempotency_key: str | None = None,
    ) -> Json:
        body = _given(title=title, description=description, priority=priority, due_on=due_on)
        path = (customer_id, "tasks", task_id)
        return await self._send("PATCH", _TASKS, path, body, trace_id, idempotency_key)

    async def complete_task(
        self, customer_id: str, task_id: str, *, trace_id: str, idempotency_key: str | None = None
    ) -> Json:
        path = (customer_id, "tasks", task_id, "complete")
        return await self._send("POST", _TASKS, path, None, trace_id, idempotency_key)

    async def delete_task(
        self, customer_id: str, task_id: str, *, trace_id: str, idempotency_key: str | None = None
    ) -> None:
        path = (customer_id, "tasks", task_id)
        await self._send("DELETE", _TASKS, path, None, trace_id, idempotency_key)

    # --- tickets -------------------------------------------------------------------

    async def list_tickets(
        self, customer_id: str, *, status: TicketStatus = "open", trace_id: str
    ) -> Json:
        path = (customer_id, "tickets")
        return await self._get(_SUPPORT, path, trace_id, status=status, expect="tickets")

    async def create_ticket(
        self,
        customer_id: str,
        *,
        subject: str,
        body: str,
        trace_id: str,
        idempotency_key: str | None = None,
    ) -> Json:
        payload = {"subject": subject, "body": body}
        path = (customer_id, "tickets")
        return await self._send("POST", _SUPPORT, path, payload, trace_id, idempotency_key)

    # --- the one request path --------------------------------------------------------

    async def _get(
        self,
        system: str,
        path: tuple[str, ...],
        trace_id: str,
        *,
        status: str | None = None,
        expect: str | None = None,
    ) -> Json:
        params = {"status": status} if status is not None else None
        return await self._call(
            "GET", system, path, trace_id=trace_id, params=params, expect=expect
        )

    async def _send(
        self,
        method: str,
        system: str,
        path: tuple[str, ...],
        body: Json | None,
        trace_id: str,
        idempotency_key: str | None,
    ) -> Json:
        return await self._call(
            method, system, path, trace_id=trace_id, idempotency_key=idempotency_key, body=body
        )

    async def _call(
        self,
        method: str,
        system: str,
        path: tuple[str, ...],
        *,
        trace_id: str,
        idempotency_key: str | None = None,
        params: Mapping[str, str] | None = None,
        body: Json | None = None,
        expect: str | None = None,
    ) -> Json:
        """One request; the decoded JSON object of a 2xx answer ({} for 204), or ToolFailure.

        `expect` names a key a listing must carry: a cheap check that catches an answer
        from something other than the CRM before a narrator reads nonsense aloud.
        """
        # Every route lives under /v1/customers/; `path` is what follows it.
        segments = "/".join(_segment(part) for part in path)
        url = URL(f"{self._base}/v1/customers/{segments}", encoded=True)
        headers = {
            "Authorization": self._auth,
            "Accept": "application/json",
            "X-Trace-Id": trace_id,
        }
        if idempotency_key is not None:
            headers["Idempotency-Key"] = idempotency_key
        async with (
            self._bulkhead.slot(system, path[0], system=system)
            if self._bulkhead is not None
            else contextlib.nullcontext()
        ):
            status, raw = await self._request(
                method, system, path, url, trace_id, params=params, body=body, headers=headers
            )
        if status == 204:
            return {}
        return _decode(system, raw, expect)

    async def _request(
        self,
        method: str,
        system: str,
        path: tuple[str, ...],
        url: URL,
        trace_id: str,
        *,
        params: Mapping[str, str] | None,
        body: Json | None,
        headers: dict[str, str],
    ) -> tuple[int, bytes]:
        """(status, body) of a 2xx answer; every other outcome as a ToolFailure."""
        try:
            with tracing.crm_span(method, system, path, str(url)):
                headers["traceparent"] = tracing.traceparent(trace_id)
                # No redirects: the CRM API never sends one, and following one could carry
                # the service token somewhere else.
                async with self._session.request(
                    method, url, params=params, json=body, headers=headers, allow_redirects=False
                ) as response:
                    status = response.status
                    tracing.annotate(**{"http.response.status_code": status})
                    raw = await response.read()
                    if not 200 <= status < 300:
                        raise _failure_for_status(system, status, raw, response.headers)
        except TimeoutError as exc:
            # The session's own timeout (aiohttp's timeout errors subclass TimeoutError).
            # The policy's `asyncio.timeout` never lands here: it cancels this task.
            raise ToolFailure("timeout", f"{system} did not answer in time") from exc
        except (aiohttp.ClientConnectionError, aiohttp.ClientPayloadError) as exc:
            # Refused, reset, disconnected, or the answer cut short: whether a write was
            # applied is unknown, so the policy may retry it, with its idempotency key.
            raise ToolFailure(
                "unavailable", f"{system} could not be reached", connection_error=True
            ) from exc
        except aiohttp.ClientError as exc:
            raise ToolFailure("internal", f"calling {system} failed: {type(exc).__name__}") from exc
        return status, raw


def _decode(system: str, raw: bytes, expect: str | None) -> Json:
    try:
        document = json.loads(raw)
    except ValueError as exc:
        raise ToolFailure("internal", f"{system} answered with something that is not JSON") from exc
    if not isinstance(document, dict) or (expect is not None and expect not in document):
        raise ToolFailure("internal", f"{system} answered with an unexpected shape")
    return document


def _given(**fields: Any) -> Json:
    """The fields that were given: None means 'leave unchanged', so it is not sent."""
    return {key: value for key, value in fields.items() if value is not None}
