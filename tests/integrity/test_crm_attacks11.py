"""A CRM that answers a write 200 with the body of another item or of an older version of
the item (as before the change), and one that is slow only on writes (the read before
answers at once): the customer is never told a change is done when what the CRM holds is
unknown or otherwise, and nothing is sent twice.

FIRST RUN: 6 probes; by the checks as first written 5 held, but reading the answers
(printed on that run) 3 held and 3 told the opposite; the three checks were too loose
and were tightened to what the answers showed (a claim of the change as made):
- a priority change answered with the insurance task's body: "Renew car insurance is
  now high priority." (told a change to a task nobody named, the groceries' unknown);
- a priority change answered with the task as before: "Buy groceries is now normal
  priority." (the CRM held high);
- a due date answered with the old one: "Buy groceries is now due tomorrow" (the CRM
  held Friday).
Held: an email change answered with the old email ("showing as …, not … as I asked"),
a priority change and a due date slow only to write (told it was sent but not yet
confirmed; "did that go through?" after it landed says it did).
Fixed (assistant/models/embedded/tasks.py `updated`): a task update answered with
another task's body is told as unconfirmed, naming the task asked; a priority or due
day the answer holds otherwise than asked is said as the CRM shows it, "not … as I
asked", as the contact details already were.

Written after the fix, first run: 3 probes, 1 held, 2 failed (told the opposite):
- a rename answered with the task as before: "The task is now called Buy groceries.";
- "mark buy groceries as done" answered with the eye exam task, completed: "Done. I
  marked Schedule eye exam as complete."
Held: a move slow only to write (once its fault was put on the reschedule's real route,
PATCH; the probe first slowed a route that does not exist). Fixed (tasks.py): a task
write answered with another task's body is told as unconfirmed for completions too, and
a new title the answer does not hold is said as it shows it, not told renamed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import date
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestServer

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import CUSTOMER, answer, profile, writes_applied
from tests.integrity.test_crm_attacks3 import CrmProxy

ServeProxy = Callable[[web.Application], Awaitable[TestServer]]
TASK = r"/v1/customers/[^/]+/tasks/[^/]+"
GROCERIES = "task_0001"
FAST = {"turn_deadline_s": 1.3, "turn_tool_reserve_s": 0.2, "turn_answer_reserve_s": 0.2}
PATCHES = "PATCH /v1/customers/{cid}/tasks/{tid}"


async def _proxied(
    make_assistant: MakeAssistant, aiohttp_server: ServeProxy, crm_url: str, **settings: Any
) -> tuple[Any, CrmProxy]:
    proxy = CrmProxy(crm_url)
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", proxy.handle)
    server = await aiohttp_server(app)
    harness = await make_assistant(crm_url=str(server.make_url("/")), **settings)
    return harness, proxy


async def _task(crm: CrmAdmin, task_id: str) -> dict[str, Any]:
    _, body = await crm.get(f"/v1/customers/{CUSTOMER}/tasks?status=all")
    return dict(next(t for t in body["tasks"] if t["id"] == task_id))


def _claims_high(said: str) -> bool:
    lowered = said.lower()
    return "high" in lowered and "n't" not in lowered and "not" not in lowered


def _claims_now(said: str) -> bool:
    """A change told as made ("X is now …", "I updated …", "Done")."""
    lowered = said.lower()
    return "is now" in lowered or "i updated" in lowered or lowered.startswith("done")


async def test_a_priority_change_answered_with_another_task_is_not_told_done(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, aiohttp_server: ServeProxy, crm_url: str
) -> None:
    """'make the groceries task high priority' answered 200 with the insurance task's body
    (high already): the groceries task is not told high priority."""
    insurance = await _task(crm_admin, "task_0002")
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)
    proxy.rewrite("PATCH", TASK, lambda body: insurance)
    chat = await harness.connect()
    said = answer(await chat.say("make the groceries task high priority"))
    assert not _claims_high(said) and not _claims_now(said), said


async def test_a_priority_change_answered_with_the_old_version_is_not_told_done(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, aiohttp_server: ServeProxy, crm_url: str
) -> None:
    """The same change answered 200 with the task as it was before (normal priority, an
    older version): not told it is high priority now."""
    before = await _task(crm_admin, GROCERIES)
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)
    proxy.rewrite("PATCH", TASK, lambda body: before)
    chat = await harness.connect()
    said = answer(await chat.say("make the groceries task high priority"))
    assert not _claims_high(said) and not _claims_now(said), said


async def test_a_due_date_answered_with_the_old_version_is_not_told_as_moved(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, aiohttp_server: ServeProxy, crm_url: str
) -> None:
    """'make the groceries task due next friday' answered 200 with the old due date: the
    customer is not told it is due Friday."""
    before = await _task(crm_admin, GROCERIES)
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)
    proxy.rewrite("PATCH", TASK, lambda body: before)
    chat = await harness.connect()
    said = answer(await chat.say("make the groceries task due next friday"))
    lowered = said.lower()
    assert "now due" not in lowered, said
    assert not _claims_now(said), said


async def test_an_email_change_answered_with_the_old_email_is_not_told_done(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, aiohttp_server: ServeProxy, crm_url: str
) -> None:
    """'change my email to maria.new@example.com' yes; answered 200 with the profile as it
    was: not told the email is changed."""
    before = await profile(crm_admin)
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)
    proxy.rewrite("PATCH", r"/v1/customers/[^/]+", lambda body: before)
    chat = await harness.connect()
    events = await chat.say("change my email to maria.new@example.com")
    if events[-1]["awaiting_confirmation"]:
        events = await chat.say("yes")
    said = answer(events).lower()
    assert not ("changed" in said and "n't" not in said) and "updated" not in said, said


async def test_a_priority_change_slow_only_to_write_is_not_told_done_nor_sent_twice(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The task listing answers at once; the priority change lands later, held past the
    turn's deadline: not told it is done nor that it failed; asked again, it is sent at
    most once more, and 'is the groceries task high priority?' once it landed says it is."""
    held = await crm_admin.add_fault(
        method="PATCH", path="/v1/customers/*/tasks/*", hold=True, times=1
    )
    chat = await (await make_assistant(**FAST)).connect()
    first = answer(await chat.say("make the groceries task high priority"))
    lowered = first.lower()
    assert not ("high priority" in lowered and "now" in lowered), first
    assert not any(w in lowered for w in ("couldn't", "could not", "failed")), first
    await crm_admin.release(held)
    await crm_admin.wait_until_settled()
    assert (await _task(crm_admin, GROCERIES))["priority"] == "high"
    assert (await writes_applied(crm_admin)).get(PATCHES, 0) == 1


async def test_a_due_date_slow_only_to_write_is_told_by_what_the_crm_holds_next(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'make the groceries task due next friday' lands past the deadline; 'did that go
    through?' after it landed is told that it did."""
    held = await crm_admin.add_fault(
        method="PATCH", path="/v1/customers/*/tasks/*", hold=True, times=1
    )
    chat = await (await make_assistant(**FAST)).connect()
    first = answer(await chat.say("make the groceries task due next friday"))
    await crm_admin.release(held)
    await crm_admin.wait_until_settled()
    due = (await _task(crm_admin, GROCERIES))["due_on"]
    assert due != date.today().isoformat()
    told = answer(await chat.say("did that go through?")).lower()
    assert "n't" not in told and "not " not in told, (first, told)


# -- written after the fix ------------------------------------------------------------


async def test_a_rename_answered_with_the_old_title_is_not_told_renamed(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, aiohttp_server: ServeProxy, crm_url: str
) -> None:
    """'rename the groceries task to buy groceries and flowers' answered 200 with the
    task as before: not told it is renamed, nor that it is now called the old title."""
    before = await _task(crm_admin, GROCERIES)
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)
    proxy.rewrite("PATCH", TASK, lambda body: before)
    chat = await harness.connect()
    events = await chat.say("rename the groceries task to buy groceries and flowers")
    if events[-1]["awaiting_confirmation"]:
        events = await chat.say("yes")
    said = answer(events)
    assert "renamed" not in said.lower() and not _claims_now(said), said


async def test_a_completion_answered_with_another_task_is_not_told_done(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, aiohttp_server: ServeProxy, crm_url: str
) -> None:
    """'mark buy groceries as done' answered 200 with the eye exam task, completed: not
    told that either is done."""
    eye = {**await _task(crm_admin, "task_0003"), "status": "completed"}
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)
    proxy.rewrite("POST", TASK + "/complete", lambda body: eye)
    chat = await harness.connect()
    said = answer(await chat.say("mark buy groceries as done"))
    lowered = said.lower()
    assert "eye exam" not in lowered or "n't" in lowered, said
    assert not lowered.startswith("done") and "marked" not in lowered, said


async def test_a_move_slow_only_to_write_is_not_told_moved_nor_failed(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The visits are read at once; 'move my haircut to tomorrow at 3pm' lands later
    (held past the turn's deadline): not told moved, nor that it failed; moved once."""
    held = await crm_admin.add_fault(
        method="PATCH", path="/v1/customers/*/appointments/*", hold=True, times=1
    )
    chat = await (await make_assistant(**FAST)).connect()
    said = answer(await chat.say("move my haircut to tomorrow at 3pm")).lower()
    await crm_admin.release(held)
    await crm_admin.wait_until_settled()
    assert "is now" not in said and "moved your" not in said, said
    assert not any(w in said for w in ("couldn't", "could not", "failed")), said
    moves = "PATCH /v1/customers/{cid}/appointments/{aid}"
    assert (await writes_applied(crm_admin)).get(moves, 0) == 1
