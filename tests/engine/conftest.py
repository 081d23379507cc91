"""An engine wired to fakes: no network, no transport."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from assistant.engine import Engine, EngineConfig
from assistant.fakes import EchoNarrator, FakeToolBackend
from assistant.models.base import Narrator, Planner
from assistant.schema import CustomerContext, Event
from assistant.session import Session
from assistant.tools.catalog import Catalog, load_catalog
from assistant.tools.executor import ToolExecutor

CATALOG_PATH = Path(__file__).resolve().parents[2] / "config" / "tools.yaml"


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog(CATALOG_PATH)


class Recorder:
    """An event sink that keeps every event, as wire JSON, in order."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    async def __call__(self, event: Event) -> None:
        self.events.append(event.to_wire())

    def types(self) -> list[str]:
        return [event["type"] for event in self.events]

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [event for event in self.events if event["type"] == kind]

    def last_done(self) -> dict[str, Any]:
        return self.of("turn.done")[-1]


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def session(catalog: Catalog) -> Session:
    return Session(
        customer=CustomerContext(customer_id="cust_001", timezone="America/Los_Angeles"),
        tools=catalog.tools,
    )


MakeEngine = Callable[..., tuple[Engine, FakeToolBackend]]


@pytest.fixture
def make_engine(catalog: Catalog) -> MakeEngine:
    def make(
        planner: Planner,
        narrator: Narrator | None = None,
        backend: FakeToolBackend | None = None,
        follow_up: Planner | None = None,
        fallback_narrator: Narrator | None = None,
        clock: Callable[[], datetime] | None = None,
        **config: Any,
    ) -> tuple[Engine, FakeToolBackend]:
        backend = backend or FakeToolBackend()
        engine = Engine(
            planner,
            narrator or EchoNarrator(),
            ToolExecutor(catalog, backend),
            EngineConfig(**config),
            follow_up=follow_up,
            fallback_narrator=fallback_narrator,
            **({} if clock is None else {"clock": clock}),
        )
        return engine, backend

    return make
