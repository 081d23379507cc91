"""The platforms' side: the real `openai` client as Vapi, ElevenLabs, LiveKit or Pipecat
use it, and a Retell LLM websocket client following Retell's reference.

    client = openai_client(harness, key=PLATFORM_KEY)
    text, chunks = await stream_text(client, "what do I owe?", extra_body={...})
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol

import aiohttp
import pytest
from openai import AsyncOpenAI
from openai.types.chat import (
    ChatCompletionAssistantMessageParam,
    ChatCompletionUserMessageParam,
)

from tests.fixtures.app import AssistantHarness

PLATFORM_KEY = "vapi-key-0123456789abcdef0123456789"
RETELL_KEY = "retell-key-0123456789abcdef"
MARIA_PHONE = "+14155550101"  # cust_001, Maria Garcia, in the CRM seed
UNKNOWN_PHONE = "+15005550199"
FRAME_TIMEOUT_S = 10.0


class OpenAIClient(Protocol):
    def __call__(self, harness: AssistantHarness, key: str = PLATFORM_KEY) -> AsyncOpenAI: ...


@pytest.fixture
async def openai_client() -> AsyncIterator[OpenAIClient]:
    """The openai package pointed at the app, as a platform's custom LLM URL does."""
    clients: list[AsyncOpenAI] = []

    def make(harness: AssistantHarness, key: str = PLATFORM_KEY) -> AsyncOpenAI:
        base_url = str(harness.client.make_url("/v1"))
        clients.append(AsyncOpenAI(base_url=base_url, api_key=key, max_retries=0, timeout=20))
        return clients[-1]

    yield make
    for client in clients:
        await client.close()


def user(text: str) -> ChatCompletionUserMessageParam:
    return {"role": "user", "content": text}


def assistant(text: str) -> ChatCompletionAssistantMessageParam:
    return {"role": "assistant", "content": text}


def vapi_body(number: str = MARIA_PHONE, call_id: str = "call-1") -> dict[str, Any]:
    """What Vapi adds to the body: the call, with the caller's number."""
    return {"call": {"id": call_id, "customer": {"number": number}}}


def content(chunks: list[Any]) -> str:
    return "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)


class RetellClient:
    """Retell's end of the LLM websocket: interaction frames out, response frames in."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []

    async def send(self, frame: dict[str, Any]) -> None:
        await self.ws.send_str(json.dumps(frame))

    async def next_frame(self, timeout_s: float = FRAME_TIMEOUT_S) -> dict[str, Any]:
        message = await self.ws.receive(timeout=timeout_s)
        assert message.type is aiohttp.WSMsgType.TEXT, f"expected a text frame, got {message}"
        frame: dict[str, Any] = json.loads(message.data)
        self.received.append(frame)
        return frame

    async def call_details(self, from_number: str, **variables: str) -> None:
        await self.send(
            {
                "interaction_type": "call_details",
                "call": {
                    "call_type": "phone_call",
                    "call_id": "Jabr9TXYYJHfvl6Syypi88rdAHYHmcq6",
                    "agent_id": "oBeDLoLOeuAbiuaMFXRtDOLriTJ5tSxD",
                    "call_status": "registered",
                    "from_number": from_number,
                    "to_number": "+12137771235",
                    "direction": "inbound",
                    "retell_llm_dynamic_variables": variables,
                },
            }
        )

    async def response_required(
        self, response_id: int, *utterances: str, kind: str = "response_required"
    ) -> None:
        """The transcript alternates agent and user; the last utterance is the user's."""
        transcript: list[dict[str, str]] = []
        for index, text in enumerate(reversed(utterances)):
            role = "user" if index % 2 == 0 else "agent"
            transcript.insert(0, {"role": role, "content": text})
        await self.send(
            {"interaction_type": kind, "response_id": response_id, "transcript": transcript}
        )

    async def response(self, response_id: int) -> list[dict[str, Any]]:
        """Every frame up to response `response_id`'s content_complete (tool frames too)."""
        frames = []
        while True:
            frame = await self.next_frame()
            frames.append(frame)
            if frame.get("response_id") == response_id and frame.get("content_complete"):
                return frames


def said(frames: list[dict[str, Any]], response_id: int) -> str:
    return "".join(
        f["content"]
        for f in frames
        if f.get("response_type") == "response" and f["response_id"] == response_id
    )


Connect = Callable[[AssistantHarness], Awaitable[RetellClient]]


@contextlib.asynccontextmanager
async def retell_calls(call_path: str) -> AsyncIterator[Connect]:
    """Opens Retell calls from Maria's number on `call_path`, past the config frame and the
    greeting; every call opened is closed at the end."""
    clients: list[RetellClient] = []

    async def open_call(harness: AssistantHarness) -> RetellClient:
        clients.append(RetellClient(await harness.client.ws_connect(call_path)))
        await clients[-1].next_frame()  # config
        await clients[-1].call_details(MARIA_PHONE)
        await clients[-1].next_frame()  # greeting
        return clients[-1]

    try:
        yield open_call
    finally:
        for client in clients:
            await asyncio.wait_for(client.ws.close(), 10)
