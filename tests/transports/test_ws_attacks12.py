"""Ordering on one socket and across two: a second message sent before the first turn's
answer came (a write, then "no wait, cancel that"; a move, then "actually make it 4pm"),
a `turn.cancel` arriving while a write is in flight, a burst of writes past the queue's
bound, and a yes that comes after its question's time ran out on a held booking. On
/v1/ws with the embedded models and the real CRM stub. Each write is made once, in the
order asked; what is told matches what the CRM holds.

FIRST RUN (written before the rules they exercise were read): 6 probes, 4 held, 2
failed, one of them the probe's own.
- LOST, and told as if done: "add a task to buy milk" then, before its answer, "no
  wait, cancel that": the task was added, and the second answer was "Okay, no problem.
  Is there anything else I can do?" with the task left on her list. (Sent one after
  the other, waiting for each answer, the same: the words were not heard as taking the
  change back, which "undo that" is.)
- the probe's: seven adds sent at once were checked for the order sent by the CRM's
  task ids, which are random; the turns' own record shows them made in the order sent
  (the first five), the last two refused as busy and not made.
- held: a move then "actually make it 4pm" before its answer (Friday at 4, said); a
  turn.cancel while a move is in flight (moved once, the cancelled turn's record shows
  it, the next answer names it); a turn.cancel while a yes deletes (deleted once, not
  told it is still there); a yes after a held booking's question ran out (nothing
  booked, and not told it was).
Fixed as a rule (models/embedded/undo.py): "no wait, cancel that", "actually scratch
that", said while the item the last change made or changed is still the one in focus,
takes that change back as "undo that" does (a delete or a cancel asked first, a move
put back); a bare "cancel that" is still the visit in focus.

Written after the fix, first run: 3 probes, 2 held, 1 failed:
- LOST, told otherwise: "book an eye exam on friday at 11am" and, before its answer,
  "no wait, scratch that": "Okay, I'll leave everything as it is." with the exam booked
  (the retraction was read as taking back a request of its own message, which had
  none). Fixed (language/confirm.py): words that only lead ("no wait,") ask nothing to
  be taken back in their message; the change just made is.
- held: a move then "oh no wait, cancel that" at once: put back where it was, told.
Found while probing, and fixed as a rule (integrity.py): "move my haircut to friday at
3pm" then "cancel that" asked "Are you sure you want to cancel your haircut on Monday,
November 30 at 2:30 PM?", the time it no longer had (a question named the item as the
oldest result read, the listing from before the move; a yes would cancel the haircut
she had just moved). A question now names an item as last seen; the probe below fails
without it, as do the three above.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from tests.fixtures.app import MakeAssistant, WsConversation
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import HOME, answer, appointments, tasks

APPOINTMENT = "/v1/customers/*/appointments/*"


async def _turns(chat: WsConversation, count: int) -> list[list[dict[str, Any]]]:
    """The events of the next `count` turns, each up to its turn.done."""
    return [await chat.events_until("turn.done") for _ in range(count)]


def _local(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(HOME)


async def _haircut(crm: CrmAdmin) -> dict[str, Any]:
    (haircut,) = [a for a in await appointments(crm) if a["service"] == "Haircut"]
    return haircut


def _friday(hour: int) -> datetime:
    day = datetime.now(HOME).date() + timedelta(days=2)
    while day.weekday() != 4:
        day += timedelta(days=1)
    return datetime(day.year, day.month, day.day, hour, tzinfo=HOME)


async def test_an_add_then_no_wait_cancel_that_sent_at_once_leaves_no_task(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'add a task to buy milk' and, before its answer, 'no wait, cancel that': after at
    most one yes there is no 'Buy milk' task, it was added at most once, and the last
    answer does not tell her it is there."""
    chat = await (await make_assistant()).connect()
    await crm_admin.add_fault(method="POST", path="/v1/customers/*/tasks", latency_ms=150, times=1)
    await chat.send_message("add a task to buy milk")
    await chat.send_message("no wait, cancel that")
    _, second = await _turns(chat, 2)
    last = second
    if second[-1]["awaiting_confirmation"]:
        last = await chat.say("yes")
    said = answer(last).lower()
    assert "Buy milk" not in await tasks(crm_admin), (answer(second), said)
    posts = [r for r in await crm_admin.requests(200) if r["method"] == "POST"]
    assert len([r for r in posts if r["path"].endswith("/tasks")]) <= 1, posts


async def test_a_move_then_actually_make_it_4pm_sent_at_once_ends_at_4(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'move my haircut to friday at 3pm' and, before its answer, 'actually make it 4pm':
    one haircut, on Friday at 4 PM, and the second answer says 4."""
    chat = await (await make_assistant()).connect()
    await crm_admin.add_fault(method="PATCH", path=APPOINTMENT, latency_ms=150, times=1)
    await chat.send_message("move my haircut to friday at 3pm")
    await chat.send_message("actually make it 4pm")
    _, second = await _turns(chat, 2)
    if second[-1]["awaiting_confirmation"]:
        second = await chat.say("yes")
    said = answer(second)
    held = _local((await _haircut(crm_admin))["starts_at"])
    assert held == _friday(16), (said, held)
    assert "4" in said, said


async def test_a_cancel_frame_while_a_move_is_in_flight_moves_once_and_is_told_later(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'move my haircut to friday at 3pm', the move slow (300 ms); a turn.cancel arrives
    while it is in flight: the move lands once, the cancelled turn's record shows it,
    and 'when is my haircut?' names the time the CRM holds."""
    chat = await (await make_assistant()).connect()
    await crm_admin.add_fault(method="PATCH", path=APPOINTMENT, latency_ms=300, times=1)
    await chat.send_message("move my haircut to friday at 3pm")
    await crm_admin.wait_until_seen("PATCH /v1/customers/{cid}/appointments/{aid}")
    await chat.cancel()
    done = (await chat.events_until("turn.done"))[-1]
    assert done["status"] == "cancelled", done
    held = _local((await _haircut(crm_admin))["starts_at"])
    moves = [c for c in done["tool_calls"] if c["tool"] == "crm.rescheduleAppointment"]
    assert [c["status"] for c in moves] == ["ok"], done["tool_calls"]
    said = answer(await chat.say("when is my haircut?"))
    assert held == _friday(15), held
    assert "3" in said and "friday" in said.lower(), said
    stats = await crm_admin.stats()
    assert stats["requests"].get("PATCH /v1/customers/{cid}/appointments/{aid}") == 1


async def test_a_cancel_frame_while_a_yes_deletes_deletes_once_and_the_next_turn_knows(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'delete the buy groceries task', 'yes', and a turn.cancel while the delete is in
    flight: deleted once; 'did you delete the groceries task?' is not told it is still
    there."""
    chat = await (await make_assistant()).connect()
    assert (await chat.say("delete the buy groceries task"))[-1]["awaiting_confirmation"]
    await crm_admin.add_fault(
        method="DELETE", path="/v1/customers/*/tasks/*", latency_ms=300, times=1
    )
    await chat.send_message("yes")
    await crm_admin.wait_until_seen("DELETE /v1/customers/{cid}/tasks/{tid}")
    await chat.cancel()
    await chat.events_until("turn.done")
    assert "Buy groceries" not in await tasks(crm_admin)
    said = answer(await chat.say("did you delete the groceries task?")).lower()
    assert "still" not in said and "didn't" not in said and "not deleted" not in said, said
    stats = await crm_admin.stats()
    assert stats["requests"].get("DELETE /v1/customers/{cid}/tasks/{tid}") == 1


async def test_a_burst_of_adds_past_the_queue_adds_the_ones_taken_in_order_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Seven adds sent at once (the first slow): those refused as busy are not added and
    each refusal says so; the others are added once each, in the order sent."""
    chat = await (await make_assistant(customer_messages_per_minute=1000)).connect()
    await crm_admin.add_fault(method="POST", path="/v1/customers/*/tasks", latency_ms=300, times=1)
    things = ["milk", "eggs", "bread", "rice", "tea", "jam", "salt"]
    for thing in things:
        await chat.send_message(f"add a task to buy {thing}", id=f"m_{thing}")
    refused: list[str] = []
    told: list[str] = []
    while len(told) + len(refused) < len(things):
        event = await chat.next_event()
        if event["type"] == "error":
            assert event["code"] == "busy", event
            refused.append(str(event))
        elif event["type"] == "turn.done":
            told += [
                c["arguments"]["title"]
                for c in event["tool_calls"]
                if c["tool"] == "crm.addTask" and c["status"] == "ok"
            ]
    held = list(await tasks(crm_admin))
    added = [title for title in held if title.startswith("Buy ") and title != "Buy groceries"]
    taken = [f"Buy {thing}" for thing in things][: len(told)]
    # In the order sent (the CRM's ids are random: the turns' own record orders them).
    assert told == taken, (told, refused)
    assert sorted(added) == sorted(taken), (added, told)
    assert len(added) + len(refused) == len(things), (added, refused)


async def test_a_yes_to_a_held_booking_after_its_question_ran_out_books_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'book a haircut on <the haircut's day> at the same time' is asked about (it
    overlaps); the question's time runs out; 'yes' books nothing and says so plainly."""
    now = [datetime.now(HOME)]
    chat = await (await make_assistant(clock=lambda: now[0], confirmation_ttl_s=60)).connect()
    haircut = _local((await _haircut(crm_admin))["starts_at"])
    asked = await chat.say(f"book a dental cleaning on {haircut:%A} at {haircut:%-I:%M%p}")
    assert asked[-1]["awaiting_confirmation"], answer(asked)
    now[0] += timedelta(seconds=90)
    yes = await chat.say("yes")
    said = answer(yes).lower()
    cleanings = [a for a in await appointments(crm_admin) if a["service"] == "Dental cleaning"]
    assert len(cleanings) == 1, (said, cleanings)
    assert "booked" not in said or "not" in said or "n't" in said, said


# --- written after the fixes -------------------------------------------------------------


async def test_cancel_that_after_a_move_names_the_visit_where_it_is_now(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'move my haircut to friday at 3pm', then 'cancel that': whatever is asked names
    the haircut on Friday at 3 PM, where it is now, not the listing's old time."""
    chat = await (await make_assistant()).connect()
    before = _local((await _haircut(crm_admin))["starts_at"])
    await chat.say("move my haircut to friday at 3pm")
    events = await chat.say("cancel that")
    said = answer(events)
    if events[-1]["awaiting_confirmation"]:
        assert f"{before:%B} {before.day}" not in said, said


async def test_a_booking_then_no_wait_scratch_that_sent_at_once_leaves_no_visit(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'book an eye exam on friday at 11am' and, before its answer, 'no wait, scratch
    that': after at most one yes there is no eye exam, and it was booked at most once."""
    chat = await (await make_assistant()).connect()
    await chat.send_message("book an eye exam on friday at 11am")
    await chat.send_message("no wait, scratch that")
    _, second = await _turns(chat, 2)
    if second[-1]["awaiting_confirmation"]:
        await chat.say("yes")
    exams = [a for a in await appointments(crm_admin) if a["service"] == "Eye exam"]
    assert exams == [], (answer(second), exams)


async def test_a_move_then_no_wait_cancel_that_sent_at_once_puts_it_back(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'move my haircut to friday at 3pm' and, before its answer, 'no wait, cancel that':
    the haircut is where it was (moved back, told so) and not cancelled."""
    chat = await (await make_assistant()).connect()
    before = _local((await _haircut(crm_admin))["starts_at"])
    await chat.send_message("move my haircut to friday at 3pm")
    await chat.send_message("oh no wait, cancel that")
    _, second = await _turns(chat, 2)
    said = answer(second)
    assert _local((await _haircut(crm_admin))["starts_at"]) == before, said
    assert f"{before:%B} {before.day}" in said, said
