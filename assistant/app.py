"""The composition root: `create_app()` is the only place that names concrete backends."""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING

import aiohttp
from aiohttp import web

from assistant.engine import Engine, EngineConfig
from assistant.errors import ConfigError
from assistant.metrics import Metrics
from assistant.models.base import Narrator, Planner
from assistant.models.registry import ModelSet, build_models
from assistant.recording.recorder import instrument
from assistant.services import (
    METRICS,
    SERVICES,
    SESSION_STORE,
    SETTINGS,
    WRITES_IN_FLIGHT,
    Services,
    load_customer,
)
from assistant.session_store import InMemorySessionStore
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
from assistant.writes_in_flight import InMemoryWritesInFlight

if TYPE_CHECKING:
    from assistant.redis_state import RedisCalls

log = logging.getLogger(__name__)


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
    """The assistant's aiohttp app. Tests inject models, a tool backend or the engine's
    clock (what "now" is for dates and a confirmation's expiry); `serve` doesn't."""
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
                crm = CrmTools(CrmClient(http, crm_url, crm_token, bulkhead=bulkhead), catalog)
                backend = crm
            missing = [tool.name for tool in catalog.tools if not backend.supports(tool.name)]
            if missing:
                raise ConfigError(f"tool catalog: no implementation for {', '.join(missing)}")
            if planner is not None and narrator is not None:
                models = ModelSet(planner, narrator, follow_up)
            else:
                models = build_models(settings, catalog)
                for closer in models.closers():
                    stack.push_async_callback(closer)
            lacking = models.missing(tool.name for tool in catalog.tools)
            if lacking:
                raise ConfigError(f"models: cannot serve every catalog tool: {'; '.join(lacking)}")
            breakers = BreakerRegistry(
                failure_threshold=settings.breaker_failure_threshold,
                cooldown_s=settings.breaker_cooldown_s,
                metrics=metrics,
            )
            policy = CallPolicy(breakers, metrics=metrics)
            executor = ToolExecutor(catalog, backend, policy, metrics=metrics)
            config = engine_config(settings)
            wired = instrument(
                models.planner,
                models.narrator,
                settings=settings,
                catalog=catalog,
                engine=config,
                follow_up=models.follow_up,
                fallback_narrator=models.fallback_narrator,
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
                in_flight=app[WRITES_IN_FLIGHT],
            )
            timelines = LiveTimelines() if settings.demo else None
            app[SERVICES] = Services(
                settings,
                catalog,
                metrics,
                engine,
                crm,
                wired.recorder,
                timelines,
                sessions=app[SESSION_STORE],
            )
            yield

    app.cleanup_ctx.append(services_context)
    app.router.add_get("/healthz", _healthz)
    app.router.add_get("/metrics", _metrics)
    _add_transports(app, settings, catalog)
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


def _add_transports(app: web.Application, settings: Settings, catalog: Catalog) -> None:
    from assistant.transports import completions, demo, relay, retell, ws
    from assistant.transports import web as widget
    from assistant.transports.admission import ConnectionLimits, setup_connection_limits
    from assistant.transports.client_address import forwarded_client_middleware, parse_networks
    from assistant.transports.relay_calls import CallRegistry, InMemoryCalls
    from assistant.transports.saturation import Saturation, setup_saturation
    from assistant.transports.sockets import setup_socket_tracking

    if settings.trusted_proxies:
        # Before the connection caps count anyone: clients, not the balancer's address.
        proxies = parse_networks(settings.trusted_proxies)
        app.middlewares.append(forwarded_client_middleware(proxies))
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
    app[SESSION_STORE] = InMemorySessionStore(settings.resume_window_s)
    app[WRITES_IN_FLIGHT] = InMemoryWritesInFlight()
    ws.setup_routes(app)
    calls: CallRegistry = InMemoryCalls(settings.relay_seen_calls)
    if settings.redis_url:
        calls = _share_through_redis(app, settings, catalog)
    relay.setup_routes(app, settings, calls)
    completions.setup_routes(app)
    retell.setup_routes(app)
    widget.setup_web_routes(app)
    demo.setup_demo_routes(app, settings)


def _share_through_redis(app: web.Application, settings: Settings, catalog: Catalog) -> RedisCalls:
    """Message budgets and the call replay guard in Redis, for every worker and instance."""
    from assistant.redis_sessions import RedisSessionStore, deployment_stamp
    from assistant.redis_state import RedisCalls, RedisLimits, connect
    from assistant.transports.ws import MESSAGE_LIMITS
    from assistant.writes_in_flight import RedisWritesInFlight

    client = connect(settings.redis_url)
    deployment = deployment_stamp(settings.signing_secret(for_server=True))
    app[SESSION_STORE] = RedisSessionStore(
        client, ttl_s=settings.resume_window_s, catalog=catalog.tools, deployment=deployment
    )
    # Keyed by customer id or call sid, which another deployment sharing this Redis has
    # too (its own cust_001): under this deployment's own prefix, so that neither spends
    # the other's budgets, waits on the other's creates in flight, or refuses its calls.
    prefix = f"assistant:{deployment}"
    app[WRITES_IN_FLIGHT] = RedisWritesInFlight(client, prefix=prefix)
    app[MESSAGE_LIMITS] = RedisLimits(
        client,
        settings.session_messages_per_minute,
        settings.customer_messages_per_minute,
        prefix=prefix,
    )

    async def close_client(app: web.Application) -> None:
        await client.aclose()

    app.on_cleanup.append(close_client)
    return RedisCalls(client, prefix=prefix)


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
