"""Two app instances sharing a real redis-server: one session open on both (two tabs
behind a load balancer), or a reconnect landing on the other instance mid-write. A
write the customer asked for lands once and the customer is told what happened.

Probes written before the session code was read. First run: 1 of 4 held. Failed:
- tab B (instance 2) said yes to tab A's phone question; A's own yes afterwards changed
  the phone again (A's copy of the session still held the question): two PATCHes;
- both tabs saying yes at once: two PATCHes, two answers saying it was changed;
- the socket to instance 1 dropped mid-add and the client resumed on instance 2 at once:
  the session was read before instance 1's turn had saved it, so "did that go
  through?" had nothing to go by ("Sorry, I can't help with that").
Held: the same message resent on instance 2 mid-write (asked about, one task).
Written after the fixes, both held at first run: session.ready's `last_turn` on
instance 2, and a yes from tab B sent while tab A's question was still being worked out.
"""

from __future__ import annotations

import asyncio
from typing import Any

from tests.fixtures.app import MakeAssistant, WsConversation
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, called, profile, titles, writes_applied

TASKS = "/v1/customers/*/tasks"
PLUMBER = "Call the plumber"
NEW_PHONE = "+14155550199"
PHONE_WRITES = "PATCH /v1/customers/{cid}"


async def turn_of(chat: WsConversation) -> list[dict[str, Any]]:
    return await chat.events_until("turn.done")


async def test_a_question_on_one_instance_answered_on_the_other_then_again_changes_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, redis_url: str
) -> None:
    """Tab A on instance 1 is asked about a phone change; tab B on instance 2 resumes and
    says yes; A's own yes afterwards changes nothing more."""
    one, two = await make_assistant(redis_url=redis_url), await make_assistant(redis_url=redis_url)
    tab_a = await one.connect()
    await tab_a.say("My new phone number is +1 415 555 0199")
    tab_b = await two.resume(tab_a.session_id)
    assert tab_b.ready is not None and tab_b.ready["resumed"] is True
    await tab_b.say("yes")
    late = await tab_a.say("yes")
    assert "crm.updateContactInfo" not in called(late)
    assert (await profile(crm_admin))["phone"] == NEW_PHONE
    assert (await writes_applied(crm_admin)).get(PHONE_WRITES) == 1


async def test_two_instances_saying_yes_at_once_change_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, redis_url: str
) -> None:
    """The same session open on both instances; both tabs say yes at once: one change."""
    one, two = await make_assistant(redis_url=redis_url), await make_assistant(redis_url=redis_url)
    tab_a = await one.connect()
    await tab_a.say("My new phone number is +1 415 555 0199")
    tab_b = await two.resume(tab_a.session_id)
    await asyncio.gather(tab_a.send_message("yes"), tab_b.send_message("yes"))
    on_a, on_b = await asyncio.gather(turn_of(tab_a), turn_of(tab_b))
    assert (await writes_applied(crm_admin)).get(PHONE_WRITES) == 1
    assert len([e for e in (on_a, on_b) if "crm.updateContactInfo" in called(e)]) == 1


async def test_a_reconnect_to_the_other_instance_mid_write_is_told_it_landed(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, redis_url: str
) -> None:
    """The socket to instance 1 drops during a slow add; the client resumes on instance 2
    at once and asks 'did that go through?': yes, and the task exists once."""
    await crm_admin.add_fault(method="POST", path=TASKS, latency_ms=600, times=1)
    one, two = await make_assistant(redis_url=redis_url), await make_assistant(redis_url=redis_url)
    first = await one.connect()
    await first.send_message("add a task to call the plumber", id="m1")
    await crm_admin.wait_until_seen("POST /v1/customers/{cid}/tasks")
    await first.close()
    chat = await two.resume(first.session_id)
    assert chat.ready is not None and chat.ready["resumed"] is True
    events = await chat.say("did that go through?")
    said = answer(events).lower()
    assert "plumber" in said and "not" not in said, said
    assert (await titles(crm_admin)).count(PLUMBER) == 1


async def test_a_resend_to_the_other_instance_mid_write_adds_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, redis_url: str
) -> None:
    """The client's retry lands on instance 2 while instance 1 still writes: the same
    message with the same id adds nothing more, and says it is already there."""
    await crm_admin.add_fault(method="POST", path=TASKS, latency_ms=600, times=1)
    one, two = await make_assistant(redis_url=redis_url), await make_assistant(redis_url=redis_url)
    first = await one.connect()
    await first.send_message("add a task to call the plumber", id="m1")
    await crm_admin.wait_until_seen("POST /v1/customers/{cid}/tasks")
    await first.close()
    chat = await two.resume(first.session_id)
    events = await chat.say("add a task to call the plumber", id="m1")
    assert (await titles(crm_admin)).count(PLUMBER) == 1
    said = answer(events).lower()
    # Asked about as a repeat, or told the first one went through (its turn was stopped
    # with the socket, so the resend is the first the customer hears of it).
    told = "already" in said or "went through" in said
    assert events[-1]["awaiting_confirmation"] is not None or told, said


async def test_a_resume_on_the_other_instance_mid_write_is_ready_with_the_write(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, redis_url: str
) -> None:
    """Written after the fixes: the resume on instance 2 waits for instance 1's turn to
    end, and its session.ready tells the add went through (last_turn.tool_calls)."""
    await crm_admin.add_fault(method="POST", path=TASKS, latency_ms=600, times=1)
    one, two = await make_assistant(redis_url=redis_url), await make_assistant(redis_url=redis_url)
    first = await one.connect()
    await first.send_message("add a task to call the plumber", id="m1")
    await crm_admin.wait_until_seen("POST /v1/customers/{cid}/tasks")
    await first.close()
    chat = await two.resume(first.session_id)
    assert chat.ready is not None
    last = chat.ready["last_turn"]
    assert last["message_id"] == "m1"
    adds = [c for c in last["tool_calls"] if c["tool"] == "crm.addTask"]
    assert [c["status"] for c in adds] == ["ok"]
    assert (await titles(crm_admin)).count(PLUMBER) == 1


async def test_a_yes_from_the_other_tab_before_the_question_deletes_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, redis_url: str
) -> None:
    """Written after the fixes: tab B (instance 2) says yes while tab A's 'delete the
    grocery task' is still looking the task up: nothing is deleted and B is asked; B's
    next yes deletes it, once."""
    await crm_admin.add_fault(method="GET", path=TASKS, latency_ms=300, times=1)
    one, two = await make_assistant(redis_url=redis_url), await make_assistant(redis_url=redis_url)
    tab_a = await one.connect()
    tab_b = await two.resume(tab_a.session_id)
    await tab_a.send_message("delete the grocery task")
    await crm_admin.wait_until_seen("GET /v1/customers/{cid}/tasks")
    await tab_b.send_message("yes")
    assert (await turn_of(tab_a))[-1]["awaiting_confirmation"] is not None
    early = await turn_of(tab_b)
    assert "crm.deleteTask" not in called(early)
    assert early[-1]["awaiting_confirmation"] is not None, answer(early)
    assert "Buy groceries" in await titles(crm_admin)
    await tab_b.say("yes")
    assert "Buy groceries" not in await titles(crm_admin)
    deletes = (await writes_applied(crm_admin)).get("DELETE /v1/customers/{cid}/tasks/{tid}")
    assert deletes == 1
