"""The same budgets on ConversationRelay as on the other ways in: an utterance over the
text limit, and a caller (or a looping bridge) over the message rate, with the real
CRM stub. Nothing the caller did not ask for is written, and the caller hears why.

First run (written before any fix): 2 probes, 0 held.
- failed: an utterance over the limit was cut to its first 2,000 characters and run, so
  its last words ("no wait, don't add anything") were lost and a task titled "Call the
  plumberand, you" was added;
- failed: ConversationRelay had no message budget at all: the third prompt inside a
  2-a-minute budget ran and added its task.
After the fix (transports/voice_budget.py, the same checks as the websocket's) both hold.
Written afterwards: a call hung up mid-write (held on its first run: the write lands
once, the next call sees it) and one customer budget across the websocket and a call
(held). Not covered: a caller who calls back while the first call's write is still in
flight is answered from the CRM as it is at that moment (without the task).
"""

from __future__ import annotations

import asyncio

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import titles, writes_applied
from tests.transports_relay.conftest import Dial, spoken

PLUMBER = "Call the plumber"


async def test_an_utterance_over_the_text_limit_runs_nothing_and_is_told(
    make_assistant: MakeAssistant, dial: Dial, crm_admin: CrmAdmin
) -> None:
    """'Add a task to call the plumber… [filler] …no wait, don't add anything' past the
    2,000-character limit: not cut to its first words and run; the caller hears why."""
    relay = await dial(await make_assistant(max_text_chars=2000))
    await relay.setup()
    words = "Add a task to call the plumber. " + "and, um, " * 250 + "no wait, don't add anything."
    said = spoken(await relay.ask(words))
    assert not await writes_applied(crm_admin), await titles(crm_admin)
    assert said, "the caller hears something"


async def test_over_the_message_budget_the_caller_hears_why_and_nothing_runs(
    make_assistant: MakeAssistant, dial: Dial, crm_admin: CrmAdmin
) -> None:
    """Session budget of 2 messages a minute, as on the websocket and Retell: the third
    prompt adds no task, and the caller hears to slow down."""
    relay = await dial(await make_assistant(session_messages_per_minute=2))
    await relay.setup()
    await relay.ask("What do I owe?")
    await relay.ask("And my appointments?")
    said = spoken(await relay.ask("Add a task to call the plumber"))
    assert PLUMBER not in await titles(crm_admin)
    assert said, "the caller hears something"


async def test_a_call_hung_up_mid_write_lands_once_and_the_next_call_sees_it(
    make_assistant: MakeAssistant, dial: Dial, crm_admin: CrmAdmin
) -> None:
    """The caller hangs up while 'add a task to call the plumber' is written: the write
    still lands, once, and on their next call 'is the plumber task on my list?' says so."""
    await crm_admin.add_fault(method="POST", path="/v1/customers/*/tasks", latency_ms=300, times=1)
    harness = await make_assistant()
    first = await dial(harness)
    await first.setup(call_sid="CA00000000000000000000000000000011")
    await first.prompt("Add a task to call the plumber")
    await crm_admin.wait_until_seen("POST /v1/customers/{cid}/tasks")
    await first.close()
    await _until_applied(crm_admin, "POST /v1/customers/{cid}/tasks")

    again = await dial(harness)
    await again.setup(call_sid="CA00000000000000000000000000000012")
    said = spoken(await again.ask("Is the plumber task on my list?"))
    assert (await titles(crm_admin)).count(PLUMBER) == 1
    assert "plumber" in said.lower(), said
    assert "not" not in said.lower() and "no " not in said.lower(), said


async def _until_applied(crm_admin: CrmAdmin, route: str) -> None:
    """Until the CRM has applied one write on `route` (the call that made it is gone)."""
    for _ in range(100):
        if (await writes_applied(crm_admin)).get(route):
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"no write on {route} was applied")


async def test_one_customer_budget_across_the_websocket_and_the_phone(
    make_assistant: MakeAssistant, dial: Dial, crm_admin: CrmAdmin
) -> None:
    """Customer budget of 2 messages a minute: one on the websocket, one on a call, and the
    call's next prompt is refused (the phone is not a way around the chat's limit)."""
    harness = await make_assistant(customer_messages_per_minute=2)
    chat = await harness.connect("cust_001")
    await chat.say("What do I owe?")
    relay = await dial(harness)
    await relay.setup()
    await relay.ask("And my appointments?")
    said = spoken(await relay.ask("Add a task to call the plumber"))
    assert PLUMBER not in await titles(crm_admin)
    assert "overwhelmed" in said.lower(), said
