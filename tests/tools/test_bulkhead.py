"""The CRM bulkhead absorbs a burst of quick requests and refuses only when slots stay full."""

from __future__ import annotations

import asyncio

import pytest

from assistant.errors import ToolFailure
from assistant.tools.bulkhead import Bulkhead


async def test_a_burst_over_the_cap_waits_for_slots_and_all_get_through() -> None:
    """Ten quick requests on a route capped at two: none is refused, at most two at once."""
    bulkhead = Bulkhead(per_route=2, per_customer=100, wait_s=2.0)
    peak = 0

    async def request(n: int) -> None:
        nonlocal peak
        async with bulkhead.slot("accounts", f"cust_{n}", system="the customer records"):
            peak = max(peak, bulkhead.in_flight("accounts"))
            await asyncio.sleep(0.01)

    await asyncio.gather(*(request(n) for n in range(10)))
    assert peak == 2
    assert bulkhead.in_flight("accounts") == 0


async def test_slots_held_by_a_hung_route_refuse_after_the_short_wait() -> None:
    """Both slots held by requests that never end: the next is refused as unavailable."""
    bulkhead = Bulkhead(per_route=2, per_customer=100, wait_s=0.05)
    hung = asyncio.Event()

    async def hang(n: int) -> None:
        async with bulkhead.slot("billing", f"cust_{n}", system="the billing system"):
            await hung.wait()

    holders = [asyncio.create_task(hang(n)) for n in range(2)]
    await asyncio.sleep(0)
    with pytest.raises(ToolFailure, match="slow to answer") as refused:
        async with bulkhead.slot("billing", "cust_9", system="the billing system"):
            pass
    assert refused.value.code == "unavailable"
    hung.set()
    await asyncio.gather(*holders)


async def test_a_slot_taken_at_once_counts_like_one_waited_for_and_wakes_a_waiter() -> None:
    """take_now holds slots up to each cap, then says no; giving one back lets a waiter in."""
    bulkhead = Bulkhead(per_route=3, per_customer=2, wait_s=2.0)
    assert bulkhead.take_now("billing", "cust_1")
    assert bulkhead.take_now("billing", "cust_1")
    assert not bulkhead.take_now("billing", "cust_1")  # the customer's cap
    assert bulkhead.take_now("billing", "cust_2")
    assert not bulkhead.take_now("billing", "cust_3")  # the route's cap
    assert bulkhead.in_flight("billing") == 3
    waiter = asyncio.create_task(bulkhead.take("billing", "cust_3", system="the billing system"))
    await asyncio.sleep(0)
    assert not waiter.done()
    bulkhead.give_back("billing", "cust_1")
    await asyncio.wait_for(waiter, 1.0)
    assert bulkhead.in_flight("billing") == 3
    for customer in ("cust_1", "cust_2", "cust_3"):
        bulkhead.give_back("billing", customer)
    assert bulkhead.in_flight("billing") == 0
