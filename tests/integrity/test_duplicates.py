"""No duplicates without asking (write integrity, guarantee 4), through the websocket with
the real CRM stub."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, appointments, called, tasks, writes_applied


async def test_a_task_already_pending_is_asked_about(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'Remind me to buy groceries' with 'Buy groceries' pending: asked, not added; yes adds."""
    chat = await (await make_assistant()).connect()
    events = await chat.say("Remind me to buy groceries")
    assert "crm.addTask" not in called(events)
    pending = events[-1]["awaiting_confirmation"]
    assert [c["tool"] for c in pending["calls"]] == ["crm.addTask"]
    assert "'Buy groceries' is already on your list" in answer(events)
    assert await writes_applied(crm_admin) == {}
    await chat.say("yes")
    titles = [
        t["title"]
        for t in (await crm_admin.get("/v1/customers/cust_001/tasks?status=pending"))[1]["tasks"]
    ]
    assert titles.count("Buy groceries") == 2


async def _haircut_said(crm_admin: CrmAdmin, later: timedelta = timedelta()) -> str:
    """The haircut's start as a customer says it ("january 20 at 2:30pm"), in their zone
    (`later`: that much after it)."""
    haircut = next(a for a in await appointments(crm_admin) if a["service"] == "Haircut")
    _, profile = await crm_admin.get("/v1/customers/cust_001")
    start = datetime.fromisoformat(haircut["starts_at"]) + later
    local = start.astimezone(ZoneInfo(profile["timezone"]))
    return f"{local:%B} {local.day} at {local.hour % 12 or 12}:{local:%M}{local:%p}".lower()


async def test_a_booking_over_an_existing_appointment_is_asked_about(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Booking a haircut in the slot the haircut already holds: asked; 'no' books nothing."""
    when = await _haircut_said(crm_admin)
    chat = await (await make_assistant()).connect()
    events = await chat.say(f"book a haircut on {when}")
    assert "crm.bookAppointment" not in called(events)
    assert "overlaps your haircut" in answer(events)
    events = await chat.say("no")
    assert "won't book another" in answer(events)
    assert await writes_applied(crm_admin) == {}


async def test_a_move_found_without_a_listing_onto_another_visit_is_asked_about(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'Move my next appointment' (found by getNextAppointment, no listing) onto the hour
    the haircut holds: the visits are fetched and it is asked; 'no' moves nothing."""
    when = await _haircut_said(crm_admin)
    chat = await (await make_assistant()).connect()
    events = await chat.say(f"move my next appointment to {when}")
    assert "crm.getNextAppointment" in called(events)
    assert "crm.rescheduleAppointment" not in called(events)
    assert "overlaps your haircut" in answer(events)
    events = await chat.say("no")
    assert "won't move it" in answer(events)
    assert await writes_applied(crm_admin) == {}


async def test_the_same_add_said_twice_asks_the_second_time(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The same new task asked for twice in a few minutes: added once, then asked about."""
    chat = await (await make_assistant()).connect()
    first = await chat.say("add a task to water the plants")
    assert "crm.addTask" in called(first)
    second = await chat.say("add a task to water the plants")
    assert "crm.addTask" not in called(second)
    assert second[-1]["awaiting_confirmation"] is not None
    plants = [t for t in await tasks(crm_admin) if "plants" in t.lower()]
    assert len(plants) == 1


async def test_the_same_support_case_twice_within_the_window_is_asked_about(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Opening the same case twice in one conversation: the second waits for a yes."""
    chat = await (await make_assistant()).connect()
    ask = "open a support case about my invoice being wrong"
    assert "crm.createTicket" in called(await chat.say(ask))
    again = await chat.say(ask)
    assert "crm.createTicket" not in called(again)
    assert "I already opened that support case a few minutes ago" in answer(again)
    assert await writes_applied(crm_admin) == {"POST /v1/customers/{cid}/tickets": 1}


async def test_an_overlap_at_another_time_is_not_said_to_be_at_the_same_time(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """A massage half an hour into the haircut overlaps it, but not "at the same time" (it
    was said so, of a visit starting at another hour)."""
    when = await _haircut_said(crm_admin, later=timedelta(minutes=30))
    chat = await (await make_assistant()).connect()
    events = await chat.say(f"book a massage on {when}")
    assert "crm.bookAppointment" not in called(events)
    said = answer(events)
    assert "overlaps your haircut" in said and "same time" not in said
    assert await writes_applied(crm_admin) == {}
