"""The chat completions endpoint as Vapi, ElevenLabs, LiveKit and Pipecat call it: the real
`openai` client, the embedded models and the real CRM stub."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import openai
import pytest
from aiohttp import web

from assistant.services import SESSION_STORE
from assistant.session_store import InMemorySessionStore
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.platforms.conftest import (
    MARIA_PHONE,
    PLATFORM_KEY,
    UNKNOWN_PHONE,
    OpenAIClient,
    assistant,
    content,
    user,
    vapi_body,
)

SLOW_INVOICES = {"method": "GET", "path": "/v1/customers/*/invoices", "latency_ms": 400, "times": 1}
ACK = "Sure, I'll look up your upcoming appointments and check your billing."


async def test_streamed_acknowledgement_comes_first_then_the_answer(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """Streaming: the ack is the first content, sent while billing is still being read."""
    await crm_admin.add_fault(**SLOW_INVOICES)
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)

    stream = await client.chat.completions.create(
        model="gpt-4o",
        messages=[
            {"role": "system", "content": "You are a helpful assistant."},
            user("Show me my appointments and my billing"),
        ],
        stream=True,
        extra_body=vapi_body(MARIA_PHONE),
    )
    chunks = []
    billing_done_at_first_content = None
    async for chunk in stream:
        chunks.append(chunk)
        if billing_done_at_first_content is None and content(chunks):
            log = await crm_admin.requests()
            billing_done_at_first_content = any(
                r["path"].endswith("/invoices") and r["status"] == 200 for r in log
            )

    text = content(chunks)
    first = next(c.choices[0].delta.content for c in chunks if c.choices[0].delta.content)
    assert billing_done_at_first_content is False
    assert ACK.startswith(first)
    assert text.startswith(ACK + " ")
    assert "Your balance is $150.00" in text[len(ACK) :]
    assert chunks[0].choices[0].delta.role == "assistant"
    assert chunks[-1].choices[0].finish_reason == "stop"
    assert {c.id for c in chunks} == {"chatcmpl-t_1"}
    assert {c.model for c in chunks} == {"gpt-4o"}
    assert all(c.choices[0].delta.tool_calls is None for c in chunks)


async def test_one_completion_is_the_ack_then_the_answer(
    make_assistant: MakeAssistant, openai_client: OpenAIClient
) -> None:
    """Not streaming: one chat.completion whose text reads as ack then answer."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)

    completion = await client.chat.completions.create(
        model="assistant",
        messages=[user("Show me my appointments and my billing")],
        extra_body={"metadata": {"customer_id": "cust_001"}, "temperature": 0.3},
    )

    choice = completion.choices[0]
    assert completion.object == "chat.completion"
    assert completion.id == "chatcmpl-t_1"
    assert choice.finish_reason == "stop"
    assert choice.message.content is not None
    assert choice.message.content.startswith(ACK + " ")
    assert "Your balance is $150.00" in choice.message.content


async def test_a_session_token_is_a_key_and_a_write_changes_the_crm_once(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """A customer's session token authenticates; 'add a task' adds exactly one task."""
    harness = await make_assistant()
    client = openai_client(harness, key=harness.token("cust_002"))
    before = await crm_admin.stats()

    completion = await client.chat.completions.create(
        model="assistant", messages=[user("Add a task to call the plumber")], user="conv-42"
    )

    after = await crm_admin.stats()
    assert "plumber" in (completion.choices[0].message.content or "").lower()
    writes = {
        k: after["requests"].get(k, 0) - before["requests"].get(k, 0) for k in after["requests"]
    }
    assert writes.get("POST /v1/customers/{cid}/tasks") == 1
    status, tasks = await crm_admin.get("/v1/customers/cust_002/tasks")
    assert status == 200
    assert [t["title"].lower() for t in tasks["tasks"]].count("call the plumber") == 1


async def test_an_unknown_number_gets_general_answers_only(
    make_assistant: MakeAssistant, openai_client: OpenAIClient
) -> None:
    """A platform caller whose number is not in the CRM is an unknown caller: no account."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)

    completion = await client.chat.completions.create(
        model="assistant",
        messages=[user("What do I owe?")],
        extra_body=vapi_body(UNKNOWN_PHONE),
    )

    text = completion.choices[0].message.content or ""
    assert "$" not in text
    assert harness.services.engine.turns_in_flight == 0


async def test_the_conversation_continues_across_requests_and_is_rebuilt_when_lost(
    make_assistant: MakeAssistant,
    openai_client: OpenAIClient,
) -> None:
    """Same call.id: one session; an unseen id starts from the messages the platform sent."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)
    body = vapi_body(MARIA_PHONE, call_id="call-7")

    first = await client.chat.completions.create(
        model="a", messages=[user("What is my next appointment?")], extra_body=body
    )
    said = first.choices[0].message.content or ""
    second = await client.chat.completions.create(
        model="a",
        messages=[
            user("What is my next appointment?"),
            assistant(said),
            user("What do I owe?"),
        ],
        extra_body=body,
    )
    lost = await client.chat.completions.create(
        model="a",
        messages=[
            user("What is my next appointment?"),
            assistant(said),
            user("What do I owe?"),
        ],
        extra_body=vapi_body(MARIA_PHONE, call_id="call-after-a-restart"),
    )

    assert second.id == "chatcmpl-t_2"  # the same conversation's second turn
    assert lost.id == "chatcmpl-t_1"
    calls = harness.app[_calls_key()]
    sessions = {key[1]: call.conversation.session for key, call in calls._calls.items()}
    rebuilt = [(m.role, getattr(m, "text", "")) for m in sessions["call-after-a-restart"].history]
    assert rebuilt[:3] == [
        ("user", "What is my next appointment?"),
        ("assistant", said),
        ("user", "What do I owe?"),
    ]


def _calls_key() -> Any:
    from assistant.transports.platform_calls import PLATFORM_CALLS

    return PLATFORM_CALLS


async def test_a_new_request_cancels_the_slow_one(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """Barge-in: the older stream ends at once without its answer; the new one answers."""
    await crm_admin.add_fault(
        method="GET", path="/v1/customers/*/invoices", latency_ms=5000, times=1
    )
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)
    body = vapi_body(MARIA_PHONE, call_id="call-barge")

    slow = await client.chat.completions.create(
        model="a", messages=[user("What do I owe?")], stream=True, extra_body=body
    )
    old_chunks = [await slow.__anext__()]  # the acknowledgement: the turn is running
    await crm_admin.wait_until_seen("GET /v1/customers/{cid}/invoices")
    new = await client.chat.completions.create(
        model="a",
        messages=[user("What do I owe?"), user("Never mind, how many tasks do I have?")],
        extra_body=body,
    )
    old_chunks += [chunk async for chunk in slow]

    assert content(old_chunks) == "Sure, I'll check your billing."
    assert old_chunks[-1].choices[0].finish_reason == "stop"
    assert "task" in (new.choices[0].message.content or "")
    assert "$" not in (new.choices[0].message.content or "")
    metrics = await harness.metrics_text()
    assert 'turn_count_total{status="cancelled"} 1.0' in metrics


async def test_asking_for_a_person_ends_with_the_transfer_tool_call(
    make_assistant: MakeAssistant,
    openai_client: OpenAIClient,
) -> None:
    """Streaming and not: a handoff line, then transferCall with a reason and a summary."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)
    messages = [user("I want to talk to a real person")]

    stream = await client.chat.completions.create(
        model="a", messages=messages, stream=True, extra_body=vapi_body(call_id="c-h1")
    )
    chunks = [chunk async for chunk in stream]
    completion = await client.chat.completions.create(
        model="a", messages=messages, extra_body=vapi_body(call_id="c-h2")
    )

    calls = [c.choices[0].delta.tool_calls for c in chunks if c.choices[0].delta.tool_calls]
    assert len(calls) == 1
    call = calls[0][0]
    assert call.function is not None
    assert call.function.name == "transferCall"
    arguments = json.loads(call.function.arguments or "{}")
    assert arguments["reason"] == "caller_request"
    assert "Maria Garcia" in arguments["summary"]
    assert content(chunks).startswith("Of course. I'll connect you")
    assert chunks[-1].choices[0].finish_reason == "tool_calls"
    message = completion.choices[0]
    assert message.finish_reason == "tool_calls"
    assert message.message.tool_calls is not None
    assert message.message.tool_calls[0].function.name == "transferCall"  # type: ignore[union-attr]


async def test_two_failed_answers_in_a_row_hand_off(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """Billing down twice: two honest 200 answers, the second ends with the transfer call."""
    await crm_admin.add_fault(method="GET", path="/v1/customers/*/invoices", status=503)
    harness = await make_assistant(platform_keys=PLATFORM_KEY, platform_transfer_tool="handoff")
    client = openai_client(harness)
    body = vapi_body(call_id="c-fail")

    first = await client.chat.completions.create(
        model="a", messages=[user("What do I owe?")], extra_body=body
    )
    second = await client.chat.completions.create(
        model="a", messages=[user("What do I owe?")], extra_body=body
    )

    assert first.choices[0].finish_reason == "stop"
    assert "billing" in (first.choices[0].message.content or "").lower()
    assert second.choices[0].finish_reason == "tool_calls"
    transfer = second.choices[0].message.tool_calls
    assert transfer is not None
    assert transfer[0].function.name == "handoff"  # type: ignore[union-attr]
    reason = json.loads(transfer[0].function.arguments)["reason"]  # type: ignore[union-attr]
    assert reason == "repeated_failures"


@pytest.mark.parametrize("key", ["wrong-key", ""])
async def test_a_bad_key_gets_openai_shaped_401(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, key: str
) -> None:
    """No key, or one that is neither a platform key nor a session token: 401, OpenAI's shape."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness, key=key or "x")
    headers = {"Authorization": ""} if not key else None

    with pytest.raises(openai.AuthenticationError) as caught:
        await client.chat.completions.create(
            model="a", messages=[user("hi")], extra_headers=headers
        )

    assert caught.value.status_code == 401
    error = _error(caught.value)
    assert error["code"] == "invalid_api_key"
    assert error["type"] == "invalid_request_error"
    assert "Bearer" in error["message"] or "token" in error["message"]


def _error(exc: openai.APIStatusError) -> dict[str, Any]:
    body = exc.body
    assert isinstance(body, dict), body
    return dict(body.get("error", body))


async def test_bad_bodies_get_openai_shaped_400_and_413(
    make_assistant: MakeAssistant, openai_client: OpenAIClient
) -> None:
    """No user message, malformed JSON, too long a message: each error names what was wrong."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY, max_text_chars=50)
    client = openai_client(harness)

    with pytest.raises(openai.BadRequestError) as no_user:
        await client.chat.completions.create(
            model="a", messages=[{"role": "system", "content": "be brief"}]
        )
    with pytest.raises(openai.APIStatusError) as too_long:
        await client.chat.completions.create(model="a", messages=[user("a" * 51)])
    raw = await harness.client.post(
        "/v1/chat/completions",
        data=b"{not json",
        headers={"Authorization": f"Bearer {PLATFORM_KEY}"},
    )

    assert "no user message" in _error(no_user.value)["message"]
    assert too_long.value.status_code == 413
    assert "the limit is 50" in _error(too_long.value)["message"]
    assert raw.status == 400
    assert "not JSON" in (await raw.json())["error"]["message"]


async def test_over_the_message_budget_is_429_with_retry_after(
    make_assistant: MakeAssistant,
    openai_client: OpenAIClient,
) -> None:
    """The websocket's budgets apply: past them a RateLimitError with Retry-After."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY, session_messages_per_minute=1)
    client = openai_client(harness)
    body = vapi_body(call_id="c-rate")

    await client.chat.completions.create(model="a", messages=[user("hello")], extra_body=body)
    with pytest.raises(openai.RateLimitError) as caught:
        await client.chat.completions.create(model="a", messages=[user("hi")], extra_body=body)

    assert caught.value.response.headers["Retry-After"] == "60"
    assert _error(caught.value)["code"] == "rate_limit_exceeded"


async def test_a_saturated_worker_answers_503(
    make_assistant: MakeAssistant, openai_client: OpenAIClient
) -> None:
    """Admission control: past its turns in flight the worker refuses with 503."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY, saturation_turns_in_flight=1)
    client = openai_client(harness)
    harness.services.engine.turns_in_flight = 1  # one turn already running

    with pytest.raises(openai.InternalServerError) as caught:
        await client.chat.completions.create(model="a", messages=[user("hello")])

    assert caught.value.status_code == 503
    assert _error(caught.value)["code"] == "server_busy"
    harness.services.engine.turns_in_flight = 0
    await asyncio.sleep(0)


async def test_past_the_cap_the_least_recently_used_conversation_is_closed(
    make_assistant: MakeAssistant, openai_client: OpenAIClient
) -> None:
    """max_connections bounds open conversations: an idle one makes room for a new one,
    and when asked again continues from the session store."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY, max_connections=1)
    client = openai_client(harness)

    ids = []
    # (the third asks anew: the same "hello" again would be c-a's retry, answered as
    # before from the answers its stored session keeps)
    for call_id, said in (("c-a", "hello"), ("c-b", "hello"), ("c-a", "hello again")):
        answer = await client.chat.completions.create(
            model="a", messages=[user(said)], extra_body=vapi_body(call_id=call_id)
        )
        ids.append(answer.id)

    assert ids == ["chatcmpl-t_1", "chatcmpl-t_1", "chatcmpl-t_2"]

    metrics = await harness.metrics_text()
    assert 'active_sessions{transport="platform"} 1.0' in metrics


async def test_two_first_requests_at_once_open_one_conversation(
    make_assistant: MakeAssistant, openai_client: OpenAIClient
) -> None:
    """Racing first requests of one call share its conversation: one session, not two."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)
    body = vapi_body(MARIA_PHONE, call_id="c-race")

    answers = await asyncio.gather(
        *(
            client.chat.completions.create(model="a", messages=[user(q)], extra_body=body)
            for q in ("What do I owe?", "How many tasks do I have?")
        )
    )

    # Both end (the later may barge in on the earlier); the later is always answered.
    assert any(answer.choices[0].message.content for answer in answers)
    metrics = await harness.metrics_text()
    assert 'active_sessions{transport="platform"} 1.0' in metrics


async def test_a_conversation_continues_on_another_instance_sharing_the_store(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """'Delete the grocery task' asked on one instance, 'yes' answered by another: the
    pending confirmation travels in the shared session store and the task is deleted."""
    shared = InMemorySessionStore()

    def share(app: web.Application) -> None:
        app[SESSION_STORE] = shared

    first = await make_assistant(platform_keys=PLATFORM_KEY, configure=share)
    second = await make_assistant(platform_keys=PLATFORM_KEY, configure=share)
    body = vapi_body(MARIA_PHONE, call_id="call-moves")
    asked = [user("Delete the grocery task")]

    question = await openai_client(first).chat.completions.create(
        model="a", messages=asked, extra_body=body
    )
    answer = await openai_client(second).chat.completions.create(
        model="a",
        messages=[*asked, assistant(question.choices[0].message.content or ""), user("yes")],
        extra_body=body,
    )

    assert "?" in (question.choices[0].message.content or "")
    assert answer.id == "chatcmpl-t_2"
    stats = await crm_admin.stats()
    assert stats["requests"].get("DELETE /v1/customers/{cid}/tasks/{tid}") == 1
