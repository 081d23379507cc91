"""A turn in flight when its client goes away or its worker dies: the socket closed
while an add or a yes's delete is being written, and an app instance shut down mid-write
with its session in a shared redis-server, resumed on the other instance. Embedded
models, the real CRM stub (writes made slow by a latency fault). The write happens once
or not at all, and the resumed session, asked, is told which.

First run (written before the code they exercise was read): 3 probes, 1 held, 2
failed, both the probes' own: after the add landed once, the same add asked again was
asked "I already added 'Call the plumber' a few minutes ago. Do you want me to add it
again anyway?" and the probe answered yes, asking for the second task itself. It now
answers no; then all three hold: the add once, the delete once with its question not
asked again, and the resumed session (on the same instance, or on the other after the
first was shut down) told it went through. Written after the fixes of
test_crm_attacks9.py, first run: 2 probes, both held: four adds whose socket closed
mid-write are each added once; a yes whose instance was shut down mid-cancel, said
again on the other instance, is answered "Just so you know, that went through: your
haircut … is cancelled." and cancels nothing more.
"""

from __future__ import annotations

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, called, titles, writes_applied

TASKS = "/v1/customers/*/tasks"
PLUMBER = "Call the plumber"
GROCERIES = "Buy groceries"
ADD = "POST /v1/customers/{cid}/tasks"
DELETE = "DELETE /v1/customers/{cid}/tasks/{tid}"
NOT_DONE = ("didn't", "did not", "not added", "wasn't", "isn't", "no ")


def told_done(said: str) -> bool:
    said = said.lower()
    return not any(w in said for w in NOT_DONE) and ("went through" in said or "yes" in said)


async def test_a_socket_closed_mid_add_adds_once_and_the_resumed_session_is_told_it_was(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The client closes its socket while the add is written (the CRM takes 120 ms): the
    task is added once; the resumed session asked 'did that go through?' hears it did,
    and the same add asked again adds nothing more."""
    await crm_admin.add_fault(method="POST", path=TASKS, latency_ms=120, times=1)
    harness = await make_assistant()
    tab = await harness.connect()
    await tab.send_message("add a task to call the plumber")
    await crm_admin.wait_until_seen("POST /v1/customers/{cid}/tasks")
    await tab.close()
    await crm_admin.wait_until_settled()
    again = await harness.resume(tab.session_id)
    assert again.ready is not None and again.ready["resumed"] is True
    said = answer(await again.say("did that go through?"))
    assert (await titles(crm_admin)).count(PLUMBER) == 1, said
    assert "plumber" in said.lower() and told_done(said), said
    events = await again.say("add a task to call the plumber")
    if events[-1]["awaiting_confirmation"]:  # "add it again anyway?"
        await again.say("no")
    assert (await titles(crm_admin)).count(PLUMBER) == 1, answer(events)


async def test_a_socket_closed_mid_delete_after_the_yes_deletes_once_and_is_told(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'delete the buy groceries task' yes, and the socket closes while the delete is
    written: deleted once; the resumed session is not asked the question again, and
    asked 'did that go through?' hears it did."""
    harness = await make_assistant()
    tab = await harness.connect()
    assert (await tab.say("delete the buy groceries task"))[-1]["awaiting_confirmation"]
    await crm_admin.add_fault(method="DELETE", path=TASKS + "/*", latency_ms=120, times=1)
    await tab.send_message("yes")
    await crm_admin.wait_until_seen(DELETE)
    await tab.close()
    await crm_admin.wait_until_settled()
    again = await harness.resume(tab.session_id)
    assert again.ready is not None and again.ready["resumed"] is True
    events = await again.say("did that go through?")
    said = answer(events)
    assert GROCERIES not in await titles(crm_admin)
    assert events[-1]["awaiting_confirmation"] is None, said
    assert told_done(said) or "deleted" in said.lower(), said
    yes = await again.say("yes")
    assert (await writes_applied(crm_admin)).get(DELETE) == 1, answer(yes)


async def test_a_worker_shut_down_mid_add_is_resumed_on_the_other_and_told_the_truth(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, redis_url: str
) -> None:
    """Instance 1 is shut down while the add is being written (the CRM takes 120 ms);
    the customer resumes on instance 2: 'did that go through?' is answered as the CRM
    holds it, and the same add asked again leaves one task."""
    await crm_admin.add_fault(method="POST", path=TASKS, latency_ms=120, times=1)
    one = await make_assistant(redis_url=redis_url, shutdown_grace_s=0.1)
    two = await make_assistant(redis_url=redis_url)
    tab = await one.connect()
    await tab.send_message("add a task to call the plumber")
    await crm_admin.wait_until_seen(ADD)
    await one.client.close()
    await crm_admin.wait_until_settled()
    again = await two.resume(tab.session_id)
    assert again.ready is not None and again.ready["resumed"] is True
    said = answer(await again.say("did that go through?"))
    added = (await titles(crm_admin)).count(PLUMBER)
    assert added in (0, 1), said
    if added:
        assert told_done(said) or "added" in said.lower(), said
    else:
        assert not told_done(said), said
    events = await again.say("add a task to call the plumber")
    if events[-1]["awaiting_confirmation"]:  # "add it again anyway?"
        await again.say("no")
    assert (await titles(crm_admin)).count(PLUMBER) == 1, answer(events)
    assert "crm.addTask" not in called(events) or not added, answer(events)


async def test_a_socket_closed_mid_four_adds_adds_each_once_and_the_resume_is_told(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Four adds in one round, the socket closed while they are written (each 100 ms):
    each added once, and the resumed session asked 'did those go through?' is not told
    any was not."""
    await crm_admin.add_fault(method="POST", path=TASKS, latency_ms=100)
    harness = await make_assistant()
    tab = await harness.connect()
    await tab.send_message("add tasks to call the plumber, buy milk, walk the dog and pay the rent")
    await crm_admin.wait_until_seen(ADD, 4)
    await tab.close()
    await crm_admin.wait_until_settled()
    again = await harness.resume(tab.session_id)
    said = answer(await again.say("did those go through?"))
    held = await titles(crm_admin)
    for title in (PLUMBER, "Buy milk", "Walk the dog", "Pay the rent"):
        assert held.count(title) == 1, (title, held, said)
    assert not any(w in said.lower() for w in ("didn't", "did not", "wasn't", "couldn't")), said


async def test_a_worker_shut_down_mid_cancel_after_the_yes_cancels_once_and_tells_the_resume(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, redis_url: str
) -> None:
    """'cancel my haircut' yes on instance 1, shut down while the cancel is written; the
    customer resumes on instance 2 and says yes again (the answer never came): cancelled
    once, and not told it could not be done."""
    one = await make_assistant(redis_url=redis_url, shutdown_grace_s=0.1)
    two = await make_assistant(redis_url=redis_url)
    tab = await one.connect()
    assert (await tab.say("cancel my haircut"))[-1]["awaiting_confirmation"]
    cancel = "POST /v1/customers/{cid}/appointments/{aid}/cancel"
    await crm_admin.add_fault(
        method="POST", path="/v1/customers/*/appointments/*/cancel", latency_ms=120, times=1
    )
    await tab.send_message("yes")
    await crm_admin.wait_until_seen(cancel)
    await one.client.close()
    await crm_admin.wait_until_settled()
    again = await two.resume(tab.session_id)
    assert again.ready is not None and again.ready["resumed"] is True
    events = await again.say("yes")
    said = answer(events).lower()
    _, body = await crm_admin.get("/v1/customers/cust_001/appointments")
    assert "Haircut" not in [a["service"] for a in body["appointments"]], said
    assert (await writes_applied(crm_admin)).get(cancel) == 1, said
    assert not any(w in said for w in ("couldn't", "could not", "wasn't able")), said
