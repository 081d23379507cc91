"""Two cases the last attack set left open, on /v1/ws with the embedded models and the
real CRM stub: a change taken back while the CRM was still making it, told "it may
still land", that lands afterwards; and a visit's location whose second sentence is
real (directions), which the cut against CRM text spoken as ours dropped.

FIRST RUN (written before the code they exercise was read): 3 probes, 1 held (the
control), 2 broke:
- the take-back was told "…hadn't shown up yet, but it was sent and may still go
  through… Ask me again shortly, and if it did, I'll take it back"; the add landed; "ok,
  thanks" was answered "You're welcome!" and the plumber task stayed, unsaid.
- "Riverside Clinic. Enter from the Oak Street parking lot, second floor." was told as
  "at Riverside Clinic": the directions were cut with the CRM text spoken as ours.
Fixed: the failed writes told to "may still go through" are kept as taken back
(dialogue.py, MAY_STILL_LAND); the next "ok, thanks", "did it go through?" or take-back
looks again and makes it the other way if it landed (models/embedded/retries.py). A
label is cut before a sentence that reads as ours (to the customer, of a change, money,
the system), not after its first sentence whatever follows (tools/crm_text.py).
Written after the fix, three (all failed on the base): a move taken back that lands
later is put back on the next "thanks"; a cancel taken back with "no, don't" that lands
later is told on the next "ok" as gone through, not kept; a question between the
take-back and the landing is answered, and the next "ok thanks" asks to take it off
(since attacks15, the question itself asks too).
"""

from __future__ import annotations

from typing import Any

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, haircuts, titles, writes_applied
from tests.integrity.test_crm_attacks3 import ServeProxy, _proxied

FAST = {"turn_deadline_s": 1.3, "turn_tool_reserve_s": 0.2, "turn_answer_reserve_s": 0.2}
PLUMBER = "Call the plumber"
TASKS = "/v1/customers/*/tasks"
APPOINTMENTS = r"/v1/customers/[^/]+/appointments"
DIRECTIONS = "Riverside Clinic. Enter from the Oak Street parking lot, second floor."


def _directions(body: Any) -> Any:
    for visit in body.get("appointments", []):
        if visit.get("service") == "Haircut":
            visit["location"] = DIRECTIONS
    return body


async def test_a_take_back_told_it_may_still_land_is_kept_once_the_add_lands(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'add a task to call the plumber' lands later (held past the deadline, until after
    the take-back); 'never mind, don't add it' at once is told it was sent and may still
    land; once it has landed, the next turn ('ok, thanks') tells the plumber task is
    there and asks to take it off; the yes takes it off. The customer's wish is not
    dropped because the CRM was slow."""
    held = await crm_admin.add_fault(method="POST", path=TASKS, hold=True, times=1)
    chat = await (await make_assistant(**FAST)).connect()
    first = await chat.say("add a task to call the plumber")
    back = await chat.say("never mind, don't add it")
    await crm_admin.release(held)
    await crm_admin.wait_until_settled()
    assert PLUMBER in await titles(crm_admin), (answer(first), answer(back))
    then = await chat.say("ok, thanks")
    held = then[-1]["awaiting_confirmation"]
    assert held is not None and PLUMBER in held["prompt"], (answer(back), answer(then))
    done = await chat.say("yes")
    assert PLUMBER not in await titles(crm_admin), answer(done)


async def test_a_take_back_of_a_late_add_that_never_lands_asks_nothing_more(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The control: the add's request fails after the deadline (the CRM answers 500);
    'never mind, don't add it'; then 'ok, thanks': nothing is there to take off, so
    nothing is asked and nothing deleted; it is said once that it did not go through,
    and the next 'thanks' is just thanks."""
    await crm_admin.add_fault(
        method="POST", path="/v1/customers/*/tasks", latency_ms=3000, status=500, times=5
    )
    chat = await (await make_assistant(**FAST)).connect()
    await chat.say("add a task to call the plumber")
    back = await chat.say("never mind, don't add it")
    await crm_admin.wait_until_settled()
    then = await chat.say("ok, thanks")
    assert then[-1]["awaiting_confirmation"] is None, (answer(back), answer(then))
    assert PLUMBER not in await titles(crm_admin)
    assert "DELETE /v1/customers/{cid}/tasks/{tid}" not in await writes_applied(crm_admin)
    # Said plainly on the next look, and not again: the first form of the fix said "it
    # may still go through" on every "thanks" after, for ever.
    assert "may still go through" not in answer(then), answer(then)
    again = answer(await chat.say("thanks"))
    assert "plumber" not in again.lower(), again


async def test_a_locations_second_sentence_of_directions_is_told(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, aiohttp_server: ServeProxy, crm_url: str
) -> None:
    """The haircut's location is 'Riverside Clinic. Enter from the Oak Street parking
    lot, second floor.': 'where is my haircut?' tells the directions too."""
    harness, proxy = await _proxied(make_assistant, aiohttp_server, crm_url)
    proxy.rewrite("GET", APPOINTMENTS, _directions)
    chat = await harness.connect()
    said = answer(await chat.say("where is my haircut?")).lower()
    assert "riverside clinic" in said and "oak street" in said, said


async def test_leave_it_where_it_was_told_it_may_land_puts_the_move_back_once_it_lands(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written after the fix.) 'move my haircut to friday at 3pm' lands later (held until
    after the take-back); 'actually leave it where it was' at once is told it may still
    land; once it has, 'thanks' puts the haircut back at its time and says so."""
    held = await crm_admin.add_fault(
        method="PATCH", path="/v1/customers/*/appointments/*", hold=True, times=1
    )
    before = await haircuts(crm_admin)
    chat = await (await make_assistant(**FAST)).connect()
    await chat.say("move my haircut to friday at 3pm")
    back = await chat.say("actually leave it where it was")
    await crm_admin.release(held)
    await crm_admin.wait_until_settled()
    assert await haircuts(crm_admin) != before, answer(back)
    then = await chat.say("thanks")
    await crm_admin.wait_until_settled()
    assert await haircuts(crm_admin) == before, (answer(back), answer(then))
    assert "haircut" in answer(then).lower(), answer(then)


async def test_no_dont_told_a_cancel_may_land_is_told_it_did_once_it_has(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written after the fix.) 'cancel my haircut' yes, cancelled later (held until after
    the take-back); "no, don't" at once is told it may still land; once it has, 'ok' is
    told the cancel went through (it cannot be taken back here), never that it is kept."""
    held = await crm_admin.add_fault(
        method="POST", path="/v1/customers/*/appointments/*/cancel", hold=True, times=1
    )
    chat = await (await make_assistant(**FAST)).connect()
    await chat.say("cancel my haircut")
    await chat.say("yes")
    back = await chat.say("no, don't")
    await crm_admin.release(held)
    await crm_admin.wait_until_settled()
    assert not await haircuts(crm_admin), answer(back)
    then = answer(await chat.say("ok")).lower()
    assert "cancel" in then and "through" in then, (answer(back), then)
    for claim in ("still booked", "stays", "kept", "won't cancel"):
        assert claim not in then, then


async def test_a_question_between_the_take_back_and_the_landing_is_answered_and_asks(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written after the fix.) The take-back told it may land; 'what's my balance?' is
    answered (the take-back does not take over the question), and since attacks15 it
    also asks to take the plumber task off (it was left to the next 'ok thanks'); the yes
    does."""
    held = await crm_admin.add_fault(method="POST", path=TASKS, hold=True, times=1)
    chat = await (await make_assistant(**FAST)).connect()
    await chat.say("add a task to call the plumber")
    await chat.say("never mind, don't add it")
    await crm_admin.release(held)
    await crm_admin.wait_until_settled()
    events = await chat.say("what's my balance?")
    balance = answer(events)
    assert "150" in balance, balance
    held = events[-1]["awaiting_confirmation"]
    assert held is not None and PLUMBER in held["prompt"], balance
    await chat.say("yes")
    assert PLUMBER not in await titles(crm_admin)
