"""Retell's custom-LLM websocket, played by a websocket client following Retell's reference,
against the embedded models and the real CRM stub."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import aiohttp
import pytest

from assistant.transports.platform_calls import stored_session_id
from assistant.transports.retell import NUDGE
from tests.fixtures.app import AssistantHarness, MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.platforms.conftest import MARIA_PHONE, RETELL_KEY, UNKNOWN_PHONE, RetellClient, said

CALL_PATH = f"/v1/retell/{RETELL_KEY}/Jabr9TXYYJHfvl6Syypi88rdAHYHmcq6"
ACK = "Sure, I'll look up your upcoming appointments and check your billing."
Connect = Callable[[AssistantHarness], Awaitable[RetellClient]]


@pytest.fixture
async def connect() -> AsyncIterator[Connect]:
    """Open the LLM websocket as Retell does, past the `config` frame; closed at the end."""
    clients: list[RetellClient] = []

    async def open_call(harness: AssistantHarness) -> RetellClient:
        clients.append(RetellClient(await harness.client.ws_connect(CALL_PATH)))
        config = await clients[-1].next_frame()
        assert config == {
            "response_type": "config",
            "config": {"auto_reconnect": True, "call_details": True},
        }
        return clients[-1]

    yield open_call
    for client in clients:
        await asyncio.wait_for(client.ws.close(), 10)


async def test_a_known_number_is_greeted_by_first_name(
    make_assistant: MakeAssistant, connect: Connect
) -> None:
    """call_details with Maria's number: response 0 greets her by name, complete."""
    harness = await make_assistant(retell_key=RETELL_KEY)
    retell = await connect(harness)

    await retell.call_details(MARIA_PHONE)
    greeting = await retell.next_frame()

    assert greeting == {
        "response_type": "response",
        "response_id": 0,
        "content": "Hi Maria, thanks for calling. How can I help you today?",
        "content_complete": True,
    }


async def test_an_unknown_number_gets_general_questions_only(
    make_assistant: MakeAssistant, connect: Connect
) -> None:
    """An unknown caller hears so, and their question is answered without their account."""
    harness = await make_assistant(retell_key=RETELL_KEY)
    retell = await connect(harness)

    await retell.call_details(UNKNOWN_PHONE)
    greeting = await retell.next_frame()
    await retell.response_required(1, greeting["content"], "What do I owe?")
    frames = await retell.response(1)

    assert "couldn't find an account" in greeting["content"]
    assert "$" not in said(frames, 1)
    assert not [f for f in frames if f["response_type"] == "tool_call_invocation"]


async def test_a_session_token_in_the_dynamic_variables_names_the_caller(
    make_assistant: MakeAssistant, connect: Connect
) -> None:
    """A web call with no number: the token in retell_llm_dynamic_variables identifies."""
    harness = await make_assistant(retell_key=RETELL_KEY)
    retell = await connect(harness)

    await retell.call_details("", token=harness.token("cust_001"))

    assert (await retell.next_frame())["content"].startswith("Hi Maria")


async def test_a_two_tool_question_is_ack_then_answer_under_one_response_id(
    make_assistant: MakeAssistant, connect: Connect
) -> None:
    """The ack is an open response N, tool bookkeeping follows, the answer closes N."""
    harness = await make_assistant(retell_key=RETELL_KEY)
    retell = await connect(harness)
    await retell.call_details(MARIA_PHONE)
    greeting = await retell.next_frame()

    await retell.response_required(1, greeting["content"], "Show me my appointments and my billing")
    frames = await retell.response(1)

    responses = [f for f in frames if f["response_type"] == "response"]
    first_tool = next(i for i, f in enumerate(frames) if f["response_type"] != "response")
    ack = frames[:first_tool]  # what went out before any tool ran
    assert {f["response_id"] for f in responses} == {1}
    assert "".join(f["content"] for f in ack) == ACK
    assert all(f["content_complete"] is False for f in ack)
    assert [f["content_complete"] for f in responses] == [False] * (len(responses) - 1) + [True]
    invocations = [f["name"] for f in frames if f["response_type"] == "tool_call_invocation"]
    results = [f for f in frames if f["response_type"] == "tool_call_result"]
    assert sorted(invocations) == ["crm.getOpenInvoices", "crm.listUpcomingAppointments"]
    assert len(results) == 2
    text = said(frames, 1)
    assert text.startswith(ACK + " ")
    assert "Your balance is $150.00" in text


async def test_a_newer_response_id_abandons_the_stale_one_and_its_write_lands_once(
    make_assistant: MakeAssistant, connect: Connect, crm_admin: CrmAdmin
) -> None:
    """Response 1 (adding a task, slow) goes stale at 2: nothing more for 1, one task added."""
    await crm_admin.add_fault(method="POST", path="/v1/customers/*/tasks", latency_ms=600, times=1)
    harness = await make_assistant(retell_key=RETELL_KEY)
    retell = await connect(harness)
    await retell.call_details(MARIA_PHONE)
    await retell.next_frame()

    await retell.response_required(1, "Add a task to renew my passport")
    ack = await retell.next_frame()
    await crm_admin.wait_until_seen("POST /v1/customers/{cid}/tasks")
    await retell.response_required(2, "Add a task to renew my passport", "", "What do I owe?")
    frames = await retell.response(2)

    assert ack["response_id"] == 1 and ack["content_complete"] is False
    assert all(f.get("response_id") != 1 for f in frames)
    assert "$150.00" in said(frames, 2)
    _, tasks = await crm_admin.get("/v1/customers/cust_001/tasks")
    assert isinstance(tasks, dict)
    titles = [t["title"].lower() for t in tasks["tasks"]]
    assert titles.count("renew my passport") == 1


async def test_reminders_get_a_nudge_and_pings_their_timestamp(
    make_assistant: MakeAssistant, connect: Connect
) -> None:
    """reminder_required: a short nudge, no tools; ping_pong: the same timestamp back."""
    harness = await make_assistant(retell_key=RETELL_KEY)
    retell = await connect(harness)
    await retell.call_details(MARIA_PHONE)
    greeting = await retell.next_frame()

    await retell.send({"interaction_type": "ping_pong", "timestamp": 1703302407333})
    pong = await retell.next_frame()
    await retell.send(
        {"interaction_type": "update_only", "transcript": [{"role": "user", "content": "hm"}]}
    )
    await retell.response_required(3, greeting["content"], kind="reminder_required")
    reminder = await retell.next_frame()

    assert pong == {"response_type": "ping_pong", "timestamp": 1703302407333}
    assert reminder == {
        "response_type": "response",
        "response_id": 3,
        "content": NUDGE,
        "content_complete": True,
    }


async def test_asking_for_a_person_transfers_or_ends_the_call(
    make_assistant: MakeAssistant, connect: Connect
) -> None:
    """With a transfer number the last frame carries it; without one, end_call."""
    with_number = await make_assistant(retell_key=RETELL_KEY, retell_transfer_number="+18005550123")
    without = await make_assistant(retell_key=RETELL_KEY)
    frames = []
    for harness in (with_number, without):
        retell = await connect(harness)
        await retell.call_details(MARIA_PHONE)
        await retell.next_frame()
        await retell.response_required(1, "Can I speak to a human?")
        frames.append((await retell.response(1))[-1])

    assert frames[0]["transfer_number"] == "+18005550123"
    assert "end_call" not in frames[0]
    assert frames[1]["end_call"] is True
    assert all(f["content"].startswith("Of course. I'll connect you") for f in frames)


async def test_a_wrong_key_is_refused_before_the_upgrade(make_assistant: MakeAssistant) -> None:
    """A wrong key in the URL: HTTP 403, no websocket; no key configured: the same."""
    harness = await make_assistant(retell_key=RETELL_KEY)
    unconfigured = await make_assistant()

    for target, path in ((harness, "/v1/retell/not-the-key/c1"), (unconfigured, CALL_PATH)):
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await target.client.ws_connect(path)
        assert refused.value.status == 403


async def test_bad_frames_are_ignored_and_the_call_goes_on(
    make_assistant: MakeAssistant, connect: Connect
) -> None:
    """Not JSON, not an object, an unknown kind, no response_id: the call still answers."""
    harness = await make_assistant(retell_key=RETELL_KEY)
    retell = await connect(harness)
    await retell.call_details(MARIA_PHONE)
    await retell.next_frame()

    await retell.ws.send_str("{not json")
    await retell.ws.send_str("[1, 2]")
    await retell.send({"interaction_type": "dance"})
    await retell.send({"interaction_type": "response_required", "response_id": "one"})
    await retell.send({"interaction_type": "ping_pong", "timestamp": 7})

    assert await retell.next_frame() == {"response_type": "ping_pong", "timestamp": 7}


async def test_a_reconnected_call_continues_without_a_second_greeting(
    make_assistant: MakeAssistant, connect: Connect
) -> None:
    """auto_reconnect: the same call id again continues its session; no new greeting."""
    harness = await make_assistant(retell_key=RETELL_KEY)
    retell = await connect(harness)
    await retell.call_details(MARIA_PHONE)
    await retell.next_frame()
    await retell.response_required(1, "What do I owe?")
    await retell.response(1)
    await retell.ws.close()

    again = await connect(harness)
    await again.call_details(MARIA_PHONE)
    greeting = await again.next_frame()
    await again.response_required(2, "What do I owe?", "You owe $150.00.", "And my tasks?")
    frames = await again.response(2)

    assert greeting == {
        "response_type": "response",
        "response_id": 0,
        "content": "",
        "content_complete": True,
    }
    assert "task" in said(frames, 2)
    session_id = stored_session_id(harness.services, "retell", CALL_PATH.rsplit("/", 1)[1])
    session = await harness.services.sessions.load(session_id)
    assert session is not None
    assert session.turns == 2
