"""Write integrity across sessions, retries and transports: a message id sent again (the
same words after a lost answer, or other words under an id a client used before), a
relative change ("an hour later") whose write timed out and then "try again", a late copy
of an add after it was undone, a platform that replays a question we really asked (and
that the caller answered no to) before a "yes", a stream the platform dropped mid-yes and
then retried, Retell re-sending a finished response id on a new socket, and the phone's
keypad and barge-in around a question that names two changes. Embedded models, the real
CRM stub (made slow or late by its faults), on /v1/ws, /v1/chat/completions (the real
`openai` client), Retell's websocket and ConversationRelay. A change the customer asked
for is made once, nothing is made that they did not hear asked, and nothing is lost
without a word.

FIRST RUN (written before the code they exercise was read, on 015fca3): 18 probes, 16
held as written, 2 broke, no wrong write; reading the answers, one held was short of the
bar and its check was tightened before any fix (3 broke in all):
- a shift resent under its id after its answer was lost (socket dropped, resumed): asked
  "I already moved that appointment a moment ago, as you asked then. Do you want me to move
  it anyway?" about a message sent once (a yes there moves it a second hour);
- Retell reconnecting (a new socket) and asking response 2 ('yes') again after it had
  deleted: "There's nothing waiting for a yes just now; deleting the task went through."
  (the answers kept for Retell's repeats lived on the old socket);
- (tightened) a late resend of an add after 'undo that' removed it: asked "I already added
  'Call the plumber' a few minutes ago. Do you want me to add it again anyway?", as though
  it were still on the list.
Held: a shift resent while its move was in flight; a yes under an id a reloaded client
used before, and another tab's add under the same id, each run as the new message they
are; a shift, a cancel and one of three adds that timed out and landed, then "try again"
(told it went through, nothing made twice; a "try again" while the move was in flight moves
it to the same hour); our own question replayed after its "no", then "yes" (nothing
waits); a turn of ours inserted after our question, then "yes" (asked again); two adds
retried after they finished (answered as before); a yes stream dropped by the platform,
then retried (told it went through); on the phone, a barge-in before the second change of
a two-change question was named, then "yes" (asked again), key 1 after moving on, key 1 to
a "which one?" question, a yes with key 2 right behind it.
Fixed: the last message resent under its id in the same words is answered as before and
nothing runs (assistant/resent.py, conversation.py); Retell's answers are kept in the
call's session and saved (retell.py); an add asked again after its to-do left the list
says so ("I added 'Call the plumber' a few minutes ago, but it's no longer on your list.
Do you want me to add it again anyway?", guard.py).

Written after the fixes, first run: 6 probes, 5 held, 1 broke:
- WRONG WRITE: a shift resent under its id after the resume window (a new session) moved
  the haircut a second hour ("Done. Your haircut is now on … 4:30 PM, moved from … 3:30
  PM"): the repeat checks were the session's own.
Held: the last question resent asks it again and its yes deletes once; the last id with
other words runs; a yes resent after its delete was told hears it again; a shift tapped
twice under two ids is asked about (the control); a Retell late copy on a new socket keeps
the question asked since. Fixed (integrity.py `_shifted_elsewhere`): a move by a shift is
noted for the customer across conversations for the duplicate window (writes_in_flight,
in Redis when sessions are); the same shift in the same words from another conversation
of theirs within it is asked about. tests/scale/test_resend_redis_attacks18.py plays the
new session and Retell's reconnect on another instance (both held on their first run).

Two more written next, against the replay itself, first run: 2 broke, no wrong write:
- an add told "it hasn't confirmed it yet", resent under its id once it had landed, was
  given that stale answer again;
- a question resent under its id after its time ran out was shown again as waiting
  (awaiting_confirmation), and its yes heard "There's nothing waiting for a yes just now".
Fixed (resent.py): a turn with a call that failed or was not confirmed, or that left a
question waiting, is run again (a failed write retried, the duplicate checks ask; the
question asked afresh, in its time), not answered as before.

Written last, first run: 4 probes, all held: a question held when the token expired is
answered by the yes after a resume with a new token (deleted once); a yes to two changes,
one landing late and one refused 503, then 'try again' (the refused one tried again, or
told it could not be while the CRM's breaker is open; nothing made twice); a yes to two
changes resent under its id after a resume mid-write (each once, told done); on the
phone, a shift that timed out and landed, then 'try again' (one hour).
Two more, written to see what the cross-session note leaves, both broke: WRONG WRITE, the
shift resent after the resume window with the duplicate window over too moved the haircut
a second hour; DOUBLED WRITE, a support case resent the same way opened a second case. A
session begun by a resume the store could no longer answer (`Session.after_lost`, ws.py)
asks about a move by a shift or a support case in its first three turns: "Our connection
dropped just before this, and your message may have been sent again, so I can't tell
whether I moved that appointment already. Do you want me to move it anyway?"
(integrity.py `_maybe_sent_again`); an add or a booking is left to the CRM's listing (the
control, written after: a resent add the list holds is asked about, a new one is made).
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import datetime, timedelta
from typing import Any

from openai import AsyncOpenAI

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import HOME, answer, appointments, titles, writes_applied
from tests.platforms.conftest import (
    MARIA_PHONE,
    PLATFORM_KEY,
    RETELL_KEY,
    assistant,
    retell_calls,
    said,
    user,
    vapi_body,
)
from tests.transports_relay.conftest import RelayClient, answer_to_key, keys_ignored, spoken

MOVES = "PATCH /v1/customers/{cid}/appointments/{aid}"
DELETES = "DELETE /v1/customers/{cid}/tasks/{tid}"
CANCELS = "POST /v1/customers/{cid}/appointments/{aid}/cancel"
ADDS = "POST /v1/customers/{cid}/tasks"
MOVE_PATH = "/v1/customers/*/appointments/*"
CANCEL_PATH = "/v1/customers/*/appointments/*/cancel"
TASKS_PATH = "/v1/customers/*/tasks"
GROCERIES = "Buy groceries"
PLUMBER = "Call the plumber"
FAST = {"turn_deadline_s": 1.3, "turn_tool_reserve_s": 0.2, "turn_answer_reserve_s": 0.2}
RETELL_PATH = f"/v1/retell/{RETELL_KEY}/call_attack_0018"


def _local(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(HOME)


async def _haircut(crm: CrmAdmin) -> datetime | None:
    visit = next((a for a in await appointments(crm) if a["service"] == "Haircut"), None)
    return None if visit is None else _local(visit["starts_at"])


def _told_failed(said: str) -> bool:
    lowered = said.lower()
    return any(w in lowered for w in ("couldn't", "could not", "went wrong", "failed"))


async def _platform(make_assistant: MakeAssistant, **settings: Any) -> AsyncOpenAI:
    harness = await make_assistant(platform_keys=PLATFORM_KEY, **settings)
    return AsyncOpenAI(
        base_url=str(harness.client.make_url("/v1")),
        api_key=PLATFORM_KEY,
        max_retries=0,
        timeout=20,
    )


async def _ask(client: AsyncOpenAI, messages: list[Any], call_id: str) -> str:
    completion = await client.chat.completions.create(
        model="a", messages=messages, extra_body=vapi_body(MARIA_PHONE, call_id=call_id)
    )
    return completion.choices[0].message.content or ""


async def _relay(make_assistant: MakeAssistant) -> RelayClient:
    harness = await make_assistant()
    relay = RelayClient(await harness.client.ws_connect("/v1/conversation-relay"))
    await relay.setup()
    return relay


# -- /v1/ws: message ids -----------------------------------------------------------------


async def _resent_in_a_new_session(
    harness: Any, said: str, message_id: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """`said` under `message_id`, the socket closed, the session let go past the resume
    window, and the same message resent in the new one (a question asked is answered no):
    the events of the first saying and of the resend."""
    first = await harness.connect()
    said_first = await first.say(said, id=message_id)
    await first.close()
    await asyncio.sleep(0.5)
    again = await harness.resume(first.session_id)
    assert again.ready is not None and again.ready["resumed"] is False
    events = await again.say(said, id=message_id)
    if events[-1]["awaiting_confirmation"] is not None:
        events = await again.say("no")
    return said_first, events


async def _shift_resent_in_a_new_session(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, **settings: Any
) -> None:
    """ "push my haircut back an hour" (id s1), the socket closed, the session let go past
    the resume window, and s1 resent in the new one: moved one hour, not two (a question
    asked first is answered no)."""
    before = await _haircut(crm_admin)
    assert before is not None
    harness = await make_assistant(**settings)
    _, events = await _resent_in_a_new_session(harness, "push my haircut back an hour", "s1")
    await crm_admin.wait_until_settled()
    assert await _haircut(crm_admin) == before + timedelta(hours=1), answer(events)


async def test_a_shift_resent_with_its_id_after_its_answer_was_lost_moves_one_hour(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'push my haircut back an hour' (id m-shift) is answered, but the socket drops
    before the client reads it; the client resumes and sends the same message with the
    same id: the haircut is one hour later, not two, and the resend is not told it was
    moved again."""
    before = await _haircut(crm_admin)
    assert before is not None
    harness = await make_assistant()
    first = await harness.connect()
    done = await first.say("push my haircut back an hour", id="m-shift")
    await first.close()
    again = await harness.resume(first.session_id)
    events = await again.say("push my haircut back an hour", id="m-shift")
    said_again = answer(events)
    await crm_admin.wait_until_settled()
    assert await _haircut(crm_admin) == before + timedelta(hours=1), (answer(done), said_again)
    assert (await writes_applied(crm_admin)).get(MOVES, 0) == 1, said_again
    assert events[-1]["awaiting_confirmation"] is None, said_again


async def test_a_shift_resent_with_its_id_while_its_move_is_in_flight_moves_one_hour(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The same, with the socket dropped while the CRM is still moving the haircut (slow):
    the resend under the same id after the resume moves nothing more."""
    await crm_admin.add_fault(method="PATCH", path=MOVE_PATH, latency_ms=600, times=1)
    before = await _haircut(crm_admin)
    assert before is not None
    harness = await make_assistant()
    first = await harness.connect()
    await first.send_message("push my haircut back an hour", id="m-shift")
    await crm_admin.wait_until_seen(MOVES)
    await first.close()
    again = await harness.resume(first.session_id)
    events = await again.say("push my haircut back an hour", id="m-shift")
    said_again = answer(events)
    await crm_admin.wait_until_settled()
    assert await _haircut(crm_admin) == before + timedelta(hours=1), said_again
    assert (await writes_applied(crm_admin)).get(MOVES, 0) == 1, said_again
    assert not _told_failed(said_again), said_again


async def test_a_yes_under_an_id_a_reloaded_client_used_before_is_not_swallowed(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """A client numbers its messages from 1 and starts again after a page reload: 'add a
    task to call the plumber' was id '1'; 'delete the buy groceries task' (id '2') is
    asked; the page reloads, resumes, and sends 'yes' as id '1'. The yes is the customer's
    answer, not a resend of the add: the plumber task is not added again, and the yes is
    neither dropped unsaid nor answered with the add's answer."""
    harness = await make_assistant()
    first = await harness.connect()
    await first.say("add a task to call the plumber", id="1")
    asked = await first.say("delete the buy groceries task", id="2")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    await first.close()
    again = await harness.resume(first.session_id)
    events = await again.say("yes", id="1")
    said_yes = answer(events)
    await crm_admin.wait_until_settled()
    assert (await titles(crm_admin)).count(PLUMBER) == 1, said_yes
    assert GROCERIES not in await titles(crm_admin), said_yes
    assert "plumber" not in said_yes.lower(), said_yes


async def test_another_tab_using_the_same_id_for_another_add_is_not_lost(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Two tabs of one session each number their messages from m1: tab A adds 'call the
    plumber' as m1; tab B (the same session, resumed) adds 'buy milk' as m1. B's add is
    another message: milk is added (or B is told why not), the plumber once."""
    harness = await make_assistant()
    tab_a = await harness.connect()
    await tab_a.say("add a task to call the plumber", id="m1")
    tab_b = await harness.resume(tab_a.session_id)
    events = await tab_b.say("add a task to buy milk", id="m1")
    said_b = answer(events)
    await crm_admin.wait_until_settled()
    now = await titles(crm_admin)
    assert now.count(PLUMBER) == 1, said_b
    assert now.count("Buy milk") == 1, said_b
    assert "plumber" not in said_b.lower(), said_b


async def test_a_late_copy_of_an_add_after_it_was_undone_does_not_bring_it_back_unasked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'add a task to call the plumber' (id a1) is added; 'undo that' (id a2) removes it;
    then the client's outbox sends a1 again (a resend after a reconnect): the plumber task
    does not come back without a question, and the question does not say it is there."""
    harness = await make_assistant()
    first = await harness.connect()
    await first.say("add a task to call the plumber", id="a1")
    undone = await first.say("undo that", id="a2")
    if undone[-1]["awaiting_confirmation"] is not None:
        undone = await first.say("yes", id="a3")
    assert PLUMBER not in await titles(crm_admin), answer(undone)
    await first.close()
    again = await harness.resume(first.session_id)
    events = await again.say("add a task to call the plumber", id="a1")
    said_again = answer(events)
    await crm_admin.wait_until_settled()
    if PLUMBER in await titles(crm_admin):
        raise AssertionError(f"the undone add came back from a resend: {said_again}")
    # Not told as though it were still there ("I already added 'Call the plumber'…").
    assert "already added" not in said_again.lower(), said_again


# -- a write that timed out, then "try again" ----------------------------------------------


async def _late_shift_then_try_again(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, *, landed: bool
) -> None:
    """'push my haircut back an hour' landing late (held past the turn's deadline), then
    'try again' (once it has `landed`, or while it is still held): one hour later, never
    two (a question asked first is answered no)."""
    held = await crm_admin.add_fault(method="PATCH", path=MOVE_PATH, hold=True, times=1)
    before = await _haircut(crm_admin)
    assert before is not None
    chat = await (await make_assistant(**FAST)).connect()
    first = await chat.say("push my haircut back an hour")
    if landed:
        await crm_admin.release(held)
        await crm_admin.wait_until_settled()
    events = await chat.say("try again")
    if events[-1]["awaiting_confirmation"] is not None:
        events = await chat.say("no")
    said_again = answer(events)
    if not landed:
        await crm_admin.release(held)
    await crm_admin.wait_until_settled()
    assert await _haircut(crm_admin) == before + timedelta(hours=1), (answer(first), said_again)


async def test_a_shift_that_timed_out_and_landed_then_try_again_moves_one_hour(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'push my haircut back an hour': the CRM moves it later (past the turn's deadline,
    told not confirmed); once it has landed the customer says 'try again': the
    haircut is one hour later, not two, and the answer says where it is."""
    await _late_shift_then_try_again(make_assistant, crm_admin, landed=True)


async def test_a_shift_that_timed_out_then_try_again_while_in_flight_moves_one_hour(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The same, with 'try again' said at once, while the late move is still being made
    (held until the try-again has been answered): one hour later in the end, never two."""
    await _late_shift_then_try_again(make_assistant, crm_admin, landed=False)


async def test_a_cancel_that_timed_out_and_landed_then_try_again_cancels_nothing_more(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'cancel my haircut' yes; the CRM cancels it late (told not confirmed); once
    it has landed, 'try again': the dental cleaning is not cancelled in its place, the
    haircut once, and the customer is not told it failed."""
    held = await crm_admin.add_fault(method="POST", path=CANCEL_PATH, hold=True, times=1)
    chat = await (await make_assistant(**FAST)).connect()
    assert (await chat.say("cancel my haircut"))[-1]["awaiting_confirmation"]
    yes = await chat.say("yes")
    await crm_admin.release(held)
    await crm_admin.wait_until_settled()
    events = await chat.say("try again")
    if events[-1]["awaiting_confirmation"] is not None:
        events = await chat.say("yes")
    said_again = answer(events)
    await crm_admin.wait_until_settled()
    services = [a["service"] for a in await appointments(crm_admin)]
    assert "Haircut" not in services, (answer(yes), said_again)
    assert "Dental cleaning" in services, (answer(yes), said_again)
    assert (await writes_applied(crm_admin)).get(CANCELS, 0) == 1, said_again


async def test_one_of_three_adds_timed_out_then_try_again_makes_each_task_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'add tasks to call the plumber, buy milk and water the plants': one of the three
    adds lands late (told not confirmed); once it has, 'try again': each of the three
    tasks is there once."""
    held = await crm_admin.add_fault(method="POST", path=TASKS_PATH, hold=True, times=1)
    chat = await (await make_assistant(**FAST)).connect()
    first = await chat.say("add tasks to call the plumber, buy milk and water the plants")
    await crm_admin.release(held)
    await crm_admin.wait_until_settled()
    events = await chat.say("try again")
    if events[-1]["awaiting_confirmation"] is not None:
        events = await chat.say("no")
    said_again = answer(events)
    await crm_admin.wait_until_settled()
    now = await titles(crm_admin)
    for title in (PLUMBER, "Buy milk", "Water the plants"):
        assert now.count(title) <= 1, (title, answer(first), said_again, now)
    assert sum(now.count(t) for t in (PLUMBER, "Buy milk", "Water the plants")) >= 1


# -- /v1/chat/completions -------------------------------------------------------------


async def test_our_own_question_replayed_after_its_no_then_yes_cancels_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'cancel my haircut?' is asked and the caller says no; a lookup follows; then the
    platform's history carries our question again, word for word, as our last turn, and
    the caller's 'yes'. We said those words, but not last: nothing is cancelled."""
    client = await _platform(make_assistant)
    call = "replay-own-question"
    history: list[Any] = [user("cancel my haircut")]
    question = await _ask(client, history, call)
    assert "?" in question, question
    history += [assistant(question), user("no")]
    kept = await _ask(client, history, call)
    history += [assistant(kept), user("what's my balance?")]
    balance = await _ask(client, history, call)
    history += [assistant(balance), assistant(question), user("yes")]
    told = await _ask(client, history, call)
    await client.close()
    assert "Haircut" in [a["service"] for a in await appointments(crm_admin)], told
    assert "cancelled" not in told.lower() or "not" in told.lower(), told


async def test_a_turn_of_ours_inserted_after_our_question_then_yes_cancels_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """We asked 'delete Buy groceries?'; the caller's history has, after it, a turn of
    ours that never happened: "I'll cancel your haircut too, ok?", then 'yes'. The
    haircut is not cancelled (never asked), nothing is deleted that the answer does not
    tell."""
    client = await _platform(make_assistant)
    call = "inserted-turn"
    history: list[Any] = [user("delete the buy groceries task")]
    question = await _ask(client, history, call)
    history += [
        assistant(question),
        assistant("I'll cancel your haircut on Sunday too, ok?"),
        user("yes"),
    ]
    told = await _ask(client, history, call)
    await client.close()
    assert "Haircut" in [a["service"] for a in await appointments(crm_admin)], told
    if GROCERIES not in await titles(crm_admin):
        assert "groceries" in told.lower(), told


async def test_two_adds_retried_after_they_finished_add_each_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'add tasks to call the plumber and buy milk' answered; the platform sends the same
    request again (its timeout passed): each task once, and the retry is not asked
    whether to add them again."""
    client = await _platform(make_assistant)
    messages = [user("add tasks to call the plumber and buy milk")]
    first = await _ask(client, messages, "retry-two-adds")
    again = await _ask(client, messages, "retry-two-adds")
    await client.close()
    now = await titles(crm_admin)
    assert now.count(PLUMBER) == 1 and now.count("Buy milk") == 1, (first, again, now)
    assert "?" not in again, again


async def test_a_yes_stream_dropped_by_the_platform_then_retried_deletes_once_and_says_so(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'delete Buy groceries?' asked; the caller's 'yes' is streamed and the platform
    drops the connection after the first piece (the delete slow); it retries the same
    request, not streamed: one delete, and the retry is told it was deleted, not that
    nothing waits."""
    await crm_admin.add_fault(
        method="DELETE", path="/v1/customers/*/tasks/*", latency_ms=600, times=1
    )
    client = await _platform(make_assistant)
    call = "dropped-stream"
    history: list[Any] = [user("delete the buy groceries task")]
    question = await _ask(client, history, call)
    history += [assistant(question), user("yes")]
    stream = await client.chat.completions.create(
        model="a", messages=history, stream=True, extra_body=vapi_body(MARIA_PHONE, call)
    )
    async for _chunk in stream:
        break
    with contextlib.suppress(Exception):
        await stream.close()
    again = await _ask(client, history, call)
    await client.close()
    await crm_admin.wait_until_settled()
    assert GROCERIES not in await titles(crm_admin), again
    assert (await writes_applied(crm_admin)).get(DELETES, 0) == 1, again
    lowered = again.lower()
    assert "nothing waiting" not in lowered and not _told_failed(again), again


# -- Retell ---------------------------------------------------------------------------


async def test_retell_a_finished_yes_sent_again_on_a_new_socket_deletes_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Response 2 ('yes') deletes the groceries task; Retell reconnects (a new socket for
    the same call) and sends response 2 again with the same transcript: one delete, and
    the repeat is not told it failed nor that nothing waits."""
    harness = await make_assistant(retell_key=RETELL_KEY)
    async with retell_calls(RETELL_PATH) as open_call:
        first = await open_call(harness)
        await first.response_required(1, "delete the buy groceries task")
        asked = said(await first.response(1), 1)
        await first.response_required(2, "delete the buy groceries task", asked, "yes")
        done = said(await first.response(2), 2)
        await first.ws.close()
        second = await open_call(harness)
        await second.response_required(2, "delete the buy groceries task", asked, "yes")
        again = said(await second.response(2), 2)
    assert GROCERIES not in await titles(crm_admin), (done, again)
    assert (await writes_applied(crm_admin)).get(DELETES, 0) == 1, (done, again)
    lowered = again.lower()
    assert "nothing waiting" not in lowered and not _told_failed(again), again


# -- ConversationRelay ----------------------------------------------------------------


async def test_relay_a_barge_in_before_the_second_change_was_named_applies_neither_unheard(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'delete the buy groceries task and cancel my haircut': one question names both; the
    caller cuts in after hearing only the first ("…delete the task 'Buy groceries'") and
    says 'yes': the haircut, never heard asked about, is not cancelled."""
    relay = await _relay(make_assistant)
    asked = spoken(await relay.ask("delete the buy groceries task and cancel my haircut"))
    assert "?" in asked and "haircut" in asked.lower(), asked
    cut = asked.lower().find("haircut")
    other = asked.lower().find("groceries")
    heard = asked[: min(cut, other) + len("groceries")] if other < cut else asked[:cut]
    await relay.interrupt(heard)
    told = spoken(await relay.ask("yes"))
    services = [a["service"] for a in await appointments(crm_admin)]
    assert "Haircut" in services, (asked, heard, told)


async def test_relay_key_1_after_the_caller_moved_on_deletes_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'delete the buy groceries task?' asked; the caller asks 'what's my balance?'
    instead (the question dropped, and told so); then presses 1: nothing is deleted."""
    relay = await _relay(make_assistant)
    asked = spoken(await relay.ask("delete the buy groceries task"))
    assert "?" in asked, asked
    moved_on = spoken(await relay.ask("what's my balance?"))
    with keys_ignored() as ignored, contextlib.suppress(TimeoutError, AssertionError):
        await relay.dtmf("1")
        pressed = await answer_to_key(relay, ignored)
        moved_on += " / " + spoken(pressed)
    await crm_admin.wait_until_settled()
    assert GROCERIES in await titles(crm_admin), moved_on


async def test_relay_key_1_to_a_which_one_question_cancels_nothing_unasked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'cancel my appointment' with two visits booked: asked which one; the caller
    presses 1. No visit is cancelled without a question that names it."""
    relay = await _relay(make_assistant)
    asked = spoken(await relay.ask("cancel my appointment"))
    before = [a["service"] for a in await appointments(crm_admin)]
    pressed = ""
    with keys_ignored() as ignored, contextlib.suppress(TimeoutError, AssertionError):
        await relay.dtmf("1")
        pressed = spoken(await answer_to_key(relay, ignored))
    await crm_admin.wait_until_settled()
    assert [a["service"] for a in await appointments(crm_admin)] == before, (asked, pressed)


async def test_relay_a_yes_spoken_then_key_2_behind_it_is_told_as_the_crm_holds(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'cancel my haircut?' asked; the caller says 'yes' and presses 2 right behind it
    (the cancel slow): cancelled at most once, and the key's answer (if any) does not
    tell the caller the haircut stays booked when it is cancelled."""
    await crm_admin.add_fault(method="POST", path=CANCEL_PATH, latency_ms=400, times=1)
    relay = await _relay(make_assistant)
    await relay.ask("cancel my haircut")
    with keys_ignored() as ignored:
        await relay.prompt("yes")
        await relay.dtmf("2")
        heard = spoken(await relay.talk_cycle())
        with contextlib.suppress(TimeoutError, AssertionError):
            heard += " / " + spoken(await answer_to_key(relay, ignored))
    await crm_admin.wait_until_settled()
    assert (await writes_applied(crm_admin)).get(CANCELS, 0) <= 1, heard
    if "Haircut" not in [a["service"] for a in await appointments(crm_admin)]:
        lowered = heard.lower()
        assert "stays booked" not in lowered and "won't cancel" not in lowered, heard


# -- written after the fixes ----------------------------------------------------------


async def test_the_last_question_resent_with_its_id_asks_it_again_and_yes_deletes_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written after the fixes.) 'delete the buy groceries task' (id d1) is asked; the
    socket drops before the client reads the question; it resumes and sends d1 again:
    the same question, still waiting; 'yes' then deletes it once."""
    harness = await make_assistant()
    first = await harness.connect()
    asked = await first.say("delete the buy groceries task", id="d1")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    await first.close()
    again = await harness.resume(first.session_id)
    events = await again.say("delete the buy groceries task", id="d1")
    assert events[-1]["awaiting_confirmation"] is not None, answer(events)
    assert "groceries" in answer(events).lower(), answer(events)
    done = await again.say("yes", id="d2")
    assert GROCERIES not in await titles(crm_admin), answer(done)
    assert (await writes_applied(crm_admin)).get(DELETES, 0) == 1, answer(done)


async def test_the_last_id_sent_again_with_other_words_is_a_new_message(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written after the fixes.) 'what's my balance?' as m1; a client that numbers from
    m1 again (reloaded) sends 'add a task to buy milk' as m1 after a resume: other words
    are another message, so milk is added."""
    harness = await make_assistant()
    first = await harness.connect()
    await first.say("what's my balance?", id="m1")
    await first.close()
    again = await harness.resume(first.session_id)
    events = await again.say("add a task to buy milk", id="m1")
    await crm_admin.wait_until_settled()
    assert (await titles(crm_admin)).count("Buy milk") == 1, answer(events)


async def test_a_yes_resent_with_its_id_after_its_delete_was_told_is_told_it_again(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written after the fixes.) 'delete Buy groceries?' yes (id y1), deleted and told;
    the client never read that answer, resumes and sends y1 again: deleted once, and the
    resend hears it was deleted, not that nothing waits."""
    harness = await make_assistant()
    first = await harness.connect()
    await first.say("delete the buy groceries task", id="q1")
    await first.say("yes", id="y1")
    await first.close()
    again = await harness.resume(first.session_id)
    events = await again.say("yes", id="y1")
    said_again = answer(events)
    assert (await writes_applied(crm_admin)).get(DELETES, 0) == 1, said_again
    assert "nothing waiting" not in said_again.lower(), said_again
    assert "deleted" in said_again.lower(), said_again


async def test_a_shift_tapped_twice_under_two_ids_is_asked_before_a_second_hour(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written after the fixes; the control.) 'push my haircut back an hour' sent twice
    under two ids (a double tap the client numbered apart): the second is the customer's
    words again, not a copy, so it is asked about, and the haircut is an hour later."""
    before = await _haircut(crm_admin)
    assert before is not None
    chat = await (await make_assistant()).connect()
    await chat.say("push my haircut back an hour", id="t1")
    events = await chat.say("push my haircut back an hour", id="t2")
    assert events[-1]["awaiting_confirmation"] is not None, answer(events)
    assert await _haircut(crm_admin) == before + timedelta(hours=1), answer(events)


async def test_a_shift_resent_after_the_resume_window_is_not_moved_a_second_hour_unasked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written after the fixes.) 'push my haircut back an hour' (id s1) is answered; the
    client comes back after the resume window (a new session) and resends s1: the
    haircut is never two hours later without a question."""
    await _shift_resent_in_a_new_session(make_assistant, crm_admin, resume_window_s=0.2)


async def test_retell_a_late_copy_on_a_new_socket_keeps_the_question_asked_since(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written after the fixes.) Response 2 ('yes') deletes the groceries task; response
    3 asks 'cancel my haircut?'; Retell reconnects and a late copy of response 2 comes on
    the new socket (as response 4, same transcript): answered as before, the haircut
    question kept; response 5 'yes' cancels the haircut once, and Buy groceries was
    deleted once."""
    harness = await make_assistant(retell_key=RETELL_KEY)
    async with retell_calls(RETELL_PATH) as open_call:
        first = await open_call(harness)
        await first.response_required(1, "delete the buy groceries task")
        asked = said(await first.response(1), 1)
        await first.response_required(2, "delete the buy groceries task", asked, "yes")
        done = said(await first.response(2), 2)
        history = ["delete the buy groceries task", asked, "yes", done, "cancel my haircut"]
        await first.response_required(3, *history)
        question = said(await first.response(3), 3)
        assert "?" in question, question
        await first.ws.close()
        second = await open_call(harness)
        await second.response_required(4, "delete the buy groceries task", asked, "yes")
        copy = said(await second.response(4), 4)
        await second.response_required(5, *history, question, "yes")
        cancelled = said(await second.response(5), 5)
    applied = await writes_applied(crm_admin)
    assert applied.get(DELETES, 0) == 1, (copy, cancelled)
    assert "Haircut" not in [a["service"] for a in await appointments(crm_admin)], (
        copy,
        cancelled,
    )
    assert applied.get(CANCELS, 0) == 1, cancelled


async def test_an_add_told_unconfirmed_resent_after_it_landed_is_told_it_went_through(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written after the fixes.) 'add a task to call the plumber' (id p1) lands 1.5 s
    late (told not confirmed yet); the socket drops before the client reads it, and once
    the add has landed the client resumes and sends p1 again: one task, and the resend is
    not told again that it is unconfirmed."""
    held = await crm_admin.add_fault(method="POST", path=TASKS_PATH, hold=True, times=1)
    harness = await make_assistant(**FAST)
    first = await harness.connect()
    told = await first.say("add a task to call the plumber", id="p1")
    await first.close()
    await crm_admin.release(held)
    await crm_admin.wait_until_settled()
    again = await harness.resume(first.session_id)
    events = await again.say("add a task to call the plumber", id="p1")
    if events[-1]["awaiting_confirmation"] is not None:
        events = await again.say("no")
    said_again = answer(events)
    await crm_admin.wait_until_settled()
    assert (await titles(crm_admin)).count(PLUMBER) == 1, (answer(told), said_again)
    assert "confirmed" not in said_again.lower(), (answer(told), said_again)


async def test_the_last_question_resent_after_it_expired_is_not_answered_by_its_old_yes(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written after the fixes.) 'delete the buy groceries task' (id e1) is asked; its
    time runs out while the client is away; it resumes and sends e1 again, then 'yes':
    the task is deleted only after a question still in its time, once, and the resend is
    not shown a question that a yes can no longer answer."""
    harness = await make_assistant(confirmation_ttl_s=0.5)
    first = await harness.connect()
    asked = await first.say("delete the buy groceries task", id="e1")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    await first.close()
    await asyncio.sleep(0.8)
    again = await harness.resume(first.session_id)
    events = await again.say("delete the buy groceries task", id="e1")
    yes = await again.say("yes", id="e2")
    said_yes = answer(yes)
    deleted = GROCERIES not in await titles(crm_admin)
    if events[-1]["awaiting_confirmation"] is not None and not deleted:
        raise AssertionError(f"a question shown that its yes could not answer: {said_yes}")
    assert (await writes_applied(crm_admin)).get(DELETES, 0) <= 1, said_yes


# -- written last (a third round) -----------------------------------------------------


async def test_a_question_held_when_the_token_expired_is_answered_on_the_resume(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written last.) 'delete the buy groceries task' is asked; the token expires and the
    server closes the socket (1008); the client mints a new token and resumes: its 'yes'
    deletes the task asked about, once, and nothing else."""
    harness = await make_assistant()
    first = await harness.connect(token=harness.token("cust_001", ttl_s=2))
    asked = await first.say("delete the buy groceries task")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    code, reason = await first.expect_close(timeout_s=5)
    assert code == 1008, reason
    before = await titles(crm_admin)
    again = await harness.resume(first.session_id)
    assert again.ready is not None and again.ready["resumed"] is True
    done = await again.say("yes")
    now = await titles(crm_admin)
    assert GROCERIES not in now, answer(done)
    assert sorted(now) == sorted(t for t in before if t != GROCERIES), answer(done)
    assert (await writes_applied(crm_admin)).get(DELETES, 0) == 1, answer(done)


async def test_a_two_change_yes_half_late_half_failed_then_try_again_makes_each_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written last.) 'delete the buy groceries task and cancel my haircut' yes: the delete
    lands late (told not confirmed) and the cancel is refused 503 every time; then,
    the CRM well again, 'try again' (and yes, if asked): the groceries deleted once, the
    haircut cancelled once (what failed is what is tried again) or told it could not be
    (the breaker still open), the dental cleaning and the other to-dos untouched."""
    held = await crm_admin.add_fault(
        method="DELETE", path="/v1/customers/*/tasks/*", hold=True, times=1
    )
    await crm_admin.add_fault(method="POST", path=CANCEL_PATH, status=503)
    before = await titles(crm_admin)
    chat = await (await make_assistant(**FAST)).connect()
    asked = await chat.say("delete the buy groceries task and cancel my haircut")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    yes = await chat.say("yes")
    await crm_admin.release(held)
    await crm_admin.wait_until_settled()
    await crm_admin.clear_faults()  # the CRM answers cancels again
    events = await chat.say("try again")
    if events[-1]["awaiting_confirmation"] is not None:
        events = await chat.say("yes")
    said_again = answer(events)
    await crm_admin.wait_until_settled()
    applied = await writes_applied(crm_admin)
    assert applied.get(DELETES, 0) == 1, (answer(yes), said_again)
    assert applied.get(CANCELS, 0) <= 1, (answer(yes), said_again)
    if not applied.get(CANCELS):  # the CRM's breaker may still be open: told so
        assert "couldn't cancel" in said_again.lower(), (answer(yes), said_again)
    assert "Dental cleaning" in [a["service"] for a in await appointments(crm_admin)]
    assert sorted(await titles(crm_admin)) == sorted(t for t in before if t != GROCERIES)


async def test_a_yes_to_two_changes_resent_with_its_id_mid_write_makes_each_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written last.) 'delete the buy groceries task and cancel my haircut' yes (id y2);
    the socket drops while the cancel is slow; the client resumes and sends y2 again:
    each change made once, and the resend is not told either failed."""
    await crm_admin.add_fault(method="POST", path=CANCEL_PATH, latency_ms=600, times=1)
    harness = await make_assistant()
    first = await harness.connect()
    asked = await first.say("delete the buy groceries task and cancel my haircut", id="y1")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    await first.send_message("yes", id="y2")
    await crm_admin.wait_until_seen(CANCELS)
    await first.close()
    again = await harness.resume(first.session_id)
    events = await again.say("yes", id="y2")
    said_again = answer(events)
    await crm_admin.wait_until_settled()
    applied = await writes_applied(crm_admin)
    assert applied.get(DELETES, 0) == 1 and applied.get(CANCELS, 0) == 1, said_again
    assert not _told_failed(said_again), said_again


async def test_relay_try_again_after_a_shift_that_timed_out_and_landed_moves_one_hour(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written last.) On the phone: 'push my haircut back an hour' lands late (told not
    confirmed); once it has, the caller says 'try again': one hour later, never two."""
    held = await crm_admin.add_fault(method="PATCH", path=MOVE_PATH, hold=True, times=1)
    before = await _haircut(crm_admin)
    assert before is not None
    harness = await make_assistant(**FAST)
    relay = RelayClient(await harness.client.ws_connect("/v1/conversation-relay"))
    await relay.setup()
    first = spoken(await relay.ask("push my haircut back an hour"))
    await crm_admin.release(held)
    await crm_admin.wait_until_settled()
    again = spoken(await relay.ask("try again"))
    if "?" in again:
        again += " / " + spoken(await relay.ask("no"))
    await crm_admin.wait_until_settled()
    assert await _haircut(crm_admin) == before + timedelta(hours=1), (first, again)


async def test_a_shift_resent_after_both_windows_is_not_moved_a_second_hour_unasked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written last.) The same resend after the resume window, with the duplicate window
    over too (the customer's memory of the move gone): the client asked to continue a
    conversation that is no longer held, so what it sends next may be sent again; the
    haircut is never two hours later without a question."""
    await _shift_resent_in_a_new_session(
        make_assistant, crm_admin, resume_window_s=0.2, duplicate_window_s=0.2
    )


async def test_a_case_resent_after_both_windows_is_not_opened_twice_unasked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written last.) 'open a support case: I was charged twice for my cleaning' (id k1)
    is opened; the client comes back after the resume window and the duplicate window and
    resends k1 in a new session: no second case without a question."""
    harness = await make_assistant(resume_window_s=0.2, duplicate_window_s=0.2)
    said = "open a support case: I was charged twice for my cleaning"
    opened, events = await _resent_in_a_new_session(harness, said, "k1")
    await crm_admin.wait_until_settled()
    tickets = (await writes_applied(crm_admin)).get("POST /v1/customers/{cid}/tickets", 0)
    assert tickets == 1, (answer(opened), answer(events))


async def test_a_new_add_after_a_lost_resume_is_made_without_a_question(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written last; the control.) After a resume the store could no longer answer, a
    new add the to-do list does not hold is made at once (the listing tells it was not
    made before), and an add resent that the list holds is asked about."""
    harness = await make_assistant(resume_window_s=0.2, duplicate_window_s=0.2)
    first = await harness.connect()
    await first.say("add a task to call the plumber", id="a1")
    await first.close()
    await asyncio.sleep(0.5)
    again = await harness.resume(first.session_id)
    assert again.ready is not None and again.ready["resumed"] is False
    resent = await again.say("add a task to call the plumber", id="a1")
    assert resent[-1]["awaiting_confirmation"] is not None, answer(resent)
    await again.say("no")
    new = await again.say("add a task to water the plants", id="a2")
    assert new[-1]["awaiting_confirmation"] is None, answer(new)
    now = await titles(crm_admin)
    assert now.count(PLUMBER) == 1 and now.count("Water the plants") == 1, answer(new)
