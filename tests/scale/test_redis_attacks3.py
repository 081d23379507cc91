"""Two app instances sharing a real redis-server, each asked the same create by the
same customer within the same few milliseconds (two rings, a call and the widget).

First run (written before any fix): 1 probe, 0 held.
- DOUBLED WRITE: both instances answered "I added a task: Call the plumber." and the CRM
  held two (each read the customer's creates in flight, found none, then noted its own:
  a read and a write, not one step).
After the fix (assistant/writes_in_flight.py `claim`: the others' creates read and this
turn's noted in one step, a Lua script in Redis) it holds. Written afterwards, first
run: the same booking on both instances at once (held).
"""

from __future__ import annotations

import asyncio

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, titles

TASKS = "/v1/customers/*/tasks"
PLUMBER = "Call the plumber"


async def test_the_same_add_on_two_instances_at_the_same_instant_adds_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, redis_url: str
) -> None:
    """'add a task to call the plumber' on instance 1 and on instance 2 at once (the
    CRM slow to answer the add): one plumber task; the other is asked about."""
    await crm_admin.add_fault(method="POST", path=TASKS, latency_ms=100, times=2)
    one, two = await make_assistant(redis_url=redis_url), await make_assistant(redis_url=redis_url)
    first, second = await one.connect(), await two.connect()
    said = await asyncio.gather(
        first.say("add a task to call the plumber"), second.say("add a task to call the plumber")
    )
    await crm_admin.wait_until_settled()
    assert (await titles(crm_admin)).count(PLUMBER) == 1, [answer(events) for events in said]


async def test_the_same_booking_on_two_instances_at_the_same_instant_books_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, redis_url: str
) -> None:
    """'book a facial next friday at 11am' on both instances at once (the CRM slow to
    answer the booking): one facial."""
    visits = "/v1/customers/*/appointments"
    await crm_admin.add_fault(method="POST", path=visits, latency_ms=100, times=2)
    one, two = await make_assistant(redis_url=redis_url), await make_assistant(redis_url=redis_url)
    first, second = await one.connect(), await two.connect()
    said = await asyncio.gather(
        first.say("book a facial next friday at 11am"),
        second.say("book a facial next friday at 11am"),
    )
    await crm_admin.wait_until_settled()
    _, body = await crm_admin.get("/v1/customers/cust_001/appointments")
    facials = [v for v in body["appointments"] if v["service"] == "Facial"]
    assert len(facials) == 1, [answer(events) for events in said]
