"""Stopping the server closes open websockets at once with 1001 (going away)."""

from __future__ import annotations

from aiohttp import WSMsgType

from assistant.fakes import EchoNarrator, ScriptedPlanner
from tests.fixtures.app import MakeAssistant


async def test_open_sockets_are_closed_going_away_on_shutdown(
    make_assistant: MakeAssistant,
) -> None:
    """A chat page left open does not hold the server's shutdown: it gets 1001."""
    assistant = await make_assistant(planner=ScriptedPlanner(), narrator=EchoNarrator())
    chat = await assistant.connect()
    await assistant.client.server.close()
    message = await chat.ws.receive(timeout=5)
    assert message.type is WSMsgType.CLOSE
    assert message.data == 1001
