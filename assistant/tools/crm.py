"""The CRM client: requests to the CRM's REST API (shared/CRM_API.md), failures mapped once.

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
    2xx to a write, not readable as the        internal, marked   no
      record it wrote (no `id`, odd body)        unconfirmed
    a record or listed item naming another     internal (a listed item is left out)
      customer (`customer_id`, a profile's `id`)
    (2xx: text with control characters or overlong is cleaned: crm_text.py)
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

import functools
import json
import logging
from collections.abc import Mapping
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import quote

import aiohttp
import orjson
from yarl import URL

from assistant import tracing
from assistant.errors import ToolFailure
from assistant.tools import crm_text
from assistant.tools.bulkhead import Bulkhead

Json = dict[str, Any]

log = logging.getLogger(__name__)

# How each part of the CRM is named in messages the narrator may repeat to a customer.
_ACCOUNTS = "the customer records"
_SCHEDULING = "the scheduling system"
_BILLING = "the billing system"
_TASKS = "the task list"
_SUPPORT = "the support system"
# The catalog's `system` of a tool, named the same way.
SYSTEM_NAMES: dict[str, str] = {
    "accounts": _ACCOUNTS,
    "scheduling": _SCHEDULING,
    "billing": _BILLING,
    "tasks": _TASKS,
    "support": _SUPPORT,
}


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


# The same few segments (customer ids, collections) come back request after request.
@functools.lru_cache(maxsize=4096)
def _segment(value: str) -> str:
    """One path segment, percent-encoded so an id can never walk to another route."""
    if value in ("", ".", ".."):
        raise ToolFailure("invalid_arguments", f"{value!r} is not a valid id")
    return quote(value, safe="")


# The same few queries (`status=upcoming`, `status=open`) come back request after request.
@functools.lru_cache(maxsize=1024)
def _query_string(items: tuple[tuple[str, str], ...]) -> str:
    """`?…` exactly as aiohttp would append `params` (yarl's `extend_query`), once per
    distinct query instead of on every request (1.7 µs each)."""
    return "?" + URL("http://crm/").extend_query(dict(items)).raw_query_string


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
        return await self.request("GET", _ACCOUNTS, (customer_id,), trace_id=trace_id)

    async def get_customer_by_phone(self, e164: str, *, trace_id: str) -> Json:
        return await self.request("GET", _ACCOUNTS, ("by-phone", e164), trace_id=trace_id)

    # --- the one request path ----------------------------------------------------------

    async def request(
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
        """One request to a customer route: `path` follows /v1/customers/ (its first part
        the customer id), `system` names the CRM part in failures (`SYSTEM_NAMES`).
        The decoded JSON object of a 2xx answer ({} for 204), or ToolFailure.

        `expect` names a key a listing must carry: a cheap check that catches an answer
        from something other than the CRM before a narrator reads nonsense aloud.
        """
        # Every route lives under /v1/customers/; `path` is what follows it.
        segments = "/".join(map(_segment, path))
        route = f"{self._base}/v1/customers/{segments}"
        # The query goes into the URL here, encoded as aiohttp would from `params`.
        query = _query_string(tuple(params.items())) if params else ""
        url = URL(route + query, encoded=True)
        headers = {
            "Authorization": self._auth,
            "Accept": "application/json",
            "X-Trace-Id": trace_id,
        }
        if idempotency_key is not None:
            headers["Idempotency-Key"] = idempotency_key
        # The bulkhead's slot, taken without a coroutine when one is free (`Bulkhead.slot`
        # spelled out: three coroutines fewer on every request).
        bulkhead, customer_id = self._bulkhead, path[0]
        if bulkhead is not None and not bulkhead.take_now(system, customer_id):
            await bulkhead.take(system, customer_id, system=system)
        try:
            # The span's URL is the route without its query, as it was named before.
            span_url = URL(route, encoded=True) if tracing.enabled() else route
            with tracing.crm_span(method, system, path, span_url):
                headers["traceparent"] = tracing.traceparent(trace_id)
                # No redirects: the CRM API never sends one, and following one could carry
                # the service token somewhere else.
                async with self._session.request(
                    method, url, json=body, headers=headers, allow_redirects=False
                ) as response:
                    status = response.status
                    if tracing.enabled():  # no attributes built for a span not made
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
        finally:
            if bulkhead is not None:
                bulkhead.give_back(system, customer_id)
        if status == 204:
            return {}
        try:
            document = _decode(system, raw, expect, customer_id, profile=len(path) == 1)
        except ToolFailure as unreadable:
            # A write answered 2xx with what cannot be read as its record may well have
            # been applied: unconfirmed, never told as not done.
            unreadable.unconfirmed = method != "GET"
            raise
        if method in ("POST", "PATCH") and not isinstance(document.get("id"), str):
            # A write answered 2xx with something other than the record it wrote (a
            # listing, an empty object): it may well have been applied, so it is neither
            # told done nor failed, but unconfirmed (the next turn can look). A DELETE's
            # 2xx says it is gone, whatever its body.
            failure = ToolFailure("internal", f"{system} answered without the record it wrote")
            failure.unconfirmed = True
            raise failure
        return document


def _decode(
    system: str, raw: bytes, expect: str | None, customer_id: str, *, profile: bool = False
) -> Json:
    """The answer's JSON object, checked (`request`); `profile`: the route is the
    customer's own record, whose `id` must be theirs."""
    try:
        document = orjson.loads(raw)
    except ValueError:
        document = _strict_json(system, raw)  # what only the standard library reads, or why not
    if not isinstance(document, dict) or not _listed(document, expect):
        raise ToolFailure("internal", f"{system} answered with an unexpected shape")
    # (`find`, not `in`: see crm_text's module note.)
    if raw.find(b"_cents") >= 0 and not _amounts_are_numbers(document, expect):
        # A null (or a string) read as no money would tell the customer they owe nothing.
        raise ToolFailure("internal", f"{system} answered with an amount that is not a number")
    if profile and document.get("id", customer_id) != customer_id:
        raise ToolFailure("internal", f"{system} answered with another customer's record")
    if raw.find(b"customer_id") >= 0:
        # A record naming another customer is not this customer's, whatever route it
        # came on: never read out as theirs, never the target of a write.
        document = _only_theirs(system, document, expect, customer_id)
    if crm_text.labels_go_on(raw):
        # A location or an invoice's description that goes on past its label (crm_text.py).
        document = crm_text.labels_cut(document)
    if crm_text.needs_cleaning(raw):
        # Stored text with control characters or of an unspeakable length (crm_text.py).
        cleaned: Json = crm_text.clean(document)
        return cleaned
    decoded: Json = document
    return decoded


def _listed(document: Json, expect: str | None) -> bool:
    """The listing `expect` names is a list of objects (an object, a count or a null in
    its place would be read as no items: "you don't have any tasks")."""
    if expect is None:
        return True
    items = document.get(expect)
    return isinstance(items, list) and all(isinstance(item, dict) for item in items)


def _only_theirs(system: str, document: Json, expect: str | None, customer_id: str) -> Json:
    """The answer without listed items that name another customer; ToolFailure when the
    answer itself names one."""
    if document.get("customer_id", customer_id) != customer_id:
        raise ToolFailure("internal", f"{system} answered about another customer")
    if expect is None or not document.get(expect):
        return document
    items = document[expect]
    theirs = [item for item in items if item.get("customer_id", customer_id) == customer_id]
    if len(theirs) == len(items):
        return document
    left_out = len(items) - len(theirs)
    log.warning("%s listed %d item(s) of another customer; left out", system, left_out)
    return {**document, expect: theirs}


def _amounts_are_numbers(document: Json, expect: str | None) -> bool:
    """Every `*_cents` field, of the answer and of its listed items, is an integer."""
    holders = [document, *(document.get(expect) or [] if expect is not None else [])]
    return all(
        type(value) is int
        for holder in holders
        for key, value in holder.items()
        if key.endswith("_cents")
    )


def _strict_json(system: str, raw: bytes) -> Json:
    """JSON that orjson refuses but is valid (an escaped lone surrogate), or the failure."""
    try:
        document: Json = json.loads(raw)
    except ValueError as exc:
        raise ToolFailure("internal", f"{system} answered with something that is not JSON") from exc
    return document
