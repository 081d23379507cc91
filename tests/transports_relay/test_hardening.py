"""The telephony bridge under abuse: replayed calls, per-call tokens from the TwiML
endpoint, a setup deadline, bounded partial prompts and text that is not UTF-8."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import json
import re
from collections.abc import Mapping
from html import unescape
from typing import Any

import aiohttp
import pytest
from yarl import URL

from assistant.__main__ import main as assistant_main
from assistant.auth import verify_call_token
from assistant.fakes import EchoNarrator, FakeToolBackend, ScriptedPlanner, calls
from assistant.transports.relay_calls import InMemoryCalls
from assistant.transports.sockets import OPEN_SOCKETS
from tests.fixtures.app import TEST_SECRET, AssistantHarness, MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.transports_relay.conftest import CALL_SID, MARIA_PHONE, Dial, spoken

AUTH_TOKEN = "twilio-auth-token-for-tests"
PUBLIC_URL = "https://voice.example.com"


def twilio_signature(url: str, params: Mapping[str, str] | None = None) -> str:
    """Twilio's documented algorithm: HMAC-SHA1 over the URL and the sorted parameters."""
    data = url + "".join(key + value for key, value in sorted((params or {}).items()))
    digest = hmac.new(AUTH_TOKEN.encode(), data.encode(), hashlib.sha1).digest()
    return base64.b64encode(digest).decode()


async def _closed(relay: Any) -> tuple[int | None, str]:
    message = await relay.ws.receive(timeout=5)
    assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED), message
    return relay.ws.close_code, str(message.extra or "")


async def test_a_second_connection_for_the_same_call_is_refused(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """A replayed upgrade with a callSid already seen is closed 1008; the first call goes on."""
    harness = await make_assistant()
    first = await dial(harness)
    await first.setup()
    replay = await dial(harness)
    await replay.setup(call_sid=CALL_SID, greeting=False)
    code, reason = await _closed(replay)
    assert code == 1008 and "already connected" in reason
    frames = await first.ask("What do I owe?")
    assert "$150.00" in spoken(frames)


async def test_a_call_that_never_sends_setup_is_closed(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """No setup within relay_setup_timeout_s, pings or not: the socket is closed."""
    harness = await make_assistant(relay_setup_timeout_s=0.3)
    relay = await dial(harness)

    async def keep_pinging() -> None:
        while True:
            await relay.ws.ping()
            await asyncio.sleep(0.05)

    pinger = asyncio.create_task(keep_pinging())
    try:
        code, _ = await _closed(relay)
    finally:
        pinger.cancel()
        with contextlib.suppress(asyncio.CancelledError, ConnectionError, RuntimeError):
            await pinger
    assert code == 1008


async def test_endless_partial_prompts_end_the_call_politely(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """Past relay_max_partial_prompts partials, the caller hears a short line, then `end`."""
    harness = await make_assistant(relay_max_partial_prompts=5)
    relay = await dial(harness)
    await relay.setup()
    for _ in range(6):
        await relay.prompt("and also", last=False)
    frames = await relay.talk_cycle()
    end = await relay.next_frame()
    assert "more than I can take in at once" in spoken(frames)
    assert end["type"] == "end"


async def test_one_huge_partial_prompt_ends_the_call_politely(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """Partials over relay_max_partial_chars in total end the call the same way."""
    harness = await make_assistant(relay_max_partial_chars=100)
    relay = await dial(harness)
    await relay.setup()
    await relay.prompt("blah " * 30, last=False)
    frames = await relay.talk_cycle()
    assert "more than I can take in at once" in spoken(frames)
    assert (await relay.next_frame())["type"] == "end"


async def test_a_prompt_with_a_lone_surrogate_is_ignored_and_the_call_goes_on(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """A prompt that is not valid UTF-8 is dropped; the next one is answered."""
    harness = await make_assistant()
    relay = await dial(harness)
    await relay.setup()
    await relay.send('{"type":"prompt","voicePrompt":"milk \\ud800 run","last":true}')
    frames = await relay.ask("What do I owe?")
    assert "$150.00" in spoken(frames)


async def _twiml(harness: AssistantHarness, call_sid: str, caller: str) -> str:
    form = {"CallSid": call_sid, "From": caller, "To": "+18005550100"}
    signature = twilio_signature(PUBLIC_URL + "/v1/twiml", form)
    response = await harness.client.post(
        "/v1/twiml", data=form, headers={"X-Twilio-Signature": signature}
    )
    assert response.status == 200, await response.text()
    assert response.content_type == "text/xml"
    return await response.text()


def _relay_path(twiml: str) -> str:
    url = URL(unescape(re.search(r'ConversationRelay url="([^"]+)"', twiml)[1]))  # type: ignore[index]
    assert url.scheme == "wss" and url.host == "voice.example.com"
    return url.raw_path_qs


async def _tokens_required(make_assistant: MakeAssistant) -> AssistantHarness:
    return await make_assistant(
        twilio_auth_token=AUTH_TOKEN, public_url=PUBLIC_URL, relay_call_token_required=True
    )


async def test_the_twiml_endpoint_connects_the_call_with_its_own_token(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """TwiML names a relay URL with a call token; that URL opens exactly that call."""
    harness = await _tokens_required(make_assistant)
    path = _relay_path(await _twiml(harness, "CA0000000000000000000000000000aaaa", MARIA_PHONE))
    signed = {"X-Twilio-Signature": twilio_signature("wss://voice.example.com" + path)}

    relay = await dial(harness, headers=signed, path=path)
    greeting = await relay.setup(call_sid="CA0000000000000000000000000000aaaa")
    assert spoken(greeting).startswith("Hi Maria")


async def test_a_call_token_opens_no_other_call_and_no_other_caller(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """A captured relay URL cannot open another call, nor claim another caller's number."""
    harness = await _tokens_required(make_assistant)
    path = _relay_path(await _twiml(harness, "CA0000000000000000000000000000bbbb", MARIA_PHONE))
    signed = {"X-Twilio-Signature": twilio_signature("wss://voice.example.com" + path)}

    other_call = await dial(harness, headers=signed, path=path)
    await other_call.setup(call_sid="CA0000000000000000000000000000cccc", greeting=False)
    assert (await _closed(other_call))[0] == 1008

    other_caller = await dial(harness, headers=signed, path=path)
    await other_caller.setup(
        "+14155550102", call_sid="CA0000000000000000000000000000bbbb", greeting=False
    )
    assert (await _closed(other_caller))[0] == 1008


async def test_without_a_valid_call_token_the_upgrade_is_refused(
    make_assistant: MakeAssistant,
) -> None:
    """Tokens required: none, or a forged one, gets 403 before the upgrade."""
    harness = await _tokens_required(make_assistant)
    for path in ("/v1/conversation-relay", "/v1/conversation-relay?call_token=forged"):
        signed = {"X-Twilio-Signature": twilio_signature("wss://voice.example.com" + path)}
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await harness.client.ws_connect(path, headers=signed)
        assert refused.value.status == 403


async def test_an_unsigned_twiml_request_is_refused(make_assistant: MakeAssistant) -> None:
    """The TwiML endpoint mints tokens only for Twilio: a bad signature gets 403."""
    harness = await _tokens_required(make_assistant)
    response = await harness.client.post(
        "/v1/twiml",
        data={"CallSid": "CA1", "From": MARIA_PHONE},
        headers={"X-Twilio-Signature": "forged"},
    )
    assert response.status == 403


def test_assistant_token_mints_a_call_token(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`assistant token --call-sid … --caller …` prints a token the bridge accepts."""
    monkeypatch.setenv("ASSISTANT_SECRET", TEST_SECRET)
    assert assistant_main(["token", "--call-sid", "CA42", "--caller", MARIA_PHONE]) == 0
    token = capsys.readouterr().out.strip()
    claims = verify_call_token(TEST_SECRET, token)
    assert (claims.call_sid, claims.caller) == ("CA42", MARIA_PHONE)


async def test_the_call_registry_remembers_a_bounded_number_of_calls() -> None:
    """Memory stays bounded: past its capacity the oldest call sids are forgotten first."""
    registry = InMemoryCalls(capacity=3)
    assert [await registry.claim(f"CA{n}") for n in range(5)] == [True] * 5
    assert len(registry) == 3
    assert not await registry.claim("CA4")  # recent: still a replay
    assert await registry.claim("CA0")  # forgotten


async def test_shutdown_lets_a_write_in_flight_finish_before_closing(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """Stopping the server mid-write: the write completes, the talk cycle ends, then 1001."""
    backend = FakeToolBackend(release=asyncio.Event())
    harness = await make_assistant(
        planner=ScriptedPlanner(calls(("crm.completeTask", {"task_id": "task_7"}))),
        narrator=EchoNarrator(),
        tool_backend=backend,
    )
    relay = await dial(harness)
    await relay.setup(custom_parameters={"token": harness.token("cust_001")})
    await relay.prompt("mark that task done")
    while not backend.invocations:  # noqa: ASYNC110 - the write has started at the backend
        await asyncio.sleep(0.01)
    stopping = asyncio.create_task(harness.client.server.close())
    while not any(  # noqa: ASYNC110 - the server has begun to wind the call down
        getattr(getattr(end, "__self__", None), "ending", False)
        for end in harness.app[OPEN_SOCKETS].values()
    ):
        await asyncio.sleep(0.01)
    backend.release.set()  # type: ignore[union-attr]
    frames: list[dict[str, Any]] = []
    while (message := await relay.ws.receive(timeout=5)).type is aiohttp.WSMsgType.TEXT:
        frames.append(json.loads(message.data))
    await stopping
    assert frames[-1] == {"type": "text", "token": "", "last": True}  # the cycle was ended
    assert relay.ws.close_code == 1001
    assert backend.intervals and backend.intervals[0].tool == "crm.completeTask"  # it completed


async def test_a_call_ends_politely_at_its_maximum_lifetime(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """Past max_session_lifetime_s after setup (as a websocket session ends), the caller
    hears why the call ends, then `end`: no call stays open for ever."""
    harness = await make_assistant(max_session_lifetime_s=0.5)
    relay = await dial(harness)
    await relay.setup()
    frames = await relay.talk_cycle()
    assert "as long as I can keep it open" in spoken(frames)
    assert (await relay.next_frame())["type"] == "end"


async def test_a_write_in_flight_at_the_lifetime_finishes_and_is_told_before_the_end(
    make_assistant: MakeAssistant, dial: Dial, crm_admin: CrmAdmin
) -> None:
    """A task being added when the lifetime comes is added and told; then the call ends."""
    await crm_admin.add_fault(method="POST", path="/v1/customers/cust_001/tasks", latency_ms=900)
    harness = await make_assistant(max_session_lifetime_s=0.6)
    relay = await dial(harness)
    await relay.setup()
    await relay.prompt("add a task to call the bank")
    frames = []
    while not frames or frames[-1]["type"] != "end":
        frames.append(await relay.next_frame())
    said = spoken(frames)
    assert "as long as I can keep it open" in said
    assert said.lower().index("call the bank") < said.index("as long as I can keep it open")
    status, body = await crm_admin.get("/v1/customers/cust_001/tasks")
    assert status == 200
    assert any(task["title"].lower() == "call the bank" for task in body["tasks"])
