"""What the stub has seen: request counts per route, writes applied, and a request log.

Tests read these through `/admin/stats` and `/admin/requests` to prove what the
assistant did over the wire: which customer it asked for, that a retry reused
its idempotency key, that a retried write was applied once. Admin requests are
not recorded, so inspecting never changes what is inspected.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, deque
from dataclasses import asdict, dataclass

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

LOG_SIZE = 1000


@dataclass(slots=True)
class RequestRecord:
    """One request as the log shows it; status stays null for a hang or a reset."""

    method: str
    path: str
    query: str
    status: int | None
    idempotency_key: str | None
    trace_id: str | None
    at: str
    traceparent: str | None = None  # the W3C trace context, when the caller sent one
    fault: str | None = None  # the id of the fault that hit this request
    fault_kind: str | None = None  # latency, status, hang or reset
    replayed: bool = False


RECORD = web.RequestKey("crm_stub_record", RequestRecord)


def route_of(request: web.Request) -> str:
    """`GET /v1/customers/{cid}/invoices`: the method and the route's pattern."""
    resource = request.match_info.route.resource
    pattern = resource.canonical if resource is not None else "(no route)"
    return f"{request.method} {pattern}"


def is_admin(path: str) -> bool:
    return path == "/admin" or path.startswith("/admin/")


class Traffic:
    """Counters and a bounded log, cleared by `/admin/reset`."""

    def __init__(self, log_size: int = LOG_SIZE) -> None:
        self.requests: Counter[str] = Counter()
        self.writes_applied: Counter[str] = Counter()
        self.log: deque[RequestRecord] = deque(maxlen=log_size)

    def begin(self, request: web.Request) -> RequestRecord:
        self.requests[route_of(request)] += 1
        record = RequestRecord(
            method=request.method,
            path=request.path,
            query=request.query_string,
            status=None,
            idempotency_key=request.headers.get("Idempotency-Key"),
            trace_id=request.headers.get("X-Trace-Id"),
            at=dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds"),
            traceparent=request.headers.get("traceparent"),
        )
        self.log.append(record)
        return record

    def count_write(self, request: web.Request) -> None:
        self.writes_applied[route_of(request)] += 1

    def stats(self) -> dict[str, object]:
        return {
            "requests": dict(sorted(self.requests.items())),
            "writes_applied": dict(sorted(self.writes_applied.items())),
            "total_requests": sum(self.requests.values()),
        }

    def recent(self, limit: int) -> list[dict[str, object]]:
        """The last `limit` requests, newest last."""
        records = list(self.log)[-limit:] if limit > 0 else []
        return [asdict(record) for record in records]

    def clear(self) -> None:
        self.requests.clear()
        self.writes_applied.clear()
        self.log.clear()


def traffic_middleware(traffic: Traffic) -> Middleware:
    """Record every non-admin request, from arrival to the status it was answered with."""

    @web.middleware
    async def record(request: web.Request, handler: Handler) -> web.StreamResponse:
        if is_admin(request.path):
            return await handler(request)
        entry = traffic.begin(request)
        request[RECORD] = entry
        response = await handler(request)
        if entry.fault_kind not in ("hang", "reset"):
            entry.status = response.status
        return response

    return record
