"""session.resume (PROTOCOL.md): a client that reconnects continues its conversation,
its pending confirmation included; with Redis, on another worker after the first is gone."""

from __future__ import annotations

from tests.fixtures.app import AssistantHarness, MakeAssistant, WsConversation
from tests.fixtures.crm import CrmAdmin


async def _tasks(crm_admin: CrmAdmin) -> set[str]:
    _, body = await crm_admin.get("/v1/customers/cust_001/tasks")
    return {task["title"] for task in body["tasks"]}


async def _resume_with_bearer(assistant: AssistantHarness, session_id: str) -> WsConversation:
    chat = await assistant.connect()
    await chat.send({"type": "session.resume", "session_id": session_id})
    chat.ready = await chat.next_of("session.ready")
    return chat


async def test_a_browser_resumes_its_session_and_its_pending_confirmation(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The socket drops while a delete waits for a yes; the reconnect's session.resume
    gets the same session (resumed: true) and its yes deletes the task."""
    assistant = await make_assistant()
    first = await assistant.connect_browser()
    await first.say("Delete the grocery task")
    await first.close()
    second = await assistant.open_ws()
    chat = WsConversation(second, None)
    assistant.conversations.append(chat)
    await chat.send(
        {"type": "session.resume", "session_id": first.session_id, "token": assistant.token()}
    )
    ready = await chat.next_of("session.ready")
    assert (ready["session_id"], ready["resumed"]) == (first.session_id, True)
    assert "Buy groceries" in await _tasks(crm_admin)
    events = await chat.say("yes")
    # The tasks are read again first (is the task still as the question named it?).
    ran = [c["tool"] for c in events[-1]["tool_calls"]]
    assert [tool for tool in ran if tool != "crm.listTasks"] == ["crm.deleteTask"]
    assert "Buy groceries" not in await _tasks(crm_admin)


async def test_a_bearer_client_resumes_with_a_second_ready(make_assistant: MakeAssistant) -> None:
    """After its first session.ready, session.resume gets a second one naming the earlier
    session; the conversation goes on from its history ("the one after that")."""
    assistant = await make_assistant()
    first = await assistant.connect()
    await first.say("What's my next appointment?")
    await first.close()
    chat = await _resume_with_bearer(assistant, first.session_id)
    assert chat.ready is not None
    assert (chat.ready["session_id"], chat.ready["resumed"]) == (first.session_id, True)
    events = await chat.say("and the one after that?")
    assert events[-1]["status"] == "ok"
    assert "haircut" in next(e["text"] for e in events if e["type"] == "answer.done").lower()


async def test_another_customers_session_is_never_resumed(make_assistant: MakeAssistant) -> None:
    """cust_002 naming cust_001's session id gets a new session (resumed: false)."""
    assistant = await make_assistant()
    first = await assistant.connect("cust_001")
    await first.say("Delete the grocery task")
    await first.close()
    other = await assistant.connect("cust_002")
    await other.send({"type": "session.resume", "session_id": first.session_id})
    ready = await other.next_of("session.ready")
    assert ready["resumed"] is False
    assert ready["session_id"] != first.session_id
    assert ready["customer_id"] == "cust_002"


async def test_an_unknown_session_starts_a_new_one(make_assistant: MakeAssistant) -> None:
    """A session the store no longer holds: a new conversation, never an error."""
    assistant = await make_assistant()
    chat = await _resume_with_bearer(assistant, "s_gone")
    assert chat.ready is not None and chat.ready["resumed"] is False


async def test_resume_on_another_worker_after_the_first_is_gone(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, redis_url: str
) -> None:
    """Two workers sharing Redis: the first holds a pending delete and goes away; the
    reconnect lands on the second, resumes the session, and its yes deletes the task."""
    first_worker = await make_assistant(redis_url=redis_url)
    second_worker = await make_assistant(redis_url=redis_url)
    first = await first_worker.connect()
    events = await first.say("Delete the grocery task")
    assert events[-1]["awaiting_confirmation"] is not None
    await first.close()
    await first_worker.client.close()  # the first worker is gone
    chat = await _resume_with_bearer(second_worker, first.session_id)
    assert chat.ready is not None and chat.ready["resumed"] is True
    await chat.say("yes")
    assert "Buy groceries" not in await _tasks(crm_admin)
