"""Sessions as values: JSON round trips, history entry ids, the in-memory store."""

from __future__ import annotations

import asyncio
import json

from assistant.dialogue_state import Action, Dialogue
from assistant.schema import (
    AssistantTurn,
    CustomerContext,
    ToolCall,
    ToolDefinition,
    ToolExchange,
    ToolResult,
    UserTurn,
)
from assistant.session import MAX_HISTORY_MESSAGES, PendingConfirmation, RecentWrite, Session
from assistant.session_store import InMemorySessionStore, session_from_json, session_to_json
from tests.fixtures.app import MakeAssistant


def _busy_session() -> Session:
    tool = ToolDefinition(
        name="crm.deleteTask",
        description="Delete a task",
        parameters={"type": "object", "properties": {"task_id": {"type": "string"}}},
        waiting_hint="deleting the task",
        effect="destructive",
        timeout_s=5,
    )
    session = Session(
        customer=CustomerContext(customer_id="cust_001", name="Maria Garcia"), tools=(tool,)
    )
    call = ToolCall(call_id="c1", tool_name="crm.deleteTask", arguments={"task_id": "t_1"})
    session.next_turn_id()
    session.next_turn_id()
    session.remember(
        UserTurn(text="delete the grocery task"),
        AssistantTurn(kind="ack", text="Sure, I'll delete it."),
        ToolExchange(
            round=1,
            results=(ToolResult(call=call, status="ok", result={"deleted": True}),),
        ),
    )
    session.pending = PendingConfirmation(
        calls=(call,),
        prompt="Delete 'Buy groceries'?",
        session_id=session.session_id,
        expires_at=1_900_000_000.5,
    )
    session.recent_writes.append(RecentWrite(key="crm.createTask|milk", at=1.5, done="added"))
    task = {"id": "t_1", "title": "Buy groceries", "status": "pending"}
    session.dialogue = Dialogue(
        listed_kind="task",
        listed=(task,),
        focus_kind="task",
        focus=task,
        last_action=Action("crm.completeTask", {"task_id": "t_1"}, "task", task, None),
        question="offer_case",
        about="a double charge",
    )
    return session


def test_a_session_survives_a_json_round_trip() -> None:
    """History, the pending confirmation, recent writes, the dialogue state and the
    counters come back equal."""
    session = _busy_session()
    text = json.dumps(session_to_json(session))
    again = session_from_json(json.loads(text))
    assert again == session
    assert again.next_turn_id() == "t_3"  # the counter goes on where it was


def test_history_entries_keep_their_ids_when_old_ones_are_dropped() -> None:
    """An entry is found by its id after history was trimmed, and a gone one is not."""
    session = Session(customer=None, tools=())
    session.remember(AssistantTurn(kind="answer", text="first"))
    first_id, _ = session.newest_entry() or (0, None)
    for n in range(MAX_HISTORY_MESSAGES):
        session.remember(UserTurn(text=f"message {n}"))
    last_id, _ = session.newest_entry() or (0, None)
    assert session.replace_entry(last_id, AssistantTurn(kind="answer", text="heard"))
    assert session.history[-1] == AssistantTurn(kind="answer", text="heard")
    assert not session.replace_entry(first_id, AssistantTurn(kind="answer", text="x"))
    assert session.drop_entry(last_id)
    newest = session.history[-1]
    assert isinstance(newest, UserTurn)
    assert newest.text == f"message {MAX_HISTORY_MESSAGES - 2}"


async def test_the_store_serialises_turns_of_one_session() -> None:
    """While one holder has a session's lock, a second waits; other sessions do not."""
    store = InMemorySessionStore()
    order: list[str] = []

    async def hold(session_id: str, name: str, release: asyncio.Event) -> None:
        async with store.lock(session_id):
            order.append(f"{name} in")
            await release.wait()
            order.append(f"{name} out")

    first_release, second_release, other_release = (asyncio.Event() for _ in range(3))
    first = asyncio.create_task(hold("s_1", "first", first_release))
    await asyncio.sleep(0)
    second = asyncio.create_task(hold("s_1", "second", second_release))
    other = asyncio.create_task(hold("s_2", "other", other_release))
    await asyncio.sleep(0)
    assert order == ["first in", "other in"]
    first_release.set()
    second_release.set()
    other_release.set()
    await asyncio.gather(first, second, other)
    assert order.index("second in") > order.index("first out")


async def test_a_conversation_stays_in_the_store_for_the_resume_window(
    make_assistant: MakeAssistant,
) -> None:
    """The app keeps a websocket session in its store after each turn, and keeps it
    after the socket closes, until the resume window has passed."""
    now = [1000.0]
    assistant = await make_assistant(resume_window_s=60)
    store = InMemorySessionStore(60, clock=lambda: now[0])
    assistant.services.sessions = store
    chat = await assistant.connect("cust_001")
    await chat.say("what do I owe")
    saved = await store.load(chat.session_id)
    assert saved is not None
    assert saved.turns == 1
    assert saved.history[0] == UserTurn(text="what do I owe")
    assert session_from_json(session_to_json(saved)) == saved
    await chat.close()
    await asyncio.sleep(0.05)
    assert await store.load(chat.session_id) is not None  # a reconnect may resume it
    now[0] += 61
    assert await store.load(chat.session_id) is None
