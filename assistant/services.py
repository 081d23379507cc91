"""What the transports are given: the composition's services, and the keys they hang on.

`app.py` (the composition root) builds a `Services` and puts it, the settings and the
metrics on the aiohttp app under these keys; every transport reads them from here. So
the transports import downward only, and nothing imports the composition root back.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from aiohttp import web

from assistant.engine import Engine
from assistant.metrics import Metrics
from assistant.recording.recorder import Recorder
from assistant.schema import CustomerContext
from assistant.session import Session
from assistant.session_store import InMemorySessionStore, SessionStore
from assistant.settings import Settings
from assistant.timeline import LiveTimelines
from assistant.tools.catalog import Catalog
from assistant.tools.crm_tools import CrmTools
from assistant.writes_in_flight import WritesInFlight

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
    # Where sessions live between turns (this process's memory unless configured).
    sessions: SessionStore = field(default_factory=InMemorySessionStore)

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
# Where sessions live: in memory by default, in Redis with ASSISTANT_REDIS_URL.
SESSION_STORE = web.AppKey("session_store", SessionStore)
# Creates sent and not yet answered, by customer: in memory by default, in Redis with
# ASSISTANT_REDIS_URL (assistant/writes_in_flight.py).
WRITES_IN_FLIGHT = web.AppKey("writes_in_flight", WritesInFlight)


__all__ = [
    "METRICS",
    "SERVICES",
    "SESSION_STORE",
    "SETTINGS",
    "WRITES_IN_FLIGHT",
    "Services",
    "load_customer",
]
