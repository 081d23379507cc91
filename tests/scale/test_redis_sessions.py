"""Sessions in a real redis-server, written a turn at a time: after each turn another
worker loads exactly the conversation there is, whatever happened to its history."""

from __future__ import annotations

import json

from assistant.fakes.world import CATALOG
from assistant.redis_sessions import RedisSessionStore
from assistant.redis_state import connect
from assistant.schema import AssistantTurn, CustomerContext, UserTurn
from assistant.session import MAX_HISTORY_MESSAGES, Session


def _session() -> Session:
    return Session(customer=CustomerContext(customer_id="cust_001"), tools=CATALOG.tools)


async def _turn(store: RedisSessionStore, session: Session, n: int) -> None:
    """One turn as the conversation runner makes it: the history grows under the lock."""
    async with store.lock(session.session_id):
        session.remember(UserTurn(text=f"question {n}"), AssistantTurn(kind="answer", text=f"{n}"))
        await store.save(session)


async def test_turn_after_turn_past_the_cap_another_worker_loads_the_same_history(
    redis_url: str,
) -> None:
    """Forty turns (the history capped at 60 entries): after each, a second worker loads
    the session equal to the first's, and Redis holds the capped history, no more."""
    first, second = connect(redis_url), connect(redis_url)
    try:
        writer = RedisSessionStore(first, catalog=CATALOG.tools)
        reader = RedisSessionStore(second, catalog=CATALOG.tools)
        session = _session()
        for n in range(40):
            await _turn(writer, session, n)
            assert await reader.load(session.session_id) == session
        key = f"assistant:history:{session.session_id}"
        assert await second.llen(key) == MAX_HISTORY_MESSAGES
        assert session.history[0] == UserTurn(text="question 10")
    finally:
        await first.aclose()
        await second.aclose()


async def test_after_a_turn_only_its_new_entries_are_written(redis_url: str) -> None:
    """An entry written at an earlier turn is not written again: changed behind the
    store's back in Redis, it stays as it is after the next turn's save."""
    client = connect(redis_url)
    try:
        store = RedisSessionStore(client, catalog=CATALOG.tools)
        session = _session()
        await _turn(store, session, 1)
        key = f"assistant:history:{session.session_id}"
        first_id = session.entry_ids[0]
        marker = json.dumps({"role": "user", "text": "left alone"})
        await client.lset(key, 0, f"{first_id} {marker}")
        await _turn(store, session, 2)
        assert await client.lindex(key, 0) == f"{first_id} {marker}"
        assert await client.llen(key) == 4
    finally:
        await client.aclose()


async def test_a_replaced_entry_is_written_again(redis_url: str) -> None:
    """What a caller heard before barging in replaces the answer: the next save stores
    the replacement, not the answer as first written."""
    first, second = connect(redis_url), connect(redis_url)
    try:
        writer = RedisSessionStore(first, catalog=CATALOG.tools)
        reader = RedisSessionStore(second, catalog=CATALOG.tools)
        session = _session()
        await _turn(writer, session, 1)
        answer_id = session.entry_ids[-1]
        assert session.replace_entry(answer_id, AssistantTurn(kind="answer", text="heard"))
        await _turn(writer, session, 2)
        loaded = await reader.load(session.session_id)
        assert loaded is not None and loaded.history == session.history
        assert AssistantTurn(kind="answer", text="heard") in loaded.history
    finally:
        await first.aclose()
        await second.aclose()


async def test_a_session_written_by_another_worker_meanwhile_is_written_whole(
    redis_url: str,
) -> None:
    """Worker A's knowledge of the stored history goes stale when worker B resumes the
    session and saves a turn: A's next save then writes its session whole, and what is
    stored is exactly A's, with no entry twice."""
    first, second, third = connect(redis_url), connect(redis_url), connect(redis_url)
    try:
        worker_a = RedisSessionStore(first, catalog=CATALOG.tools)
        worker_b = RedisSessionStore(second, catalog=CATALOG.tools)
        on_a = _session()
        await _turn(worker_a, on_a, 1)
        on_b = await worker_b.load(on_a.session_id)
        assert on_b is not None
        await _turn(worker_b, on_b, 2)
        await _turn(worker_a, on_a, 3)
        loaded = await RedisSessionStore(third, catalog=CATALOG.tools).load(on_a.session_id)
        assert loaded == on_a
        assert len(set(loaded.entry_ids)) == len(loaded.entry_ids) == 4
    finally:
        for client in (first, second, third):
            await client.aclose()


async def test_a_session_stored_whole_by_an_earlier_version_still_loads(redis_url: str) -> None:
    """During a rolling upgrade a session saved with its history inside still resumes."""
    client = connect(redis_url)
    try:
        session = _session()
        session.remember(UserTurn(text="what do I owe?"))
        whole = {
            "customer": {"customer_id": "cust_001"},
            "session_id": session.session_id,
            "history": [{"role": "user", "text": "what do I owe?"}],
            "entry_ids": [1],
            "next_entry_id": 2,
        }
        await client.set(f"assistant:session:{session.session_id}", json.dumps(whole))
        loaded = await RedisSessionStore(client, catalog=CATALOG.tools).load(session.session_id)
        assert loaded is not None and loaded.history == session.history
    finally:
        await client.aclose()
