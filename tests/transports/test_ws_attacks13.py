"""One customer on two devices (two sessions of their own) and a client resuming after a
drop, on /v1/ws with the embedded models and the real CRM stub: a yes on one device to a
question whose item the other device deleted and then made again under the same title, a
delete confirmed on both one after the other, and a yes sent again after a resume (with
the same id, and with a new one) while its change was still being made. Nothing is
changed that the customer did not say yes to, nothing twice, and no device is told the
opposite of what happened.

FIRST RUN (written before the code they exercise was read): 4 probes, 3 held, 1 failed,
no wrong write:
- failed: both devices asked 'delete Buy groceries?', the phone's yes deleted it, and the
  laptop's yes was told "Sorry, I couldn't delete Buy groceries: it doesn't seem to exist
  anymore." (a failure, of what the customer asked and has). An earlier set judged that
  wording fair; this one asks for better: a delete whose item is listed afresh and gone is
  told "I didn't need to delete Buy groceries: it's already gone." (models/embedded/
  failures.py).
- held: a yes to a delete whose to-do was deleted and made again on the other device
  under the same title keeps the new one; a yes re-sent with its id after a resume mid-
  cancel cancels once; a yes re-sent under a new id after a resume mid-delete deletes
  once and is told it went through.
"""

from __future__ import annotations

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, appointments, tasks, titles, writes_applied

GROCERIES = "Buy groceries"
DELETES = "DELETE /v1/customers/{cid}/tasks/{tid}"
CANCELS = "POST /v1/customers/{cid}/appointments/{aid}/cancel"
CANCEL_PATH = "/v1/customers/*/appointments/*/cancel"


def _told_failed(said: str) -> bool:
    lowered = said.lower()
    return any(w in lowered for w in ("couldn't", "could not", "try again", "went wrong"))


async def test_a_yes_to_a_delete_whose_task_was_made_again_elsewhere_keeps_the_new_one(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The laptop asks 'delete Buy groceries?'; on the phone the customer deletes it and
    adds 'buy groceries' again (a new to-do, the same title); the laptop's yes does not
    delete the new one unasked, and is not told it deleted it."""
    harness = await make_assistant()
    laptop, phone = await harness.connect(), await harness.connect()
    asked = await laptop.say("delete the buy groceries task")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    first = (await tasks(crm_admin))[GROCERIES]["id"]
    on_phone = await phone.say("delete the buy groceries task")
    if on_phone[-1]["awaiting_confirmation"] is not None:
        on_phone = await phone.say("yes")
    assert GROCERIES not in await titles(crm_admin), answer(on_phone)
    await phone.say("add a task to buy groceries")
    made = (await tasks(crm_admin)).get(GROCERIES)
    assert made is not None and made["id"] != first
    events = await laptop.say("yes")
    said = answer(events)
    now = await tasks(crm_admin)
    if GROCERIES not in now:
        raise AssertionError(f"the new to-do was deleted by the old question's yes: {said}")
    assert (await writes_applied(crm_admin)).get(DELETES) == 1, said
    assert "i deleted" not in said.lower() or "already" in said.lower(), said


async def test_a_delete_confirmed_on_both_devices_one_after_the_other_deletes_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Both devices ask 'delete Buy groceries?'; the phone's yes deletes it; the laptop's
    yes a moment later deletes nothing more and is told it is gone, not that it failed."""
    harness = await make_assistant()
    laptop, phone = await harness.connect(), await harness.connect()
    for device in (laptop, phone):
        asked = await device.say("delete the buy groceries task")
        assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    done = await phone.say("yes")
    assert GROCERIES not in await titles(crm_admin), answer(done)
    events = await laptop.say("yes")
    said = answer(events)
    assert (await writes_applied(crm_admin)).get(DELETES) == 1, said
    assert not _told_failed(said), said
    assert events[-1]["awaiting_confirmation"] is None, said
    assert await titles(crm_admin), said  # the other to-dos stay


async def test_a_yes_sent_again_with_its_id_after_a_resume_mid_cancel_cancels_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'cancel my haircut?' yes; the socket drops while the CRM is cancelling (slow); the
    client resumes and sends the same 'yes' with the same id: cancelled once, and the
    answer does not say nothing was done or that nothing waits."""
    await crm_admin.add_fault(method="POST", path=CANCEL_PATH, latency_ms=600, times=1)
    harness = await make_assistant()
    first = await harness.connect()
    asked = await first.say("cancel my haircut")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    await first.send_message("yes", id="m-yes")
    await crm_admin.wait_until_seen("POST /v1/customers/{cid}/appointments/{aid}/cancel")
    await first.close()
    again = await harness.resume(first.session_id)
    events = await again.say("yes", id="m-yes")
    said = answer(events)
    await crm_admin.wait_until_settled()
    assert "Haircut" not in [a["service"] for a in await appointments(crm_admin)], said
    assert (await writes_applied(crm_admin)).get(CANCELS) == 1, said
    assert not _told_failed(said) and "nothing" not in said.lower(), said


async def test_a_yes_sent_again_with_a_new_id_after_a_resume_mid_delete_is_told_done(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'delete Buy groceries?' yes; the socket drops while the delete is made (slow); the
    client resumes and sends 'yes' again under a new id (its outbox lost the first):
    deleted once, and the customer hears it was deleted, not that nothing waits."""
    await crm_admin.add_fault(
        method="DELETE", path="/v1/customers/*/tasks/*", latency_ms=600, times=1
    )
    harness = await make_assistant()
    first = await harness.connect()
    asked = await first.say("delete the buy groceries task")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    await first.send_message("yes", id="m-yes-1")
    await crm_admin.wait_until_seen(DELETES)
    await first.close()
    again = await harness.resume(first.session_id)
    events = await again.say("yes", id="m-yes-2")
    said = answer(events)
    await crm_admin.wait_until_settled()
    assert GROCERIES not in await titles(crm_admin), said
    assert (await writes_applied(crm_admin)).get(DELETES) == 1, said
    assert "deleted" in said.lower() or "groceries" in said.lower(), said
    assert not _told_failed(said), said
