"""One customer on two devices at once (two sessions of their own, not two tabs of one),
a client resuming another customer's session with a valid token of its own, and a
resume whose pending question is about an item changed since, on /v1/ws with the
embedded models and the real CRM stub. Nothing is applied that the customer did not
say yes to, nothing twice, and no device is told the opposite of what happened.

First run (written before the code they exercise was read): 5 probes, 4 held, 1 failed.
- held: both devices saying yes to their own 'cancel my haircut?' at once cancel once
  and each is told it is cancelled; 'undo that' on a device that has done nothing
  leaves the other's task; James's client resuming Maria's session id with his own
  token gets a session of his own, his yes deletes nothing, and Maria's yes deletes once;
  a cancel asked on the laptop, the visit moved on the phone, then a resumed yes, is
  asked again naming the new time.
- failed: 'delete the buy groceries task' asked, the socket dropped, the task renamed
  'Buy groceries for the party' in the CRM, a resumed yes deleted it and said "I deleted
  the task Buy groceries." (a task named as it was, not as it is).
After the fix (integrity.py: the tasks are read again before a yes to a held task call,
as a held cancel reads the visits) it holds: "That task has changed since I asked, so
nothing is changed yet: are you sure you want to delete the task 'Buy groceries for the
party'?", and a yes to that deletes it once. Every yes to a held task call now reads the
tasks first: four tests that listed the calls of a yes leave that read out, and
tests/recordings/delete_task_confirmed.jsonl was recorded again.
"""

from __future__ import annotations

import asyncio

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, appointments, tasks, titles, writes_applied

GROCERIES = "Buy groceries"
DELETES = "DELETE /v1/customers/{cid}/tasks/{tid}"
CANCELS = "POST /v1/customers/{cid}/appointments/{aid}/cancel"


async def test_both_devices_saying_yes_to_their_own_cancel_cancel_once_truthfully(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The phone app and the laptop each ask 'cancel my haircut' and each say yes at the
    same moment: one cancel at the CRM; neither device is told it could not be done
    without being told it is cancelled (or already was)."""
    harness = await make_assistant()
    phone, laptop = await harness.connect(), await harness.connect()
    for device in (phone, laptop):
        asked = await device.say("cancel my haircut")
        assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    await phone.send_message("yes")
    await laptop.send_message("yes")
    on_phone, on_laptop = await asyncio.gather(
        phone.events_until("turn.done"), laptop.events_until("turn.done")
    )
    await crm_admin.wait_until_settled()
    assert (await writes_applied(crm_admin)).get(CANCELS) == 1
    assert "Haircut" not in [a["service"] for a in await appointments(crm_admin)]
    for said in (answer(on_phone).lower(), answer(on_laptop).lower()):
        assert "cancel" in said, said
        assert "try again" not in said, said


async def test_undo_on_the_other_device_undoes_nothing_it_did_not_do(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The laptop adds 'Call the plumber'; 'undo that' on the phone (a session of its
    own that has done nothing) does not remove the laptop's task unasked."""
    harness = await make_assistant()
    laptop, phone = await harness.connect(), await harness.connect()
    await laptop.say("add a task to call the plumber")
    assert "Call the plumber" in await titles(crm_admin)
    events = await phone.say("undo that")
    if "Call the plumber" not in await titles(crm_admin):
        raise AssertionError(f"undone from the other device: {answer(events)}")
    if events[-1]["awaiting_confirmation"] is not None:
        await phone.say("no")
    assert "Call the plumber" in await titles(crm_admin)


async def test_a_resume_of_another_customers_session_leaves_her_question_hers(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Maria is asked 'delete Buy groceries?'; James's client resumes her session id
    with his own valid token and says yes: nothing of hers is deleted; Maria's socket
    goes on, and her own yes deletes it once."""
    harness = await make_assistant()
    maria = await harness.connect()
    asked = await maria.say("delete the buy groceries task")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    james = await harness.resume(maria.session_id, customer_id="cust_002")
    assert james.ready is not None and james.ready["session_id"] != maria.session_id
    await james.say("yes")
    assert GROCERIES in await tasks(crm_admin)
    events = await maria.say("yes")
    assert GROCERIES not in await tasks(crm_admin), answer(events)
    assert (await writes_applied(crm_admin)).get(DELETES) == 1


async def test_a_resumed_yes_to_a_task_renamed_since_asks_again(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'delete the buy groceries task' is asked; the socket drops; the task is renamed
    in the CRM ('Buy groceries for the party') before the client resumes and says yes:
    the task is not deleted under a name nobody was asked about, or the answer names it
    as it is now."""
    harness = await make_assistant()
    chat = await harness.connect()
    asked = await chat.say("delete the buy groceries task")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    session = chat.session_id
    await chat.close()
    task = (await tasks(crm_admin))[GROCERIES]
    status, _ = await crm_admin.patch(
        f"/v1/customers/cust_001/tasks/{task['id']}", {"title": "Buy groceries for the party"}
    )
    assert status == 200
    again = await harness.resume(session)
    assert again.ready is not None and again.ready["resumed"] is True, again.ready
    events = await again.say("yes")
    said = answer(events)
    if "Buy groceries for the party" not in await tasks(crm_admin):
        assert "for the party" in said, said
    else:
        assert events[-1]["awaiting_confirmation"] is not None, said
        assert "'Buy groceries for the party'" in said, said
        # A yes to the question as asked now deletes it, once.
        events = await again.say("yes")
        assert "Buy groceries for the party" not in await tasks(crm_admin), answer(events)
        assert (await writes_applied(crm_admin)).get(DELETES) == 1


async def test_a_resumed_yes_to_a_cancel_of_a_visit_moved_on_the_other_device_asks_again(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The laptop asks 'cancel my haircut?'; its socket drops; the phone moves the
    haircut to another day; the laptop resumes and says yes: the haircut at its new
    time is not cancelled without being named."""
    harness = await make_assistant()
    laptop = await harness.connect()
    asked = await laptop.say("cancel my haircut")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    session = laptop.session_id
    await laptop.close()
    phone = await harness.connect()
    moved = await phone.say("move my haircut to next friday at 10am")
    if moved[-1]["awaiting_confirmation"] is not None:
        moved = await phone.say("yes")
    after_move = [a for a in await appointments(crm_admin) if a["service"] == "Haircut"]
    assert after_move, answer(moved)
    again = await harness.resume(session)
    events = await again.say("yes")
    said = answer(events).lower()
    if "Haircut" not in [a["service"] for a in await appointments(crm_admin)]:
        assert "10" in said and "friday" in said, said
    else:
        assert "cancelled" not in said or "not" in said, said
