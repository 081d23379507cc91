"""The test server rejects what the real API rejects, so "accepted" in other tests means it."""

from __future__ import annotations

from typing import Any

import openai
import pytest
from openai import AsyncOpenAI

from assistant.fakes.openai_server import OpenAIServer, text_reply

TOOL = {"type": "function", "function": {"name": "crm_listTasks", "parameters": {}}}
CALL = {
    "id": "call_1",
    "type": "function",
    "function": {"name": "crm_listTasks", "arguments": "{}"},
}


async def send(client: AsyncOpenAI, **params: Any) -> None:
    stream = await client.chat.completions.create(model="m", stream=True, **params)
    async for _ in stream:
        pass


@pytest.mark.parametrize(
    ("params", "reason"),
    [
        (
            {
                "messages": [{"role": "user", "content": "hi"}],
                "tools": [{"type": "function", "function": {"name": "crm.listTasks"}}],
            },
            "does not match pattern",
        ),
        (
            {
                "messages": [
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": None, "tool_calls": [CALL]},
                ]
            },
            "did not have response messages: call_1",
        ),
        (
            {
                "messages": [
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": None, "tool_calls": [CALL]},
                    {"role": "user", "content": "well?"},
                ]
            },
            "did not have response messages: call_1",
        ),
        (
            {
                "messages": [
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": None, "tool_calls": [CALL]},
                    {"role": "tool", "tool_call_id": "call_1", "content": "{}"},
                    {"role": "tool", "tool_call_id": "call_9", "content": "{}"},
                ]
            },
            "must be a response to a preceeding message with 'tool_calls'",
        ),
        (
            {
                "messages": [
                    {"role": "user", "content": "hi"},
                    {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {**CALL, "function": {"name": "crm.listTasks", "arguments": "{}"}}
                        ],
                    },
                    {"role": "tool", "tool_call_id": "call_1", "content": "{}"},
                ]
            },
            "does not match pattern",
        ),
        (
            {"messages": [{"role": "user", "content": "hi"}], "parallel_tool_calls": True},
            "only allowed when 'tools' are specified",
        ),
    ],
)
async def test_invalid_requests_get_400(
    openai_server: OpenAIServer, openai_client: AsyncOpenAI, params: dict, reason: str
) -> None:
    """Bad function names, unanswered or unknown tool calls, stray tool options: 400."""
    with pytest.raises(openai.BadRequestError, match="400") as caught:
        await send(openai_client, **params)
    assert reason in caught.value.message
    assert openai_server.rejections


async def test_valid_tool_history_is_accepted(
    openai_server: OpenAIServer, openai_client: AsyncOpenAI
) -> None:
    """Every call answered by one tool message: the scripted stream comes back."""
    openai_server.stream(text_reply("ok"))
    await send(
        openai_client,
        tools=[TOOL],
        messages=[
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "One moment.", "tool_calls": [CALL]},
            {"role": "tool", "tool_call_id": "call_1", "content": "[]"},
        ],
    )
    assert openai_server.rejections == []
