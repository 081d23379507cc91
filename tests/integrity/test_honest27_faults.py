"""The answer tells the truth about what happened when the CRM fails or answers with
something other than what was asked, and a later question about it is answered from what
the CRM holds. On /v1/ws with the embedded models and the real CRM stub: its faults (500,
a hang past the deadline, a write applied with its answer lost), or its store made to keep
a booking at another slot or a to-do under another title than the one sent.

The sessions without faults are tests/e2e/test_honest27.py.

FIRST RUN (9 probes written before the rules were read): 9/9 as first asserted; the
answers read then showed three the asserts were too weak for, and these were tightened
(6/9): "what did you just do?" after an add that went through beside a completion the
CRM refused 500 told "It's on your list as Call the plumber." and nothing of the groceries;
"so it's gone?" after a cancel refused and after a delete applied with its answer lost met
"I can't help with that". No wrong write. Held: a lookup failing beside one that works
(no amount said), an add refused then its priority never told set, a move hanging past the
deadline never told moved, a booking the CRM put half an hour later told at 11:30, a to-do
kept under a shortened title told by that title, an empty list told empty.
Fixed: the recap says the writes of the last turn that did not go through after what did
("Marking Buy groceries done hasn't been confirmed, so it may not have gone through: ask
me to check."); "so it's gone?" is read as "is it gone?", asked of the last change ("No,
the cancellation didn't go through, so nothing was changed…", "Yes: I've checked, and
deleting the task did go through after all…"). One assert of mine was put right after: the
refused cancel's answer is true without naming the haircut. 9/9.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

import pytest
from aiohttp import web

from assistant import app as app_module
from assistant.engine import EngineConfig
from assistant.settings import Settings
from crm_stub.app import create_app
from crm_stub.store import Store
from tests.e2e.conversations import NOW
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import CUSTOMER, answer, appointments, tasks, titles, writes_applied
from tests.integrity.test_faults26 import (
    CANCEL,
    COMPLETE,
    FAST,
    INVOICES,
    TASK,
    TASKS,
    claims_done,
    held,
    says_failed_as_fact,
    told_not_done,
)

APPOINTMENT = "/v1/customers/*/appointments/*"
DELETE = "DELETE /v1/customers/{cid}/tasks/{tid}"


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """A write may begin with 0.2 s of the turn left (as test_faults26.py)."""
    served = app_module.engine_config

    def config(settings: Settings) -> EngineConfig:
        return dataclasses.replace(served(settings), write_start_budget_s=0.2)

    monkeypatch.setattr(app_module, "engine_config", config)


@pytest.fixture
def crm_app(crm_token: str) -> web.Application:
    """The CRM stub at the pinned Monday noon (the fake world of the written sets)."""
    return create_app(token=crm_token, today=NOW.astimezone(dt.UTC).date(), clock=lambda: NOW)


async def _connect(make_assistant: MakeAssistant) -> Any:
    return await (await make_assistant(clock=lambda: NOW, **FAST)).connect()


async def _visit(crm: CrmAdmin, service: str) -> dict[str, Any] | None:
    rows = await appointments(crm, "all")
    return next((a for a in rows if a["service"] == service and a["status"] != "past"), None)


# --- mixed turns: one part lands, one does not ------------------------------------------


async def test_an_add_beside_a_refused_completion_then_the_recap_tells_each(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'add a task to call the plumber and mark buy groceries as done', every completion
    answered 500 (never applied); then 'what did you just do?': the plumber told added,
    the groceries never told done."""
    chat = await _connect(make_assistant)
    await crm_admin.add_fault(method="POST", path=COMPLETE, status=500)
    said = answer(await chat.say("add a task to call the plumber and mark buy groceries as done"))
    rows = await tasks(crm_admin)
    assert "Call the plumber" in rows and rows["Buy groceries"]["status"] == "pending", said
    assert claims_done(said, "plumber") and not claims_done(said, "groceries"), said
    recap = answer(await chat.say("what did you just do?"))
    assert (await tasks(crm_admin))["Buy groceries"]["status"] == "pending", recap
    assert "plumber" in recap.lower(), recap
    assert not claims_done(recap, "groceries"), recap
    assert "groceries" in recap.lower(), recap  # the part not confirmed is told too


async def test_a_cancel_refused_after_the_yes_then_so_its_gone_is_not_told_gone(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'cancel my haircut', yes, every cancel answered 500: 'so it's gone?' is not told
    cancelled, and the haircut is still booked."""
    chat = await _connect(make_assistant)
    assert held(await chat.say("cancel my haircut")) == ["crm.cancelAppointment"]
    await crm_admin.add_fault(method="POST", path=CANCEL, status=500)
    said = answer(await chat.say("yes"))
    asked = answer(await chat.say("so it's gone?"))
    assert ((await _visit(crm_admin, "Haircut")) or {})["status"] == "upcoming"
    assert not claims_done(said, "haircut", "appointment"), said
    assert not claims_done(asked, "haircut", "appointment", "it"), asked
    assert "can't help" not in asked.lower() and told_not_done(asked), asked


async def test_a_lookup_failing_beside_one_that_works_tells_each(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'what's on my calendar and how much do I owe?', the invoices answering 500: the
    visits read out, no amount said, the bill told unreadable; 'so what do I owe?' still
    failing names no amount either."""
    chat = await _connect(make_assistant)
    await crm_admin.add_fault(method="GET", path=INVOICES, status=500)
    said = answer(await chat.say("what's on my calendar and how much do I owe?"))
    assert "haircut" in said.lower(), said
    assert "150" not in said, said
    assert told_not_done(said, "balance", "bill", "invoice", "billing", "owe"), said
    again = answer(await chat.say("so what do I owe?"))
    assert "150" not in again, again


async def test_an_add_refused_then_its_priority_is_not_told_set(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'add a task to renew my passport and make it high priority', every add answered
    500: no passport to-do, nothing told added or set high; 'what did you just do?' says
    nothing was added."""
    chat = await _connect(make_assistant)
    await crm_admin.add_fault(method="POST", path=TASKS, status=500)
    said = answer(await chat.say("add a task to renew my passport and make it high priority"))
    assert not [t for t in await titles(crm_admin) if "passport" in t.lower()], said
    assert not claims_done(said, "passport", "priority", "high"), said
    assert told_not_done(said), said
    recap = answer(await chat.say("what did you just do?"))
    assert not claims_done(recap, "passport", "priority", "high"), recap


async def test_a_move_that_hangs_then_what_did_you_change_is_not_told_moved(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'move my haircut to saturday at 3pm', every move hanging past the deadline (never
    applied): 'what did you just change?' does not say it moved."""
    chat = await _connect(make_assistant)
    before = ((await _visit(crm_admin, "Haircut")) or {})["starts_at"]
    await crm_admin.add_fault(method="PATCH", path=APPOINTMENT, hang=True)
    first = await chat.say("move my haircut to saturday at 3pm")
    if held(first):
        first = await chat.say("yes")
    await crm_admin.clear_faults()
    recap = answer(await chat.say("what did you just change?"))
    assert ((await _visit(crm_admin, "Haircut")) or {})["starts_at"] == before, recap
    assert not claims_done(answer(first), "haircut"), answer(first)
    assert not claims_done(recap, "haircut", "saturday"), recap


async def test_a_delete_applied_with_its_answer_lost_then_so_its_gone(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'delete the eye exam task', yes: the CRM deletes it and answers 500 until the
    deadline. Not told failed as a fact; 'so it's gone?' once the CRM answers again is not
    told it is still there, and nothing more is deleted."""
    chat = await _connect(make_assistant)
    assert held(await chat.say("delete the eye exam task")) == ["crm.deleteTask"]
    await crm_admin.add_fault(method="DELETE", path=TASK, apply_after=True, status=500)
    said = answer(await chat.say("yes"))
    await crm_admin.clear_faults()
    assert "Schedule eye exam" not in await titles(crm_admin)
    assert not says_failed_as_fact(said), said
    asked = answer(await chat.say("so it's gone?"))
    assert not says_failed_as_fact(asked), asked
    assert "still" not in asked.lower() or "not" in asked.lower(), asked
    assert "eye exam" in asked.lower() and "can't help" not in asked.lower(), asked
    assert (await writes_applied(crm_admin)).get(DELETE, 0) == 1, asked


# --- the CRM keeps something other than what was sent --------------------------------------


async def test_a_booking_the_crm_moved_is_told_at_the_slot_it_holds(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'book a consultation on thursday at 11am', the CRM booking it half an hour later
    (its next free slot): the answer and 'what time is it booked for?' say 11:30, never
    11:00 as booked."""
    book = Store.book_appointment

    def later(self: Store, cid: str, service: str, starts_at: dt.datetime) -> dict[str, object]:
        return book(self, cid, service, starts_at + dt.timedelta(minutes=30))

    monkeypatch.setattr(Store, "book_appointment", later)
    chat = await _connect(make_assistant)
    events = await chat.say("book a consultation on thursday at 11am")
    if held(events):
        events = await chat.say("yes")
    said = answer(events)
    visit = await _visit(crm_admin, "Consultation")
    assert visit is not None and visit["status"] == "upcoming", said
    assert "11:30" in said, said
    assert "11:00" not in said and "11 am" not in said.lower(), said
    asked = answer(await chat.say("what time is it booked for?"))
    assert "11:30" in asked, asked


async def test_a_todo_the_crm_keeps_under_another_title_is_told_by_its_title(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'add a task to call the plumber about the leaking kitchen sink', the CRM keeping
    titles to 24 characters: the answer names the to-do as the CRM holds it, and 'what
    did you just add?' too, never the title as sent as if it were on file."""
    add = Store.add_task

    def short(self: Store, cid: str, title: str, *rest: Any) -> dict[str, object]:
        return add(self, cid, title[:24].rstrip(), *rest)

    monkeypatch.setattr(Store, "add_task", short)
    chat = await _connect(make_assistant)
    said = answer(await chat.say("add a task to call the plumber about the leaking kitchen sink"))
    held_title = next(t for t in await titles(crm_admin, CUSTOMER) if "plumber" in t.lower())
    assert len(held_title) <= 24
    assert held_title.lower() in said.lower(), said
    assert "kitchen sink" not in said.lower(), said
    asked = answer(await chat.say("what did you just add?"))
    assert held_title.lower() in asked.lower(), asked
    assert "kitchen sink" not in asked.lower(), asked


async def test_an_empty_list_is_told_empty_and_a_completion_of_none_is_not_done(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The office has deleted every to-do: 'what's on my to-do list?' names none of the
    seeded ones, and 'mark the groceries done' then is not told done."""
    for task in (await tasks(crm_admin)).values():
        status, _ = await crm_admin.delete(f"/v1/customers/{CUSTOMER}/tasks/{task['id']}")
        assert status == 204
    chat = await _connect(make_assistant)
    said = answer(await chat.say("what's on my to-do list?"))
    assert "groceries" not in said.lower() and "insurance" not in said.lower(), said
    done = answer(await chat.say("mark the groceries done"))
    assert not claims_done(done, "groceries"), done
