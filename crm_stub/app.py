"""The composition root of the CRM stub: `create_app()` wires the layers together.

A request passes, outermost first: the traffic log, the error envelope, the
service-token check, fault injection, idempotency, start-up latency, the
envelope again (so a handler's error is an answer idempotency can store), and
the route handler.
"""

from __future__ import annotations

import datetime as dt
import hmac
import logging
from collections.abc import AsyncIterator, Mapping

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from crm_stub import admin, routes
from crm_stub.errors import Unauthorized, envelope_middleware
from crm_stub.faults import faults_middleware, latency_middleware
from crm_stub.idempotency import idempotency_middleware
from crm_stub.seed import build_seed
from crm_stub.state import STATE, StubConfig, StubState
from crm_stub.store import Clock, Store, utc_now
from crm_stub.traffic import traffic_middleware

log = logging.getLogger(__name__)

DEFAULT_TOKEN = "dev-crm-token"
OPEN_PATHS = frozenset({"/healthz"})


def create_app(
    *,
    db_path: str = ":memory:",
    token: str = DEFAULT_TOKEN,
    latency_ms: float = 0,
    jitter_ms: float = 0,
    today: dt.date | None = None,
    faults_enabled: bool = True,
    reseed: bool = False,
    clock: Clock | None = None,
    zones: Mapping[str, str] | None = None,
) -> web.Application:
    """The stub as a plain aiohttp Application; its database opens when it starts.

    `today` anchors the seed (default: the current date). A database file seeded
    on another day, or `reseed=True`, is reloaded from the seed at start.
    `faults_enabled=False` leaves out every /admin route. `clock` (default: the real UTC
    time) is "now" for upcoming and past, so that a test can pin the day. `zones`
    (customer id → timezone) seeds those customers living in another zone than the seed's.
    """
    if latency_ms < 0 or jitter_ms < 0:
        raise ValueError("latency_ms and jitter_ms must not be negative")
    config = StubConfig(
        db_path,
        token,
        latency_ms,
        jitter_ms,
        today,
        faults_enabled,
        reseed,
        clock or utc_now,
        tuple(sorted((zones or {}).items())),
    )
    state = StubState(config)
    app = web.Application(
        middlewares=[
            traffic_middleware(state.traffic),
            envelope_middleware,
            auth_middleware(token),
            faults_middleware(state.faults, state.stopping),
            idempotency_middleware(lambda: state.store, state.keys, state.traffic),
            latency_middleware(latency_ms, jitter_ms, state.rng),
            envelope_middleware,
        ]
    )
    app[STATE] = state
    app.add_routes(routes.routes)
    if faults_enabled:
        app.add_routes(admin.routes)
    app.cleanup_ctx.append(_database)
    app.on_shutdown.append(_release_hung_requests)
    return app


def auth_middleware(token: str) -> Middleware:
    """`Authorization: Bearer <token>` on every route but /healthz."""
    expected = f"Bearer {token}".encode()

    @web.middleware
    async def check(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path not in OPEN_PATHS:
            given = request.headers.get("Authorization", "").encode()
            if not hmac.compare_digest(given, expected):
                raise Unauthorized(
                    "missing or wrong service token", headers={"WWW-Authenticate": "Bearer"}
                )
        return await handler(request)

    return check


async def _database(app: web.Application) -> AsyncIterator[None]:
    state = app[STATE]
    store = Store.open(state.config.db_path, state.config.clock)
    try:
        today = state.today()
        seeded_on = store.seeded_on()
        if seeded_on is None or seeded_on != today or state.config.reseed:
            if seeded_on is not None:
                log.info("reloading CRM seed data (seeded on %s, today is %s)", seeded_on, today)
            store.load_seed(build_seed(today, state.config.zones), today)
        state.opened = store
        yield
    finally:
        state.stopping.set()
        state.opened = None
        store.close()


async def _release_hung_requests(app: web.Application) -> None:
    app[STATE].stopping.set()
    app[STATE].faults.release_all()  # held requests go on, as after their release
    await app[STATE].keys.drain()  # writes already started finish before the database closes
