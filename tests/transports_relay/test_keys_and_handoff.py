"""Keypad confirmation of a destructive action, and handing the call to a person."""

from __future__ import annotations

import json

from assistant.errors import ModelUnavailable
from assistant.fakes import ScriptedPlanner
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.transports_relay.conftest import Dial, SpokenNarrator, spoken

HANDOFF_LINE = "Of course. I'll connect you with a member of our team now. Please hold."


async def _task_titles(crm_admin: CrmAdmin) -> list[str]:
    status, body = await crm_admin.get("/v1/customers/cust_001/tasks")
    assert status == 200, body
    return [task["title"] for task in body["tasks"]]


async def test_key_1_confirms_a_pending_delete(
    make_assistant: MakeAssistant, dial: Dial, crm_admin: CrmAdmin
) -> None:
    """Pressing 1 after "are you sure?" deletes the task in the CRM and says so."""
    harness = await make_assistant()
    relay = await dial(harness)
    await relay.setup()

    question = spoken(await relay.ask("Delete my grocery task"))
    before = await _task_titles(crm_admin)
    await relay.dtmf("1")
    confirmed = spoken(await relay.talk_cycle())

    assert question.endswith(
        "Are you sure you want to delete the task 'Buy groceries'? "
        "You can also press 1 for yes, or 2 for no."
    )
    assert "Buy groceries" in before  # asked first, not deleted on the model's word
    assert confirmed == "Sure, I'll delete that task. I deleted the task Buy groceries."
    assert "Buy groceries" not in await _task_titles(crm_admin)


async def test_key_2_declines_a_pending_cancellation(
    make_assistant: MakeAssistant, dial: Dial, crm_admin: CrmAdmin
) -> None:
    """Pressing 2 keeps the appointment, and the caller hears that it stays."""
    harness = await make_assistant()
    relay = await dial(harness)
    await relay.setup()

    question = spoken(await relay.ask("Cancel my haircut"))
    await relay.dtmf("2")
    declined = spoken(await relay.talk_cycle())

    assert "Are you sure you want to cancel your haircut" in question
    assert declined == "Okay, I won't cancel it. Your appointment stays booked."
    status, body = await crm_admin.get("/v1/customers/cust_001/appointments")
    assert status == 200
    assert "Haircut" in [appointment["service"] for appointment in body["appointments"]]


async def test_other_keys_are_ignored_while_a_confirmation_waits(
    make_assistant: MakeAssistant, dial: Dial, crm_admin: CrmAdmin
) -> None:
    """Only 1 and 2 mean something: a stray 5 neither confirms nor drops the question."""
    harness = await make_assistant()
    relay = await dial(harness)
    await relay.setup()

    await relay.ask("Delete my grocery task")
    await relay.dtmf("5")
    await relay.dtmf("1")
    confirmed = spoken(await relay.talk_cycle())

    assert confirmed.endswith("I deleted the task Buy groceries.")
    assert "Buy groceries" not in await _task_titles(crm_admin)


async def test_asking_for_a_person_ends_the_call_with_handoff_data(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """ "I want to talk to a person": a short line, then `end` with a JSON reason and summary."""
    harness = await make_assistant()
    relay = await dial(harness)
    await relay.setup()
    await relay.ask("What do I owe?")

    frames = await relay.ask("I want to talk to a person")
    end = await relay.next_frame()

    assert spoken(frames) == HANDOFF_LINE
    assert end["type"] == "end"
    data = json.loads(end["handoffData"])
    assert data["reason"] == "caller_request"
    assert data["customerId"] == "cust_001"
    assert data["callSid"] == "CA00000000000000000000000000000001"
    assert "Maria Garcia" in data["summary"]
    assert '"What do I owe?"' in data["summary"]
    assert "crm.getOpenInvoices (ok)" in data["summary"]
    assert "I want to talk to a person" in data["summary"]


async def test_two_failed_turns_in_a_row_hand_the_call_off(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """When the assistant fails twice running, the caller is passed to a person."""
    planner = ScriptedPlanner(ModelUnavailable("down"), ModelUnavailable("still down"))
    harness = await make_assistant(planner=planner, narrator=SpokenNarrator())
    relay = await dial(harness)
    await relay.setup()

    first = spoken(await relay.ask("What do I owe?"))
    second = spoken(await relay.ask("Hello? What do I owe?"))
    handoff = spoken(await relay.talk_cycle())
    end = await relay.next_frame()

    assert first.startswith("I'm sorry")
    assert second.startswith("I'm sorry")
    assert handoff.startswith("I'm sorry I haven't been able to help.")
    assert end["type"] == "end"
    assert json.loads(end["handoffData"])["reason"] == "repeated_failures"
