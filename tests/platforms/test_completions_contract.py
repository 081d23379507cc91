"""PLATFORMS.md section 1 clause by clause, where test_completions.py leaves a gap: the
stream as bytes on the wire, which conversation a request belongs to, who the caller is
by metadata, and malformed bodies named in OpenAI's error shape."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.platforms.conftest import MARIA_PHONE, PLATFORM_KEY, OpenAIClient, content, user

AUTH = {"Authorization": f"Bearer {PLATFORM_KEY}"}
PLATFORM_TOOLS = [
    {
        "type": "function",
        "function": {"name": "transferCall", "parameters": {"type": "object", "properties": {}}},
    }
]


async def test_the_stream_is_server_sent_chunks_ending_with_data_done(
    make_assistant: MakeAssistant,
) -> None:
    """stream: true is text/event-stream of `data:` chat.completion.chunk lines, one id,
    the last chunk finish_reason stop, then `data: [DONE]`; the platform's own `tools`
    and sampling fields are ignored, so no tool_calls reach it."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    body = {
        "model": "gpt-4o",
        "messages": [user("Show me my appointments and my billing")],
        "stream": True,
        "tools": PLATFORM_TOOLS,
        "temperature": 0.7,
        "max_tokens": 250,
        "metadata": {"customer_id": "cust_001"},
    }

    response = await harness.client.post("/v1/chat/completions", json=body, headers=AUTH)
    raw = (await response.read()).decode()

    assert response.status == 200
    assert response.headers["Content-Type"].startswith("text/event-stream")
    events = [block for block in raw.split("\n\n") if block]
    assert all(block.startswith("data: ") for block in events)
    assert events[-1] == "data: [DONE]"
    chunks = [json.loads(block.removeprefix("data: ")) for block in events[:-1]]
    assert {c["object"] for c in chunks} == {"chat.completion.chunk"}
    assert {c["id"] for c in chunks} == {"chatcmpl-t_1"}
    assert {c["model"] for c in chunks} == {"gpt-4o"}
    assert [c["choices"][0]["finish_reason"] for c in chunks[-1:]] == ["stop"]
    assert all(c["choices"][0]["finish_reason"] is None for c in chunks[:-1])
    assert not [c for c in chunks if "tool_calls" in c["choices"][0]["delta"]]
    text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks)
    assert "$150.00" in text


async def test_metadata_caller_phone_names_the_caller(
    make_assistant: MakeAssistant, openai_client: OpenAIClient
) -> None:
    """Without Vapi's call.customer.number, metadata.caller_phone is looked up in the CRM:
    Maria's number gets Maria's balance."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)

    completion = await openai_client(harness).chat.completions.create(
        model="a",
        messages=[user("What do I owe?")],
        extra_body={"metadata": {"caller_phone": MARIA_PHONE}},
    )

    assert "$150.00" in (completion.choices[0].message.content or "")


async def test_conversation_id_else_the_first_message_keeps_one_conversation(
    make_assistant: MakeAssistant, openai_client: OpenAIClient
) -> None:
    """metadata.conversation_id names the conversation; with no id at all, the same
    caller and first user message continue one conversation and another first message
    starts a new one (each response's id is chatcmpl-<turn id>)."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)
    maria = {"metadata": {"customer_id": "cust_001"}}
    by_id = {"metadata": {"customer_id": "cust_001", "conversation_id": "conv-9"}}

    async def ask(extra: dict[str, Any], *texts: str) -> str:
        answer = await client.chat.completions.create(
            model="a", messages=[user(t) for t in texts], extra_body=extra
        )
        return answer.id

    ids = [
        await ask(by_id, "hello"),
        await ask(by_id, "what do I owe?"),
        await ask(maria, "hi there"),
        await ask(maria, "hi there", "what do I owe?"),
        await ask(maria, "good morning"),
    ]

    assert ids == ["chatcmpl-t_1", "chatcmpl-t_2", "chatcmpl-t_1", "chatcmpl-t_2", "chatcmpl-t_1"]


@pytest.mark.parametrize(
    ("body", "status", "named"),
    [
        (b'{"messages": [{"role": "user", "content": "milk \\ud800 run"}]}', 400, "UTF-8"),
        (b'{"messages": [{"role": "user", "content": "hi"}], "model": 5}', 400, "'model'"),
        (b'{"messages": [{"role": "user", "content": "hi"}], "stream": "yes"}', 400, "'stream'"),
        (b'{"messages": [{"role": "robot", "content": "hi"}]}', 400, "messages[0]"),
        (b'{"messages": [{"role": "user", "content": 5}]}', 400, "messages[0].content"),
        (b'{"messages": "hi"}', 400, "'messages'"),
        (b"[]", 400, "JSON object"),
        (b'{"messages": [{"role": "user", "content": "hi"}], "metadata": 1}', 400, "'metadata'"),
        (b'{"messages": [{"role": "user", "content": "' + b"a" * 70_000 + b'"}]}', 413, "bytes"),
    ],
    ids=[
        "lone-surrogate",
        "model-not-string",
        "stream-not-bool",
        "unknown-role",
        "content-not-text",
        "messages-not-list",
        "not-an-object",
        "metadata-not-object",
        "body-over-the-limit",
    ],
)
async def test_a_malformed_body_is_named_in_openais_error_shape(
    make_assistant: MakeAssistant, body: bytes, status: int, named: str
) -> None:
    """Each malformed request body gets 400 (413 when too big) in OpenAI's error shape,
    its message naming what was wrong; none is a 500."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY, platform_max_body_bytes=65_536)

    response = await harness.client.post("/v1/chat/completions", data=body, headers=AUTH)
    error = (await response.json())["error"]

    assert response.status == status
    assert set(error) >= {"message", "type", "code"}
    assert named in error["message"]
    assert harness.services.engine.turns_in_flight == 0


async def test_a_failed_lookup_is_answered_honestly_without_a_second_apology(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """Billing down: 200 with the turn's own honest answer about billing, not followed by
    "something went wrong on my side, try again" as if the service had broken."""
    await crm_admin.add_fault(method="GET", path="/v1/customers/*/invoices", status=503)
    harness = await make_assistant(platform_keys=PLATFORM_KEY)

    completion = await openai_client(harness).chat.completions.create(
        model="a",
        messages=[user("What do I owe?")],
        extra_body={"metadata": {"customer_id": "cust_001"}},
    )

    text = completion.choices[0].message.content or ""
    assert "billing" in text.lower()
    assert "went wrong on my side" not in text


async def test_a_barge_in_during_a_write_lets_it_land_once(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """A new request while 'add a task' is being written: the older stream ends after its
    acknowledgement, the new one answers, and the task is added exactly once."""
    await crm_admin.add_fault(method="POST", path="/v1/customers/*/tasks", latency_ms=600, times=1)
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)
    body = {"call": {"id": "call-write-barge", "customer": {"number": MARIA_PHONE}}}
    asked = user("Add a task to call the plumber")

    slow = await client.chat.completions.create(
        model="a", messages=[asked], stream=True, extra_body=body
    )
    old = [await slow.__anext__()]
    await crm_admin.wait_until_seen("POST /v1/customers/{cid}/tasks")
    new = await client.chat.completions.create(
        model="a", messages=[asked, user("what do I owe?")], extra_body=body
    )
    old += [chunk async for chunk in slow]

    assert content(old) == "Sure, I'll add that task."
    assert "$150.00" in (new.choices[0].message.content or "")
    _, tasks = await crm_admin.get("/v1/customers/cust_001/tasks")
    assert [t["title"] for t in tasks["tasks"]].count("Call the plumber") == 1


async def test_a_long_calls_whole_history_is_still_answered(
    make_assistant: MakeAssistant, openai_client: OpenAIClient
) -> None:
    """Platforms resend the whole call every time: 150 KiB of earlier messages (past the
    websocket's 64 KiB frames) is answered, not refused with 413."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    earlier = [user(f"earlier question {n}: " + "tell me more " * 40) for n in range(300)]

    completion = await openai_client(harness).chat.completions.create(
        model="a",
        messages=[*earlier, user("What do I owe?")],
        extra_body={"metadata": {"customer_id": "cust_001"}},
    )

    assert len(json.dumps(earlier)) > 150_000
    assert "$150.00" in (completion.choices[0].message.content or "")


async def test_another_customers_conversation_id_is_never_continued(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """cust_002's token naming cust_001's conversation (`user`) gets a conversation of its
    own: its 'yes' does not confirm cust_001's pending delete."""
    harness = await make_assistant()
    maria = openai_client(harness, key=harness.token("cust_001"))
    james = openai_client(harness, key=harness.token("cust_002"))

    asked = await maria.chat.completions.create(
        model="a", messages=[user("Delete the grocery task")], user="shared-conv"
    )
    yes = await james.chat.completions.create(model="a", messages=[user("yes")], user="shared-conv")

    assert "?" in (asked.choices[0].message.content or "")
    assert yes.id == "chatcmpl-t_1"
    _, tasks = await crm_admin.get("/v1/customers/cust_001/tasks")
    assert "Buy groceries" in [t["title"] for t in tasks["tasks"]]
