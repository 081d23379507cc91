"""Trust across resends, reconnects and two tabs on /v1/ws, with the real CRM stub:
whatever a real client does, a write the customer asked for lands once, a yes counts
only for a question already asked, and what the customer is told matches the CRM.

Probes written before the session code was read (with tests/scale/
test_session_trust_redis.py: 24). First run here: 18 of 20 held. Failed:
- "delete the grocery task" and "yes" sent back to back: the yes, sent before the
  question existed, was taken as the answer to it and the task was deleted;
- "what did you just add?" (two tabs writing at once) was refused as out of scope: the
  probe's wording, not the sessions; asked as "did that go through?" it held.
Held at once: a double send with or without the same id (one task, the second asked
about), a second yes, a yes after the resume window or the question's expiry, tab B
answering tab A's question then A's own yes, two tabs saying yes at once, a drop
mid-write then "did that go through?" or a resend, cancel mid-write then "undo that",
another customer's, an expired token's or a garbage session id's resume.

Written after the fixes (the last three here), first run: 2 of 3 passed, 1 of 3 truly
held (a "no" right behind a "yes" is not told the delete was kept). Failed: a yes
resent after its socket dropped mid-delete was told "there's nothing waiting for a
yes", not that the delete went through; "did that go through?" after a request cut off
before its write was answered "Sorry, I can't help with that" (a loose first assertion
let it pass; it is now held to a plain "No, I haven't changed anything").
The two on session.ready's `last_turn` (the last two) failed at first: the field did
not exist, so a client that resumed mid-write had to ask what became of its message.
"""

from __future__ import annotations

import asyncio
from typing import Any

from tests.fixtures.app import MakeAssistant, WsConversation
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, called, profile, tasks, titles, writes_applied

TASKS = "/v1/customers/*/tasks"
PLUMBER = "Call the plumber"
NEW_PHONE = "+14155550199"
PHONE_WRITES = "PATCH /v1/customers/{cid}"


async def turn_of(chat: WsConversation) -> list[dict[str, Any]]:
    return await chat.events_until("turn.done")


async def test_the_same_message_sent_twice_with_one_id_adds_one_task(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """A double click sends 'add a task' twice with the same id before any answer: one
    task in the CRM, and the second answer does not claim a second one was added."""
    chat = await (await make_assistant()).connect()
    await chat.send_message("add a task to call the plumber", id="m1")
    await chat.send_message("add a task to call the plumber", id="m1")
    first, second = await turn_of(chat), await turn_of(chat)
    assert "added" in answer(first).lower()
    assert (await titles(crm_admin)).count(PLUMBER) == 1
    assert "crm.addTask" not in [c["tool"] for c in second[-1]["tool_calls"] if c["status"] == "ok"]
    said = answer(second).lower()
    assert "i've added" not in said or "already" in said


async def test_the_same_message_sent_twice_without_id_is_asked_about(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Two identical 'add a task' frames without ids, back to back: one task, and the
    second is asked about (the same write twice), not done."""
    chat = await (await make_assistant()).connect()
    await chat.send_message("add a task to call the plumber")
    await chat.send_message("add a task to call the plumber")
    await turn_of(chat)
    second = await turn_of(chat)
    assert (await titles(crm_admin)).count(PLUMBER) == 1
    assert second[-1]["awaiting_confirmation"] is not None or "already" in answer(second).lower()


async def test_a_yes_sent_before_the_question_was_asked_confirms_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'delete the grocery task' and 'yes' sent back to back: the yes arrived before the
    question, so nothing is deleted; a yes after the question deletes it."""
    chat = await (await make_assistant()).connect()
    await chat.send_message("delete the grocery task")
    await chat.send_message("yes")
    asked = await turn_of(chat)
    assert asked[-1]["awaiting_confirmation"] is not None
    early = await turn_of(chat)
    assert "crm.deleteTask" not in called(early)
    assert "Buy groceries" in await tasks(crm_admin)
    assert "deleted" not in answer(early).lower() or "didn't" in answer(early).lower()
    if early[-1]["awaiting_confirmation"] is None:
        await chat.say("delete the grocery task")
    await chat.say("yes")
    assert "Buy groceries" not in await tasks(crm_admin)


async def test_a_second_yes_deletes_nothing_more(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Question, yes (deleted), yes again: one delete applied, and the second answer
    does not say it deleted anything."""
    chat = await (await make_assistant()).connect()
    await chat.say("delete the grocery task")
    await chat.say("yes")
    again = await chat.say("yes")
    assert "crm.deleteTask" not in called(again)
    assert "i've deleted" not in answer(again).lower()
    assert (await writes_applied(crm_admin)).get("DELETE /v1/customers/{cid}/tasks/{tid}") == 1


async def test_a_yes_after_the_resume_window_confirms_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The question's session is gone when the customer comes back: a new session, and
    its 'yes' deletes nothing and does not claim to have."""
    assistant = await make_assistant(resume_window_s=0.2)
    first = await assistant.connect()
    await first.say("delete the grocery task")
    await first.close()
    await asyncio.sleep(0.5)
    chat = await assistant.resume(first.session_id)
    assert chat.ready is not None and chat.ready["resumed"] is False
    events = await chat.say("yes")
    assert "crm.deleteTask" not in called(events)
    assert "deleted" not in answer(events).lower()
    assert "Buy groceries" in await tasks(crm_admin)


async def test_a_question_in_tab_a_answered_in_tab_b_then_again_in_a_changes_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Tab B resumes the session open in tab A and says yes to A's phone question: the
    phone changes once; A's later yes finds nothing waiting and changes nothing."""
    assistant = await make_assistant()
    tab_a = await assistant.connect()
    await tab_a.say("My new phone number is +1 415 555 0199")
    tab_b = await assistant.resume(tab_a.session_id)
    assert tab_b.ready is not None and tab_b.ready["resumed"] is True
    await tab_b.say("yes")
    assert (await profile(crm_admin))["phone"] == NEW_PHONE
    late = await tab_a.say("yes")
    assert "crm.updateContactInfo" not in called(late)
    assert (await writes_applied(crm_admin)).get(PHONE_WRITES) == 1


async def test_two_tabs_of_one_session_saying_yes_at_once_change_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Both tabs of one session answer the phone question at the same moment: one
    change applied, and only one answer says it was changed."""
    assistant = await make_assistant()
    tab_a = await assistant.connect()
    await tab_a.say("My new phone number is +1 415 555 0199")
    tab_b = await assistant.resume(tab_a.session_id)
    await asyncio.gather(tab_a.send_message("yes"), tab_b.send_message("yes"))
    on_a, on_b = await asyncio.gather(turn_of(tab_a), turn_of(tab_b))
    assert (await profile(crm_admin))["phone"] == NEW_PHONE
    assert (await writes_applied(crm_admin)).get(PHONE_WRITES) == 1
    changed = [e for e in (on_a, on_b) if "crm.updateContactInfo" in called(e)]
    assert len(changed) == 1


async def test_a_question_in_one_session_is_not_answered_from_another(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Two tabs with separate sessions: a yes in tab B does not answer tab A's question."""
    assistant = await make_assistant()
    tab_a = await assistant.connect()
    await tab_a.say("delete the grocery task")
    tab_b = await assistant.connect()
    events = await tab_b.say("yes")
    assert "crm.deleteTask" not in called(events)
    assert "Buy groceries" in await tasks(crm_admin)


async def test_a_socket_dropped_mid_write_resumes_knowing_the_write_landed(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The socket drops while 'add a task' is being written and the client resumes at
    once: the task is there once, and 'did that go through?' is answered yes."""
    await crm_admin.add_fault(method="POST", path=TASKS, latency_ms=600, times=1)
    assistant = await make_assistant()
    first = await assistant.connect()
    await first.send_message("add a task to call the plumber", id="m1")
    await crm_admin.wait_until_seen("POST /v1/customers/{cid}/tasks")
    await first.close()
    chat = await assistant.resume(first.session_id)
    assert chat.ready is not None and chat.ready["resumed"] is True
    events = await chat.say("did that go through?")
    said = answer(events).lower()
    assert "plumber" in said and "not" not in said, said
    assert (await titles(crm_admin)).count(PLUMBER) == 1


async def test_a_message_resent_after_a_drop_mid_write_adds_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The client's retry: the socket drops mid-write, it resumes and sends the same
    message with the same id again; the CRM holds one task and the answer says so."""
    await crm_admin.add_fault(method="POST", path=TASKS, latency_ms=600, times=1)
    assistant = await make_assistant()
    first = await assistant.connect()
    await first.send_message("add a task to call the plumber", id="m1")
    await crm_admin.wait_until_seen("POST /v1/customers/{cid}/tasks")
    await first.close()
    chat = await assistant.resume(first.session_id)
    events = await chat.say("add a task to call the plumber", id="m1")
    assert (await titles(crm_admin)).count(PLUMBER) == 1
    said = answer(events).lower()
    # Asked about as a repeat, or told the first one went through (its turn was stopped
    # with the socket, so the resend is the first the customer hears of it).
    told = "already" in said or "went through" in said
    assert events[-1]["awaiting_confirmation"] is not None or told, said


async def test_cancel_during_a_write_then_undo_removes_it(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """turn.cancel while a task is written (the write finishes), then 'undo that': the
    task is gone, and the CRM holds no plumber task."""
    await crm_admin.add_fault(method="POST", path=TASKS, latency_ms=400, times=1)
    chat = await (await make_assistant()).connect()
    await chat.send_message("add a task to call the plumber")
    await crm_admin.wait_until_seen("POST /v1/customers/{cid}/tasks")
    await chat.cancel()
    assert (await turn_of(chat))[-1]["status"] == "cancelled"
    events = await chat.say("undo that")
    if events[-1]["awaiting_confirmation"] is not None:
        events = await chat.say("yes")
    assert PLUMBER not in await titles(crm_admin), answer(events)


async def test_session_resume_mid_conversation_is_an_error_naming_it(
    make_assistant: MakeAssistant,
) -> None:
    """session.resume after the conversation began: an invalid_message error that names
    session.resume, and the connection goes on."""
    assistant = await make_assistant()
    chat = await assistant.connect()
    await chat.say("what's my next appointment?")
    await chat.send({"type": "session.resume", "session_id": "s_other"})
    error = await chat.next_of("error")
    assert error["code"] == "invalid_message"
    assert "session.resume" in error["message"]
    assert (await chat.say("what do I owe?"))[-1]["status"] == "ok"


async def test_a_browser_resuming_another_customers_session_learns_nothing_of_it(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """cust_002's browser names cust_001's session (holding a delete question): a new
    session of cust_002, whose 'yes' deletes nothing of cust_001's."""
    assistant = await make_assistant()
    first = await assistant.connect("cust_001")
    await first.say("delete the grocery task")
    other = WsConversation(await assistant.open_ws(), None)
    assistant.conversations.append(other)
    await other.send(
        {
            "type": "session.resume",
            "session_id": first.session_id,
            "token": assistant.token("cust_002"),
        }
    )
    ready = await other.next_of("session.ready")
    assert (ready["resumed"], ready["customer_id"]) == (False, "cust_002")
    assert ready["session_id"] != first.session_id
    events = await other.say("yes")
    assert "crm.deleteTask" not in called(events)
    assert "Buy groceries" in await tasks(crm_admin)


async def test_a_browser_resume_with_an_expired_token_is_closed_naming_the_token(
    make_assistant: MakeAssistant,
) -> None:
    """session.resume as the first frame with an expired token: closed 1008, the
    reason naming the token, no session.ready."""
    assistant = await make_assistant()
    first = await assistant.connect()
    chat = WsConversation(await assistant.open_ws(), None)
    assistant.conversations.append(chat)
    expired = assistant.token("cust_001", ttl_s=-10)
    await chat.send({"type": "session.resume", "session_id": first.session_id, "token": expired})
    code, reason = await chat.expect_close()
    assert code == 1008
    assert "token" in reason and "expired" in reason


async def test_a_resume_whose_session_id_is_not_a_string_is_an_error_naming_it(
    make_assistant: MakeAssistant,
) -> None:
    """session.resume with session_id 42: invalid_message naming session_id, and the
    connection goes on with its own session."""
    assistant = await make_assistant()
    chat = await assistant.connect()
    await chat.send({"type": "session.resume", "session_id": 42})
    error = await chat.next_of("error")
    assert error["code"] == "invalid_message"
    assert "session_id" in error["message"]
    assert (await chat.say("what do I owe?"))[-1]["status"] == "ok"


async def test_a_browser_resume_with_a_huge_garbage_session_id_gets_a_new_session(
    make_assistant: MakeAssistant,
) -> None:
    """A 5,000-character session id that names nothing: a new session, resumed false,
    and the conversation works."""
    assistant = await make_assistant()
    chat = WsConversation(await assistant.open_ws(), None)
    assistant.conversations.append(chat)
    await chat.send(
        {"type": "session.resume", "session_id": "s_" + "x" * 5000, "token": assistant.token()}
    )
    ready = await chat.next_of("session.ready")
    assert ready["resumed"] is False
    assert (await chat.say("what do I owe?"))[-1]["status"] == "ok"


async def test_a_yes_after_the_question_expired_confirms_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The question waited longer than confirmation_ttl_s: the yes deletes nothing and
    the answer does not claim it did."""
    chat = await (await make_assistant(confirmation_ttl_s=0.2)).connect()
    await chat.say("delete the grocery task")
    await asyncio.sleep(0.5)
    events = await chat.say("yes")
    assert "crm.deleteTask" not in called(events)
    assert "i've deleted" not in answer(events).lower()
    assert "Buy groceries" in await tasks(crm_admin)


async def test_a_question_cancelled_before_it_was_asked_is_not_answered_by_yes(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """turn.cancel right after turn.started of 'delete the grocery task': if the turn ended
    before its question was said, a following yes deletes nothing."""
    chat = await (await make_assistant()).connect()
    await chat.send_message("delete the grocery task")
    await chat.next_of("turn.started")
    await chat.cancel()
    asked = await turn_of(chat)
    said = "".join(e["text"] for e in asked if e["type"] == "answer.delta")
    events = await chat.say("yes")
    if "sure" not in said.lower():
        assert "crm.deleteTask" not in called(events), said
        assert "Buy groceries" in await tasks(crm_admin)


async def test_messages_queued_when_the_socket_dropped_are_resent_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Two adds sent back to back, the socket dropped during the first write; the client
    resumes and resends both with their ids: each task exists once."""
    await crm_admin.add_fault(method="POST", path=TASKS, latency_ms=500, times=1)
    assistant = await make_assistant()
    first = await assistant.connect()
    await first.send_message("add a task to call the plumber", id="m1")
    await first.send_message("add a task to water the plants", id="m2")
    await crm_admin.wait_until_seen("POST /v1/customers/{cid}/tasks")
    await first.close()
    chat = await assistant.resume(first.session_id)
    for text, id in (
        ("add a task to call the plumber", "m1"),
        ("add a task to water the plants", "m2"),
    ):
        events = await chat.say(text, id=id)
        if events[-1]["awaiting_confirmation"] is not None:
            assert "already" in answer(events).lower()
    got = await titles(crm_admin)
    assert (got.count(PLUMBER), got.count("Water the plants")) == (1, 1), got


async def test_two_tabs_of_one_session_writing_at_once_both_remembered(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Tab A adds a task (slow CRM) while tab B of the same session adds another: both
    land, and a third reconnect's 'undo that' undoes the last one, leaving the first."""
    await crm_admin.add_fault(method="POST", path=TASKS, latency_ms=400, times=1)
    assistant = await make_assistant()
    tab_a = await assistant.connect()
    tab_b = await assistant.resume(tab_a.session_id)
    await tab_a.send_message("add a task to call the plumber")
    await crm_admin.wait_until_seen("POST /v1/customers/{cid}/tasks")
    await tab_b.send_message("add a task to water the plants")
    await asyncio.gather(turn_of(tab_a), turn_of(tab_b))
    got = await titles(crm_admin)
    assert (got.count(PLUMBER), got.count("Water the plants")) == (1, 1), got
    third = await assistant.resume(tab_a.session_id)
    events = await third.say("did that go through?")
    said = answer(events).lower()
    assert "plants" in said, said


# --- written after the fixes above -----------------------------------------------------


async def test_a_yes_resent_after_a_drop_mid_delete_is_told_it_was_done(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The yes's socket drops while the delete runs; the client resumes and resends the
    same yes: one delete, and the answer says the task was deleted, not that nothing
    was asked."""
    await crm_admin.add_fault(method="DELETE", path=TASKS + "/*", latency_ms=400, times=1)
    assistant = await make_assistant()
    first = await assistant.connect()
    await first.say("delete the grocery task")
    await first.send_message("yes", id="m2")
    await crm_admin.wait_until_seen("DELETE /v1/customers/{cid}/tasks/{tid}")
    await first.close()
    chat = await assistant.resume(first.session_id)
    events = await chat.say("yes", id="m2")
    assert "crm.deleteTask" not in called(events)
    assert "went through" in answer(events).lower(), answer(events)
    assert "Buy groceries" not in await tasks(crm_admin)
    assert (await writes_applied(crm_admin)).get("DELETE /v1/customers/{cid}/tasks/{tid}") == 1


async def test_a_no_right_behind_a_yes_does_not_say_the_delete_was_not_done(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'yes' then 'no' sent back to back after the question: the yes deletes; the no's
    answer must not tell the customer the task was kept."""
    chat = await (await make_assistant()).connect()
    await chat.say("delete the grocery task")
    await chat.send_message("yes")
    await chat.send_message("no")
    await turn_of(chat)
    events = await turn_of(chat)
    said = answer(events).lower()
    assert "Buy groceries" not in await tasks(crm_admin)
    assert "won't" not in said and "didn't" not in said, said


async def test_a_socket_dropped_before_the_write_began_is_told_it_was_not_done(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'complete the grocery task' drops while its lookup is slow (before the write): after
    the resume, 'did that go through?' does not claim it was done, and the CRM agrees."""
    await crm_admin.add_fault(method="GET", path=TASKS, latency_ms=400, times=1)
    assistant = await make_assistant()
    first = await assistant.connect()
    await first.send_message("complete the grocery task")
    await first.next_of("ack.done")
    await first.close()
    chat = await assistant.resume(first.session_id)
    events = await chat.say("did that go through?")
    assert (await tasks(crm_admin))["Buy groceries"]["status"] == "pending"
    assert answer(events).startswith("No, I haven't changed anything"), answer(events)


async def test_a_resume_mid_write_is_ready_with_what_the_dropped_turn_answered(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The socket drops while a task is written; the resume's session.ready comes once
    that turn is over and tells it (the add ok, never narrated), so the client shows
    what happened without asking; the CRM holds the task once."""
    await crm_admin.add_fault(method="POST", path=TASKS, latency_ms=500, times=1)
    assistant = await make_assistant()
    first = await assistant.connect()
    await first.send_message("add a task to call the plumber", id="m1")
    await crm_admin.wait_until_seen("POST /v1/customers/{cid}/tasks")
    await first.close()
    chat = await assistant.resume(first.session_id)
    assert chat.ready is not None
    last = chat.ready["last_turn"]
    assert last["message_id"] == "m1"
    adds = [c for c in last["tool_calls"] if c["tool"] == "crm.addTask"]
    assert [(c["status"], c["arguments"]["title"]) for c in adds] == [("ok", PLUMBER)]
    assert last["awaiting_confirmation"] is None
    assert (await titles(crm_admin)).count(PLUMBER) == 1


async def test_a_resume_is_ready_with_the_question_still_waiting(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """A browser that resumes while a delete waits for a yes learns the question from
    session.ready (last_turn.awaiting_confirmation), and its yes deletes the task."""
    assistant = await make_assistant()
    first = await assistant.connect()
    asked = await first.say("delete the grocery task")
    await first.close()
    chat = WsConversation(await assistant.open_ws(), None)
    assistant.conversations.append(chat)
    await chat.send(
        {"type": "session.resume", "session_id": first.session_id, "token": assistant.token()}
    )
    ready = await chat.next_of("session.ready")
    waiting = ready["last_turn"]["awaiting_confirmation"]
    assert waiting == asked[-1]["awaiting_confirmation"]
    await chat.say("yes")
    assert "Buy groceries" not in await tasks(crm_admin)
