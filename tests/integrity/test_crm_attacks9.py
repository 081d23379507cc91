"""A CRM and a network that fail between a write and its answer: the write applied and
its answer lost (a reset, a 5xx or a hang after the commit), one write of four refused
in a round, the breaker open in round 2 of a chain whose round 1 worked, the read a
destructive write depends on failing, answers that are well-formed JSON but wrong, and
two sessions of one customer writing the same item at once. Embedded models on /v1/ws,
the real CRM stub (its `apply_after` faults, or a proxy on port 0 that refuses or
rewrites one request). The CRM is checked after each: nothing asked for is lost or
applied twice, nothing unasked is applied, and what is said matches what it holds.

First run (written before the code they exercise was read, before any fix): 17 probes,
11 held as written, 6 failed, two of them the probes' own:
- WRONG WRITE: 'cancel my haircut' asked about Monday 2:30 PM; the office moved it to
  Tuesday; the appointments could not be read at the yes (503): the yes cancelled it
  blind, "Your haircut on Tuesday, December 1 at 2:30 PM is cancelled." (a visit that
  could not be read again was left to the CRM to judge, and a cancel by id lands on the
  visit wherever it was moved);
- told as fact: an appointments listing carrying a 'Massage' with `customer_id`
  cust_002 (one of James's) was read out as hers, "a massage on Friday, November 27 at
  1:00 PM";
- told as fact: an add answered 201 with a listing of two tasks instead of the task was
  told "I added a task: that task.";
- the probe's: four adds with the milk one answered 503 on every attempt: the milk one
  was told "I've asked the task system to add the task Buy milk, but it hasn't confirmed
  it yet, so it may already be done." (the probe wanted "couldn't"). A 5xx may come
  after the CRM applied a write (DESIGN.md reconciles it until the deadline), so this
  is honest; the check now accepts it and asks "did the milk one go through?", which
  must say it did not (held). The breaker probe's first turn was judged the same way.
- the probe's: the move-and-cancel probe read "the" haircut from `status=all`, past
  ones included; it now reads it by id (then held).
- held: a case opened, a completion, a move, a cancel, an email change and a delete
  whose answers were lost after the CRM applied them (reset, 503, 500, reset twice)
  are each told done and applied once; one add of four refused 409 is told not made and
  the three others made; the breaker open in round 2 after round 1 listed is told not
  done; a delete whose listing cannot be read deletes nothing and says so; a move
  answered in UTC is told at the local hour; a booking answered without its time is
  not told a time and is booked once; a completion and a delete, a move and a cancel,
  from two sessions at once are each told as the CRM holds them.
After the fixes all hold: a yes whose visit or task cannot be read again asks again,
"I couldn't check your appointments just now, so nothing is changed yet: are you sure
…?" (integrity.py, as a contact change already did); listed items whose `customer_id`
names another customer are left out, and an answer that names one fails (tools/crm.py);
a write answered 2xx without the record's id is unconfirmed, neither done nor failed,
and "did that go through?" looks (tools/crm.py).
Written after the fixes, first run: 6 probes (one in tests/scale/
test_redis_attacks9.py), 4 held, 2 failed:
- told as fact: the profile route answering James's record (id cust_002) for Maria's
  session: "The email on file is james.smith@example.com.";
- told the opposite: a cancel the CRM applied, answered with `customer_id` cust_002
  (the check just added), was told "Sorry, I couldn't cancel your appointment: something
  went wrong on our side.";
- held: a yes whose renamed task cannot be read again deletes nothing (without the
  first fix it deleted it, told as "I deleted the task Buy groceries."); a completion
  refused 409 beside an add is told apart from it; a read of the next visit that hangs
  cancels nothing and asks nothing; four adds whose socket closed mid-write are each
  added once and the resumed session told so.
Fixed: the customer's own record must carry their id, and any 2xx to a write that
cannot be read as its record leaves the write unconfirmed, never "couldn't"
(tools/crm.py). Seen on the way: with the profile unreadable, times were spoken in UTC
("your haircut on Monday, November 30 at 10:30 PM" for 2:30 PM in Los Angeles), and the
cancel question named 10:30 PM; a probe written for it failed so, and now holds: the
CRM's times are spoken at the hours it wrote them (a zone of their one offset stands
in, still marked unknown, so no timed write is made on it; engine.py, zones.py).
Written last, first run: 3 probes, 2 held (a rename whose answer was reset is told
renamed, once; one of a yes's two writes refused 409 is told apart from the other), 1
failed, the probe's own: meant to open the delete route's breaker from another session,
it followed a 503 with a 400, which closes it (a 4xx: the route answers); with 503s
throughout, the yes that met the open breaker was not told done and the task stayed
(held). That one is left out of the file for time (it waits out a turn's deadline, as
the breaker probe above does).
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web
from aiohttp.test_utils import TestServer

from assistant.tools.catalog import Catalog, load_catalog
from tests.fixtures.app import AssistantHarness, MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import (
    CUSTOMER,
    HOME,
    answer,
    appointments,
    called,
    profile,
    tasks,
    titles,
    writes_applied,
)

ServeProxy = Callable[[web.Application], Awaitable[TestServer]]
Rewrite = Callable[[Any], Any]
TASKS = "/v1/customers/*/tasks"
APPOINTMENTS = "/v1/customers/*/appointments"
GROCERIES = "Buy groceries"
FAST = {"turn_deadline_s": 1.3, "turn_tool_reserve_s": 0.1, "turn_answer_reserve_s": 0.1}
UNKNOWN = ("hasn't confirmed", "not confirmed")
FAILED = ("couldn't", "could not", "wasn't able", "failed", "didn't go", "not able", "unable")


@functools.cache
def quick_retries() -> Catalog:
    """The tool catalog with the waits between retries cut to a hundredth of a second: a
    read that fails on every attempt fails at once (what is tried is unchanged)."""
    catalog = load_catalog(Path(__file__).parents[2] / "config" / "tools.yaml")
    quick = {"backoff_initial_s": 0.01, "backoff_max_s": 0.02}
    tools = [
        t.model_copy(update={"retry": t.retry.model_copy(update=quick)}) for t in catalog.tools
    ]
    return Catalog(tools, digest=catalog.digest)


def failed_words(said: str) -> bool:
    return any(word in said.lower() for word in FAILED)


def sentence_with(said: str, word: str) -> str:
    """The sentences of `said` naming `word` (case-insensitive), joined."""
    parts = re.split(r"(?<=[.!?])\s+", said)
    return " ".join(p for p in parts if word.lower() in p.lower())


class FaultyCrm:
    """A proxy in front of the CRM stub: a rule refuses a request whose method, path and
    body match (answering an error envelope without forwarding it), or rewrites the JSON
    answer of one that was forwarded."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.refusals: list[tuple[str, re.Pattern[str], str, int]] = []
        self.rewrites: list[tuple[str, re.Pattern[str], Rewrite]] = []
        self.refused = 0

    def refuse(self, method: str, path: str, body_has: str, status: int) -> None:
        self.refusals.append((method, re.compile(path), body_has.lower(), status))

    def rewrite(self, method: str, path: str, change: Rewrite) -> None:
        self.rewrites.append((method, re.compile(path), change))

    async def handle(self, request: web.Request) -> web.StreamResponse:
        data = await request.read()
        for method, path, body_has, status in self.refusals:
            if (
                method == request.method
                and path.fullmatch(request.path)
                and body_has in data.decode("utf-8", "replace").lower()
            ):
                self.refused += 1
                code = {409: "conflict", 503: "unavailable", 500: "internal"}.get(status, "x")
                envelope = {"error": {"code": code, "message": "refused by the test"}}
                return web.json_response(envelope, status=status)
        headers = {k: v for k, v in request.headers.items() if k.lower() != "host"}
        async with (
            aiohttp.ClientSession() as session,
            session.request(
                request.method, self.upstream + request.path_qs, data=data, headers=headers
            ) as upstream,
        ):
            body = await upstream.read()
            status = upstream.status
        for method, path, change in self.rewrites:
            if method == request.method and path.fullmatch(request.path) and body:
                body = json.dumps(change(json.loads(body))).encode()
        if status == 204:
            return web.Response(status=204)
        return web.Response(status=status, body=body, content_type="application/json")


async def proxied(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str, **settings: Any
) -> tuple[AssistantHarness, FaultyCrm]:
    proxy = FaultyCrm(crm_url)
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", proxy.handle)
    server = await aiohttp_server(app)
    harness = await make_assistant(crm_url=str(server.make_url("/")), **settings)
    return harness, proxy


# --- a write applied, its answer lost ------------------------------------------------


async def test_a_case_opened_whose_answer_was_reset_is_opened_once_and_told_opened(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The CRM opens the support case, then resets the connection before answering: one
    case, and the customer is not told it failed."""
    path = "/v1/customers/*/tickets"
    await crm_admin.add_fault(method="POST", path=path, apply_after=True, reset=True, times=1)
    chat = await (await make_assistant()).connect()
    _, before = await crm_admin.get(f"/v1/customers/{CUSTOMER}/tickets?status=all")
    events = await chat.say("open a support case: I was charged twice for my haircut")
    if events[-1]["awaiting_confirmation"]:
        events = await chat.say("yes")
    said = answer(events)
    _, after = await crm_admin.get(f"/v1/customers/{CUSTOMER}/tickets?status=all")
    assert len(after["tickets"]) == len(before["tickets"]) + 1, said
    assert (await writes_applied(crm_admin)) == {"POST /v1/customers/{cid}/tickets": 1}
    assert not failed_words(said) and "open" in said.lower(), said


async def test_a_completion_whose_answer_was_a_503_is_told_done_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The CRM marks the task complete, then answers 503: the retry with the same key
    brings back the stored answer; told done, completed once."""
    await crm_admin.add_fault(
        method="POST", path=TASKS + "/*/complete", apply_after=True, status=503, times=1
    )
    chat = await (await make_assistant()).connect()
    said = answer(await chat.say("mark the buy groceries task as done"))
    assert (await tasks(crm_admin))[GROCERIES]["status"] == "completed"
    assert (await writes_applied(crm_admin)) == {"POST /v1/customers/{cid}/tasks/{tid}/complete": 1}
    assert not failed_words(said) and "groceries" in said.lower(), said


async def test_a_move_whose_answer_was_reset_is_moved_once_and_told_moved(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The CRM moves the haircut, then resets the connection: told it was moved (to the
    time it holds), moved once."""
    await crm_admin.add_fault(
        method="PATCH", path=APPOINTMENTS + "/*", apply_after=True, reset=True, times=1
    )
    chat = await (await make_assistant()).connect()
    said = answer(await chat.say("move my haircut to saturday at 11am"))
    (haircut,) = [a for a in await appointments(crm_admin) if a["service"] == "Haircut"]
    held = datetime.fromisoformat(haircut["starts_at"]).astimezone(HOME)
    assert (held.weekday(), held.hour) == (5, 11), haircut
    assert (await writes_applied(crm_admin)) == {"PATCH /v1/customers/{cid}/appointments/{aid}": 1}
    assert not failed_words(said) and "11" in said, said


async def test_a_cancel_whose_answer_was_a_500_after_the_yes_is_told_cancelled_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'cancel my haircut' yes; the CRM cancels it, then answers 500: told cancelled,
    cancelled once."""
    await crm_admin.add_fault(
        method="POST", path=APPOINTMENTS + "/*/cancel", apply_after=True, status=500, times=1
    )
    chat = await (await make_assistant()).connect()
    assert (await chat.say("cancel my haircut"))[-1]["awaiting_confirmation"]
    said = answer(await chat.say("yes"))
    assert "Haircut" not in [a["service"] for a in await appointments(crm_admin)]
    assert (await writes_applied(crm_admin)) == {
        "POST /v1/customers/{cid}/appointments/{aid}/cancel": 1
    }
    assert not failed_words(said) and "cancel" in said.lower(), said


async def test_an_email_change_whose_answer_was_reset_is_told_done_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'change my email' yes; the CRM changes it, then resets the connection: told the
    email is changed, and it is."""
    await crm_admin.add_fault(
        method="PATCH", path="/v1/customers/*", apply_after=True, reset=True, times=1
    )
    chat = await (await make_assistant()).connect()
    assert (await chat.say("change my email to maria.new@example.com"))[-1]["awaiting_confirmation"]
    said = answer(await chat.say("yes"))
    assert (await profile(crm_admin))["email"] == "maria.new@example.com"
    assert (await writes_applied(crm_admin)) == {"PATCH /v1/customers/{cid}": 1}
    assert not failed_words(said) and "maria.new@example.com" in said, said


async def test_a_delete_whose_answer_was_reset_twice_is_told_deleted_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'delete the buy groceries task' yes; the CRM deletes it and the connection is reset
    on the answer and on aiohttp's own resend: told deleted, not that it does not exist."""
    await crm_admin.add_fault(
        method="DELETE", path=TASKS + "/*", apply_after=True, reset=True, times=2
    )
    chat = await (await make_assistant()).connect()
    assert (await chat.say("delete the buy groceries task"))[-1]["awaiting_confirmation"]
    said = answer(await chat.say("yes"))
    assert GROCERIES not in await titles(crm_admin)
    assert (await writes_applied(crm_admin)) == {"DELETE /v1/customers/{cid}/tasks/{tid}": 1}
    assert not failed_words(said) and "exist" not in said.lower(), said
    assert "delet" in said.lower(), said


# --- one write of four refused; the breaker open mid-chain; a read that fails -------


FOUR = "add tasks to call the plumber, buy milk, walk the dog and pay the rent"
WORDS = ("plumber", "milk", "dog", "rent")


async def _four_adds_one_refused(
    make_assistant: MakeAssistant,
    aiohttp_server: ServeProxy,
    crm_url: str,
    crm_admin: CrmAdmin,
    status: int,
) -> None:
    harness, proxy = await proxied(make_assistant, aiohttp_server, crm_url, **FAST)
    proxy.refuse("POST", r"/v1/customers/[^/]+/tasks", "milk", status)
    chat = await harness.connect()
    events = await chat.say(FOUR)
    said = answer(events)
    held = " ".join(await titles(crm_admin)).lower()
    assert "milk" not in held
    assert proxy.refused >= 1, said
    milk = sentence_with(said, "milk")
    assert milk and (failed_words(milk) or any(w in milk for w in UNKNOWN)), said
    if any(w in milk for w in UNKNOWN):
        # Told the outcome is unknown: asked, it checks and says it was not added.
        checked = answer(await chat.say("did the milk one go through?"))
        assert "milk" not in " ".join(await titles(crm_admin)).lower()
        assert "not" in checked.lower() or "didn't" in checked.lower(), checked
        assert "went through" not in checked.lower() or "not" in checked.lower(), checked
    for word in ("plumber", "dog", "rent"):
        assert word in held, (word, said)
        told = sentence_with(said, word)
        assert told and not failed_words(told.replace(sentence_with(told, "milk"), "")), said
    assert (await writes_applied(crm_admin)) == {"POST /v1/customers/{cid}/tasks": 3}


async def test_one_add_of_four_refused_409_is_told_as_not_made_and_the_others_as_made(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str, crm_admin: CrmAdmin
) -> None:
    """Four adds in one round, the milk one answered 409: three tasks, each told added;
    the milk one told not added."""
    await _four_adds_one_refused(make_assistant, aiohttp_server, crm_url, crm_admin, 409)


async def test_one_add_of_four_failing_503_is_told_as_not_made_and_the_others_as_made(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str, crm_admin: CrmAdmin
) -> None:
    """Four adds in one round, the milk one answered 503 on every attempt: three tasks,
    each told added; the milk one told not added."""
    await _four_adds_one_refused(make_assistant, aiohttp_server, crm_url, crm_admin, 503)


async def test_the_breaker_open_in_round_two_after_round_one_worked_is_told_not_done(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The complete route's breaker opens (a 503 earlier); 'complete the renew car
    insurance task' lists the tasks (round 1 works) and the completion fails fast:
    told not done, and the task is still pending."""
    path = TASKS + "/*/complete"
    await crm_admin.add_fault(method="POST", path=path, status=503)
    harness = await make_assistant(breaker_failure_threshold=1, breaker_cooldown_s=60, **FAST)
    chat = await harness.connect()
    first = answer(await chat.say("mark the buy groceries task as done"))
    assert failed_words(first) or any(w in first for w in UNKNOWN), first
    await crm_admin.clear_faults()
    events = await chat.say("complete the renew car insurance task")
    said = answer(events)
    assert (await tasks(crm_admin))["Renew car insurance"]["status"] == "pending"
    assert "crm.listTasks" in called(events) or "crm.completeTask" in called(events)
    assert failed_words(said) or "not" in said.lower(), said
    assert "done." not in said.lower() and "marked" not in said.lower(), said


async def test_a_yes_to_a_cancel_when_the_appointments_cannot_be_read_cancels_no_moved_visit(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'cancel my haircut' asked; the office moves it to the next day; the appointments
    cannot be read at the yes (503 on every attempt): the moved haircut is not cancelled
    blind, and the customer is told it was not."""
    chat = await (await make_assistant(catalog=quick_retries())).connect()
    assert (await chat.say("cancel my haircut"))[-1]["awaiting_confirmation"]
    (haircut,) = [a for a in await appointments(crm_admin) if a["service"] == "Haircut"]
    moved = datetime.fromisoformat(haircut["starts_at"]) + timedelta(days=1)
    status, _ = await crm_admin.patch(
        f"/v1/customers/{CUSTOMER}/appointments/{haircut['id']}", {"starts_at": moved.isoformat()}
    )
    assert status == 200
    await crm_admin.add_fault(method="GET", path=APPOINTMENTS, status=503)
    said = answer(await chat.say("yes"))
    await crm_admin.clear_faults()
    assert "Haircut" in [a["service"] for a in await appointments(crm_admin)], said
    assert "cancelled." not in said.lower() or "not" in said.lower(), said


async def test_a_delete_when_the_tasks_cannot_be_read_deletes_nothing_and_says_so(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The task listing fails (503 on every attempt): 'delete the buy groceries task'
    deletes nothing, asks nothing, and says the tasks could not be checked (not that
    there is no such task)."""
    await crm_admin.add_fault(method="GET", path=TASKS, status=503)
    chat = await (await make_assistant(catalog=quick_retries())).connect()
    events = await chat.say("delete the buy groceries task")
    said = answer(events)
    await crm_admin.clear_faults()
    assert GROCERIES in await titles(crm_admin)
    assert events[-1]["awaiting_confirmation"] is None, said
    assert failed_words(said) and "no task" not in said.lower(), said


# --- well-formed answers that are wrong ----------------------------------------------


async def test_a_listed_visit_naming_another_customer_is_not_cancelled_nor_told_as_hers(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str, crm_admin: CrmAdmin
) -> None:
    """The appointments listing carries an extra 'Massage' whose `customer_id` is
    cust_002 and whose id is one of cust_002's: 'cancel my massage' yes cancels nothing
    of anyone's, and no answer tells it as hers."""
    _, theirs = await crm_admin.get("/v1/customers/cust_002/appointments")
    other = dict(theirs["appointments"][0])
    other.update(service="Massage", customer_id="cust_002")

    def extra(body: Any) -> Any:
        return {"appointments": [*body["appointments"], other]}

    harness, proxy = await proxied(make_assistant, aiohttp_server, crm_url)
    proxy.rewrite("GET", r"/v1/customers/cust_001/appointments", extra)
    chat = await harness.connect()
    listed = answer(await chat.say("what appointments do I have coming up?"))
    assert "massage" not in listed.lower(), listed
    events = await chat.say("cancel my massage")
    if events[-1]["awaiting_confirmation"]:
        events = await chat.say("yes")
    assert (await writes_applied(crm_admin)) == {}, answer(events)
    _, after = await crm_admin.get("/v1/customers/cust_002/appointments")
    assert other["id"] in [a["id"] for a in after["appointments"]]


async def test_a_move_answered_in_utc_is_told_as_moved_at_the_local_hour(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str, crm_admin: CrmAdmin
) -> None:
    """The move's answer gives the same instant in UTC: told moved at 11 AM (the
    customer's hour), not 7 PM, and not 'not the time I asked for'."""

    def in_utc(body: Any) -> Any:
        body["starts_at"] = datetime.fromisoformat(body["starts_at"]).astimezone(UTC).isoformat()
        return body

    harness, proxy = await proxied(make_assistant, aiohttp_server, crm_url)
    proxy.rewrite("PATCH", r"/v1/customers/[^/]+/appointments/[^/]+", in_utc)
    chat = await harness.connect()
    said = answer(await chat.say("move my haircut to saturday at 11am"))
    assert "11" in said and "not the time" not in said.lower(), said
    assert not failed_words(said), said


async def test_a_booking_answered_without_its_time_is_not_told_booked_at_a_time(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str, crm_admin: CrmAdmin
) -> None:
    """The booking's 201 answer has no `starts_at`: the customer is not told a time as
    the CRM's, nor that it failed when it was booked; asked again, one facial."""

    def no_time(body: Any) -> Any:
        return {k: v for k, v in body.items() if k != "starts_at"}

    harness, proxy = await proxied(make_assistant, aiohttp_server, crm_url)
    proxy.rewrite("POST", r"/v1/customers/[^/]+/appointments", no_time)
    chat = await harness.connect()
    first = answer(await chat.say("book a facial next friday at 11am"))
    assert "booked for" not in first.lower() or "11" not in first, first
    again = await chat.say("book a facial next friday at 11am")
    if again[-1]["awaiting_confirmation"]:
        await chat.say("no")
    facials = [a for a in await appointments(crm_admin) if a["service"].lower() == "facial"]
    assert len(facials) == 1, (first, answer(again))


async def test_an_add_answered_with_a_listing_of_two_is_not_told_added_as_fact(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str, crm_admin: CrmAdmin
) -> None:
    """The add's 201 answer is `{"tasks": [new, another]}` (a listing, not a task): not
    told 'I added' as the CRM's word, the socket goes on, and asking again adds none more."""

    def listing(body: Any) -> Any:
        return {"tasks": [body, {**body, "id": "task_zzz", "title": "Something else"}]}

    harness, proxy = await proxied(make_assistant, aiohttp_server, crm_url)
    proxy.rewrite("POST", r"/v1/customers/[^/]+/tasks", listing)
    chat = await harness.connect()
    first = answer(await chat.say("add a task to call the plumber"))
    assert "something else" not in first.lower(), first
    assert "i added" not in first.lower(), first
    again = await chat.say("add a task to call the plumber")
    if again[-1]["awaiting_confirmation"]:
        await chat.say("no")
    assert (await titles(crm_admin)).count("Call the plumber") == 1, answer(again)


# --- two sessions of one customer, one item ------------------------------------------


async def test_a_completion_and_a_delete_of_one_task_from_two_sessions_are_each_told_true(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Phone-like session A completes the grocery task while session B says yes to
    deleting it, both in flight at once (CRM writes 100 ms slow): B told deleted iff it
    is gone; A told done only if the CRM completed it."""
    harness = await make_assistant()
    a, b = await harness.connect(), await harness.connect()
    assert (await b.say("delete the buy groceries task"))[-1]["awaiting_confirmation"]
    await crm_admin.add_fault(method="*", path=TASKS + "/*", latency_ms=100)
    await crm_admin.add_fault(method="POST", path=TASKS + "/*/complete", latency_ms=100)
    done_a, done_b = await asyncio.gather(
        a.say("mark the buy groceries task as done"), b.say("yes")
    )
    said_a, said_b = answer(done_a), answer(done_b)
    gone = GROCERIES not in await titles(crm_admin)
    assert gone == ("delet" in said_b.lower() and not failed_words(said_b)), (said_a, said_b)
    applied = await writes_applied(crm_admin)
    assert applied.get("DELETE /v1/customers/{cid}/tasks/{tid}", 0) <= 1
    assert applied.get("POST /v1/customers/{cid}/tasks/{tid}/complete", 0) <= 1
    if not applied.get("POST /v1/customers/{cid}/tasks/{tid}/complete"):
        assert failed_words(said_a) or "not" in said_a.lower(), said_a


async def test_a_move_and_a_cancel_of_one_visit_from_two_sessions_are_each_told_true(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Session A moves the haircut to Saturday 11 AM while session B says yes to
    cancelling it (asked about its old time), both in flight (writes 100 ms slow): the
    visit is not cancelled at a time B never heard unless B is told so, and each answer
    matches what the CRM holds."""
    harness = await make_assistant()
    a, b = await harness.connect(), await harness.connect()
    assert (await b.say("cancel my haircut"))[-1]["awaiting_confirmation"]
    (haircut,) = [v for v in await appointments(crm_admin) if v["service"] == "Haircut"]
    await crm_admin.add_fault(method="*", path=APPOINTMENTS + "/*", latency_ms=100)
    await crm_admin.add_fault(method="POST", path=APPOINTMENTS + "/*/cancel", latency_ms=100)
    done_a, done_b = await asyncio.gather(
        a.say("move my haircut to saturday at 11am"), b.say("yes")
    )
    said_a, said_b = answer(done_a), answer(done_b)
    _, body = await crm_admin.get(f"/v1/customers/{CUSTOMER}/appointments?status=all")
    (haircut,) = [v for v in body["appointments"] if v["id"] == haircut["id"]]
    cancelled = haircut["status"] == "cancelled"
    told_cancelled = "cancelled" in said_b.lower() and not failed_words(said_b)
    told_cancelled = told_cancelled and "can't confirm" not in said_b.lower()
    assert cancelled == told_cancelled, (said_a, said_b, haircut)
    held = datetime.fromisoformat(haircut["starts_at"]).astimezone(HOME)
    moved = (held.weekday(), held.hour) == (5, 11)
    if "11" in said_a and not failed_words(said_a):
        assert moved, (said_a, haircut)
    if cancelled and moved:
        assert "saturday" in said_b.lower() or "11" in said_b, (said_a, said_b)


# --- written after the fixes ---------------------------------------------------------


async def test_a_yes_to_a_delete_when_the_tasks_cannot_be_read_deletes_no_renamed_task(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'delete the buy groceries task' asked; the office renames it 'Buy food for the
    party'; the tasks cannot be read at the yes: nothing is deleted, and the customer is
    told nothing was changed."""
    chat = await (await make_assistant(catalog=quick_retries())).connect()
    assert (await chat.say("delete the buy groceries task"))[-1]["awaiting_confirmation"]
    task = (await tasks(crm_admin))[GROCERIES]
    status, _ = await crm_admin.patch(
        f"/v1/customers/{CUSTOMER}/tasks/{task['id']}", {"title": "Buy food for the party"}
    )
    assert status == 200
    await crm_admin.add_fault(method="GET", path=TASKS, status=503)
    events = await chat.say("yes")
    said = answer(events)
    await crm_admin.clear_faults()
    assert "Buy food for the party" in await titles(crm_admin), said
    assert "crm.deleteTask" not in called(events), said
    assert "nothing" in said.lower() or failed_words(said), said


async def test_a_profile_answered_for_another_customer_is_not_read_out(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str, crm_admin: CrmAdmin
) -> None:
    """The profile route answers James's record (id cust_002) for Maria's session: his
    email is not read out to her as hers."""
    _, james = await crm_admin.get("/v1/customers/cust_002")
    harness, proxy = await proxied(make_assistant, aiohttp_server, crm_url)
    proxy.rewrite("GET", r"/v1/customers/cust_001", lambda body: james)
    chat = await harness.connect()
    said = answer(await chat.say("what email do you have on file for me?"))
    assert james["email"].lower() not in said.lower(), said


async def test_a_cancel_answered_with_another_customers_record_is_not_told_failed(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str, crm_admin: CrmAdmin
) -> None:
    """'cancel my haircut' yes; the CRM cancels it but its answer carries `customer_id`
    cust_002: not told cancelled as the CRM's word, nor that it could not be done (it
    was); asked, it says it went through."""

    def theirs(body: Any) -> Any:
        return {**body, "customer_id": "cust_002"}

    harness, proxy = await proxied(make_assistant, aiohttp_server, crm_url)
    proxy.rewrite("POST", r"/v1/customers/[^/]+/appointments/[^/]+/cancel", theirs)
    chat = await harness.connect()
    assert (await chat.say("cancel my haircut"))[-1]["awaiting_confirmation"]
    said = answer(await chat.say("yes"))
    assert "Haircut" not in [a["service"] for a in await appointments(crm_admin)]
    assert not failed_words(said), said
    assert (await writes_applied(crm_admin)) == {
        "POST /v1/customers/{cid}/appointments/{aid}/cancel": 1
    }


async def test_a_completion_refused_beside_an_add_is_told_apart_from_it(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str, crm_admin: CrmAdmin
) -> None:
    """'complete the buy groceries task and add a task to call the plumber', the
    completion answered 409: the plumber task is added and told added, groceries stays
    pending and is not told done."""
    harness, proxy = await proxied(make_assistant, aiohttp_server, crm_url)
    proxy.refuse("POST", r"/v1/customers/[^/]+/tasks/[^/]+/complete", "", 409)
    chat = await harness.connect()
    said = answer(
        await chat.say("complete the buy groceries task and add a task to call the plumber")
    )
    held = await tasks(crm_admin)
    assert held[GROCERIES]["status"] == "pending", said
    assert "Call the plumber" in held, said
    groceries = sentence_with(said, "groceries")
    assert groceries and failed_words(groceries), said
    assert "plumber" in said.lower() and not failed_words(sentence_with(said, "plumber")), said


async def test_a_next_visit_read_that_hangs_cancels_nothing_and_asks_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'cancel my next appointment' while the appointments read hangs past its timeout:
    nothing cancelled, no question about a visit nobody read, and the customer is told
    it could not be checked."""
    await crm_admin.add_fault(method="GET", path=APPOINTMENTS, hang=True)
    chat = await (await make_assistant(**{**FAST, "turn_deadline_s": 0.45})).connect()
    events = await chat.say("cancel my next appointment")
    said = answer(events)
    await crm_admin.clear_faults()
    assert events[-1]["awaiting_confirmation"] is None, said
    assert (await writes_applied(crm_admin)) == {}, said
    assert failed_words(said) or "time" in said.lower(), said


async def test_a_rename_whose_answer_was_reset_is_told_renamed_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'rename the buy groceries task to buy food' (no question); the CRM renames it, then
    resets the connection: told renamed, renamed once."""
    await crm_admin.add_fault(
        method="PATCH", path=TASKS + "/*", apply_after=True, reset=True, times=1
    )
    chat = await (await make_assistant()).connect()
    events = await chat.say("rename the buy groceries task to buy food")
    if events[-1]["awaiting_confirmation"]:
        events = await chat.say("yes")
    said = answer(events)
    held = await titles(crm_admin)
    assert GROCERIES not in held and "Buy food" in held, (said, held)
    assert (await writes_applied(crm_admin)) == {"PATCH /v1/customers/{cid}/tasks/{tid}": 1}
    assert not failed_words(said), said


async def test_one_of_a_yess_two_writes_refused_is_told_apart_from_the_other(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'delete the buy groceries task and cancel my haircut' yes; the cancel answered 409:
    the task is deleted and told so, the haircut stays and is not told cancelled."""
    await crm_admin.add_fault(method="POST", path=APPOINTMENTS + "/*/cancel", status=409)
    chat = await (await make_assistant()).connect()
    asked = await chat.say("delete the buy groceries task and cancel my haircut")
    assert asked[-1]["awaiting_confirmation"], answer(asked)
    said = answer(await chat.say("yes"))
    assert GROCERIES not in await titles(crm_admin), said
    assert "Haircut" in [a["service"] for a in await appointments(crm_admin)], said
    haircut = sentence_with(said, "haircut") or sentence_with(said, "appointment")
    assert haircut and failed_words(haircut), said
    assert "delet" in said.lower() and not failed_words(sentence_with(said, "groceries")), said


async def test_with_the_profile_unreadable_a_visit_is_told_at_its_own_hour(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The profile cannot be read (503 throughout), so the customer's zone is unknown:
    the haircut at 2:30 PM (-08:00, as the CRM writes it) is told at 2:30 PM, not at the
    hour in UTC; its cancel question names 2:30 PM too; and a booking, which needs the
    zone, is still not made."""
    await crm_admin.add_fault(method="GET", path="/v1/customers/*", status=503)
    chat = await (await make_assistant(catalog=quick_retries())).connect()
    (haircut,) = [a for a in await appointments(crm_admin) if a["service"] == "Haircut"]
    hour = datetime.fromisoformat(haircut["starts_at"])
    said = f"{hour:%I:%M}".lstrip("0")
    told = answer(await chat.say("when is my haircut?"))
    assert said in told, (said, told)
    asked = await chat.say("cancel my haircut")
    assert said in answer(asked), (said, answer(asked))
    await chat.say("no")
    booked = answer(await chat.say("book a facial next friday at 11am"))
    assert "facial" not in [a["service"].lower() for a in await appointments(crm_admin)], booked
