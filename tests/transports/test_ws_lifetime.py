"""How a /v1/ws session ends: at its token's expiry or its maximum lifetime (1008), when
its client stops reading (closed), and when the server stops (1001, after every
in-flight write has been reported)."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
from collections.abc import AsyncIterator
from typing import Any

from aiohttp import web

from assistant.fakes import EchoNarrator, FakeToolBackend, ScriptedNarrator, ScriptedPlanner, calls
from assistant.schema import NarratorInput
from assistant.transports.admission import CONNECTION_LIMITS
from assistant.transports.sockets import OPEN_SOCKETS
from assistant.transports.ws import WsConnection
from tests.fixtures.app import MakeAssistant


async def test_a_session_ends_when_its_token_expires(make_assistant: MakeAssistant) -> None:
    """A token valid one or two more seconds: the session closes 1008 'session token expired'."""
    assistant = await make_assistant(
        planner=ScriptedPlanner(), narrator=ScriptedNarrator(), tool_backend=FakeToolBackend()
    )
    chat = await assistant.connect(token=assistant.token("cust_001", ttl_s=2))
    code, reason = await chat.expect_close(timeout_s=5)
    assert (code, reason) == (1008, "session token expired")


async def test_a_session_ends_at_its_maximum_lifetime(make_assistant: MakeAssistant) -> None:
    """Whatever the token says, max_session_lifetime_s ends the session with 1008."""
    assistant = await make_assistant(
        planner=ScriptedPlanner(),
        narrator=ScriptedNarrator(),
        tool_backend=FakeToolBackend(),
        max_session_lifetime_s=0.3,
    )
    chat = await assistant.connect()
    code, reason = await chat.expect_close(timeout_s=5)
    assert (code, reason) == (1008, "session lifetime reached")


async def _until_ending(app: web.Application) -> None:
    """Wait until the server has begun to end a session (its turn is being cancelled)."""

    def ending() -> bool:
        owners = [getattr(end, "__self__", None) for end in app[OPEN_SOCKETS].values()]
        return any(isinstance(owner, WsConnection) and owner.ending for owner in owners)

    while not ending():  # noqa: ASYNC110 - the ending has no event a client could await
        await asyncio.sleep(0.01)


async def _events_until_close(chat: Any) -> tuple[list[dict[str, Any]], int | None]:
    events: list[dict[str, Any]] = []
    while True:
        message = await chat.ws.receive(timeout=10)
        if message.type.name != "TEXT":
            return events, chat.ws.close_code
        events.append(json.loads(message.data))


async def test_shutdown_reports_a_write_in_flight_before_closing_1001(
    make_assistant: MakeAssistant,
) -> None:
    """SIGTERM mid-write: the write finishes, tool.finished and turn.done arrive, then 1001."""
    backend = FakeToolBackend(release=asyncio.Event())
    assistant = await make_assistant(
        planner=ScriptedPlanner(calls(("crm.completeTask", {"task_id": "task_7"}))),
        narrator=EchoNarrator(),
        tool_backend=backend,
    )
    chat = await assistant.connect()
    await chat.send_message("mark that task done")
    await chat.next_of("tool.started")
    stopping = asyncio.create_task(assistant.client.server.close())
    await _until_ending(assistant.app)  # the shutdown has begun while the write is in flight
    backend.release.set()  # type: ignore[union-attr]
    events, code = await _events_until_close(chat)
    await stopping
    kinds = [event["type"] for event in events]
    finished = [event for event in events if event["type"] == "tool.finished"]
    assert [(event["tool"], event["status"]) for event in finished] == [("crm.completeTask", "ok")]
    assert kinds.index("tool.finished") < kinds.index("turn.done")
    done = next(event for event in events if event["type"] == "turn.done")
    assert done["tool_calls"][0]["status"] == "ok"
    assert done["status"] == "cancelled"  # stopped by the shutdown, its write reported
    assert code == 1001


async def test_expiry_mid_write_reports_the_write_before_closing(
    make_assistant: MakeAssistant,
) -> None:
    """The lifetime ends during a write: its outcome and turn.done come before the 1008."""
    backend = FakeToolBackend(release=asyncio.Event())
    assistant = await make_assistant(
        planner=ScriptedPlanner(calls(("crm.completeTask", {"task_id": "task_7"}))),
        narrator=EchoNarrator(),
        tool_backend=backend,
        max_session_lifetime_s=1.0,
    )
    chat = await assistant.connect()
    await chat.send_message("mark that task done")
    await chat.next_of("tool.started")
    await _until_ending(assistant.app)
    backend.release.set()  # type: ignore[union-attr]
    events, code = await _events_until_close(chat)
    finished = [event for event in events if event["type"] == "tool.finished"]
    assert [(event["tool"], event["status"]) for event in finished] == [("crm.completeTask", "ok")]
    assert events[-1]["type"] == "turn.done"
    assert code == 1008
    assert chat.ws.close_code == 1008


class EndlessNarrator:
    """Streams big pieces until it is stopped, and tells when it was."""

    def __init__(self) -> None:
        self.stopped = asyncio.Event()
        self.pieces = 0

    async def narrate(self, request: NarratorInput) -> AsyncIterator[str]:
        try:
            while True:
                self.pieces += 1
                yield "word " * 800
                await asyncio.sleep(0)
        finally:
            self.stopped.set()


def _masked_text_frame(text: str) -> bytes:
    payload = text.encode()
    mask = os.urandom(4)
    header = bytes([0x81])
    if len(payload) < 126:
        header += bytes([0x80 | len(payload)])
    else:
        header += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
    masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
    return header + mask + masked


async def test_a_client_that_does_not_read_is_closed_and_its_turn_stopped(
    make_assistant: MakeAssistant,
) -> None:
    """A raw client that sends a message and never reads: its turn stops, its socket closes."""
    narrator = EndlessNarrator()
    assistant = await make_assistant(
        planner=ScriptedPlanner(calls("crm.listTasks")),
        narrator=narrator,
        tool_backend=FakeToolBackend(),
        send_timeout_s=0.3,
        max_outgoing_frames=32,
        heartbeat_s=60,
    )
    # A small receive buffer, so that the server's writes back up quickly.
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.setblocking(False)
    loop = asyncio.get_running_loop()
    await loop.sock_connect(raw, ("127.0.0.1", assistant.client.port))
    key = base64.b64encode(os.urandom(16)).decode()
    upgrade = (
        "GET /v1/ws HTTP/1.1\r\n"
        f"Host: 127.0.0.1:{assistant.client.port}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Authorization: Bearer {assistant.token()}\r\n\r\n"
    )
    await loop.sock_sendall(raw, upgrade.encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += await loop.sock_recv(raw, 1)
    assert head.startswith(b"HTTP/1.1 101")
    message = json.dumps({"type": "user.message", "text": "tell me everything"})
    await loop.sock_sendall(raw, _masked_text_frame(message))
    try:
        await asyncio.wait_for(narrator.stopped.wait(), 10)
        limits = assistant.app[CONNECTION_LIMITS]
        while limits.open:  # noqa: ASYNC110 - the handler's finally has no event
            await asyncio.sleep(0.01)
    finally:
        raw.close()
    assert narrator.pieces > 0
    assert "slow_client_count_total 1.0" in await assistant.metrics_text()
