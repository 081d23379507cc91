"""A write's outcome is known before it is narrated (write integrity, guarantee 3): slow,
lost or in-progress replies are reconciled with the same idempotency key, through the
websocket with the real CRM stub and its faults."""

from __future__ import annotations

import asyncio
import datetime as dt
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from crm_stub.app import DEFAULT_TOKEN
from crm_stub.app import create_app as create_crm
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, tasks, writes_applied

TASKS = "/v1/customers/*/tasks"
APPOINTMENTS = "/v1/customers/*/appointments"
NEVER_SAID = ("couldn't", "try again", "please retry")


def error_of(events: list[dict[str, object]], tool: str) -> dict[str, object] | None:
    done = events[-1]
    calls = [c for c in done["tool_calls"] if c["tool"] == tool]  # type: ignore[index]
    assert len(calls) == 1, calls
    return calls[0]["error"]  # type: ignore[no-any-return]


async def test_a_booking_answered_after_its_timeout_is_booked_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The CRM answers after 2.5 s (timeout 2 s; the resend gets 409 in progress): the
    customer hears it is booked, and exactly one appointment exists."""
    await crm_admin.add_fault(method="POST", path=APPOINTMENTS, latency_ms=2500, times=1)
    chat = await (await make_assistant()).connect()
    events = await chat.say("book a haircut next wednesday at 11am")
    assert error_of(events, "crm.bookAppointment") is None
    assert answer(events).startswith("You're booked")
    assert await writes_applied(crm_admin) == {"POST /v1/customers/{cid}/appointments": 1}


@pytest.mark.parametrize("lost", [{"status": 503}, {"reset": True}])
async def test_a_task_applied_before_its_reply_was_lost_is_reported_added(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, lost: dict[str, object]
) -> None:
    """The CRM applies the add, then the reply is lost (503 or a reset): the resend with
    the same key brings back the stored reply, so 'added', once (was: "I couldn't add")."""
    await crm_admin.add_fault(method="POST", path=TASKS, apply_after=True, times=1, **lost)
    chat = await (await make_assistant()).connect()
    events = await chat.say("remind me to water the plants")
    assert error_of(events, "crm.addTask") is None
    assert "added" in answer(events).lower()
    assert not any(word in answer(events).lower() for word in NEVER_SAID)
    titles = [title for title in await tasks(crm_admin) if "plants" in title.lower()]
    assert len(titles) == 1
    assert await writes_applied(crm_admin) == {"POST /v1/customers/{cid}/tasks": 1}


async def test_a_write_still_unknown_at_the_deadline_is_not_confirmed_yet(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The CRM never answers the add before the turn's deadline: the answer says it is not
    confirmed yet (it may be done), never "couldn't" and never "try again"."""
    await crm_admin.add_fault(method="POST", path=TASKS, hang=True)
    chat = await (await make_assistant(turn_deadline_s=2.5)).connect()
    events = await chat.say("remind me to water the plants")
    error = error_of(events, "crm.addTask")
    assert error is not None and error["unconfirmed"] is True
    said = answer(events).lower()
    assert "hasn't confirmed" in said
    assert not any(word in said for word in NEVER_SAID)


async def test_a_write_too_late_to_start_is_neither_started_nor_announced(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """A lookup eats the turn's time; the add that follows is not begun, not acknowledged,
    and the answer says nothing was changed."""
    await crm_admin.add_fault(method="GET", path=TASKS, latency_ms=1800, times=1)
    chat = await (await make_assistant(turn_deadline_s=2.5)).connect()
    events = await chat.say("complete the grocery task")
    acks = " ".join(e["text"] for e in events if e["type"] == "ack.done")
    assert "marking" not in acks and "mark" not in acks
    error = error_of(events, "crm.completeTask")
    assert error is not None and error["code"] == "timeout"
    assert "nothing was changed" in answer(events)
    assert await writes_applied(crm_admin) == {}
    assert (await tasks(crm_admin))["Buy groceries"]["status"] == "pending"


class RestartableCrm:
    """A CRM stub over a database file on a fixed port, that can be killed and started again."""

    def __init__(self, db_path: str, port: int) -> None:
        self.db_path = db_path
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = create_crm(db_path=self.db_path, token=DEFAULT_TOKEN, today=dt.date.today())
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port, reuse_address=True).start()

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


@pytest.fixture
async def restartable_crm(tmp_path: Path) -> AsyncIterator[RestartableCrm]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    crm = RestartableCrm(str(tmp_path / "crm.db"), port)
    await crm.start()
    yield crm
    await crm.stop()


async def test_a_write_applied_before_the_crm_crashed_is_reported_added_once(
    make_assistant: MakeAssistant, restartable_crm: RestartableCrm
) -> None:
    """The CRM applies the add and dies before answering; it is back a moment later: the
    resend with the same key gets the stored reply, so the customer hears 'added' and the
    task exists once (was: "I couldn't add…: the system is unavailable")."""
    headers = {"Authorization": f"Bearer {DEFAULT_TOKEN}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        crm = CrmAdmin(session, restartable_crm.url)
        await crm.add_fault(method="POST", path=TASKS, apply_after=True, hang=True, times=1)
        assistant = await make_assistant(crm_url=restartable_crm.url)
        chat = await assistant.connect()
        await chat.send_message("remind me to water the plants")
        while not (await crm.stats())["writes_applied"]:  # noqa: ASYNC110
            await asyncio.sleep(0.02)
        await restartable_crm.stop()  # the answer is lost with the process
        await asyncio.sleep(0.5)
        await restartable_crm.start()
        events = await chat.events_until("turn.done")
        assert error_of(events, "crm.addTask") is None
        assert "added" in answer(events).lower()
        _, body = await crm.get("/v1/customers/cust_001/tasks")
        assert [t["title"] for t in body["tasks"]].count("Water the plants") == 1
