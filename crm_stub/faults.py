"""Fault injection: delay, fail, hang or reset matching requests, while the stub runs.

A fault matches a method (or `*`) and a path pattern in which `*` stands for one
segment. The next `times` matching requests (all, when `times` is null) are hit:

- `latency_ms` alone delays the processing. The delay sits inside the
  idempotency scope, so a duplicate sent meanwhile sees 409 `conflict`.
- `status` answers the error envelope instead (with `Retry-After` when
  `retry_after_s` is set), `hang` never answers until the client gives up (or
  the stub shuts down), `reset` closes the connection abruptly. These happen
  before anything is applied or recorded, after `latency_ms`.
- `probability` (an extension, default 1) hits only that share of matching
  requests, drawn from `seed`: random faults for soak tests.
- `apply_after: true` (an extension) applies the request normally, stores its
  idempotent reply, and only then delays, fails, hangs or resets: "the write
  went through but the answer was lost".
- `hold: true` (an extension) holds the request where `latency_ms` would delay it
  (inside the idempotency scope) until `POST /admin/faults/{id}/release`, the
  fault's removal, clearing the faults or the stub stopping; then it is processed
  as usual: a write that lands when the test says so, not after a delay guessed to
  outlast what the test does meanwhile.

A note on `reset` and `times`: aiohttp's client (like other HTTP clients,
RFC 9112 §9.3.1) silently retries an idempotent request (GET, PUT, DELETE) once
when the connection fails before an answer, so a `reset` with `times: 1` on a
GET is invisible to it. Use `times: 2` or null to make the reset reach the
caller's code.

Start-up latency and jitter (`--latency-ms`, `--jitter-ms`) delay every
non-admin request the same way as a latency-only fault.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import random
import socket
import struct
from dataclasses import dataclass, field

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware
from pydantic import Field, field_validator, model_validator

from crm_stub.errors import error_response
from crm_stub.models import Body
from crm_stub.traffic import RECORD, is_admin

METHODS = frozenset({"*", "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})

#: Extra processing delay for this request, from a latency-only fault.
EXTRA_DELAY_MS = web.RequestKey("crm_stub_extra_delay_ms", float)
#: What this request waits for before it is processed, from a `hold` fault.
HELD_UNTIL = web.RequestKey("crm_stub_held_until", asyncio.Event)


class FaultSpec(Body):
    """The body of `POST /admin/faults`."""

    method: str = "*"
    path: str
    status: int | None = Field(None, ge=400, le=599)
    retry_after_s: float | None = Field(None, ge=0)
    latency_ms: float = Field(0, ge=0, le=600_000)
    hang: bool = False
    reset: bool = False
    hold: bool = False
    times: int | None = Field(None, ge=1)
    apply_after: bool = False
    # Hit only this share of matching requests (for soak tests), drawn from `seed`.
    probability: float = Field(1.0, gt=0, le=1)
    seed: int | None = None

    @field_validator("method")
    @classmethod
    def _known_method(cls, value: str) -> str:
        if value.upper() not in METHODS:
            raise ValueError(f"must be one of {', '.join(sorted(METHODS))}")
        return value.upper()

    @field_validator("path")
    @classmethod
    def _absolute_path(cls, value: str) -> str:
        if not value.startswith("/"):
            raise ValueError("must start with /")
        if is_admin(value):
            raise ValueError("faults cannot target /admin routes")
        return value

    @model_validator(mode="after")
    def _one_effect(self) -> FaultSpec:
        answers = [self.status is not None, self.hang, self.reset]
        if sum(answers) > 1:
            raise ValueError("status, hang and reset exclude each other")
        if self.hold and (any(answers) or self.apply_after):
            raise ValueError("hold excludes status, hang, reset and apply_after")
        if not any(answers) and self.latency_ms == 0 and not self.hold:
            raise ValueError("a fault needs status, hang, reset, hold or latency_ms")
        if self.retry_after_s is not None and self.status is None:
            raise ValueError("retry_after_s needs a status")
        return self

    @property
    def kind(self) -> str:
        if self.hold:
            return "hold"
        if self.hang:
            return "hang"
        if self.reset:
            return "reset"
        return "status" if self.status is not None else "latency"

    def matches(self, method: str, path: str) -> bool:
        if self.method not in ("*", method):
            return False
        want, got = self.path.strip("/").split("/"), path.strip("/").split("/")
        return len(want) == len(got) and all(w in ("*", g) for w, g in zip(want, got, strict=True))


@dataclass(slots=True)
class Fault:
    id: str
    spec: FaultSpec
    remaining: int | None
    rng: random.Random
    hits: int = 0
    # Set by its release: what the requests a `hold` fault hit wait for.
    released: asyncio.Event = field(default_factory=asyncio.Event)

    def as_json(self) -> dict[str, object]:
        return {"id": self.id, **self.spec.model_dump(), "times": self.remaining, "hits": self.hits}

    def hits_this(self) -> bool:
        return self.spec.probability >= 1 or self.rng.random() < self.spec.probability


class FaultBoard:
    """The active faults, oldest first; the oldest matching one wins."""

    def __init__(self) -> None:
        self._faults: list[Fault] = []
        self._ids = itertools.count(1)
        # Every `hold` fault not yet released, used up or not: a request it hit waits.
        self._holding: dict[str, Fault] = {}

    def add(self, spec: FaultSpec) -> Fault:
        fault = Fault(
            id=f"flt_{next(self._ids)}",
            spec=spec,
            remaining=spec.times,
            rng=random.Random(spec.seed),
        )
        self._faults.append(fault)
        if spec.hold:
            self._holding[fault.id] = fault
        return fault

    def active(self) -> list[Fault]:
        return list(self._faults)

    def remove(self, fault_id: str) -> bool:
        before = len(self._faults)
        self._faults = [f for f in self._faults if f.id != fault_id]
        released = self.release(fault_id)
        return len(self._faults) < before or released

    def clear(self) -> None:
        self._faults.clear()
        self.release_all()

    def release(self, fault_id: str) -> bool:
        """Let the requests a `hold` fault holds (and will hit) go on; False if it is
        no `hold` fault, or one already released."""
        fault = self._holding.pop(fault_id, None)
        if fault is None:
            return False
        fault.released.set()
        return True

    def release_all(self) -> None:
        for fault_id in list(self._holding):
            self.release(fault_id)

    def take(self, method: str, path: str) -> Fault | None:
        """The fault for this request, if any, counting the hit against `times`."""
        for fault in self._faults:
            if fault.spec.matches(method, path) and fault.hits_this():
                fault.hits += 1
                if fault.remaining is not None:
                    fault.remaining -= 1
                    if fault.remaining == 0:
                        self._faults.remove(fault)
                return fault
        return None


def faults_middleware(board: FaultBoard, stopping: asyncio.Event) -> Middleware:
    """Hit matching requests with their fault, before or after applying them."""

    @web.middleware
    async def inject(request: web.Request, handler: Handler) -> web.StreamResponse:
        if is_admin(request.path):
            return await handler(request)
        fault = board.take(request.method, request.path)
        if fault is None:
            return await handler(request)
        spec = fault.spec
        record = request.get(RECORD)
        if record is not None:
            record.fault, record.fault_kind = fault.id, spec.kind
        if not spec.apply_after:
            if spec.kind in ("latency", "hold"):
                request[EXTRA_DELAY_MS] = spec.latency_ms
                if spec.hold:
                    request[HELD_UNTIL] = fault.released
                return await handler(request)
            await asyncio.sleep(spec.latency_ms / 1000)
            return await _answer(request, fault, stopping)
        response = await handler(request)
        await asyncio.sleep(spec.latency_ms / 1000)
        if spec.kind == "latency":
            return response
        return await _answer(request, fault, stopping)

    return inject


async def _answer(request: web.Request, fault: Fault, stopping: asyncio.Event) -> web.Response:
    spec = fault.spec
    if spec.status is not None:
        headers = {}
        if spec.retry_after_s is not None:
            headers["Retry-After"] = _retry_after(spec.retry_after_s)
        return error_response(spec.status, f"injected fault {fault.id}", headers=headers)
    if spec.hang:
        # Never answer; the owner of `stopping` (the app's shutdown) releases us.
        await stopping.wait()
    _reset_connection(request)
    return web.Response(status=500)  # never written: the connection is gone


def _retry_after(seconds: float) -> str:
    # Whole seconds per RFC 9110; a fraction is kept so fast tests can wait less.
    return str(int(seconds)) if seconds == math.floor(seconds) else str(seconds)


def _reset_connection(request: web.Request) -> None:
    """Close the socket with an RST, so the client sees a reset rather than a clean close."""
    transport = request.transport
    if transport is None:
        return
    sock = transport.get_extra_info("socket")
    if sock is not None:
        # Already closed by the peer? Then aborting is enough.
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()


def latency_middleware(latency_ms: float, jitter_ms: float, rng: random.Random) -> Middleware:
    """Delay every non-admin request by the start-up latency ± jitter plus any fault delay,
    and hold one a `hold` fault hit until its release."""

    @web.middleware
    async def delay(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not is_admin(request.path):
            held = request.get(HELD_UNTIL)
            if held is not None:
                await held.wait()
            wait_ms = request.get(EXTRA_DELAY_MS, 0.0)
            if latency_ms or jitter_ms:
                wait_ms += max(0.0, latency_ms + rng.uniform(-jitter_ms, jitter_ms))
            if wait_ms:
                await asyncio.sleep(wait_ms / 1000)
        return await handler(request)

    return delay
