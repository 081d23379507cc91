"""A slow CRM through the real server: session set-up degrades instead of hanging, and
one hanging route cannot take the connection pool from everyone else."""

from __future__ import annotations

import asyncio

import pytest

from assistant.errors import ConfigError
from assistant.schema import FinalDecision
from assistant.settings import load_settings
from tests.fakes import EchoNarrator, ScriptedPlanner, calls
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

PROFILE = "/v1/customers/*"


async def test_session_is_ready_without_the_profile_and_loads_it_next_turn(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Profile route hanging: session.ready still comes; the profile is read on a later turn."""
    planner = ScriptedPlanner(FinalDecision(text="Hello."), FinalDecision(text="Hello again."))
    assistant = await make_assistant(
        planner=planner, narrator=EchoNarrator(), crm_setup_timeout_s=0.3
    )
    await crm_admin.add_fault(method="GET", path=PROFILE, hang=True)
    chat = await assistant.connect("cust_001")
    assert chat.ready is not None and chat.ready["customer_id"] == "cust_001"

    await chat.say("hello")  # the CRM still hangs: this turn runs without the profile
    first = planner.requests[0].customer
    assert first is not None and not first.timezone_known and first.name is None

    await crm_admin.clear_faults()
    await chat.say("hello again")
    second = planner.requests[1].customer
    assert second is not None and second.timezone_known and second.name


async def test_one_hanging_route_leaves_the_pool_to_the_others(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Profiles hang for many new sessions; an open session's billing lookup still answers."""
    assistant = await make_assistant(
        planner=ScriptedPlanner(calls("crm.getOpenInvoices")),
        narrator=EchoNarrator(),
        crm_pool_size=4,
        crm_route_concurrency=2,
        # Set-up outwaits the turn: without the bulkhead the lookup would time out.
        crm_setup_timeout_s=2.5,
        crm_timeout_s=2.5,
        turn_deadline_s=1.5,
    )
    chat = await assistant.connect("cust_010")  # profile read before the brownout
    await crm_admin.add_fault(method="GET", path=PROFILE, hang=True)
    arrivals = [asyncio.create_task(assistant.connect(f"cust_00{n}")) for n in range(1, 7)]
    await crm_admin.wait_until_seen("GET /v1/customers/{cid}", count=3)  # 1 + the 2 allowed

    events = await chat.say("what do I owe?")

    finished = [event for event in events if event["type"] == "tool.finished"]
    assert [(event["tool"], event["status"]) for event in finished] == [
        ("crm.getOpenInvoices", "ok")
    ]
    ready = await asyncio.gather(*arrivals)
    assert all(conversation.ready is not None for conversation in ready)


def test_a_bulkhead_as_large_as_the_pool_is_refused_at_start() -> None:
    """crm_route_concurrency must stay below crm_pool_size; the message names both."""
    with pytest.raises(ConfigError, match="crm_route_concurrency: must be below crm_pool_size"):
        load_settings(crm_pool_size=10, crm_route_concurrency=10)
