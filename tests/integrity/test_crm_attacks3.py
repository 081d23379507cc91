"""A CRM that misbehaves on writes, behind a real proxy on port 0 (or the stub's own
faults): a 409 or 422 where a write was expected, a 200 whose body shows something else
than was asked, and a listing read back stale after a write. With the embedded models on
/v1/ws; nothing is claimed that the CRM's reply does not show, nothing is written twice
and the conversation goes on.

First run (written before any fix): 5 probes, 4 held, 1 failed.
- the email change answered 200 with another address in the profile was told "Done:
  your email is now someone@else.example." (a move answered with another time is told
  "showing tomorrow at 4 PM, not the time I asked for"; the email was not).
  (Its first check only refused "is now maria.new@…" and held; judged too weak, since
  "Done" tells the customer their change went through, it was made to ask for the
  address asked and no "Done" before the run recorded here.)
- held: an add answered 409 is told as not made, and asked again adds once; a move
  answered 422 is told and the visit stays; a move answered with another time is told
  as the CRM has it; a stale listing after an add does not lead to a second task.
After the fix (models/embedded/account.py: each field said as the CRM's reply holds it;
one held otherwise than asked is "showing as …, not … as I asked", with no "Done") all
hold. Written afterwards, first run: 2 probes, 1 held, 1 failed:
- a cancel answered 200 with the visit still "scheduled" was told "Your haircut on
  Monday, November 30 at 2:30 PM is cancelled." (now: "The system still shows your
  haircut … as scheduled, so I can't confirm it's cancelled.", appointments.py);
- held: an add answered with another title is not told as the title asked.
Written next, first run: 2 probes, 1 held, 1 failed:
- a completion answered 200 with the task still pending was told "Done. I marked Buy
  groceries as complete." (now "The system still shows Buy groceries as pending, so I
  can't confirm it's done.", models/embedded/tasks.py; the probe's first check refused
  the word "done" anywhere, which that honest answer says: it now refuses the claim);
- held: a move answered with another visit in its body is not told as done. (It was
  told "Your dental cleaning is showing on Thursday, November 26 at 10:00 AM, not the
  time I asked for.", which never names the haircut asked about: judged confusing, the
  probe now asks for the haircut to be named, and the answer is "I asked to move your
  haircut, but the system answered about your dental cleaning, so I can't confirm the
  move.", appointments.py.)
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
from aiohttp import web
from aiohttp.test_utils import TestServer

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, appointments, haircuts, profile, titles

Rewrite = Callable[[Any], Any]
ServeProxy = Callable[[web.Application], Awaitable[TestServer]]
PLUMBER = "Call the plumber"


class CrmProxy:
    """Forwards every request to the CRM stub; a rule rewrites the JSON body of the
    answers to one method and path, and a listing can be frozen (answered as first read)."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.rules: list[tuple[str, re.Pattern[str], Rewrite]] = []
        self.frozen: dict[str, bytes] = {}
        self.freeze: set[str] = set()

    def rewrite(self, method: str, path: str, change: Rewrite) -> None:
        self.rules.append((method, re.compile(path), change))

    async def handle(self, request: web.Request) -> web.StreamResponse:
        key = f"{request.method} {request.path_qs}"
        if key in self.frozen:
            return web.Response(body=self.frozen[key], content_type="application/json")
        headers = {k: v for k, v in request.headers.items() if k.lower() != "host"}
        async with (
            aiohttp.ClientSession() as session,
            session.request(
                request.method,
                self.upstream + request.path_qs,
                data=await request.read(),
                headers=headers,
            ) as upstream,
        ):
            body = await upstream.read()
            status = upstream.status
        for method, path, change in self.rules:
            if method == request.method and path.fullmatch(request.path) and body:
                body = json.dumps(change(json.loads(body))).encode()
        if request.path in self.freeze and request.method == "GET":
            self.frozen[key] = body
        if status == 204:
            return web.Response(status=204)
        return web.Response(status=status, body=body, content_type="application/json")


async def _proxied(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str
) -> tuple[Any, CrmProxy]:
    proxy = CrmProxy(crm_url)
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", proxy.handle)
    server = await aiohttp_server(app)
    harness = await make_assistant(crm_url=str(server.make_url("/")))
    return harness, proxy


async def test_a_409_on_an_add_is_not_claimed_and_asking_again_adds_at_most_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Every add answered 409 conflict: the answer does not say it was added; asked for
    again once the CRM is well, the plumber task is there once."""
    await crm_admin.add_fault(method="POST", path="/v1/customers/*/tasks", status=409)
    tab = await (await make_assistant()).connect()
    first = answer(await tab.say("add a task to call the plumber"))
    assert "added" not in first.lower() or "not" in first.lower(), first
    await crm_admin.clear_faults()
    again = await tab.say("add a task to call the plumber")
    if again[-1]["awaiting_confirmation"] is not None:
        again = await tab.say("yes")
    await crm_admin.wait_until_settled()
    assert (await titles(crm_admin)).count(PLUMBER) == 1, (first, answer(again))


async def test_a_422_on_a_move_is_told_and_the_visit_stays(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The reschedule answered 422 invalid_state: the haircut is not said to be moved,
    it stays where it was, and the next question is answered."""
    before = await haircuts(crm_admin)
    await crm_admin.add_fault(method="PATCH", path="/v1/customers/*/appointments/*", status=422)
    tab = await (await make_assistant()).connect()
    moved = answer(await tab.say("move my haircut to tomorrow at 3pm"))
    assert await haircuts(crm_admin) == before, moved
    assert "moved" not in moved.lower() or "n't" in moved.lower(), moved
    assert "150" in answer(await tab.say("what do I owe?"))


async def test_a_move_answered_with_another_time_is_told_as_the_crm_has_it(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, aiohttp_server: ServeProxy, crm_url: str
) -> None:
    """'move my haircut to tomorrow at 3pm' answered 200 with the visit at 4 PM: the
    customer is not told 3 PM as done."""
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)

    def an_hour_later(body: Any) -> Any:
        hour = body["starts_at"][11:13]
        body["starts_at"] = body["starts_at"][:11] + f"{int(hour) + 1:02d}" + body["starts_at"][13:]
        return body

    proxy.rewrite("PATCH", r"/v1/customers/[^/]+/appointments/[^/]+", an_hour_later)
    tab = await harness.connect()
    events = await tab.say("move my haircut to tomorrow at 3pm")
    said = answer(events)
    assert [t for t in await haircuts(crm_admin) if "T15:00" in t], said
    assert "3:00 PM" not in said or "4:00 PM" in said, said


async def test_an_email_change_answered_with_another_email_is_not_claimed(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, aiohttp_server: ServeProxy, crm_url: str
) -> None:
    """The email change is confirmed and answered 200 with a different email in the
    profile: the customer is not told the change is done, and hears what was asked and
    what the CRM shows."""
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)
    proxy.rewrite(
        "PATCH", r"/v1/customers/[^/]+", lambda body: {**body, "email": "someone@else.example"}
    )
    tab = await harness.connect()
    asked = await tab.say("change my email to maria.new@example.com")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    said = answer(await tab.say("yes"))
    assert "is now maria.new@example.com" not in said, said
    assert not said.startswith("Done") and "maria.new@example.com" in said, said
    assert (await profile(crm_admin))["email"] == "maria.new@example.com"


async def test_a_stale_listing_after_an_add_does_not_lead_to_a_second_task(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, aiohttp_server: ServeProxy, crm_url: str
) -> None:
    """The task listing is read back stale (as before the add) for the rest of the
    conversation: 'what are my tasks?' then the same add again is asked about, not made."""
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)
    proxy.freeze.add("/v1/customers/cust_001/tasks")
    tab = await harness.connect()
    listed = answer(await tab.say("what are my tasks?"))
    added = answer(await tab.say("add a task to call the plumber"))
    stale = answer(await tab.say("what are my tasks?"))
    again = await tab.say("add a task to call the plumber")
    await crm_admin.wait_until_settled()
    assert (await titles(crm_admin)).count(PLUMBER) == 1, (listed, added, stale, answer(again))


async def test_an_add_answered_with_another_title_is_told_as_the_crm_has_it(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, aiohttp_server: ServeProxy, crm_url: str
) -> None:
    """'add a task to call the plumber' answered 201 with the title 'Call the pharmacy':
    the customer is not told 'Call the plumber' was added."""
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)
    proxy.rewrite(
        "POST", r"/v1/customers/[^/]+/tasks", lambda body: {**body, "title": "Call the pharmacy"}
    )
    tab = await harness.connect()
    said = answer(await tab.say("add a task to call the plumber"))
    assert "added a task: call the plumber" not in said.lower(), said


async def test_a_cancel_answered_200_but_still_scheduled_is_not_claimed(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, aiohttp_server: ServeProxy, crm_url: str
) -> None:
    """The cancel is confirmed and answered 200 with the visit still 'scheduled': the
    customer is not told it is cancelled."""
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)
    proxy.rewrite(
        "POST",
        r"/v1/customers/[^/]+/appointments/[^/]+/cancel",
        lambda body: {**body, "status": "scheduled"},
    )
    tab = await harness.connect()
    asked = await tab.say("cancel my haircut")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    said = answer(await tab.say("yes"))
    assert "is cancelled" not in said and "has been cancelled" not in said, said


async def test_a_move_answered_with_another_visit_is_not_told_as_done(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, aiohttp_server: ServeProxy, crm_url: str
) -> None:
    """'move my haircut to tomorrow at 3pm' answered 200 with another visit in the body
    (the dental cleaning): the customer is not told the haircut, or the cleaning, moved."""
    (cleaning,) = [v for v in await appointments(crm_admin) if v["service"] == "Dental cleaning"]
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)
    proxy.rewrite("PATCH", r"/v1/customers/[^/]+/appointments/[^/]+", lambda body: cleaning)
    tab = await harness.connect()
    said = answer(await tab.say("move my haircut to tomorrow at 3pm"))
    assert "Done" not in said and "is now" not in said, said
    assert "haircut" in said, said


async def test_a_completion_answered_still_pending_is_not_told_as_done(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, aiohttp_server: ServeProxy, crm_url: str
) -> None:
    """'mark buy groceries as done' answered 200 with the task still pending: not told
    it is done."""
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)
    proxy.rewrite(
        "POST",
        r"/v1/customers/[^/]+/tasks/[^/]+/complete",
        lambda body: {**body, "status": "pending", "completed_at": None},
    )
    tab = await harness.connect()
    said = answer(await tab.say("mark buy groceries as done"))
    assert not said.startswith("Done") and "as complete" not in said, said
