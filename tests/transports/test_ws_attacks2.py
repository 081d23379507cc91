"""A customer on two ways in at once, and a client that resumes at the wrong moment or
with a forged token, on /v1/ws, with the embedded
models and the real CRM stub. The CRM is checked after each: nothing asked for is
lost or applied twice, nothing is applied that was not asked for.

First run (written before the code they exercise was read, before any fix): 9 probes
(the forged token six ways), 7 held, 2 failed:
- WRONG WRITE: "cancel my haircut" asked about the haircut at 2:30 PM; the office moved
  it to the next day at 4:30 PM; the yes cancelled it there ("Your haircut on Tuesday,
  December 1 at 4:30 PM is cancelled"), a visit at a time nobody was asked about;
- DOUBLED WRITE: an add the CRM had not confirmed by the turn's deadline ("it may
  already be done"), asked for again at once while the first was still being applied:
  two "Call the plumber" tasks.
- held: "undo that" from a tab that resumed mid-write removed the plumber task only; a
  resume with a token of another secret, alg none, a call token, no audience, a list
  for `sub`, or expired, was closed 1008 naming the token (the audience case was later
  left out for time).
(The deadline probe's first setting, 1.0 s, left no time to begin a write at all: it
was told "nothing was changed", truly; it runs at 1.3 s with small reserves.)
After the fixes (assistant/integrity.py: a held visit is read again before its yes
runs, and asked about again if it moved; a write the CRM may still be applying is
remembered, and asked about when asked for again) all hold. Written afterwards, red
on its first run (WRONG WRITE): the question moved on from, the visit moved, then "ok,
go ahead with the cancel" cancelled it at its new time; that way to a yes now reads the
visit again too.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from typing import Any

import jwt
import pytest

from assistant.auth import mint_call_token
from tests.fixtures.app import MakeAssistant, WsConversation
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, appointments, tasks, titles

TASKS = "/v1/customers/*/tasks"
PLUMBER = "Call the plumber"
DELETES = "DELETE /v1/customers/{cid}/tasks/{tid}"


async def turn_of(chat: WsConversation) -> list[dict[str, Any]]:
    return await chat.events_until("turn.done")


def haircut_of(visits: list[dict[str, Any]]) -> dict[str, Any]:
    (haircut,) = [visit for visit in visits if visit["service"] == "Haircut"]
    return haircut


async def test_a_yes_after_the_visit_was_moved_another_way_does_not_cancel_it_unasked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The widget asks 'cancel your haircut on <day> at 2:30?'; before the customer
    answers, the haircut is moved to another day (by the office, or on another channel).
    A yes on the widget must not cancel the visit at its new time, which nobody was asked
    about: it is asked again, naming the new time, or left alone."""
    assistant = await make_assistant()
    chat = await assistant.connect()
    asked = await chat.say("cancel my haircut")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    haircut = haircut_of(await appointments(crm_admin))
    moved_to = datetime.fromisoformat(haircut["starts_at"]) + timedelta(days=1, hours=2)
    status, body = await crm_admin.patch(
        f"/v1/customers/cust_001/appointments/{haircut['id']}",
        {"starts_at": moved_to.isoformat()},
    )
    assert status == 200, body
    events = await chat.say("yes")
    after = await appointments(crm_admin)
    assert "Haircut" in [visit["service"] for visit in after], answer(events)
    said = answer(events).lower()
    assert "cancelled" not in said or "not" in said, said
    # Asked again, naming the visit as it is now; a yes to that cancels it.
    assert "4:30 pm" in said and events[-1]["awaiting_confirmation"] is not None, said
    again = await chat.say("yes")
    assert "Haircut" not in [visit["service"] for visit in await appointments(crm_admin)]
    assert "cancelled" in answer(again).lower(), answer(again)


async def test_undo_from_a_tab_that_resumed_mid_write_undoes_that_write_only(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Tab A adds the plumber task (the CRM is slow); tab B resumes the session while the
    add is in flight and says 'undo that': the plumber task is removed (now or after a
    yes), and no other task is touched."""
    await crm_admin.add_fault(method="POST", path=TASKS, latency_ms=500, times=1)
    assistant = await make_assistant()
    tab_a = await assistant.connect()
    await tab_a.send_message("add a task to call the plumber")
    await crm_admin.wait_until_seen("POST /v1/customers/{cid}/tasks")
    tab_b = await assistant.resume(tab_a.session_id)
    assert tab_b.ready is not None and tab_b.ready["resumed"] is True
    events = await tab_b.say("undo that")
    if events[-1]["awaiting_confirmation"] is not None:
        events = await tab_b.say("yes")
    await turn_of(tab_a)
    left = await tasks(crm_admin)
    assert PLUMBER not in left, answer(events)
    for title in ("Buy groceries", "Renew car insurance", "Schedule eye exam"):
        assert left[title]["status"] == "pending", (title, answer(events))


def _forged(secret: str, **claims: Any) -> str:
    now = int(time.time())
    base = {"sub": "cust_001", "aud": "assistant-session", "iat": now, "exp": now + 600}
    return jwt.encode({**base, **claims}, secret, algorithm="HS256")


FORGED = {
    "another secret": lambda s: _forged("not-the-service-secret-at-all-0123456789"),
    "alg none": lambda s: jwt.encode(
        {"sub": "cust_001", "aud": "assistant-session", "exp": int(time.time()) + 600},
        key=None,
        algorithm="none",
    ),
    "a call token": lambda s: mint_call_token(s, "CA00000000000000000000000000000001"),
    "sub a list": lambda s: _forged(s, sub=["cust_001"]),
    "expired": lambda s: _forged(s, exp=int(time.time()) - 5),
}


@pytest.mark.parametrize("kind", sorted(FORGED))
async def test_a_resume_with_a_forged_token_is_closed_naming_the_token(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, kind: str
) -> None:
    """A browser resumes cust_001's session (a delete question waiting) with a forged,
    wrong-audience or expired token: closed 1008 with a reason naming the token, nothing
    of the session is sent, and the grocery task stays."""
    assistant = await make_assistant()
    first = await assistant.connect()
    await first.say("delete the grocery task")
    token = FORGED[kind](assistant.settings.signing_secret(for_server=True))
    other = WsConversation(await assistant.open_ws(), None)
    assistant.conversations.append(other)
    await other.send({"type": "session.resume", "session_id": first.session_id, "token": token})
    await other.send_message("yes")
    code, reason = await other.expect_close()
    assert code == 1008, (code, reason)
    assert "token" in reason, reason
    assert "Buy groceries" in await tasks(crm_admin)


async def test_a_task_unconfirmed_at_the_deadline_asked_again_is_added_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The add is not confirmed by the turn's deadline (it lands just after); the
    customer, told it is not confirmed yet, asks again at once: one plumber task. The
    ask again goes under the first add's idempotency key (faults26), so whichever copy
    lands the CRM holds one; it is no longer asked about ("…add it again anyway?", where a
    yes made a second one when the first landed late)."""
    await crm_admin.add_fault(method="POST", path=TASKS, latency_ms=1500, times=1)
    assistant = await make_assistant(
        turn_deadline_s=1.3, turn_tool_reserve_s=0.2, turn_answer_reserve_s=0.2
    )
    chat = await assistant.connect()
    first = await chat.say("add a task to call the plumber")
    assert "confirmed" in answer(first).lower(), answer(first)
    again = await chat.say("add a task to call the plumber")
    await crm_admin.wait_until_settled()
    assert (await titles(crm_admin)).count(PLUMBER) == 1, answer(again)
    assert again[-1]["awaiting_confirmation"] is None, answer(again)
    assert "again anyway" not in answer(again).lower(), answer(again)
    assert "call the plumber" in answer(again).lower(), answer(again)


# --- written after the fixes -------------------------------------------------------------


async def test_go_ahead_with_the_cancel_after_the_visit_moved_asks_again(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'cancel my haircut' is asked about, the customer moves on ('what do I owe?'), the
    office moves the haircut, then 'ok, go ahead with the cancel': not cancelled at its
    new time unasked; asked again, naming it."""
    chat = await (await make_assistant()).connect()
    assert (await chat.say("cancel my haircut"))[-1]["awaiting_confirmation"] is not None
    await chat.say("what do I owe?")
    haircut = haircut_of(await appointments(crm_admin))
    moved = datetime.fromisoformat(haircut["starts_at"]) + timedelta(days=1, hours=2)
    status, body = await crm_admin.patch(
        f"/v1/customers/cust_001/appointments/{haircut['id']}", {"starts_at": moved.isoformat()}
    )
    assert status == 200, body
    events = await chat.say("ok, go ahead with the cancel")
    assert "Haircut" in [v["service"] for v in await appointments(crm_admin)], answer(events)
    assert events[-1]["awaiting_confirmation"] is not None, answer(events)
    assert "4:30 PM" in answer(events), answer(events)
