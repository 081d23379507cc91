"""Honesty under CRM failures: what the assistant says matches what the CRM holds
afterwards, read from the stub's rows in each test (not fixed strings). On /v1/ws with
the embedded models and the real CRM stub, made to fail by its faults (500, 409, 404,
422, a hang past the deadline, a write applied with its answer lost, the breaker open).

FIRST RUN (25 probes written before the narrator, told_back.py, truthful.py or untold.py
was read, on 2fca569): 22 held, 3 failed. Seven failures were my checks', put right
before counting: the stub's "upcoming" (not "scheduled"); a past haircut read as the one
ahead; the test's own read of the tasks answered by the fault; a seeded cancelled
consultation counted; "so nothing was changed" read as a claim; a 503 once, reconciled by
a resend, never opened the breaker (now 503 every time); a 0.9 s deadline leaves no time
to begin a write (the engine begins none with less than 1 s left; 0.2 s here, `quick`).
- WRONG WRITE: 'add a task to call the plumber' landing 1.5 s later (past the deadline),
  'try again' at once: "I already asked to add 'Call the plumber' a moment ago, and it
  may have gone through. Do you want me to add it again anyway?", yes, "I added a task:
  Call the plumber.": TWO PLUMBER TASKS once the first landed;
- WRONG WRITE: the same with 'book a massage on friday at 10am': TWO MASSAGES at 10;
- UNTRUE: 'did it go through?' while that add was still landing: "No, the new task didn't
  go through, so nothing was changed. Would you like me to try again?" (it landed a moment
  later).
Held: a completion refused 404, an email change refused 422 after the yes, a move refused
409, a chained find-then-complete refused 422, each "couldn't …, so nothing was changed"
and nothing changed; a completion, a delete after its yes and a completion by its due day
applied with their answers lost (hang, 500) told "hasn't confirmed it yet, so it may
already be done", never failed, "did that go through?" and "try again" told them done and
sent nothing more; an unreadable balance beside an add, two writes with one refused, a
cancel and a move with the move refused, two cancels with the first refused, a visit
lookup failing beside an add: each told as it went; a 500 once and a reset twice after
applying, resent under the key: made once, told added; the breaker open: "the task system
is down right now", nothing named or claimed, a completion it never sent not told "may be
done", and once the CRM was back the list read and the write made once; a cancel refused
500 after the yes: not told cancelled, "try again" asked again and cancelled once.
Seen, not failing: after a refused completion the whole to-do list is read out unasked.

Fixed, wrong writes first:
- A write the CRM never answered (a timeout, or "still in progress") is remembered with
  the idempotency key it went under (session.py `RecentWrite.sent_as`). Asked again in
  the conversation ("try again", the same words again) and not shown landed by the
  turn's listing, it is sent under that key and not asked about as a duplicate
  (guard.py `resend_keys`, integrity.py, executor.py `RoundContext.resend_keys`); its
  first 409 means the first attempt is still in flight, and is reconciled
  (resilience.py `resent`). The CRM makes it once whichever lands.
- "did it go through?" of a write never answered that the listing does not show yet:
  "…hadn't shown up yet when I looked just now, but it was sent and could still go
  through in a moment" (models/embedded/retries.py `verdict`). One answered 5xx is
  settled at the CRM and is still "didn't go through".
To keep the module short (the suite is at its time budget), six of the 25 probes were
dropped or folded into others after the first run, each of which held: a hanging add
tried again, an add hanging beside a completion, an email change and a completion
landed with their answers lost (test_failed_writes.py's booking is that path), a
completion by its due day landed with its answer lost (crm_attacks9 has the landed
writes), and the early "did it go through?" now in the slow add's session.

Written after the fixes (the last four tests, six probes): FIRST RUN 5/6. 'has it
happened?' asked right after a first 'did it go through?' about a move still landing
was answered "No, the move of your appointment didn't go through, so nothing was
changed." (the first form of the fix held for one look only). Now a later look says
"…still hasn't shown up, so it doesn't look like it went through. Would you like me to
try again?" (sent again, it goes under the first one's key): 6/6. Held at once: the
same add said again while it landed made once; "add a task to call the plumber again"
once it was there asked and, on the yes, made a second (a new request, its own key); a
case tried again while it landed opened once; an add refused 409 tried again made once.
No decision of the dump (bench.decisions) changed: none holds a write not answered.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from datetime import UTC
from typing import Any

import pytest
from aiohttp import web

from assistant import app as app_module
from assistant.engine import EngineConfig
from assistant.settings import Settings
from crm_stub.app import create_app
from tests.e2e.conversations import NOW
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, appointments, profile, tasks, titles, writes_applied

# Small deadlines: a write whose outcome stays unknown keeps its turn until the deadline
# (the suite is at its time budget). A write is begun with 0.2 s of the turn left (`quick`).
FAST = {"turn_deadline_s": 0.6, "turn_tool_reserve_s": 0.05, "turn_answer_reserve_s": 0.05}

TASKS = "/v1/customers/*/tasks"
TASK = "/v1/customers/*/tasks/*"
COMPLETE = "/v1/customers/*/tasks/*/complete"
APPOINTMENTS = "/v1/customers/*/appointments"
APPOINTMENT = "/v1/customers/*/appointments/*"
CANCEL = "/v1/customers/*/appointments/*/cancel"
INVOICES = "/v1/customers/*/invoices"
TICKETS = "/v1/customers/*/tickets"
CUSTOMER = "/v1/customers/*"

ADD = "POST /v1/customers/{cid}/tasks"
DONE = "POST /v1/customers/{cid}/tasks/{tid}/complete"
DELETE = "DELETE /v1/customers/{cid}/tasks/{tid}"
MOVE = "PATCH /v1/customers/{cid}/appointments/{aid}"
CANCELS = "POST /v1/customers/{cid}/appointments/{aid}/cancel"

# A sentence that says a change was made: one of these, and none of NOT_DONE.
MADE = (
    "added",
    "done",
    "completed",
    "marked",
    "booked",
    "cancelled",
    "canceled",
    "moved",
    "rescheduled",
    "updated",
    "changed",
    "deleted",
    "removed",
    "all set",
    "taken care",
    "is now",
)
NOT_DONE = (
    "couldn't",
    "could not",
    "didn't",
    "did not",
    "wasn't",
    "was not",
    "hasn't",
    "has not",
    "haven't",
    "not ",
    "unable",
    "failed",
    "can't",
    "cannot",
    "isn't",
    "won't",
    "unavailable",
    "down",
    "may ",
    "might",
    "no longer",
    "nothing",
    "ran out of time",
    "?",
)
# Said as a fact that it did not happen (a hedge, "may", "not sure", is no fact).
FAILED = ("couldn't", "could not", "didn't go through", "failed", "wasn't", "was not", "unable")
HEDGE = ("may", "might", "not sure", "hasn't confirmed", "don't know", "unclear", "check")


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """A write may begin with 0.2 s of the turn left (1 s as served), so the deadlines
    above can be short."""
    served = app_module.engine_config

    def config(settings: Settings) -> EngineConfig:
        return dataclasses.replace(served(settings), write_start_budget_s=0.2)

    monkeypatch.setattr(app_module, "engine_config", config)


@pytest.fixture
def crm_app(crm_token: str) -> web.Application:
    """The CRM stub at the pinned Monday noon (the fake world of the written sets)."""
    return create_app(token=crm_token, today=NOW.astimezone(UTC).date(), clock=lambda: NOW)


def sentences(text: str) -> list[str]:
    return [s.strip().lower() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]


def claims_done(text: str, *names: str) -> bool:
    """Whether a sentence naming one of `names` (or any sentence, when none) says done."""
    for sentence in sentences(text):
        if names and not any(name in sentence for name in names):
            continue
        if any(word in sentence for word in MADE) and not any(w in sentence for w in NOT_DONE):
            return True
    return False


def says_failed_as_fact(text: str) -> bool:
    """Whether a sentence says flatly that a change did not happen."""
    return any(
        any(word in s for word in FAILED) and not any(h in s for h in HEDGE)
        for s in sentences(text)
    )


def told_not_done(text: str, *names: str) -> bool:
    """Whether a sentence naming one of `names` (any, when none) says it is not done."""
    return any(
        (not names or any(name in s for name in names)) and any(w in s for w in NOT_DONE)
        for s in sentences(text)
    )


def held(events: list[dict[str, Any]]) -> list[str]:
    pending = events[-1]["awaiting_confirmation"]
    return [c["tool"] for c in pending["calls"]] if pending else []


async def haircut(crm: CrmAdmin) -> dict[str, Any] | None:
    """The haircut ahead (booked or cancelled), not the past ones."""
    rows = await appointments(crm, "all")
    return next((a for a in rows if a["service"] == "Haircut" and a["status"] != "past"), None)


# --- a write that fails: never "done" -------------------------------------------------


async def test_a_completion_answered_404_gone_is_not_told_done(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'mark buy groceries as done', the complete route answering 404 (gone): the task
    stays pending in the CRM, and the answer does not say it is done."""
    chat = await (await make_assistant(clock=lambda: NOW, **FAST)).connect()
    await crm_admin.add_fault(method="POST", path=COMPLETE, status=404)
    said = answer(await chat.say("mark buy groceries as done"))
    assert (await tasks(crm_admin))["Buy groceries"]["status"] == "pending"
    assert not claims_done(said, "groceries"), said
    assert told_not_done(said), said


async def test_an_email_change_answered_422_after_the_yes_is_not_told_changed(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'change my email to maria.new@example.com', yes, the CRM answering 422 (invalid):
    the email on file is the old one, and the answer does not say it was changed."""
    chat = await (await make_assistant(clock=lambda: NOW, **FAST)).connect()
    before = (await profile(crm_admin))["email"]
    asked = await chat.say("change my email to maria.new@example.com")
    assert held(asked) == ["crm.updateContactInfo"], answer(asked)
    await crm_admin.add_fault(method="PATCH", path=CUSTOMER, status=422)
    said = answer(await chat.say("yes"))
    assert (await profile(crm_admin))["email"] == before
    assert not claims_done(said, "email"), said
    assert told_not_done(said), said


async def test_a_move_answered_409_once_is_resent_and_lands_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'move my haircut to friday at 3pm', the CRM answering 409 to the first attempt
    only: whatever is said matches the CRM (moved: told moved; not: not told moved), and
    the move is applied at most once."""
    chat = await (await make_assistant(clock=lambda: NOW, **FAST)).connect()
    before = (await haircut(crm_admin) or {})["starts_at"]
    await crm_admin.add_fault(method="PATCH", path=APPOINTMENT, status=409, times=1)
    events = await chat.say("move my haircut to friday at 3pm")
    if held(events):
        events = await chat.say("yes")
    said = answer(events)
    after = (await haircut(crm_admin) or {})["starts_at"]
    applied = (await writes_applied(crm_admin)).get(MOVE, 0)
    assert applied <= 1
    if after != before:
        assert claims_done(said, "haircut") or claims_done(said), said
    else:
        assert not claims_done(said, "haircut"), said


# --- several tools in one turn, one failing -------------------------------------------


async def test_a_balance_that_cannot_be_read_beside_an_add_that_works_tells_both(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'what's my balance and add a task to call the plumber', the invoices answering 500:
    the plumber task is added and told added; the balance is told unreadable, no figure."""
    chat = await (await make_assistant(clock=lambda: NOW, **FAST)).connect()
    await crm_admin.add_fault(method="GET", path=INVOICES, status=500)
    said = answer(await chat.say("what's my balance and add a task to call the plumber"))
    assert (await titles(crm_admin)).count("Call the plumber") == 1, said
    assert claims_done(said, "plumber"), said
    assert "150" not in said, said
    assert told_not_done(said, "balance", "bill", "invoice", "billing"), said


async def test_two_writes_one_refused_404_are_each_told_as_they_went(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'add a task to call the plumber and mark buy groceries as done', the completion
    answered 404: the plumber task is there and told added; the groceries stay pending
    and are not told done, but told not done."""
    chat = await (await make_assistant(clock=lambda: NOW, **FAST)).connect()
    await crm_admin.add_fault(method="POST", path=COMPLETE, status=404)
    said = answer(await chat.say("add a task to call the plumber and mark buy groceries as done"))
    rows = await tasks(crm_admin)
    assert "Call the plumber" in rows and rows["Buy groceries"]["status"] == "pending", said
    assert claims_done(said, "plumber"), said
    assert not claims_done(said, "groceries"), said
    assert told_not_done(said, "groceries"), said


async def test_a_cancel_and_a_move_in_one_turn_the_move_refused_are_told_apart(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'cancel my dental cleaning and move my haircut to saturday at 11am' (the cancel
    asked first), yes; the move answered 422: what is said of each matches the CRM."""
    chat = await (await make_assistant(clock=lambda: NOW, **FAST)).connect()
    before = (await haircut(crm_admin) or {})["starts_at"]
    await crm_admin.add_fault(method="PATCH", path=APPOINTMENT, status=422)
    events = await chat.say("cancel my dental cleaning and move my haircut to saturday at 11am")
    said = answer(events)
    if held(events):
        events = await chat.say("yes")
        said += " " + answer(events)
    rows = await appointments(crm_admin, "all")
    cleaning = next(a for a in rows if a["service"] == "Dental cleaning")
    assert (await haircut(crm_admin) or {})["starts_at"] == before
    assert not claims_done(said, "haircut"), said
    if cleaning["status"] == "cancelled":
        assert claims_done(said, "cleaning"), said
    else:
        assert not claims_done(said, "cleaning"), said


# --- the breaker open ------------------------------------------------------------------


async def test_the_breaker_open_is_told_plainly_and_a_later_turn_works(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The task system answers 503 until the breaker opens: 'what's on my to do list'
    names no task and says it cannot be reached; 'is anything due tomorrow?' while open
    names none either; once the CRM is back and the cool-down over, the list is read
    and an add adds once. (A write while the breaker is open: below.)"""
    harness = await make_assistant(
        clock=lambda: NOW, breaker_failure_threshold=2, breaker_cooldown_s=0.15, **FAST
    )
    chat = await harness.connect()
    await crm_admin.add_fault(method="*", path=TASKS, status=503)
    first = answer(await chat.say("what's on my to do list"))
    assert "groceries" not in first.lower(), first
    assert told_not_done(first), first
    second = answer(await chat.say("is anything due tomorrow?"))
    await crm_admin.clear_faults()
    assert "groceries" not in second.lower(), second
    assert told_not_done(second), second
    await asyncio.sleep(0.2)
    listed = answer(await chat.say("what's on my to do list"))
    assert "groceries" in listed.lower(), listed
    added = await chat.say("add a task to call the plumber")
    if held(added):
        added = await chat.say("yes")
    assert (await titles(crm_admin)).count("Call the plumber") == 1, answer(added)
    assert claims_done(answer(added), "plumber"), answer(added)


# --- a chained round whose second step fails -------------------------------------------


async def test_find_then_complete_with_the_completion_refused_is_not_told_done(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """A fresh session: 'complete my car insurance task' (the tasks found, then the
    completion, answered 422): the task stays pending and is not told done."""
    chat = await (await make_assistant(clock=lambda: NOW, **FAST)).connect()
    await crm_admin.add_fault(method="POST", path=COMPLETE, status=422)
    events = await chat.say("complete my car insurance task")
    said = answer(events)
    assert (await tasks(crm_admin))["Renew car insurance"]["status"] == "pending", said
    assert not claims_done(said, "insurance", "task"), said
    assert told_not_done(said), said


# --- a yes whose write fails; then 'try again' -----------------------------------------


async def test_a_yes_to_a_delete_that_landed_unanswered_then_try_again_deletes_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'delete the eye exam task', yes: the CRM deletes it and answers 500 to every
    resend until the deadline (outcome unknown). Not told failed as a fact; 'try again'
    deletes nothing more (nothing 'couldn't find' either), and says it is gone."""
    chat = await (await make_assistant(clock=lambda: NOW, **FAST)).connect()
    asked = await chat.say("delete the eye exam task")
    assert held(asked) == ["crm.deleteTask"], answer(asked)
    await crm_admin.add_fault(method="DELETE", path=TASK, apply_after=True, status=500)
    said = answer(await chat.say("yes"))
    await crm_admin.clear_faults()
    assert "Schedule eye exam" not in await titles(crm_admin)
    assert not says_failed_as_fact(said), said
    again = await chat.say("try again")
    if held(again):
        again = await chat.say("yes")
    assert (await writes_applied(crm_admin)).get(DELETE, 0) == 1, answer(again)
    assert not claims_done(answer(again)) or "eye exam" in answer(again).lower()


async def test_a_yes_to_a_cancel_refused_500_keeps_it_and_try_again_cancels_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'cancel my haircut', yes, every cancel answered 500 (never applied): not told
    cancelled; the haircut is still booked; once the CRM is back 'try again' (and a yes
    if asked) cancels it once and says so."""
    chat = await (await make_assistant(clock=lambda: NOW, **FAST)).connect()
    assert held(await chat.say("cancel my haircut")) == ["crm.cancelAppointment"]
    await crm_admin.add_fault(method="POST", path=CANCEL, status=500)
    said = answer(await chat.say("yes"))
    assert ((await haircut(crm_admin)) or {})["status"] == "upcoming"
    assert not claims_done(said, "haircut", "appointment"), said
    await crm_admin.clear_faults()
    again = await chat.say("try again")
    if held(again):
        again = await chat.say("yes")
    assert ((await haircut(crm_admin)) or {})["status"] == "cancelled", answer(again)
    assert (await writes_applied(crm_admin)).get(CANCELS, 0) == 1
    assert claims_done(answer(again), "haircut", "appointment", "cancel"), answer(again)


# --- second batch, also written before the narrator was read ----------------------------


async def test_a_yes_to_two_cancels_the_first_refused_404_tells_each_as_it_went(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'cancel my haircut and my dental cleaning', yes; the first cancel answered 404:
    each visit is told as the CRM holds it (one cancelled, one still booked)."""
    chat = await (await make_assistant(clock=lambda: NOW, **FAST)).connect()
    asked = await chat.say("cancel my haircut and my dental cleaning")
    assert held(asked), answer(asked)
    await crm_admin.add_fault(method="POST", path=CANCEL, status=404, times=1)
    said = answer(await chat.say("yes"))
    rows = {
        a["service"]: a["status"]
        for a in await appointments(crm_admin, "all")
        if a["service"] in ("Haircut", "Dental cleaning") and a["status"] != "past"
    }
    assert sorted(rows.values()) == ["cancelled", "upcoming"], (rows, said)
    for service, status in rows.items():
        name = service.split()[-1].lower()  # "haircut", "cleaning"
        if status == "cancelled":
            assert claims_done(said, name), said
        else:
            assert not claims_done(said, name), said
            assert told_not_done(said, name), said


async def test_an_add_answered_500_once_is_resent_and_added_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'add a task to buy shampoo', the first attempt answered 500 (not applied): the add
    is sent again with its key and lands once; told added."""
    chat = await (await make_assistant(clock=lambda: NOW, **FAST)).connect()
    await crm_admin.add_fault(method="POST", path=TASKS, status=500, times=1)
    said = answer(await chat.say("add a task to buy shampoo"))
    shampoo = [t for t in await titles(crm_admin) if "shampoo" in t.lower()]
    assert len(shampoo) == 1, said
    assert (await writes_applied(crm_admin)).get(ADD) == 1
    assert claims_done(said, "shampoo"), said


async def test_an_add_applied_then_its_connection_reset_is_told_added_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'add a task to buy shampoo': the CRM adds it and resets the connection, twice;
    the add lands once and is never told as failed."""
    chat = await (await make_assistant(clock=lambda: NOW, **FAST)).connect()
    await crm_admin.add_fault(method="POST", path=TASKS, apply_after=True, reset=True, times=2)
    said = answer(await chat.say("add a task to buy shampoo"))
    shampoo = [t for t in await titles(crm_admin) if "shampoo" in t.lower()]
    assert len(shampoo) == 1, said
    assert not says_failed_as_fact(said), said


async def test_did_that_go_through_after_a_refused_move_says_no_and_try_again_moves_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'move my haircut to friday at 3pm' refused 409 every time: 'did that go through?'
    does not say moved (the haircut is where it was); once the CRM is back, 'try again'
    moves it once and says so."""
    chat = await (await make_assistant(clock=lambda: NOW, **FAST)).connect()
    before = (await haircut(crm_admin) or {})["starts_at"]
    await crm_admin.add_fault(method="PATCH", path=APPOINTMENT, status=409)
    await chat.say("move my haircut to friday at 3pm")
    checked = answer(await chat.say("did that go through?"))
    assert (await haircut(crm_admin) or {})["starts_at"] == before
    assert not claims_done(checked, "haircut", "it", "that"), checked
    assert told_not_done(checked), checked
    await crm_admin.clear_faults()
    again = await chat.say("try again")
    if held(again):
        again = await chat.say("yes")
    assert (await haircut(crm_admin) or {})["starts_at"] != before, answer(again)
    assert (await writes_applied(crm_admin)).get(MOVE) == 1
    assert claims_done(answer(again), "haircut"), answer(again)


async def test_a_visit_lookup_failing_beside_an_add_names_no_time_and_tells_the_add(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'when is my haircut and add a task to buy shampoo', the appointments answering
    500: the add is made and told; the haircut's time is not said, and it is said that
    the visits could not be read."""
    chat = await (await make_assistant(clock=lambda: NOW, **FAST)).connect()
    await crm_admin.add_fault(method="GET", path=APPOINTMENTS, status=500)
    said = answer(await chat.say("when is my haircut and add a task to buy shampoo"))
    await crm_admin.clear_faults()
    assert [t for t in await titles(crm_admin) if "shampoo" in t.lower()], said
    assert claims_done(said, "shampoo"), said
    assert "2:30" not in said and "january 20" not in said.lower(), said
    assert told_not_done(said, "haircut", "appointment", "schedul"), said


async def test_a_completion_the_open_breaker_never_sent_is_not_told_maybe_done(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The completion route's breaker opens (threshold 1) on a 503: the next completion
    is never sent, so it is not told 'may already be done' but plainly not done; after
    the cool-down with the CRM back, it is completed once."""
    harness = await make_assistant(
        clock=lambda: NOW, breaker_failure_threshold=1, breaker_cooldown_s=0.15, **FAST
    )
    chat = await harness.connect()
    await crm_admin.add_fault(method="POST", path=COMPLETE, status=503)
    await chat.say("mark buy groceries as done")
    events = await chat.say("mark renew car insurance as done")
    said = answer(events)
    await crm_admin.clear_faults()
    rows = await tasks(crm_admin)
    assert rows["Renew car insurance"]["status"] == "pending", said
    assert not claims_done(said, "insurance"), said
    assert "may already" not in said.lower() and "hasn't confirmed" not in said.lower(), said
    assert told_not_done(said), said
    await asyncio.sleep(0.2)
    again = await chat.say("mark renew car insurance as done")
    rows = await tasks(crm_admin)
    assert rows["Renew car insurance"]["status"] == "completed", answer(again)
    assert claims_done(answer(again), "insurance"), answer(again)


async def test_a_task_move_refused_422_then_try_again_moves_it_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'move the car insurance task to friday', refused 422: not told moved, the due day
    unchanged; once the CRM takes it, 'try again' changes it once and says so."""
    chat = await (await make_assistant(clock=lambda: NOW, **FAST)).connect()
    before = (await tasks(crm_admin))["Renew car insurance"]["due_on"]
    await crm_admin.add_fault(method="PATCH", path=TASK, status=422)
    said = answer(await chat.say("move the car insurance task to friday"))
    assert (await tasks(crm_admin))["Renew car insurance"]["due_on"] == before
    assert not claims_done(said, "insurance"), said
    await crm_admin.clear_faults()
    again = await chat.say("try again")
    if held(again):
        again = await chat.say("yes")
    assert (await tasks(crm_admin))["Renew car insurance"]["due_on"] != before, answer(again)
    assert (await writes_applied(crm_admin)).get("PATCH /v1/customers/{cid}/tasks/{tid}") == 1
    assert claims_done(answer(again), "insurance"), answer(again)


# --- a write still on its way when the customer says 'try again' ------------------------


async def test_a_slow_add_asked_after_then_tried_again_is_not_told_failed_and_lands_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'add a task to call the plumber' lands 0.9 s later (past the deadline); 'did it go
    through?' at once is not told flatly that it did not (it is still on its way); 'try
    again' at once (and a yes if asked): once it has landed there is one plumber task,
    what was said of it is true, and 'did it go through?' says it did."""
    chat = await (await make_assistant(clock=lambda: NOW, **FAST)).connect()
    await crm_admin.add_fault(method="POST", path=TASKS, latency_ms=900, times=1)
    first = answer(await chat.say("add a task to call the plumber"))
    early = answer(await chat.say("did it go through?"))
    if "Call the plumber" not in await titles(crm_admin):
        assert not says_failed_as_fact(early), early
    again = await chat.say("try again")
    if held(again):
        again = await chat.say("yes")
    await crm_admin.wait_until_settled()
    count = (await titles(crm_admin)).count("Call the plumber")
    assert count == 1, (first, early, answer(again), count)
    late = answer(await chat.say("did it go through?"))
    assert not told_not_done(late, "it", "plumber", "add"), late


async def test_try_again_while_a_slow_booking_is_still_landing_books_it_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'book a massage on friday at 10am' lands 0.9 s later; 'try again' at once (and a
    yes if asked): one massage on Friday once everything has landed."""
    chat = await (await make_assistant(clock=lambda: NOW, **FAST)).connect()
    await crm_admin.add_fault(method="POST", path=APPOINTMENTS, latency_ms=900, times=1)
    first = answer(await chat.say("book a massage on friday at 10am"))
    again = await chat.say("try again")
    if held(again):
        again = await chat.say("yes")
    await crm_admin.wait_until_settled()
    massages = [a for a in await appointments(crm_admin) if a["service"] == "Massage"]
    assert len(massages) == 1, (first, answer(again), massages)


# --- written after the fixes ----------------------------------------------------------------


async def test_the_same_add_said_again_while_landing_is_made_once_and_another_after_is_new(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'add a task to call the plumber' lands 0.8 s later; the same words again at once make
    no second one (one plumber task once it has landed, and what was said is true); once
    it is there, 'add a task to call the plumber again' is a new request: asked or made,
    and a yes makes the second, told added."""
    chat = await (await make_assistant(clock=lambda: NOW, **FAST)).connect()
    await crm_admin.add_fault(method="POST", path=TASKS, latency_ms=800, times=1)
    await chat.say("add a task to call the plumber")
    again = await chat.say("add a task to call the plumber")
    if held(again):
        again = await chat.say("yes")
    await crm_admin.wait_until_settled()
    assert (await titles(crm_admin)).count("Call the plumber") == 1, answer(again)
    if not claims_done(answer(again), "plumber"):
        assert not says_failed_as_fact(answer(again)), answer(again)
    second = await chat.say("add a task to call the plumber again")
    if held(second):
        second = await chat.say("yes")
    count = (await titles(crm_admin)).count("Call the plumber")
    assert count == 2, (answer(second), count)
    assert claims_done(answer(second), "plumber"), answer(second)


async def test_a_slow_move_asked_after_twice_is_not_told_failed_then_told_moved(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'move my haircut to friday at 3pm' lands 0.8 s later; 'did it go through?' and 'has it
    happened?' at once: while it has not landed, neither says flatly that it did not;
    once it has, 'did it go through?' says it was moved."""
    chat = await (await make_assistant(clock=lambda: NOW, **FAST)).connect()
    before = (await haircut(crm_admin) or {})["starts_at"]
    await crm_admin.add_fault(method="PATCH", path=APPOINTMENT, latency_ms=800, times=1)
    await chat.say("move my haircut to friday at 3pm")
    for question in ("did it go through?", "has it happened?"):
        said = answer(await chat.say(question))
        if (await haircut(crm_admin) or {})["starts_at"] == before:
            assert not says_failed_as_fact(said), said
    await crm_admin.wait_until_settled()
    assert (await haircut(crm_admin) or {})["starts_at"] != before
    late = answer(await chat.say("did it go through?"))
    assert not told_not_done(late, "it", "haircut", "move", "appointment"), late


async def test_a_slow_support_case_tried_again_is_opened_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'open a support case about a double charge on my bill' lands 0.8 s later; 'can you
    try that again?' at once (and a yes if asked): one case opened, and what was said of
    it is true."""
    chat = await (await make_assistant(clock=lambda: NOW, **FAST)).connect()
    _, body = await crm_admin.get("/v1/customers/cust_001/tickets?status=all")
    before = len(body["tickets"])
    await crm_admin.add_fault(method="POST", path=TICKETS, latency_ms=800, times=1)
    first = answer(await chat.say("open a support case about a double charge on my bill"))
    again = await chat.say("can you try that again?")
    if held(again):
        again = await chat.say("yes")
    await crm_admin.wait_until_settled()
    _, body = await crm_admin.get("/v1/customers/cust_001/tickets?status=all")
    assert len(body["tickets"]) == before + 1, (first, answer(again))
    assert not says_failed_as_fact(answer(again)), answer(again)


async def test_try_again_after_an_add_refused_409_adds_it_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'add a task to call the plumber' refused 409 (known not made); 'try again' once the
    CRM takes it: added once, told added (a refusal is not sent again under its key)."""
    chat = await (await make_assistant(clock=lambda: NOW, **FAST)).connect()
    await crm_admin.add_fault(method="POST", path=TASKS, status=409, times=1)
    first = answer(await chat.say("add a task to call the plumber"))
    assert not claims_done(first, "plumber"), first
    again = await chat.say("try again")
    if held(again):
        again = await chat.say("yes")
    assert (await titles(crm_admin)).count("Call the plumber") == 1, answer(again)
    assert claims_done(answer(again), "plumber"), answer(again)
