"""Two deployments sharing one redis-server: their own signing secrets, so their own
customers, under the same customer ids (cust_001 in each). The keys Redis holds beside
the sessions (message budgets, creates in flight, call sids seen) must not let one
deployment block, refuse or double the other's writes.

FIRST RUN (written before the keys were read): 3 probes, 0 held.
- LOST WRITE: our cust_001 adding 'Call the plumber' (the CRM slow) made their cust_001's
  add of the same title wait: they were asked "I'm still adding 'Call the plumber' from a
  moment ago. Do you want me to add it again anyway?" and nothing was added in their
  CRM (the creates in flight were keyed by customer id alone);
- our customer's two messages spent their customer's budget: their first message was
  refused `rate_limited` (the budgets were keyed by customer id alone);
- their relay's call refused ours naming the same callSid ("this call is already
  connected").
Fixed (assistant/app.py): the budgets, the creates in flight and the call sids seen
live under the deployment's own prefix (derived from its signing secret, as the
sessions' stamp); the sessions keep theirs (each is stamped). A rolling upgrade to this
version sees the earlier version's creates in flight under the old keys no more (for
the minutes those last).

Written after the fix, first run: 1 probe, held: two workers of one deployment (the
same secret) still spend one customer budget.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
from aiohttp import web
from aiohttp.test_utils import TestServer

from crm_stub.app import create_app as create_crm_app
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import DEFAULT_TOKEN, CrmAdmin
from tests.integrity.helpers import answer, titles
from tests.transports_relay.conftest import RelayClient

TASKS = "/v1/customers/*/tasks"
PLUMBER = "Call the plumber"
THEIRS = "t" * 32  # the other deployment's signing secret
MakeServer = Callable[[web.Application], Awaitable[TestServer]]


async def _their_crm(aiohttp_server: MakeServer) -> str:
    """The other deployment's own CRM (seeded alike: its own cust_001)."""
    server = await aiohttp_server(create_crm_app(token=DEFAULT_TOKEN, today=dt.date.today()))
    return str(server.make_url("/")).rstrip("/")


async def _their_titles(url: str) -> list[str]:
    headers = {"Authorization": f"Bearer {DEFAULT_TOKEN}"}
    async with (
        aiohttp.ClientSession(headers=headers) as session,
        session.get(f"{url}/v1/customers/cust_001/tasks?status=all") as response,
    ):
        body: dict[str, Any] = await response.json()
    return [t["title"] for t in body["tasks"]]


async def test_one_deployments_burst_does_not_spend_the_others_customer_budget(
    make_assistant: MakeAssistant, redis_url: str, aiohttp_server: MakeServer
) -> None:
    """A customer budget of 2 messages a minute in both; our cust_001 sends two: their
    cust_001 (another person) still gets an answer to their first message."""
    limits = {"customer_messages_per_minute": 2, "session_messages_per_minute": 100}
    ours = await make_assistant(redis_url=redis_url, **limits)
    theirs = await make_assistant(
        redis_url=redis_url, secret=THEIRS, crm_url=await _their_crm(aiohttp_server), **limits
    )
    chat = await ours.connect()
    for _ in range(2):
        await chat.say("what do I owe?")
    other = await theirs.connect()
    await other.send_message("what do I owe?")
    first = await other.next_event(timeout_s=5)
    while first["type"] not in ("error", "turn.done"):
        first = await other.next_event(timeout_s=5)
    assert first["type"] == "turn.done", first


async def test_the_same_add_in_two_deployments_at_once_is_made_in_each(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    redis_url: str,
    aiohttp_server: MakeServer,
) -> None:
    """'add a task to call the plumber' from our cust_001 and from theirs at the same
    moment (both CRMs slow): each CRM holds one plumber task, each customer is told it
    was added, and neither is asked about the other's."""
    their_url = await _their_crm(aiohttp_server)
    await crm_admin.add_fault(method="POST", path=TASKS, latency_ms=300, times=1)
    ours = await make_assistant(redis_url=redis_url)
    theirs = await make_assistant(redis_url=redis_url, secret=THEIRS, crm_url=their_url)
    one, two = await ours.connect(), await theirs.connect()
    said_one = asyncio.create_task(one.say("add a task to call the plumber"))
    await crm_admin.wait_until_seen("POST /v1/customers/{cid}/tasks")
    said_two = await two.say("add a task to call the plumber")
    said = [answer(await said_one), answer(said_two)]
    await crm_admin.wait_until_settled()
    assert (await titles(crm_admin)).count(PLUMBER) == 1, said
    assert (await _their_titles(their_url)).count(PLUMBER) == 1, said
    assert all("added" in s.lower() for s in said), said


async def test_a_call_sid_seen_by_the_other_deployment_still_answers_here(
    make_assistant: MakeAssistant, redis_url: str, aiohttp_server: MakeServer
) -> None:
    """Their relay took a call; a setup naming the same callSid reaches ours (another
    Twilio account's numbering, or a test call replayed on staging): ours answers it (it
    never saw that call), and theirs still refuses a second setup of it."""
    theirs = await make_assistant(
        redis_url=redis_url, secret=THEIRS, crm_url=await _their_crm(aiohttp_server)
    )
    ours = await make_assistant(redis_url=redis_url)
    first = RelayClient(await theirs.client.ws_connect("/v1/conversation-relay"))
    greeting = await first.setup()
    assert any(f["type"] == "text" for f in greeting), greeting
    second = RelayClient(await ours.client.ws_connect("/v1/conversation-relay"))
    frames = await second.setup()
    assert any(f["type"] == "text" for f in frames), frames
    assert not any(f["type"] == "end" for f in frames), frames
    await first.close()
    await second.close()


# -- written after the fix ------------------------------------------------------------


async def test_two_workers_of_one_deployment_still_share_the_customers_budget(
    make_assistant: MakeAssistant, redis_url: str
) -> None:
    """The prefix is the deployment's: two workers of the same one (same secret) still
    spend one budget. Two messages on worker 1, the third on worker 2 is refused."""
    limits = {"customer_messages_per_minute": 2, "session_messages_per_minute": 100}
    one = await make_assistant(redis_url=redis_url, **limits)
    two = await make_assistant(redis_url=redis_url, **limits)
    chat = await one.connect()
    for _ in range(2):
        await chat.say("what do I owe?")
    other = await two.connect()
    await other.send_message("what do I owe?")
    first = await other.next_event(timeout_s=5)
    while first["type"] not in ("error", "turn.done"):
        first = await other.next_event(timeout_s=5)
    assert first["type"] == "error" and first["code"] == "rate_limited", first
