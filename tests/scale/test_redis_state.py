"""State shared through a real redis-server: message budgets and the telephony replay
guard hold across workers (here: two apps, as two workers would be)."""

from __future__ import annotations

import asyncio
import json

from assistant.fakes import EchoNarrator, ScriptedPlanner
from assistant.fakes.world import CATALOG
from assistant.redis_sessions import RedisSessionStore
from assistant.redis_state import RedisCalls, RedisLimits, connect
from assistant.schema import CustomerContext, FinalDecision, UserTurn
from assistant.session import Session
from tests.fixtures.app import MakeAssistant


async def test_a_customers_budget_holds_across_two_workers(
    make_assistant: MakeAssistant, redis_url: str
) -> None:
    """Two messages a minute for a customer: the third, sent to the other worker, is
    refused with rate_limited (in memory each worker would have allowed two)."""

    def quiet() -> ScriptedPlanner:
        return ScriptedPlanner(*[FinalDecision(text="ok")] * 3)

    settings = {"redis_url": redis_url, "customer_messages_per_minute": 2}
    first = await make_assistant(planner=quiet(), narrator=EchoNarrator(), **settings)
    second = await make_assistant(planner=quiet(), narrator=EchoNarrator(), **settings)
    on_first = await first.connect("cust_004")
    on_second = await second.connect("cust_004")
    assert (await on_first.say("hello"))[-1]["type"] == "turn.done"
    assert (await on_second.say("hello"))[-1]["type"] == "turn.done"
    await on_second.send_message("and again")
    refused = await on_second.next_of("error")
    assert refused["code"] == "rate_limited"
    assert "customer" in refused["message"]
    assert 0 < refused["retry_after_s"] <= 30


async def test_budgets_are_atomic_under_concurrent_messages(redis_url: str) -> None:
    """Twenty messages at once against a budget of five: exactly five are admitted."""
    client = connect(redis_url)
    try:
        limits = RedisLimits(client, session_rate=100, customer_rate=5)
        sessions = [limits.for_session(f"s_{n}", "cust_009") for n in range(20)]
        refusals = await asyncio.gather(*(session.admit() for session in sessions))
        assert sum(refusal is None for refusal in refusals) == 5
        assert {r.scope for r in refusals if r is not None} == {"customer"}
    finally:
        await client.aclose()


async def test_a_call_sid_is_claimed_once_across_workers(redis_url: str) -> None:
    """Two workers' registries over one Redis: the second claim of a callSid is refused."""
    first, second = connect(redis_url), connect(redis_url)
    try:
        assert await RedisCalls(first).claim("CA123") is True
        assert await RedisCalls(second).claim("CA123") is False
        assert await RedisCalls(second).claim("CA456") is True
    finally:
        await first.aclose()
        await second.aclose()


async def test_a_session_saved_under_its_lock_is_stored_at_release_without_the_catalog(
    redis_url: str,
) -> None:
    """A turn's save under the lock lands with the lock's release (one round trip): another
    worker then loads the same session, its tools the catalog's, which is not stored."""
    first, second = connect(redis_url), connect(redis_url)
    try:
        writer = RedisSessionStore(first, catalog=CATALOG.tools)
        reader = RedisSessionStore(second, catalog=CATALOG.tools)
        session = Session(customer=CustomerContext(customer_id="cust_001"), tools=CATALOG.tools)
        session.remember(UserTurn(text="what do I owe?"))
        async with writer.lock(session.session_id):
            await writer.save(session)
            assert await reader.load(session.session_id) is None  # not yet: at the release
        loaded = await reader.load(session.session_id)
        assert loaded == session
        stored = await second.get(f"assistant:session:{session.session_id}")
        assert stored is not None and "tools" not in json.loads(stored)
        assert await second.get(f"assistant:lock:{session.session_id}") is None
    finally:
        await first.aclose()
        await second.aclose()


async def test_a_session_without_the_catalogs_tools_keeps_its_own(redis_url: str) -> None:
    """A session with no tools (no account) is stored and loaded with none."""
    client = connect(redis_url)
    try:
        store = RedisSessionStore(client, catalog=CATALOG.tools)
        session = Session(customer=None, tools=())
        await store.save(session)
        loaded = await store.load(session.session_id)
        assert loaded is not None and loaded.tools == ()
    finally:
        await client.aclose()
