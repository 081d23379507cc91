"""/v1/ws: both authentication paths, the Origin allow-list and session.ready."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from assistant.auth import mint_token
from assistant.fakes import FakeToolBackend, ScriptedNarrator, ScriptedPlanner
from assistant.schema import FinalDecision
from assistant.transports import ws
from tests.fixtures.app import AssistantHarness, MakeAssistant, WsConversation


def _short_session_start(app: web.Application) -> None:
    app[ws.WS_TUNING] = ws.WsTuning(session_start_timeout_s=0.2)


async def _assistant(make_assistant: MakeAssistant, **overrides: Any) -> AssistantHarness:
    return await make_assistant(
        planner=ScriptedPlanner(FinalDecision(text="Hello there.")),
        narrator=ScriptedNarrator(),
        tool_backend=FakeToolBackend(),
        configure=_short_session_start,
        **overrides,
    )


async def _upgrade_refused(
    assistant: AssistantHarness, headers: dict[str, str]
) -> aiohttp.WSServerHandshakeError:
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await assistant.open_ws(headers=headers)
    return refused.value


async def test_bearer_header_opens_a_session_for_the_tokens_customer(
    make_assistant: MakeAssistant,
) -> None:
    """A valid Bearer token on the upgrade gets session.ready naming its customer."""
    assistant = await _assistant(make_assistant)
    chat = await assistant.connect("cust_007")
    assert chat.ready is not None
    assert chat.ready["customer_id"] == "cust_007"
    events = await chat.say("hello")
    assert events[-1]["type"] == "turn.done"
    assert [e["text"] for e in events if e["type"] == "answer.done"] == ["Hello there."]


async def test_session_ready_has_the_protocol_shape(make_assistant: MakeAssistant) -> None:
    """session.ready carries a session id, the customer, protocol 1 and the limits."""
    assistant = await _assistant(make_assistant, max_text_chars=500, max_tool_calls_per_round=3)
    chat = await assistant.connect()
    ready = chat.ready
    assert ready is not None
    assert set(ready) == {
        "type",
        "session_id",
        "customer_id",
        "customer_name",
        "protocol",
        "limits",
        "resumed",
    }
    assert ready["session_id"].startswith("s_")
    assert ready["protocol"] == 1
    assert ready["resumed"] is False
    assert ready["limits"] == {"max_text_chars": 500, "max_tool_calls_per_round": 3}


@pytest.mark.parametrize(
    "authorization",
    [
        "Bearer not-a-token",
        "Bearer ",
        "Basic dXNlcjpwYXNz",
        "Bearer " + mint_token("y" * 32, "cust_001", 60),  # signed with another secret
        "Bearer " + mint_token("x" * 32, "cust_001", -10),  # expired
    ],
    ids=["garbage", "empty", "not-bearer", "forged", "expired"],
)
async def test_bad_bearer_token_is_refused_with_401_before_the_upgrade(
    make_assistant: MakeAssistant, authorization: str
) -> None:
    """A bad Authorization header gets HTTP 401 with a JSON error, and no websocket."""
    assistant = await _assistant(make_assistant)
    refused = await _upgrade_refused(assistant, {"Authorization": authorization})
    assert refused.status == 401
    response = await assistant.client.get("/v1/ws", headers={"Authorization": authorization})
    assert response.status == 401
    assert (await response.json())["error"]["code"] == "unauthorized"


async def test_session_start_first_frame_opens_a_session(make_assistant: MakeAssistant) -> None:
    """A browser's session.start with a valid token gets session.ready and can talk."""
    assistant = await _assistant(make_assistant)
    chat = await assistant.connect_browser("cust_003")
    assert chat.ready is not None
    assert chat.ready["customer_id"] == "cust_003"
    events = await chat.say("hello")
    assert events[-1]["type"] == "turn.done"


async def test_session_start_with_a_bad_token_closes_with_1008(
    make_assistant: MakeAssistant,
) -> None:
    """A forged token in session.start closes the socket with 1008 and says why."""
    assistant = await _assistant(make_assistant)
    chat = await assistant.connect_browser(
        token=mint_token("y" * 32, "cust_001", 60), expect_ready=False
    )
    code, reason = await chat.expect_close()
    assert code == 1008
    assert "token" in reason


@pytest.mark.parametrize(
    "first_frame",
    [
        {"type": "user.message", "text": "hi"},
        {"type": "session.start"},
        {"type": "session.start", "token": 42},
    ],
    ids=["user-message", "no-token", "token-not-a-string"],
)
async def test_another_first_frame_closes_with_1008(
    make_assistant: MakeAssistant, first_frame: dict[str, Any]
) -> None:
    """Without a header, any first frame but a well-formed session.start closes with 1008."""
    assistant = await _assistant(make_assistant)
    chat = WsConversation(await assistant.open_ws(), None)
    await chat.send(first_frame)
    code, reason = await chat.expect_close()
    assert code == 1008
    assert "session.start" in reason


async def test_non_json_first_frame_closes_with_1008(make_assistant: MakeAssistant) -> None:
    """A first frame that is not JSON at all closes with 1008 too."""
    assistant = await _assistant(make_assistant)
    socket = await assistant.open_ws()
    await socket.send_str("hello?")
    code, _ = await WsConversation(socket, None).expect_close()
    assert code == 1008


async def test_silence_closes_with_1008(make_assistant: MakeAssistant) -> None:
    """A client that sends nothing before the session.start timeout is closed with 1008."""
    assistant = await _assistant(make_assistant)
    chat = WsConversation(await assistant.open_ws(), None)
    code, reason = await chat.expect_close()
    assert code == 1008
    assert "no session.start" in reason


async def test_the_customer_comes_from_the_token_only(make_assistant: MakeAssistant) -> None:
    """A frame naming another customer cannot change who the session speaks for."""
    assistant = await _assistant(make_assistant)
    chat = await assistant.connect_browser("cust_002")
    await chat.send({"type": "session.start", "token": assistant.token("cust_009")})
    error = await chat.next_event()
    assert error["type"] == "error"
    assert error["code"] == "invalid_message"
    assert chat.ready is not None
    assert chat.ready["customer_id"] == "cust_002"


async def test_foreign_origin_is_refused_with_403(make_assistant: MakeAssistant) -> None:
    """A browser Origin that is neither ours nor on the allow-list gets HTTP 403."""
    assistant = await _assistant(make_assistant, allowed_origins=["https://shop.example"])
    headers = {"Origin": "https://evil.example", "Authorization": f"Bearer {assistant.token()}"}
    refused = await _upgrade_refused(assistant, headers)
    assert refused.status == 403
    response = await assistant.client.get("/v1/ws", headers=headers)
    assert (await response.json())["error"]["code"] == "forbidden_origin"


@pytest.mark.parametrize(
    "origin", ["null", "http://shop.example.evil.example", "https://shop.example:444"]
)
async def test_lookalike_origins_are_refused(make_assistant: MakeAssistant, origin: str) -> None:
    """Opaque, suffix-extended or other-port origins do not pass for an allowed one."""
    assistant = await _assistant(make_assistant, allowed_origins=["https://shop.example"])
    refused = await _upgrade_refused(assistant, {"Origin": origin})
    assert refused.status == 403


@pytest.mark.parametrize("origin", ["https://shop.example", "HTTPS://Shop.Example:443"])
async def test_allowed_origin_connects(make_assistant: MakeAssistant, origin: str) -> None:
    """An Origin on the allow-list (any casing, default port spelled out) connects."""
    assistant = await _assistant(make_assistant, allowed_origins=["https://shop.example"])
    chat = await assistant.connect(headers={"Origin": origin})
    assert chat.ready is not None


async def test_same_origin_connects_without_an_allow_list(make_assistant: MakeAssistant) -> None:
    """The service's own origin (the widget it serves) is always allowed."""
    assistant = await _assistant(make_assistant)
    own = str(assistant.client.make_url("/")).rstrip("/")
    socket = await assistant.open_ws(headers={"Origin": own})
    await socket.send_str(json.dumps({"type": "session.start", "token": assistant.token()}))
    ready = await WsConversation(socket, None).next_event()
    assert ready["type"] == "session.ready"
    await socket.close()


async def test_no_origin_connects(make_assistant: MakeAssistant) -> None:
    """A client that sends no Origin (a server, a bridge) is allowed."""
    assistant = await _assistant(make_assistant, allowed_origins=["https://shop.example"])
    chat = await assistant.connect()
    assert chat.ready is not None


async def test_plain_http_get_is_told_to_upgrade(make_assistant: MakeAssistant) -> None:
    """A GET without the websocket upgrade gets 426 naming the problem, not a crash."""
    assistant = await _assistant(make_assistant)
    response = await assistant.client.get(
        "/v1/ws", headers={"Authorization": f"Bearer {assistant.token()}"}
    )
    assert response.status == 426
    assert (await response.json())["error"]["code"] == "upgrade_required"
