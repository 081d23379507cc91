"""/v1/ws under abuse: an absolute pre-auth deadline, connection caps answered over
HTTP before the upgrade, and same-origin never judged from the Host header."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from assistant.fakes import FakeToolBackend, ScriptedNarrator, ScriptedPlanner
from assistant.schema import FinalDecision
from assistant.transports import ws
from assistant.transports.admission import CONNECTION_LIMITS
from tests.fixtures.app import AssistantHarness, MakeAssistant, WsConversation


def _short_session_start(app: web.Application) -> None:
    app[ws.WS_TUNING] = ws.WsTuning(session_start_timeout_s=0.3)


async def _assistant(make_assistant: MakeAssistant, **overrides: Any) -> AssistantHarness:
    return await make_assistant(
        planner=ScriptedPlanner(*[FinalDecision(text="Hello there.")] * 4),
        narrator=ScriptedNarrator(),
        tool_backend=FakeToolBackend(),
        configure=_short_session_start,
        **overrides,
    )


async def _refused(assistant: AssistantHarness, **kwargs: Any) -> aiohttp.WSServerHandshakeError:
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await assistant.open_ws(**kwargs)
    return refused.value


async def _until_released(assistant: AssistantHarness, open_sockets: int) -> None:
    """Wait until the server has let go of sockets closed by the test."""
    limits = assistant.app[CONNECTION_LIMITS]
    while limits.open > open_sockets:  # noqa: ASYNC110 - the handler's finally has no event
        await asyncio.sleep(0.01)


async def test_pings_do_not_keep_an_unauthenticated_socket_open(
    make_assistant: MakeAssistant,
) -> None:
    """A socket that never authenticates but pings steadily is still closed with 1008."""
    assistant = await _assistant(make_assistant)
    socket = await assistant.open_ws(autoping=True)

    async def keep_pinging() -> None:
        while True:
            await socket.ping()
            await asyncio.sleep(0.05)

    pinger = asyncio.create_task(keep_pinging())
    try:
        conversation = WsConversation(socket, None)
        code, reason = await conversation.expect_close(timeout_s=5)
    finally:
        pinger.cancel()
        with contextlib.suppress(asyncio.CancelledError, ConnectionError, RuntimeError):
            await pinger
    assert code == 1008
    assert "session.start" in reason


async def test_connections_past_the_total_cap_get_503_before_the_upgrade(
    make_assistant: MakeAssistant,
) -> None:
    """With max_connections=2, a third upgrade is answered 503 with Retry-After."""
    assistant = await _assistant(make_assistant, max_connections=2)
    first = await assistant.open_ws()
    second = await assistant.open_ws()
    refused = await _refused(assistant)
    assert refused.status == 503
    assert refused.headers is not None and refused.headers["Retry-After"]
    assert 'connection_refused_count_total{reason="server_busy"} 1.0' in (
        await assistant.metrics_text()
    )
    await first.close()
    await _until_released(assistant, 1)
    third = await assistant.connect()  # a slot given back is usable again
    assert third.ready is not None
    await second.close()


async def test_one_address_cannot_take_every_connection(make_assistant: MakeAssistant) -> None:
    """Past max_connections_per_address, the same client address gets 429."""
    assistant = await _assistant(make_assistant, max_connections_per_address=2)
    sockets = [await assistant.open_ws() for _ in range(2)]
    refused = await _refused(assistant)
    assert refused.status == 429
    for socket in sockets:
        await socket.close()


async def test_behind_a_trusted_balancer_each_client_has_its_own_cap(
    make_assistant: MakeAssistant,
) -> None:
    """Through a trusted proxy (here the test client's 127.0.0.1) the cap counts the
    addresses X-Forwarded-For names: two clients each get their connection, a client's
    second is refused 429."""
    assistant = await _assistant(
        make_assistant, max_connections_per_address=1, trusted_proxies="127.0.0.1, 10.0.0.0/8"
    )
    # The balancer appends the peer it saw; a spoofed first hop is ignored past it.
    first = await assistant.open_ws(headers={"X-Forwarded-For": "203.0.113.5"})
    second = await assistant.open_ws(headers={"X-Forwarded-For": "1.2.3.4, 198.51.100.7, 10.1.2.3"})
    refused = await _refused(assistant, headers={"X-Forwarded-For": "9.9.9.9, 203.0.113.5"})
    assert refused.status == 429
    for socket in (first, second):
        await socket.close()


async def test_x_forwarded_for_from_an_untrusted_peer_dodges_no_cap(
    make_assistant: MakeAssistant,
) -> None:
    """Without trusted proxies anyone could send the header: it is ignored, so naming
    another address does not get a client past its cap."""
    assistant = await _assistant(make_assistant, max_connections_per_address=1)
    first = await assistant.open_ws(headers={"X-Forwarded-For": "203.0.113.5"})
    refused = await _refused(assistant, headers={"X-Forwarded-For": "198.51.100.7"})
    assert refused.status == 429
    await first.close()


async def test_one_customer_cannot_open_sessions_without_bound(
    make_assistant: MakeAssistant,
) -> None:
    """Past max_sessions_per_customer: 429 before the upgrade; other customers still connect."""
    assistant = await _assistant(make_assistant, max_sessions_per_customer=1)
    await assistant.connect("cust_001")
    refused = await _refused(
        assistant, headers={"Authorization": f"Bearer {assistant.token('cust_001')}"}
    )
    assert refused.status == 429
    other = await assistant.connect("cust_002")
    assert other.ready is not None and other.ready["customer_id"] == "cust_002"


async def test_a_browser_session_over_the_customer_cap_is_closed_try_again_later(
    make_assistant: MakeAssistant,
) -> None:
    """The browser path names its customer after the upgrade: over the cap it closes 1013."""
    assistant = await _assistant(make_assistant, max_sessions_per_customer=1)
    await assistant.connect("cust_001")
    browser = await assistant.connect_browser("cust_001", expect_ready=False)
    code, reason = await browser.expect_close()
    assert code == 1013
    assert "too many open sessions" in reason


async def test_dns_rebinding_origin_matching_the_host_header_is_refused(
    make_assistant: MakeAssistant,
) -> None:
    """Origin and Host both evil.example (DNS rebinding): refused with 403, not same-origin."""
    assistant = await _assistant(make_assistant)
    port = assistant.client.port
    refused = await _refused(
        assistant,
        headers={
            "Host": f"evil.example:{port}",
            "Origin": f"http://evil.example:{port}",
            "Authorization": f"Bearer {assistant.token()}",
        },
    )
    assert refused.status == 403


async def test_the_configured_public_url_is_the_own_origin(make_assistant: MakeAssistant) -> None:
    """With ASSISTANT_PUBLIC_URL set, the widget served there connects without an allow-list."""
    assistant = await _assistant(make_assistant, public_url="https://chat.shop.example")
    chat = await assistant.connect(headers={"Origin": "https://chat.shop.example"})
    assert chat.ready is not None
    own_address = str(assistant.client.make_url("/")).rstrip("/")
    refused = await _refused(
        assistant,
        headers={"Origin": own_address, "Authorization": f"Bearer {assistant.token()}"},
    )
    assert refused.status == 403


async def test_a_lone_surrogate_is_invalid_message_and_the_session_goes_on(
    make_assistant: MakeAssistant,
) -> None:
    """Text with a lone surrogate gets invalid_message naming the field; the socket stays open."""
    assistant = await _assistant(make_assistant)
    chat = await assistant.connect()
    await chat.ws.send_str('{"type":"user.message","text":"milk \\ud800 run"}')
    error = await chat.next_event()
    assert error["type"] == "error"
    assert error["code"] == "invalid_message"
    assert "'text'" in error["message"] and "UTF-8" in error["message"]
    events = await chat.say("hello")
    assert events[-1]["type"] == "turn.done"
    assert json.dumps(events)  # everything the server sent was well-formed
