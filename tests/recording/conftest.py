"""Recording conversations with the fakes: a real engine, scripted models, a fake CRM.

    messages = [Say("show me my billing"), Say("tasks", cancel_on="tool.started")]
    path = await record_conversation(tmp_path, catalog, planner, narrator, backend, messages)

Each `Say` is one user message; `cancel_on` cancels that turn from outside (as a
`turn.cancel` from the socket would) once an event of that type was sent.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from assistant.engine import Engine, EngineConfig
from assistant.fakes import FakeToolBackend
from assistant.models.base import Narrator, Planner
from assistant.recording.recorder import instrument
from assistant.schema import CustomerContext, Event
from assistant.session import Session
from assistant.settings import Settings, load_settings
from assistant.tools.catalog import Catalog, load_catalog
from assistant.tools.executor import ToolExecutor

CUSTOMER = CustomerContext(customer_id="cust_001", name="Ada", timezone="America/Los_Angeles")
RECORDED_NOW = datetime(2021, 3, 1, 17, 30, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Say:
    text: str
    message_id: str | None = None
    cancel_on: str | None = None


@pytest.fixture(scope="session")
def settings() -> Settings:
    return load_settings()


@pytest.fixture(scope="session")
def catalog(settings: Settings) -> Catalog:
    return load_catalog(settings.resolve(settings.tools_path))


async def record_conversation(
    directory: Path,
    catalog: Catalog,
    planner: Planner,
    narrator: Narrator,
    backend: FakeToolBackend,
    messages: Sequence[Say],
    *,
    follow_up: Planner | None = None,
    config: EngineConfig | None = None,
    session_id: str = "s_recorded",
) -> Path:
    """Run the conversation through the real engine with recording on; the file written."""
    config = config or EngineConfig()
    settings = load_settings(record_dir=str(directory))
    wired = instrument(
        planner, narrator, settings=settings, catalog=catalog, engine=config, follow_up=follow_up
    )
    engine = Engine(
        wired.planner,
        wired.narrator,
        ToolExecutor(catalog, backend),
        config,
        follow_up=wired.follow_up,
        clock=lambda: RECORDED_NOW,
    )
    session = Session(customer=CUSTOMER, tools=catalog.tools, session_id=session_id)
    recording = wired.recorder.open(session)
    path = recording.path
    assert path is not None
    try:
        for message in messages:
            await _say(engine, session, recording.wrap_emit(_discard), message)
    finally:
        recording.close()
    return path


async def _discard(event: Event) -> None:
    return None


async def _say(engine: Engine, session: Session, emit: Any, message: Say) -> None:
    seen = asyncio.Event()

    async def sink(event: Event) -> None:
        await emit(event)
        if event.type == message.cancel_on:
            seen.set()

    turn = engine.start_turn(session, message.text, sink, message_id=message.message_id)
    if message.cancel_on is not None:
        await asyncio.wait_for(seen.wait(), 5)
        turn.cancel()
    await asyncio.wait_for(turn.wait(), 10)
