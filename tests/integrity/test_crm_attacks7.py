"""A CRM that answers late, or answers 200 with something else than its contract says:
a delete or a booking that lands after the turn's deadline, listings of the wrong
shape, nulls where amounts go, ten thousand items, times in UTC instead of the
customer's zone, and ids that change between the listing and the write. Embedded models
on /v1/ws, the real CRM stub (behind a proxy on port 0 where its answers are changed).
The customer is never told the opposite of what happened, and nothing is written twice.

First run (written before any fix): 8 probes, 5 held, 3 failed, one of them the probe's:
- told the opposite: a task listing answered 200 with `tasks` an object was told "You
  don't have any tasks.";
- told the opposite: invoices answered 200 with null amounts were told "Your balance
  is $0.00, with $0.00 for dental cleaning";
- the late delete was told, when asked, "Yes: I've checked, and deleting the task did go
  through after all." The check asked for the task to be named; judged unfair (the
  answer is true and plain about the one change asked), it now asks for "go through".
- held: the same delete and the same booking asked again after a late landing write
  once; a listing under another key asks and deletes nothing; 10,000 tasks are answered
  in a few sentences; times listed in UTC are spoken and moved in the customer's zone; a
  task whose id changed since the listing is not told done.
After the fix (tools/crm.py: a listing must be a list of objects and every `*_cents` an
integer, else the call fails as an unexpected answer, "I couldn't check your tasks") all
hold. Left open: the task whose id changed is told "it doesn't seem to exist anymore",
which is what the CRM's 404 says but not what the customer's list shows.
Written after the fix, first run: 3 probes, all held: a case listing of null is not
told as no open cases; amounts as text are not read as a number; times with no offset
move the haircut to an hour after the real one or not at all.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestServer

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import HOME, answer, called, haircuts, tasks, titles, writes_applied
from tests.integrity.test_crm_attacks3 import CrmProxy

ServeProxy = Callable[[web.Application], Awaitable[TestServer]]
TASKS = "/v1/customers/*/tasks"
GROCERIES = "Buy groceries"
FAST = {"turn_deadline_s": 1.3, "turn_tool_reserve_s": 0.2, "turn_answer_reserve_s": 0.2}


async def _proxied(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str, **settings: Any
) -> tuple[Any, CrmProxy]:
    proxy = CrmProxy(crm_url)
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", proxy.handle)
    server = await aiohttp_server(app)
    harness = await make_assistant(crm_url=str(server.make_url("/")), **settings)
    return harness, proxy


def _failed_words(said: str) -> bool:
    said = said.lower()
    return any(w in said for w in ("couldn't", "could not", "wasn't able", "failed", "didn't go"))


async def test_a_delete_landing_after_the_deadline_is_not_told_failed_nor_sent_twice(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'delete the buy groceries task?' yes; the CRM applies the delete 1.5 s later, past
    the turn's deadline: not told it failed; 'yes' and the same request again delete
    nothing more, and 'did that go through?' once it landed is told it did."""
    await crm_admin.add_fault(method="DELETE", path=TASKS + "/*", latency_ms=1500, times=1)
    chat = await (await make_assistant(**FAST)).connect()
    assert (await chat.say("delete the buy groceries task"))[-1]["awaiting_confirmation"]
    yes = await chat.say("yes")
    assert not _failed_words(answer(yes)), answer(yes)
    again = await chat.say("delete the buy groceries task")
    await crm_admin.wait_until_settled()
    if again[-1]["awaiting_confirmation"]:
        again = await chat.say("yes")
    assert (await writes_applied(crm_admin)).get("DELETE /v1/customers/{cid}/tasks/{tid}") == 1
    assert GROCERIES not in await titles(crm_admin)
    told = await chat.say("did that go through?")
    said = answer(told).lower()
    assert "go through" in said or "delet" in said, said
    assert not _failed_words(said) and "not " not in said, said


async def test_a_booking_landing_after_the_deadline_asked_again_books_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'book a facial next friday at 11am'; the CRM books it 1.5 s later, past the turn's
    deadline: not told it failed; asked again at once, one facial."""
    path = "/v1/customers/*/appointments"
    await crm_admin.add_fault(method="POST", path=path, latency_ms=1500, times=1)
    chat = await (await make_assistant(**FAST)).connect()
    first = await chat.say("book a facial next friday at 11am")
    assert not _failed_words(answer(first)), answer(first)
    again = await chat.say("book a facial next friday at 11am")
    await crm_admin.wait_until_settled()
    if again[-1]["awaiting_confirmation"]:
        await chat.say("no")
    _, body = await crm_admin.get("/v1/customers/cust_001/appointments")
    facials = [a for a in body["appointments"] if a["service"].lower() == "facial"]
    assert len(facials) == 1, (answer(first), answer(again))


async def test_a_task_listing_of_the_wrong_shape_is_not_told_as_an_empty_list(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str
) -> None:
    """The task listing answers 200 with `tasks` an object instead of a list: the
    customer is not told they have no tasks, and hears it could not be read."""
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)
    proxy.rewrite("GET", r"/v1/customers/[^/]+/tasks", lambda body: {"tasks": {"count": 4}})
    chat = await harness.connect()
    events = await chat.say("what's on my task list?")
    said = answer(events).lower()
    assert "no task" not in said and "don't have any" not in said, said
    assert "nothing" not in said or "couldn't" in said, said
    assert events[-1]["type"] == "turn.done"


async def test_a_listing_under_another_key_deletes_nothing_and_says_so_plainly(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str, crm_admin: CrmAdmin
) -> None:
    """The task listing answers 200 as `{"items": [...]}` (another CRM's shape): 'delete
    the buy groceries task' deletes nothing, asks nothing, and does not say there is no
    such task."""
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)
    proxy.rewrite("GET", r"/v1/customers/[^/]+/tasks", lambda body: {"items": body["tasks"]})
    chat = await harness.connect()
    events = await chat.say("delete the buy groceries task")
    said = answer(events).lower()
    assert GROCERIES in await titles(crm_admin)
    assert events[-1]["awaiting_confirmation"] is None, said
    assert "couldn't find" not in said and "no task" not in said, said


async def test_nulls_where_the_amounts_go_are_not_told_as_nothing_owed(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str
) -> None:
    """The invoices answer 200 with `balance_cents` and every `amount_cents` null: the
    customer is not told they owe nothing (or $0), and the socket goes on."""
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)

    def blank(body: Any) -> Any:
        invoices = [{**i, "amount_cents": None} for i in body["invoices"]]
        return {**body, "invoices": invoices, "balance_cents": None}

    proxy.rewrite("GET", r"/v1/customers/[^/]+/invoices", blank)
    chat = await harness.connect()
    events = await chat.say("what do I owe?")
    said = answer(events).lower()
    assert "$0" not in said and "nothing" not in said and "zero" not in said, said
    assert "all paid" not in said and "don't owe" not in said, said
    assert (await chat.say("what's on my task list?"))[-1]["type"] == "turn.done"


async def test_ten_thousand_tasks_are_answered_briefly_and_the_next_turn_goes_on(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str
) -> None:
    """The listing answers 200 with 10,000 pending tasks: the answer is a few sentences
    (not the list), the turn ends, and the customer can go on."""
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)

    def many(body: Any) -> Any:
        base = body["tasks"][0]
        extra = [
            {**base, "id": f"task_x{n}", "title": f"Imported item {n}", "status": "pending"}
            for n in range(10_000)
        ]
        return {"tasks": body["tasks"] + extra}

    proxy.rewrite("GET", r"/v1/customers/[^/]+/tasks", many)
    chat = await harness.connect()
    events = await chat.say("what's on my task list?")
    assert len(answer(events)) < 1500, len(answer(events))
    assert events[-1]["type"] == "turn.done"
    owe = await chat.say("what do I owe?")
    assert "$150" in answer(owe), answer(owe)


async def test_times_listed_in_utc_are_spoken_and_moved_in_the_customers_zone(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str, crm_admin: CrmAdmin
) -> None:
    """The listing gives every time in UTC ('Z') instead of the customer's offset: the
    haircut is spoken at 2:30 PM (Los Angeles), and 'move my haircut an hour later'
    moves it to 3:30 PM there, the same day."""
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)

    def in_utc(body: Any) -> Any:
        def utc(stamp: str) -> str:
            return datetime.fromisoformat(stamp).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

        return {
            "appointments": [
                {**a, "starts_at": utc(a["starts_at"]), "ends_at": utc(a["ends_at"])}
                for a in body["appointments"]
            ]
        }

    proxy.rewrite("GET", r"/v1/customers/[^/]+/appointments", in_utc)
    (before,) = await haircuts(crm_admin)
    chat = await harness.connect()
    listed = await chat.say("when is my haircut?")
    assert "2:30" in answer(listed), answer(listed)
    moved = await chat.say("move my haircut an hour later")
    if moved[-1]["awaiting_confirmation"]:
        moved = await chat.say("yes")
    (after,) = await haircuts(crm_admin)
    expected = datetime.fromisoformat(before) + timedelta(hours=1)
    assert datetime.fromisoformat(after) == expected, (answer(moved), after)
    assert datetime.fromisoformat(after).astimezone(HOME).hour == 15


async def test_an_id_changed_between_listing_and_write_is_not_told_done(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str, crm_admin: CrmAdmin
) -> None:
    """The listing names every task by an id the CRM no longer knows (a migration):
    'mark buy groceries as done' is not told done, and the task is still pending."""
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)

    def renamed(body: Any) -> Any:
        return {"tasks": [{**t, "id": t["id"] + "_old"} for t in body["tasks"]]}

    proxy.rewrite("GET", r"/v1/customers/[^/]+/tasks", renamed)
    chat = await harness.connect()
    events = await chat.say("mark buy groceries as done")
    said = answer(events).lower()
    assert (await tasks(crm_admin))[GROCERIES]["status"] == "pending"
    assert "marked" not in said or "not" in said or "couldn't" in said, said
    assert "done" not in said.replace("as done", "") or "couldn't" in said, said
    assert "crm.completeTask" in called(events) or "couldn't" in said or "?" in said, said
    await asyncio.sleep(0)


# --- written after the fixes -------------------------------------------------------------


async def test_a_null_case_listing_is_not_told_as_no_open_cases(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str
) -> None:
    """The support cases answer 200 with `tickets: null`: the customer is not told they
    have no open cases."""
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)
    proxy.rewrite("GET", r"/v1/customers/[^/]+/tickets", lambda body: {"tickets": None})
    chat = await harness.connect()
    events = await chat.say("do I have any open support cases?")
    said = answer(events).lower()
    assert "no open" not in said and "don't have any" not in said and "none" not in said, said


async def test_a_balance_as_text_is_not_read_as_a_number(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str
) -> None:
    """The invoices answer 200 with every amount as text ("15000"): not spoken as if
    read ($0, or a sum of strings), nor as nothing owed."""
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)

    def as_text(body: Any) -> Any:
        invoices = [{**i, "amount_cents": str(i["amount_cents"])} for i in body["invoices"]]
        return {**body, "invoices": invoices, "balance_cents": str(body["balance_cents"])}

    proxy.rewrite("GET", r"/v1/customers/[^/]+/invoices", as_text)
    chat = await harness.connect()
    said = answer(await chat.say("what do I owe?")).lower()
    assert "$0" not in said and "nothing" not in said and "don't owe" not in said, said


async def test_times_without_an_offset_move_nothing_to_a_guessed_hour(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str, crm_admin: CrmAdmin
) -> None:
    """The listing gives times with no offset at all ('2030-01-15T14:30:00'): 'move my
    haircut an hour later' moves it to an hour after the real one (as the CRM holds it),
    or not at all; never to an hour worked out from a guessed zone."""
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)

    def naive(body: Any) -> Any:
        def strip(stamp: str) -> str:
            return datetime.fromisoformat(stamp).astimezone(UTC).replace(tzinfo=None).isoformat()

        return {
            "appointments": [
                {**a, "starts_at": strip(a["starts_at"]), "ends_at": strip(a["ends_at"])}
                for a in body["appointments"]
            ]
        }

    proxy.rewrite("GET", r"/v1/customers/[^/]+/appointments", naive)
    (before,) = await haircuts(crm_admin)
    chat = await harness.connect()
    moved = await chat.say("move my haircut an hour later")
    if moved[-1]["awaiting_confirmation"]:
        moved = await chat.say("yes")
    (after,) = await haircuts(crm_admin)
    allowed = {before, (datetime.fromisoformat(before) + timedelta(hours=1)).isoformat()}
    assert after in allowed or datetime.fromisoformat(after) == datetime.fromisoformat(
        before
    ) + timedelta(hours=1), (answer(moved), before, after)
    assert moved[-1]["type"] == "turn.done"
