"""Durability: what the stub answered is on disk, and a restart on the same file keeps it."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from crm_stub.app import create_app

C1 = "/v1/customers/cust_001"
HEADERS = {"Authorization": "Bearer dev-crm-token"}
StartServer = Callable[[web.Application], Awaitable[TestServer]]


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(headers=HEADERS) as client:
        yield client


async def call(
    session: aiohttp.ClientSession, method: str, url: str, **kwargs: object
) -> tuple[int, dict[str, object]]:
    async with session.request(method, url, **kwargs) as response:  # type: ignore[arg-type]
        return response.status, await response.json()


async def test_a_write_survives_a_restart(
    aiohttp_server: StartServer, session: aiohttp.ClientSession, tmp_path: Path
) -> None:
    """A task added before a restart on the same file is still there after it."""
    db = str(tmp_path / "crm.db")
    today = dt.date.today()
    first = await aiohttp_server(create_app(db_path=db, today=today))
    status, task = await call(
        session, "POST", str(first.make_url(f"{C1}/tasks")), json={"title": "Kept"}
    )
    assert status == 201
    await first.close()

    second = await aiohttp_server(create_app(db_path=db, today=today))
    _, listed = await call(session, "GET", str(second.make_url(f"{C1}/tasks")))
    tasks = listed["tasks"]
    assert isinstance(tasks, list)
    assert task in tasks


async def test_idempotent_replies_survive_a_restart(
    aiohttp_server: StartServer, session: aiohttp.ClientSession, tmp_path: Path
) -> None:
    """A retry after a restart, with the same key, replays the answer instead of re-applying."""
    db = str(tmp_path / "crm.db")
    today = dt.date.today()
    body = {"subject": "Once only", "body": "Please."}
    headers = {"Idempotency-Key": "restart-key"}
    first = await aiohttp_server(create_app(db_path=db, today=today))
    _, created = await call(
        session, "POST", str(first.make_url(f"{C1}/tickets")), json=body, headers=headers
    )
    await first.close()

    second = await aiohttp_server(create_app(db_path=db, today=today))
    url = str(second.make_url(f"{C1}/tickets"))
    status, replayed = await call(session, "POST", url, json=body, headers=headers)
    assert (status, replayed) == (201, created)
    _, listed = await call(session, "GET", url)
    subjects = [t["subject"] for t in listed["tickets"]]  # type: ignore[attr-defined]
    assert subjects.count("Once only") == 1


async def test_a_database_seeded_on_another_day_is_reseeded(
    aiohttp_server: StartServer, session: aiohttp.ClientSession, tmp_path: Path
) -> None:
    """A file seeded last week is reloaded from the seed, so upcoming stays upcoming."""
    db = str(tmp_path / "crm.db")
    today = dt.date.today()
    old = await aiohttp_server(create_app(db_path=db, today=today - dt.timedelta(days=7)))
    await call(session, "POST", str(old.make_url(f"{C1}/tasks")), json={"title": "Stale"})
    await old.close()

    fresh = await aiohttp_server(create_app(db_path=db, today=today))
    _, listed = await call(session, "GET", str(fresh.make_url(f"{C1}/tasks")))
    assert "Stale" not in {t["title"] for t in listed["tasks"]}  # type: ignore[attr-defined]
    _, upcoming = await call(session, "GET", str(fresh.make_url(f"{C1}/appointments")))
    first = upcoming["appointments"][0]  # type: ignore[index]
    assert dt.date.fromisoformat(first["starts_at"][:10]) == today + dt.timedelta(days=2)
