"""One customer on a phone call beside the chat widget: a yes on one to a question asked
on the other, and an 'undo that' on the phone after a change made in the chat, on
ConversationRelay and /v1/ws with the embedded models and the real CRM stub. The CRM is
checked after each.

First run (written before the code they exercise was read): 2 probes, both held: a yes
typed in the widget to the call's question deletes nothing (the caller's own yes
deletes once); 'undo that' on a call that has done nothing leaves the widget's task.
"""

from __future__ import annotations

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, tasks, titles, writes_applied
from tests.transports_relay.conftest import Dial, spoken

GROCERIES = "Buy groceries"
DELETES = "DELETE /v1/customers/{cid}/tasks/{tid}"


async def test_a_yes_in_the_chat_to_the_phones_question_deletes_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, dial: Dial
) -> None:
    """The call asks 'delete Buy groceries?'; a 'yes' typed in the widget (a question
    it never asked) deletes nothing; the caller's own yes then deletes it once."""
    harness = await make_assistant()
    relay = await dial(harness)
    await relay.setup()
    asked = spoken(await relay.ask("delete my grocery task"))
    assert "groceries" in asked.lower(), asked
    chat = await harness.connect()
    typed = await chat.say("yes")
    assert GROCERIES in await tasks(crm_admin), answer(typed)
    heard = spoken(await relay.ask("yes"))
    assert GROCERIES not in await tasks(crm_admin), heard
    assert (await writes_applied(crm_admin)).get(DELETES) == 1


async def test_undo_on_the_phone_leaves_the_chats_add_alone(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, dial: Dial
) -> None:
    """The widget adds 'Call the plumber'; the caller on the phone, who has done nothing
    on this call, says 'undo that': the widget's task is not removed unasked."""
    harness = await make_assistant()
    chat = await harness.connect()
    await chat.say("add a task to call the plumber")
    relay = await dial(harness)
    await relay.setup()
    heard = spoken(await relay.ask("undo that"))
    if "Call the plumber" in await titles(crm_admin) and "?" in heard:
        heard += " / " + spoken(await relay.ask("no"))
    assert "Call the plumber" in await titles(crm_admin), heard
