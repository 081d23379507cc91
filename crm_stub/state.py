"""Everything one running stub holds: its settings, database, faults, traffic and keys."""

from __future__ import annotations

import asyncio
import datetime as dt
import random
from dataclasses import dataclass, field

from aiohttp import web

from crm_stub.faults import FaultBoard
from crm_stub.idempotency import IdempotencyKeys
from crm_stub.seed import Zones
from crm_stub.store import Clock, Store, utc_now
from crm_stub.traffic import Traffic


@dataclass(frozen=True, slots=True)
class StubConfig:
    db_path: str
    token: str
    latency_ms: float
    jitter_ms: float
    today: dt.date | None
    faults_enabled: bool
    reseed: bool
    # What "now" is for upcoming/past and for validating times (tests pin it).
    clock: Clock = utc_now
    # Customers seeded in another timezone than the seed's: (customer id, zone) pairs.
    zones: Zones = ()


@dataclass
class StubState:
    """Made by create_app; the database is opened on start-up and closed on cleanup."""

    config: StubConfig
    faults: FaultBoard = field(default_factory=FaultBoard)
    traffic: Traffic = field(default_factory=Traffic)
    keys: IdempotencyKeys = field(default_factory=IdempotencyKeys)
    # Set when the app shuts down: releases requests hung by a `hang` fault.
    stopping: asyncio.Event = field(default_factory=asyncio.Event)
    rng: random.Random = field(default_factory=random.Random)
    opened: Store | None = None

    @property
    def store(self) -> Store:
        if self.opened is None:
            raise RuntimeError("the CRM stub's database is not open (is the app running?)")
        return self.opened

    def today(self) -> dt.date:
        return self.config.today or dt.date.today()


STATE = web.AppKey("crm_stub_state", StubState)
