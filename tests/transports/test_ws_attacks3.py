"""One customer's question answered from two tabs at once, a resume while the yes is
being applied, a "yes" that comes after the question expired or after another question
replaced it, and a yes refused because the server is busy or the session over its
budget, on /v1/ws with the embedded models and the real CRM stub. Nothing is applied
that the customer did not say yes to, nothing twice, and no tab is told the opposite of
what happened.

First run (written before any fix): 7 probes, 6 held, 1 failed.
- "delete the buy groceries task" asked, then "actually cancel my haircut instead": the
  haircut was looked for among the tasks ("I couldn't find a task matching 'haircut'"),
  so no second question replaced the first (nothing written).
- held: yes and no from two tabs at once delete once and tell each the truth; a no from
  a tab resumed while the yes is applied is not told the task was kept; the same add from
  two tabs at once adds once; a yes after the question expired deletes nothing and says
  so; a yes refused as busy is not applied and the question still holds; a yes over the
  message budget is refused and applies nothing.
After the fix (models/embedded/corrections.py: a held delete or cancel is not re-aimed
by words that name a thing of the other kind, a visit or a task, with its verb) all
hold. Written afterwards, first run: 3 probes, all held: yes from two tabs at once
deletes once and neither is told it was not; a second yes after the expired one deletes
nothing; a yes refused as busy, then another question, applies nothing. Then 1 more:
another customer resuming a session mid-yes gets a session of their own, held (its first
check counted James's tasks wrong, 2 for 3: the probe's mistake, corrected).
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import CUSTOMER, answer, appointments, tasks, titles

GROCERIES = "Buy groceries"
# Words that tell the customer a delete was not made (or will not be).
_KEPT = re.compile(r"\b(?:won't|will not|didn't|did not|haven't|not deleted|kept|left it|stays)\b")


async def test_yes_and_no_from_two_tabs_at_once_delete_once_and_tell_each_the_truth(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'delete the buy groceries task' asked; tab A says 'yes' while tab B (the same
    session, resumed) says 'no' at the same moment: deleted at most once, and the tab
    whose word did not count is not told the opposite of what the CRM holds."""
    harness = await make_assistant()
    tab_a = await harness.connect()
    asked = await tab_a.say("delete the buy groceries task")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    tab_b = await harness.resume(tab_a.session_id)
    yes, no = await asyncio.gather(tab_a.say("yes"), tab_b.say("no"))
    await crm_admin.wait_until_settled()
    gone = GROCERIES not in await tasks(crm_admin)
    said_yes, said_no = answer(yes).lower(), answer(no).lower()
    if gone:
        assert not _KEPT.search(said_no) or "groceries" not in said_no, (said_yes, said_no)
    else:
        assert "deleted" not in said_yes or "n't" in said_yes, (said_yes, said_no)
    deletes = [r for r in await crm_admin.requests(200) if r["method"] == "DELETE"]
    assert len(deletes) <= 1, deletes


async def test_no_from_a_tab_resumed_while_the_yes_is_applied_is_not_told_it_was_kept(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The yes is being applied (the CRM slow to delete) when tab B resumes and says
    'no, leave it': the delete lands once, and B is not told the task was kept."""
    harness = await make_assistant()
    tab_a = await harness.connect()
    await tab_a.say("delete the buy groceries task")
    await crm_admin.add_fault(method="DELETE", path="/v1/customers/*/tasks/*", latency_ms=200)
    await tab_a.send_message("yes")
    await tab_a.next_of("tool.started")
    tab_b = await harness.resume(tab_a.session_id)
    no = answer(await tab_b.say("no leave it"))
    await tab_a.next_of("turn.done")
    await crm_admin.wait_until_settled()
    assert GROCERIES not in await tasks(crm_admin), no
    assert not (_KEPT.search(no.lower()) and "groceries" in no.lower()), no


async def test_the_same_add_from_two_tabs_at_once_adds_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Two tabs of one customer (two sessions) send 'add a task to call the plumber' at
    the same moment: one plumber task; the other tab is asked about it or told."""
    harness = await make_assistant()
    tab_a, tab_b = await harness.connect(), await harness.connect()
    await crm_admin.add_fault(method="POST", path="/v1/customers/*/tasks", latency_ms=200)
    first, second = await asyncio.gather(
        tab_a.say("add a task to call the plumber"), tab_b.say("add a task to call the plumber")
    )
    await crm_admin.wait_until_settled()
    assert (await titles(crm_admin)).count("Call the plumber") == 1, (
        answer(first),
        answer(second),
    )


async def test_a_yes_after_the_question_expired_deletes_nothing_and_says_so(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The question's time (confirmation_ttl_s) runs out before the 'yes': nothing is
    deleted, and the customer hears that nothing was changed."""
    harness = await make_assistant(confirmation_ttl_s=0.15)
    tab = await harness.connect()
    asked = await tab.say("delete the buy groceries task")
    assert asked[-1]["awaiting_confirmation"] is not None
    await asyncio.sleep(0.2)
    events = await tab.say("yes")
    said = answer(events).lower()
    assert GROCERIES in await tasks(crm_admin), said
    assert "deleted" not in said or "n't" in said or "not" in said, said


async def test_a_yes_after_another_question_replaced_the_first_applies_only_the_second(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'delete the buy groceries task' asked, then 'actually cancel my haircut' asked in
    its place, then 'yes': the haircut is cancelled, the groceries task stays."""
    tab = await (await make_assistant()).connect()
    await tab.say("delete the buy groceries task")
    second = await tab.say("actually cancel my haircut instead")
    assert second[-1]["awaiting_confirmation"] is not None, answer(second)
    events = await tab.say("yes")
    await crm_admin.wait_until_settled()
    assert GROCERIES in await tasks(crm_admin), answer(events)
    assert "groceries" not in answer(events).lower() or "n't" in answer(events), answer(events)


async def test_a_yes_refused_as_busy_is_not_applied_and_the_question_still_holds(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Capacity one turn: while another customer's turn runs (the CRM slow), Maria's
    'yes' to 'delete the buy groceries task?' is refused busy. Nothing is deleted then
    or after; her next 'yes' deletes it once."""
    harness = await make_assistant(saturation_turns_in_flight=1)
    maria = await harness.connect()
    await maria.say("delete the buy groceries task")
    james = await harness.connect("cust_002")
    await crm_admin.add_fault(
        method="GET", path="/v1/customers/cust_002/invoices", latency_ms=250, times=1
    )
    await james.send_message("what do I owe")
    await james.next_of("tool.started")
    await maria.send_message("yes")
    refused: dict[str, Any] = await maria.next_of("error")
    assert refused["code"] == "busy", refused
    await james.next_of("turn.done")
    await crm_admin.wait_until_settled()
    assert GROCERIES in await tasks(crm_admin)
    events = await maria.say("yes")
    await crm_admin.wait_until_settled()
    assert GROCERIES not in await tasks(crm_admin), answer(events)
    deletes = [r for r in await crm_admin.requests(200) if r["method"] == "DELETE"]
    assert len(deletes) == 1, deletes


async def test_a_yes_over_the_message_budget_is_refused_naming_what_was_not_done(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Budget of 2 messages a minute: the question, then a 'yes' over the budget: an
    error that says so, nothing deleted, and a cancel of the haircut is not made either
    by a later message of the same tab."""
    harness = await make_assistant(session_messages_per_minute=2)
    tab = await harness.connect()
    await tab.say("what's on my list")
    await tab.say("delete the buy groceries task")
    await tab.send_message("yes")
    refused = await tab.next_of("error")
    assert refused["code"] == "rate_limited" and refused["retry_after_s"] > 0, refused
    await asyncio.sleep(0.1)
    await crm_admin.wait_until_settled()
    assert GROCERIES in await tasks(crm_admin)
    assert len(await appointments(crm_admin)) >= 2
    _ = CUSTOMER


async def test_yes_from_two_tabs_at_once_deletes_once_and_neither_is_told_it_was_not(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Both tabs of one session say 'yes' to 'delete the buy groceries task?' at the same
    moment: one delete, and neither tab hears that the task was not deleted."""
    harness = await make_assistant()
    tab_a = await harness.connect()
    await tab_a.say("delete the buy groceries task")
    tab_b = await harness.resume(tab_a.session_id)
    first, second = await asyncio.gather(tab_a.say("yes"), tab_b.say("yes"))
    await crm_admin.wait_until_settled()
    assert GROCERIES not in await tasks(crm_admin)
    deletes = [r for r in await crm_admin.requests(200) if r["method"] == "DELETE"]
    assert len(deletes) == 1, deletes
    for said in (answer(first).lower(), answer(second).lower()):
        assert not ("groceries" in said and _KEPT.search(said)), said


async def test_a_second_yes_after_the_expired_one_still_deletes_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The question expired; 'yes', then 'yes, delete it' again: the expired question is
    not revived by either."""
    harness = await make_assistant(confirmation_ttl_s=0.15)
    tab = await harness.connect()
    await tab.say("delete the buy groceries task")
    await asyncio.sleep(0.2)
    first = await tab.say("yes")
    second = await tab.say("yes delete it")
    if second[-1]["awaiting_confirmation"] is None:
        assert GROCERIES in await tasks(crm_admin), (answer(first), answer(second))


async def test_a_yes_refused_as_busy_then_another_question_applies_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Maria's 'yes' is refused busy; she then asks 'what do I owe?': the held delete is
    not applied by it, and the task stays."""
    harness = await make_assistant(saturation_turns_in_flight=1)
    maria = await harness.connect()
    await maria.say("delete the buy groceries task")
    james = await harness.connect("cust_002")
    await crm_admin.add_fault(
        method="GET", path="/v1/customers/cust_002/invoices", latency_ms=250, times=1
    )
    await james.send_message("what do I owe")
    await james.next_of("tool.started")
    await maria.send_message("yes")
    assert (await maria.next_of("error"))["code"] == "busy"
    await james.next_of("turn.done")
    owed = answer(await maria.say("what do I owe?"))
    await crm_admin.wait_until_settled()
    assert GROCERIES in await tasks(crm_admin), owed


async def test_actually_cancel_a_task_by_name_still_re_aims_the_held_delete(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The control: 'actually cancel the car insurance one' after 'delete the buy
    groceries task?' names a task, so the question is re-aimed at it."""
    tab = await (await make_assistant()).connect()
    await tab.say("delete the buy groceries task")
    events = await tab.say("actually cancel the car insurance one")
    pending = events[-1]["awaiting_confirmation"]
    assert pending is not None, answer(events)
    assert pending["calls"] == [
        {"tool": "crm.deleteTask", "arguments": {"task_id": "task_0002"}}
    ], pending


async def test_another_customer_resuming_mid_yes_gets_a_session_of_their_own(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Maria's 'yes' to the delete is being applied (the CRM slow) when James's client
    names her session in session.resume and says 'no, undo that': James gets a new
    session (resumed: false), Maria's delete lands once and is told to her, and nothing of
    James's or hers is undone by him."""
    _, james_before = await crm_admin.get("/v1/customers/cust_002/tasks?status=all")
    harness = await make_assistant()
    maria = await harness.connect()
    await maria.say("delete the buy groceries task")
    await crm_admin.add_fault(method="DELETE", path="/v1/customers/*/tasks/*", latency_ms=200)
    await maria.send_message("yes")
    await maria.next_of("tool.started")
    james = await harness.resume(maria.session_id, customer_id="cust_002")
    assert james.ready is not None and james.ready["resumed"] is False, james.ready
    await james.say("no undo that")
    done = await maria.next_of("answer.done")
    await crm_admin.wait_until_settled()
    assert GROCERIES not in await tasks(crm_admin), done["text"]
    assert "groceries" in done["text"].lower(), done["text"]
    _, theirs = await crm_admin.get("/v1/customers/cust_002/tasks?status=all")
    assert theirs == james_before
