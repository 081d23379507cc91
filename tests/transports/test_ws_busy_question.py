"""A message refused as busy while a question waits for the customer's answer.

Admission control refuses a message of an open session with `error` code `busy` and
`retry_after_s` when the server is saturated (PROTOCOL.md, "Expiry and overload"); the
message is dropped, and a question that waited for a yes (a delete, a cancel, a change of
email) still waits. The frame's `message` is what a client shows or speaks: after a yes
refused so, a customer who hears only "the server is busy" cannot tell whether the delete
was made. It must say that nothing was done and that the question still waits.

PROTOCOL.md lets a busy frame carry `code`, `message`, `turn_id` and `retry_after_s`
(fields are only ever added): what the customer must hear is said in `message`.

FIRST RUN (written before the code was read): 1 of 3 held (the control). Both yeses
refused busy got only "the server is busy; try again in 1 s" (nothing was deleted or
changed, rightly, and the question did still wait: only unsaid). Now the frame goes on
"Nothing was done: the question asked last still waits for your answer" whenever a
question of the session waits (transports/ws.py; rate_limited and a full queue too).
"""

from __future__ import annotations

from typing import Any

from tests.fixtures.app import AssistantHarness, MakeAssistant, WsConversation
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import profile, tasks

GROCERIES = "Buy groceries"
_WAITS = ("still wait", "still open", "still holds", "still pending", "not done", "nothing was")


async def _busy_reply(
    harness: AssistantHarness, crm_admin: CrmAdmin, customer: WsConversation, said: str
) -> dict[str, Any]:
    """`said` sent by `customer` while another customer's turn holds the one turn the
    server admits (the CRM slow for it): the error frame it gets."""
    james = await harness.connect("cust_002")
    await crm_admin.add_fault(
        method="GET", path="/v1/customers/cust_002/invoices", latency_ms=250, times=1
    )
    await james.send_message("what do I owe")
    await james.next_of("tool.started")
    await customer.send_message(said)
    refused: dict[str, Any] = await customer.next_of("error")
    await james.next_of("turn.done")
    await crm_admin.wait_until_settled()
    return refused


async def test_a_yes_refused_as_busy_says_the_delete_still_waits(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'delete the buy groceries task?' waits; 'yes' is refused busy: the frame says
    nothing was done and the question still waits, and it does (the next yes deletes)."""
    harness = await make_assistant(saturation_turns_in_flight=1)
    maria = await harness.connect()
    await maria.say("delete the buy groceries task")
    refused = await _busy_reply(harness, crm_admin, maria, "yes")
    assert refused["code"] == "busy" and refused["retry_after_s"] > 0, refused
    message = refused["message"].lower()
    assert any(words in message for words in _WAITS), refused
    assert GROCERIES in await tasks(crm_admin)
    await maria.say("yes")
    await crm_admin.wait_until_settled()
    assert GROCERIES not in await tasks(crm_admin)


async def test_a_sure_go_ahead_refused_as_busy_says_the_change_was_not_made(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """A change of email waits for a yes; 'sure go ahead' is refused busy: the frame says
    the change waits, the email on file is the old one."""
    harness = await make_assistant(saturation_turns_in_flight=1)
    maria = await harness.connect()
    await maria.say("change my email to maria@garcia.dev")
    refused = await _busy_reply(harness, crm_admin, maria, "sure go ahead")
    assert refused["code"] == "busy", refused
    message = refused["message"].lower()
    assert any(words in message for words in _WAITS), refused
    assert (await profile(crm_admin))["email"] == "maria.garcia@example.com"


async def test_a_message_refused_as_busy_with_no_question_waiting_mentions_none(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The control: with nothing waiting for a yes, the busy frame speaks of no question."""
    harness = await make_assistant(saturation_turns_in_flight=1)
    maria = await harness.connect()
    refused = await _busy_reply(harness, crm_admin, maria, "what's on my list")
    assert refused["code"] == "busy", refused
    assert "question" not in refused["message"].lower(), refused
