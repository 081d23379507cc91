"""The composition root: `create_app()` is the only place that names concrete backends."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING

import aiohttp
from aiohttp import web

from assistant.engine import Engine, EngineConfig
from assistant.errors import ConfigError
from assistant.metrics import Metrics
from assistant.models.base import Narrator, Planner
from assistant.recording.recorder import Recorder, instrument
from assistant.schema import CustomerContext
from assistant.session import Session
from assistant.settings import DEV_CRM_TOKEN, Settings
from assistant.timeline import LiveTimelines
from assistant.tools.base import ToolBackend
from assistant.tools.breaker import BreakerRegistry
from assistant.tools.bulkhead import Bulkhead
from assistant.tools.catalog import Catalog, load_catalog
from assistant.tools.crm import CrmClient
from assistant.tools.crm_tools import CrmTools
from assistant.tools.executor import ToolExecutor
from assistant.tools.resilience import CallPolicy

if TYPE_CHECKING:
    from assistant.redis_state import RedisCalls

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Services:
    """What the transports need, built once per app."""

    settings: Settings
    catalog: Catalog
    metrics: Metrics
    engine: Engine
    crm: CrmTools | None  # None when a test injects its own tool backend
    # Opens one recording per session (a no-op unless settings.record_dir is set).
    recorder: Recorder | None = None
    # Demo mode: the last turns with their event times, for /v1/demo/timeline.
    timelines: LiveTimelines | None = None

    async def open_session(self, customer_id: str | None, *, trace_id: str = "") -> Session:
        """A new session for a signed-in customer (or an unknown caller: no tools).

        Set-up never waits on the CRM for long: past `crm_setup_timeout_s`, or when the
        CRM fails, the session opens with `timezone_known=False` and the engine reads
        the profile again at the start of the next turn.
        """
        if customer_id is None:
            return Session(customer=None, tools=())
        customer = CustomerContext(customer_id=customer_id)
        if self.crm is not None:
            timeout_s = self.settings.crm_setup_timeout_s
            customer = await load_customer(self.crm, customer, trace_id, timeout_s=timeout_s)
        return Session(customer=customer, tools=self.catalog.tools)


async def load_customer(
    crm: CrmTools,
    known: CustomerContext,
    trace_id: str,
    *,
    timeout_s: float = 3.0,
) -> CustomerContext:
    """The customer's profile; when it cannot be read, `known` marked as lacking its
    timezone, so that no timed write guesses one (the engine asks again next turn)."""
    try:
        async with asyncio.timeout(timeout_s):
            return await crm.customer_context(known.customer_id, trace_id=trace_id)
    except Exception as exc:  # the session still works, without timed writes
        log.warning("could not load the profile of %s: %r", known.customer_id, exc)
        return known.model_copy(update={"timezone_known": False})


SERVICES = web.AppKey("services", Services)
SETTINGS = web.AppKey("settings", Settings)
METRICS = web.AppKey("metrics", Metrics)


def build_models(settings: Settings, catalog: Catalog) -> tuple[Planner, Narrator, Planner | None]:
    """The planner, narrator and (for model backends) the deterministic follow-up planner."""
    from assistant.models.embedded import EmbeddedNarrator, EmbeddedPlanner

    if settings.backend == "openai":
        from assistant.models.openai_compat import build_openai_models

        planner, narrator = build_openai_models(settings, catalog)
        return planner, narrator, EmbeddedPlanner()
    return EmbeddedPlanner(), EmbeddedNarrator(), None


def engine_config(settings: Settings) -> EngineConfig:
    return EngineConfig(
        max_tool_calls_per_round=settings.max_tool_calls_per_round,
        max_rounds=settings.max_rounds,
        turn_deadline_s=settings.turn_deadline_s,
        dedupe_calls=settings.dedupe_calls,
        confirmation_ttl_s=settings.confirmation_ttl_s,
        booking_horizon_days=settings.booking_horizon_days,
        duplicate_window_s=settings.duplicate_window_s,
        start_tools_early=settings.start_tools_early,
        progress_after_s=settings.progress_after_s,
        stream_answers=settings.stream_answers,
        tool_reserve_s=settings.turn_tool_reserve_s,
        answer_reserve_s=settings.turn_answer_reserve_s,
    )


def create_app(
    settings: Settings,
    *,
    planner: Planner | None = None,
    narrator: Narrator | None = None,
    follow_up: Planner | None = None,
    tool_backend: ToolBackend | None = None,
    catalog: Catalog | None = None,
    clock: Callable[[], datetime] | None = None,
) -> web.Application:
    """The assistant's aiohttp app. Tests inject models, a tool backend or the clock (what
    "now" is for a turn); `serve` doesn't."""
    if planner is None and settings.backend == "replay":
        raise ConfigError(
            "backend: 'replay' answers from recordings and runs under `assistant replay "
            "FILE…`; `serve` needs --backend embedded or openai"
        )
    app = web.Application(client_max_size=settings.max_frame_bytes)
    metrics = Metrics()
    app[SETTINGS] = settings
    app[METRICS] = metrics
    catalog = catalog or load_catalog(settings.resolve(settings.tools_path))

    crm_token = crm_service_token(settings)

    async def services_context(app: web.Application) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as stack:
            crm_url = settings.crm_url or await stack.enter_async_context(
                _in_process_crm(settings, crm_token)
            )
            # Every CRM request is bounded (aiohttp's default is 300 s), and the pool is
            # sized so that the bulkhead's per-route cap stays below it.
            http = await stack.enter_async_context(
                aiohttp.ClientSession(
                    timeout=aiohttp.ClientTimeout(total=settings.crm_timeout_s),
                    connector=aiohttp.TCPConnector(limit=settings.crm_pool_size),
                )
            )
            crm: CrmTools | None = None
            backend = tool_backend
            if backend is None:
                bulkhead = Bulkhead(
                    per_route=settings.crm_route_concurrency,
                    per_customer=settings.crm_customer_concurrency,
                )
                crm = CrmTools(CrmClient(http, crm_url, crm_token, bulkhead=bulkhead))
                backend = crm
            missing = [tool.name for tool in catalog.tools if not backend.supports(tool.name)]
            if missing:
                raise ConfigError(f"tool catalog: no implementation for {', '.join(missing)}")
            if planner is not None and narrator is not None:
                models = (planner, narrator, follow_up)
            else:
                models = build_models(settings, catalog)
                for model in models:
                    closer = getattr(model, "aclose", None)
                    if closer is not None:  # a model backend's HTTP client
                        stack.push_async_callback(closer)
            breakers = BreakerRegistry(
                failure_threshold=settings.breaker_failure_threshold,
                cooldown_s=settings.breaker_cooldown_s,
                metrics=metrics,
            )
            policy = CallPolicy(breakers, metrics=metrics)
            executor = ToolExecutor(catalog, backend, policy, metrics=metrics)
            config = engine_config(settings)
            wired = instrument(
                models[0],
                models[1],
                settings=settings,
                catalog=catalog,
                engine=config,
                follow_up=models[2],
                fallback_narrator=_fallback_narrator(settings),
            )
            engine = Engine(
                wired.planner,
                wired.narrator,
                executor,
                config,
                metrics=metrics,
                follow_up=wired.follow_up,
                fallback_narrator=wired.fallback_narrator,
                customer_loader=(
                    None
                    if crm is None
                    else partial(load_customer, crm, timeout_s=settings.crm_setup_timeout_s)
                ),
                clock=clock or (lambda: datetime.now(UTC)),
            )
            timelines = LiveTimelines() if settings.demo else None
            app[SERVICES] = Services(
                settings, catalog, metrics, engine, crm, wired.recorder, timelines
            )
            yield

    app.cleanup_ctx.append(services_context)
    app.router.add_get("/healthz", _healthz)
    app.router.add_get("/metrics", _metrics)
    _add_transports(app, settings)
    return app


def crm_service_token(settings: Settings) -> str:
    """The token the assistant sends to the CRM.

    Outside demo mode the development default is refused for a CRM of its own (anyone
    who has read the docs could use it), and the in-process stub gets a random token
    that exists only in this process.
    """
    token = settings.crm_token.get_secret_value()
    if settings.demo or token != DEV_CRM_TOKEN:
        return token
    if settings.crm_url:
        raise ConfigError(
            "crm_token: ASSISTANT_CRM_TOKEN is the development default 'dev-crm-token'; "
            "set it to the CRM's real service token (or pass --demo)"
        )
    return secrets.token_urlsafe(32)


def _add_transports(app: web.Application, settings: Settings) -> None:
    from assistant.transports import demo, relay, ws
    from assistant.transports import web as widget
    from assistant.transports.admission import ConnectionLimits, setup_connection_limits
    from assistant.transports.relay_calls import CallRegistry, InMemoryCalls
    from assistant.transports.saturation import Saturation, setup_saturation
    from assistant.transports.sockets import setup_socket_tracking

    setup_socket_tracking(app, grace_s=settings.shutdown_grace_s)
    setup_connection_limits(
        app,
        ConnectionLimits(
            total=settings.max_connections,
            per_address=settings.max_connections_per_address,
            per_customer=settings.max_sessions_per_customer,
        ),
    )
    setup_saturation(
        app,
        Saturation(
            lambda: app[SERVICES].engine.turns_in_flight if SERVICES in app else 0,
            max_turns=settings.saturation_turns_in_flight,
            max_lag_s=settings.saturation_loop_lag_ms / 1000,
        ),
    )
    ws.setup_routes(app)
    calls: CallRegistry = InMemoryCalls(settings.relay_seen_calls)
    if settings.redis_url:
        calls = _share_through_redis(app, settings)
    relay.setup_routes(app, settings, calls)
    widget.setup_web_routes(app)
    demo.setup_demo_routes(app, settings)


def _share_through_redis(app: web.Application, settings: Settings) -> RedisCalls:
    """Message budgets and the call replay guard in Redis, for every worker and instance."""
    from assistant.redis_state import RedisCalls, RedisLimits, connect
    from assistant.transports.ws import MESSAGE_LIMITS

    client = connect(settings.redis_url)
    app[MESSAGE_LIMITS] = RedisLimits(
        client, settings.session_messages_per_minute, settings.customer_messages_per_minute
    )

    async def close_client(app: web.Application) -> None:
        await client.aclose()

    app.on_cleanup.append(close_client)
    return RedisCalls(client)


def _fallback_narrator(settings: Settings) -> Narrator | None:
    """With a remote model, the embedded narrator still speaks results when it is down."""
    if settings.backend != "openai":
        return None
    from assistant.models.embedded import EmbeddedNarrator

    return EmbeddedNarrator()


@contextlib.asynccontextmanager
async def _in_process_crm(settings: Settings, token: str) -> AsyncIterator[str]:
    """Start the CRM stub in this process (seeded) when no CRM URL is configured."""
    from crm_stub.app import create_app as create_crm_app

    db = settings.resolve(settings.crm_db)
    db.parent.mkdir(parents=True, exist_ok=True)
    runner = web.AppRunner(create_crm_app(db_path=str(db), token=token), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, settings.host, settings.crm_port)
    try:
        await site.start()
    except OSError as exc:
        await runner.cleanup()
        raise ConfigError(
            f"cannot start the CRM stub on {settings.host}:{settings.crm_port}: {exc.strerror}; "
            "pass --crm-port or --crm-url"
        ) from exc
    port = int(runner.addresses[0][1])  # the bound one when crm_port is 0
    log.info("CRM stub listening on http://%s:%d", settings.host, port)
    try:
        yield f"http://{settings.host}:{port}"
    finally:
        await runner.cleanup()


async def _healthz(request: web.Request) -> web.Response:
    # The process id tells which worker answered (`serve --workers N`).
    return web.json_response({"status": "ok", "pid": os.getpid()})


async def _metrics(request: web.Request) -> web.Response:
    body = request.app[METRICS].render()
    return web.Response(body=body, content_type="text/plain", charset="utf-8")
