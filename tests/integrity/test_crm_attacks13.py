"""A change taken back while the CRM is still making it: a cancel, an add or a move whose
reply comes after the turn's deadline ("not confirmed yet"), and then "actually keep it",
"never mind, don't add it", "leave it where it was". Embedded models on /v1/ws, the real
CRM stub (slow on that write). Whatever the CRM ends up holding, the customer is not told
the opposite: not "it stays booked" over a cancelled visit, not "nothing was added" over
a task that is there, not "it's still on Sunday" over a moved one.

FIRST RUN (written before the code they exercise was read): 3 probes, 1 held, 2 failed,
both told the opposite of what the CRM ended up holding:
- "never mind, don't add it" after a late add: "Okay, I won't change anything" and the
  plumber task was there. (The same on the ordinary path, with the add confirmed at once:
  "don't add it" was read as a request not to do something, not as taking back the add.)
- "actually leave it where it was" after a late move: "Sorry, I can't help with that" and
  the haircut was on Friday.
- held: "actually keep my haircut" after a late cancel.
Fixed: "never mind, don't add/book/move it" right after that change takes it back as "undo
that" does (models/embedded/undo.py `_SAID_NOT_TO`); after a change not confirmed in time,
a take-back looks first (models/embedded/retries.py `_take_back`): landed, it is made the
other way (a delete or cancel held for a yes, a move put back to the time it had, kept with
the failed write, write_memory.py); not there yet, it is said to have been sent and maybe
still to land, named, never "nothing has changed" (that was said first, and the add
landed a moment after). Two written after the fix (the late write landed before the
take-back): both held.
"""

from __future__ import annotations

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, appointments, haircuts, titles

FAST = {"turn_deadline_s": 1.3, "turn_tool_reserve_s": 0.2, "turn_answer_reserve_s": 0.2}
PLUMBER = "Call the plumber"


async def _settle(chat, crm: CrmAdmin, events: list) -> list:  # type: ignore[no-untyped-def]
    """Answers a question the take-back asked with yes (the customer means it)."""
    if events[-1]["awaiting_confirmation"] is not None:
        events = await chat.say("yes")
    await crm.wait_until_settled()
    return events


async def test_keep_my_haircut_after_a_late_cancel_is_not_told_it_stays_unsaid(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'cancel my haircut' yes; the CRM cancels it 1.5 s later (past the deadline);
    'actually keep my haircut': if the haircut ends cancelled the answer does not say it
    is kept or still booked; if it is booked again, it is at its time."""
    await crm_admin.add_fault(
        method="POST", path="/v1/customers/*/appointments/*/cancel", latency_ms=1500, times=1
    )
    before = await haircuts(crm_admin)
    chat = await (await make_assistant(**FAST)).connect()
    assert (await chat.say("cancel my haircut"))[-1]["awaiting_confirmation"]
    yes = await chat.say("yes")
    back = await _settle(chat, crm_admin, await chat.say("actually keep my haircut"))
    said = " ".join(answer(e) for e in (back,)).lower()
    now = await haircuts(crm_admin)
    if not now:
        for claim in ("still booked", "stays", "kept", "keep it", "is still on", "won't cancel"):
            assert claim not in said, (answer(yes), said)
    else:
        assert now == before, (now, before, said)


async def test_never_mind_after_a_late_add_is_not_told_nothing_was_added(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'add a task to call the plumber', the CRM adds it 1.5 s later; 'never mind, don't
    add it': the task is removed, or the answer says it is there."""
    await crm_admin.add_fault(method="POST", path="/v1/customers/*/tasks", latency_ms=1500, times=1)
    chat = await (await make_assistant(**FAST)).connect()
    first = await chat.say("add a task to call the plumber")
    back = await _settle(chat, crm_admin, await chat.say("never mind, don't add it"))
    said = answer(back).lower()
    if PLUMBER in await titles(crm_admin):
        assert "plumber" in said or "added" in said or "it's there" in said, (
            answer(first),
            said,
        )
        for claim in ("won't add", "not added", "didn't add", "nothing was added", "haven't"):
            assert claim not in said, said


async def test_leave_it_where_it_was_after_a_late_move_is_not_told_unmoved(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'move my haircut to friday at 3pm', the CRM moves it 1.5 s later; 'actually leave
    it where it was': the haircut is back at its time, or the answer says it is on
    Friday."""
    await crm_admin.add_fault(
        method="PATCH", path="/v1/customers/*/appointments/*", latency_ms=1500, times=1
    )
    before = await haircuts(crm_admin)
    chat = await (await make_assistant(**FAST)).connect()
    first = await chat.say("move my haircut to friday at 3pm")
    back = await _settle(chat, crm_admin, await chat.say("actually leave it where it was"))
    said = answer(back).lower()
    now = await haircuts(crm_admin)
    if now != before:
        assert "friday" in said or "3" in said, (answer(first), said, now)
        assert "still on sunday" not in said and "left it" not in said, said
    assert len([a for a in await appointments(crm_admin) if a["service"] == "Haircut"]) == 1


async def test_never_mind_once_the_late_add_landed_takes_it_off_after_a_yes(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written after the fix.) The late add has landed by the time the customer says
    'never mind, don't add it': asked whether to delete it, and the yes deletes it. (The
    CRM holds the add past the turn's deadline and lets it go after: no 1.5 s of real
    latency to wait out.)"""
    held = await crm_admin.add_fault(
        method="POST", path="/v1/customers/*/tasks", hold=True, times=1
    )
    chat = await (await make_assistant(**FAST)).connect()
    first = await chat.say("add a task to call the plumber")
    assert PLUMBER not in await titles(crm_admin), answer(first)  # not landed in the turn
    await crm_admin.release(held)
    await crm_admin.wait_until_settled()
    assert PLUMBER in await titles(crm_admin)
    back = await chat.say("never mind, don't add it")
    held = back[-1]["awaiting_confirmation"]
    assert held is not None and "Call the plumber" in held["prompt"], answer(back)
    done = await chat.say("yes")
    assert PLUMBER not in await titles(crm_admin), answer(done)


async def test_leave_it_where_it_was_once_the_late_move_landed_puts_it_back(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written after the fix.) The late move has landed by 'actually leave it where it
    was': the haircut is back at its time, and the answer says where it is. (Held by the
    CRM past the turn's deadline, then let go.)"""
    held = await crm_admin.add_fault(
        method="PATCH", path="/v1/customers/*/appointments/*", hold=True, times=1
    )
    before = await haircuts(crm_admin)
    chat = await (await make_assistant(**FAST)).connect()
    first = await chat.say("move my haircut to friday at 3pm")
    assert await haircuts(crm_admin) == before, answer(first)  # not landed in the turn
    await crm_admin.release(held)
    await crm_admin.wait_until_settled()
    assert await haircuts(crm_admin) != before
    back = await chat.say("actually leave it where it was")
    await crm_admin.wait_until_settled()
    assert await haircuts(crm_admin) == before, answer(back)
    assert "haircut" in answer(back).lower(), answer(back)
