"""Idempotency-Key on POST, PATCH and DELETE, after the IETF httpapi draft.

- First use of a key: the request is processed and its response (status and
  body, errors included) is stored in SQLite, so it survives a restart.
- Same key, same fingerprint (method, path, body), within 24 hours: the stored
  response is answered again and nothing is applied. `Idempotent-Replayed: true`
  marks it.
- Same key, different fingerprint: 422 `invalid_state`.
- Same key while the first request is still being processed: 409 `conflict`.

The in-flight set lives in memory: a request cannot outlive the process, so
after a restart only stored replies matter. Concurrent duplicates therefore
apply once: the first claims the key before any await, the others see it taken.

Like a real CRM, a keyed write that has started is finished even when its client
stops waiting (a timeout, a dropped connection): its reply is stored for the resend.
Those writes run as tasks that `IdempotencyKeys` owns and drains at shutdown.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Callable, Coroutine
from typing import Any

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from crm_stub.errors import Conflict, InvalidRequest, InvalidState
from crm_stub.store import Store, StoredReply
from crm_stub.traffic import RECORD, Traffic, is_admin

WRITE_METHODS = frozenset({"POST", "PATCH", "DELETE"})
KEY_TTL_S = 24 * 3600
MAX_KEY_LENGTH = 255


class IdempotencyKeys:
    """The keys whose first request is still being processed, and those writes."""

    def __init__(self) -> None:
        self.in_flight: dict[str, str] = {}
        self._writes: set[asyncio.Task[web.StreamResponse]] = set()

    def clear(self) -> None:
        self.in_flight.clear()

    def run(
        self, write: Coroutine[Any, Any, web.StreamResponse]
    ) -> asyncio.Task[web.StreamResponse]:
        task = asyncio.create_task(write)
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)
        return task

    async def drain(self, timeout_s: float = 5.0) -> None:
        """Let writes still running finish (within `timeout_s`), then cancel the rest."""
        if not self._writes:
            return
        _, late = await asyncio.wait(set(self._writes), timeout=timeout_s)
        for task in late:
            task.cancel()
        if late:
            await asyncio.wait(late)


def parse_key(header: str) -> str:
    """The key from the header; the draft sends an sf-string (quoted), plain is accepted."""
    key = header.strip()
    if len(key) >= 2 and key[0] == key[-1] == '"':
        key = key[1:-1]
    if not key:
        raise InvalidRequest("Idempotency-Key: must not be empty")
    if len(key) > MAX_KEY_LENGTH:
        raise InvalidRequest(f"Idempotency-Key: longer than {MAX_KEY_LENGTH} characters")
    return key


def fingerprint(method: str, path: str, body: bytes) -> str:
    """A hash of what the request asks for; JSON bodies are compared by content, not spacing."""
    try:
        canonical = json.dumps(json.loads(body), sort_keys=True, separators=(",", ":")).encode()
    except ValueError:
        canonical = body
    digest = hashlib.sha256()
    for part in (method.encode(), path.encode(), canonical):
        digest.update(len(part).to_bytes(8, "big") + part)
    return digest.hexdigest()


def idempotency_middleware(
    store_of: Callable[[], Store], keys: IdempotencyKeys, traffic: Traffic
) -> Middleware:
    """Apply each keyed write once; count every write the handlers apply."""

    @web.middleware
    async def once(request: web.Request, handler: Handler) -> web.StreamResponse:
        routed = request.match_info.http_exception is None
        if request.method not in WRITE_METHODS or is_admin(request.path) or not routed:
            return await handler(request)
        header = request.headers.get("Idempotency-Key")
        if header is None:
            return await _apply(request, handler, traffic)

        key = parse_key(header)
        store = store_of()
        body = await request.read()
        wanted = fingerprint(request.method, request.path, body)
        if key in keys.in_flight:
            raise Conflict(f"a request with Idempotency-Key {key!r} is still being processed")
        now = store.clock().timestamp()
        stored = store.stored_reply(key, not_before_epoch=now - KEY_TTL_S)
        if stored is not None:
            if stored.fingerprint != wanted:
                raise InvalidState(
                    f"Idempotency-Key {key!r} was already used for a different request"
                )
            return _replay(request, stored)

        keys.in_flight[key] = wanted

        async def apply_and_keep() -> web.StreamResponse:
            try:
                response = await _apply(request, handler, traffic)
                if isinstance(response, web.Response):
                    store.keep_reply(key, _reply(wanted, response))
                return response
            finally:
                keys.in_flight.pop(key, None)

        # Shielded: a client that stops waiting does not stop the write (see above).
        return await asyncio.shield(keys.run(apply_and_keep()))

    return once


async def _apply(request: web.Request, handler: Handler, traffic: Traffic) -> web.StreamResponse:
    response = await handler(request)
    if response.status < 400:
        traffic.count_write(request)
    return response


def _reply(wanted: str, response: web.Response) -> StoredReply:
    body = response.body
    raw = body if isinstance(body, bytes) else b""
    return StoredReply(wanted, response.status, raw, response.content_type if raw else None)


def _replay(request: web.Request, stored: StoredReply) -> web.Response:
    record = request.get(RECORD)
    if record is not None:
        record.replayed = True
    headers = {"Idempotent-Replayed": "true"}
    if not stored.body:
        return web.Response(status=stored.status, headers=headers)
    return web.Response(
        status=stored.status,
        body=stored.body,
        content_type=stored.content_type or "application/json",
        headers=headers,
    )
