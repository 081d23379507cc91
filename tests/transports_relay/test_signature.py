"""The upgrade must carry Twilio's signature when an auth token is configured."""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestClient

from assistant.transports.relay_signature import is_valid_signature
from tests.fakes import ScriptedPlanner
from tests.fixtures.app import MakeAssistant
from tests.transports_relay.conftest import RELAY_PATH, Dial, SpokenNarrator, spoken

AUTH_TOKEN = "twilio-auth-token-for-tests"


@pytest.fixture
def crm_token() -> str:
    """Outside demo mode the assistant refuses the CRM's development token."""
    return "relay-test-crm-token"


PUBLIC_URL = "wss://voice.example.com"


def twilio_signature(auth_token: str, url: str) -> str:
    """Twilio's documented algorithm for a GET: base64(HMAC-SHA1(auth token, full URL))."""
    digest = hmac.new(auth_token.encode(), url.encode(), hashlib.sha1).digest()
    return base64.b64encode(digest).decode()


async def _refused_status(client: TestClient[Any, Any], path: str, headers: dict[str, str]) -> int:
    """The HTTP status of a refused websocket upgrade."""
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await client.ws_connect(path, headers=headers)
    return refused.value.status


async def test_a_bad_or_missing_signature_is_refused_with_403(
    make_assistant: MakeAssistant,
) -> None:
    """Someone who is not Twilio cannot open a call, with a wrong signature or none."""
    harness = await make_assistant(
        planner=ScriptedPlanner(),
        narrator=SpokenNarrator(),
        twilio_auth_token=AUTH_TOKEN,
        public_url=PUBLIC_URL,
    )
    forged = twilio_signature("not-the-auth-token", PUBLIC_URL + RELAY_PATH)
    other_path = twilio_signature(AUTH_TOKEN, PUBLIC_URL + "/v1/other")

    for headers in ({"X-Twilio-Signature": forged}, {"X-Twilio-Signature": other_path}, {}):
        assert await _refused_status(harness.client, RELAY_PATH, headers) == 403


async def test_a_good_signature_over_url_and_query_is_accepted(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """A handshake signed over ASSISTANT_PUBLIC_URL + path + query opens the call."""
    harness = await make_assistant(
        planner=ScriptedPlanner(),
        narrator=SpokenNarrator(),
        twilio_auth_token=AUTH_TOKEN,
        public_url=PUBLIC_URL + "/",
    )
    path = RELAY_PATH + "?tenant=acme&line=2"
    signature = twilio_signature(AUTH_TOKEN, PUBLIC_URL + path)

    relay = await dial(harness, headers={"X-Twilio-Signature": signature}, path=path)
    greeting = spoken(await relay.setup())

    assert greeting.startswith("Hi Maria")
    # The same signature does not cover another query string.
    replayed = {"X-Twilio-Signature": signature}
    assert await _refused_status(harness.client, RELAY_PATH + "?tenant=evil", replayed) == 403


async def test_without_an_auth_token_only_demo_mode_accepts_calls(
    make_assistant: MakeAssistant,
) -> None:
    """Outside demo mode, an unconfigured bridge refuses every call rather than trust it."""
    harness = await make_assistant(planner=ScriptedPlanner(), narrator=SpokenNarrator(), demo=False)

    assert await _refused_status(harness.client, RELAY_PATH, {}) == 403


def test_signature_accepts_the_https_spelling_and_default_port() -> None:
    """An operator who configured https:// or :443 still matches Twilio's wss:// signature."""
    url = "wss://voice.example.com/v1/conversation-relay?x=1"
    signature = twilio_signature(AUTH_TOKEN, url)

    assert is_valid_signature(
        AUTH_TOKEN, "https://voice.example.com/v1/conversation-relay?x=1", signature
    )
    assert is_valid_signature(
        AUTH_TOKEN, "wss://voice.example.com:443/v1/conversation-relay?x=1", signature
    )
    assert not is_valid_signature(
        AUTH_TOKEN, "wss://voice.example.org/v1/conversation-relay?x=1", signature
    )
    assert not is_valid_signature(AUTH_TOKEN, url, None)
