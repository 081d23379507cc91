"""Writes on ConversationRelay as Twilio really drives it: an interrupt that shows how
much of the question the caller heard, an interrupt while the cancel runs, and keypad
digits while a question waits. Embedded models, the real CRM stub; the CRM's state is
checked after each, not only the words.

First run (written before reading the bridge, before any fix): 3 probes, 1 held, 2 failed.
- held: an interrupt while the cancel ran; it landed once and the next answer said so.
- failed: "Yes" after the caller talked over the question ("Just to") cancelled the haircut;
- failed, but on a wrong premise: keys pressed while the question waited cancelled it,
  and the question does offer the keypad ("press 1 for yes"): that probe was rewritten
  (after the fix below) as a key pressed after the question was cut off, held first run.

After the fix (a yes, spoken or keyed, confirms only a question the caller heard in
full: assistant/heard.py against the history the bridge rewrites to what was heard) all
3 hold.
"""

from __future__ import annotations

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.transports_relay.conftest import Dial, RelayClient, spoken

CANCEL_ROUTE = "POST /v1/customers/{cid}/appointments/{aid}/cancel"
SLOW_CANCEL = {
    "method": "POST",
    "path": "/v1/customers/*/appointments/*/cancel",
    "latency_ms": 500,
    "times": 1,
}


async def _statuses(crm_admin: CrmAdmin) -> dict[str, str]:
    _, listed = await crm_admin.get("/v1/customers/cust_001/appointments?status=all")
    assert isinstance(listed, dict)
    return {a["service"]: a["status"] for a in listed["appointments"] if a["status"] != "completed"}


async def _cancels(crm_admin: CrmAdmin) -> int:
    stats = await crm_admin.stats()
    return int(stats["requests"].get(CANCEL_ROUTE, 0))


async def _ask_to_cancel(relay: RelayClient) -> str:
    question = spoken(await relay.ask("Cancel my haircut"))
    assert "?" in question and "haircut" in question.lower(), question
    return question


async def test_a_yes_after_the_question_was_cut_off_does_nothing(
    make_assistant: MakeAssistant, dial: Dial, crm_admin: CrmAdmin
) -> None:
    """The caller talks over the question after two words (utteranceUntilInterrupt says
    so): their 'yes' is not a yes to it, and nothing is cancelled."""
    harness = await make_assistant()
    relay = await dial(harness)
    await relay.setup()
    await _ask_to_cancel(relay)

    await relay.interrupt("Just to", duration_ms=300)
    answer = spoken(await relay.ask("Yes"))

    assert await _cancels(crm_admin) == 0
    assert (await _statuses(crm_admin))["Haircut"] == "upcoming"
    assert "cancelled your" not in answer.lower(), answer


async def test_an_interrupt_while_the_cancel_runs_is_followed_by_the_truth(
    make_assistant: MakeAssistant, dial: Dial, crm_admin: CrmAdmin
) -> None:
    """'yes', then the caller talks over the acknowledgement while the cancel runs: it lands
    once, and the next answer says it was cancelled."""
    await crm_admin.add_fault(**SLOW_CANCEL)
    harness = await make_assistant()
    relay = await dial(harness)
    await relay.setup()
    await _ask_to_cancel(relay)

    await relay.prompt("Yes")
    await crm_admin.wait_until_seen(CANCEL_ROUTE)
    await relay.interrupt("", duration_ms=100)
    answer = spoken(await relay.ask("Sorry, did that go through?"))

    assert await _cancels(crm_admin) == 1
    assert (await _statuses(crm_admin))["Haircut"] == "cancelled"
    assert "cancelled" in answer.lower(), answer


async def test_a_key_pressed_after_the_question_was_cut_off_asks_again(
    make_assistant: MakeAssistant, dial: Dial, crm_admin: CrmAdmin
) -> None:
    """1 pressed after the caller talked over the question (and its keypad hint) asks it
    again, cancelling nothing; 1 pressed once it was heard cancels, once."""
    harness = await make_assistant()
    relay = await dial(harness)
    await relay.setup()
    await _ask_to_cancel(relay)

    await relay.interrupt("Are you", duration_ms=400)
    await relay.dtmf("1")
    asked_again = spoken(await relay.talk_cycle())
    cancels_before_heard = await _cancels(crm_admin)
    await relay.dtmf("1")
    done = spoken(await relay.talk_cycle())

    assert cancels_before_heard == 0
    assert "haircut" in asked_again.lower() and "?" in asked_again, asked_again
    assert await _cancels(crm_admin) == 1
    assert (await _statuses(crm_admin))["Haircut"] == "cancelled"
    assert "cancelled" in done.lower(), done
