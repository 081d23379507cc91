"""The dialogue state through the websocket with the embedded models and the real CRM stub:
references follow what the customer heard, pronouns follow the item in focus, and a
correction revises the last action."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

ZONE = ZoneInfo("America/Los_Angeles")


async def _tasks(crm_admin: CrmAdmin) -> dict[str, dict[str, Any]]:
    _, body = await crm_admin.get("/v1/customers/cust_001/tasks")
    return {task["title"]: task for task in body["tasks"]}


async def _upcoming(crm_admin: CrmAdmin) -> dict[str, datetime]:
    _, body = await crm_admin.get("/v1/customers/cust_001/appointments?status=upcoming")
    return {
        a["service"]: datetime.fromisoformat(a["starts_at"]).astimezone(ZONE)
        for a in body["appointments"]
    }


def _answer(events: list[dict[str, Any]]) -> str:
    return next(e["text"] for e in events if e["type"] == "answer.done")


async def test_the_second_task_is_the_second_one_read_out(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """After the tasks are read out, "complete the second task" completes the second heard."""
    chat = await (await make_assistant()).connect()
    heard = _answer(await chat.say("list my tasks"))
    order = sorted(("Buy groceries", "Renew car insurance", "Schedule eye exam"), key=heard.index)
    await chat.say("complete the second task")
    tasks = await _tasks(crm_admin)
    assert tasks[order[1]]["status"] == "completed"
    assert [tasks[title]["status"] for title in (order[0], order[2])] == ["pending", "pending"]


async def test_it_is_the_appointment_just_talked_about(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """ "push it back a week" after the next appointment was read moves that one a week on."""
    before = await _upcoming(crm_admin)
    chat = await (await make_assistant()).connect()
    await chat.say("what's my next appointment")
    await chat.say("push it back a week")
    after = await _upcoming(crm_admin)
    assert after["Dental cleaning"] == before["Dental cleaning"] + timedelta(days=7)
    assert after["Haircut"] == before["Haircut"]


async def test_a_correction_moves_the_booking_just_made(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """ "actually make that 11 instead of 9" moves the new booking: one haircut at 11."""
    chat = await (await make_assistant()).connect()
    await chat.say("book a haircut tomorrow at 9am")
    await chat.say("actually make that 11 instead of 9")
    _, body = await crm_admin.get("/v1/customers/cust_001/appointments?status=upcoming")
    tomorrow = datetime.now(ZONE).date() + timedelta(days=1)
    booked = [
        datetime.fromisoformat(a["starts_at"]).astimezone(ZONE)
        for a in body["appointments"]
        if a["service"] == "Haircut"
        and datetime.fromisoformat(a["starts_at"]).astimezone(ZONE).date() == tomorrow
    ]
    assert [(moment.hour, moment.minute) for moment in booked] == [(11, 0)]


async def test_all_completed_tasks_are_deleted_together_after_one_yes(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """ "delete all completed tasks" asks once, and only the completed ones go on yes."""
    chat = await (await make_assistant()).connect()
    events = await chat.say("delete all completed tasks")
    assert events[-1]["awaiting_confirmation"] is not None
    assert "Call the pharmacy" in await _tasks(crm_admin)
    await chat.say("yes")
    tasks = await _tasks(crm_admin)
    assert "Call the pharmacy" not in tasks
    assert {"Buy groceries", "Renew car insurance", "Schedule eye exam"} <= set(tasks)


async def test_a_complaint_is_explained_and_a_case_opened_on_yes(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """ "why was I charged 150" explains the charge and offers a case; "yes" opens it."""
    _, before = await crm_admin.get("/v1/customers/cust_001/tickets?status=all")
    chat = await (await make_assistant()).connect()
    explained = _answer(await chat.say("this is useless. why was i charged 150 dollars"))
    assert "dental cleaning" in explained and explained.endswith("open a support case?")
    _, unchanged = await crm_admin.get("/v1/customers/cust_001/tickets?status=all")
    assert len(unchanged["tickets"]) == len(before["tickets"])
    await chat.say("yes please")
    _, after = await crm_admin.get("/v1/customers/cust_001/tickets?status=all")
    opened = [t for t in after["tickets"] if t not in before["tickets"]]
    assert [t["subject"] for t in opened] == ["Question about a charge on my account"]


async def test_a_change_of_mind_during_a_confirmation_moves_instead(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """During a pending cancel, "don't cancel it, just move it to friday at 2" moves it."""
    chat = await (await make_assistant()).connect()
    await chat.say("cancel my haircut")
    events = await chat.say("no sorry dont cancel it just move it to friday at 2")
    assert events[-1]["awaiting_confirmation"] is None
    assert "cancel" in _answer(events)
    moved = (await _upcoming(crm_admin))["Haircut"]
    assert (moved.strftime("%A"), moved.hour, moved.minute) == ("Friday", 14, 0)


async def test_pushing_back_a_task_changes_its_due_date_not_an_appointment(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """ "push the treatment plan review back to the 10th of December" re-dates that task."""
    _, before = await crm_admin.get("/v1/customers/cust_004/appointments?status=all")
    chat = await (await make_assistant()).connect("cust_004")
    events = await chat.say("push the treatment plan review back to the 10th of December")
    _, body = await crm_admin.get("/v1/customers/cust_004/tasks")
    review = next(t for t in body["tasks"] if t["title"] == "Review treatment plan")
    assert review["due_on"][5:] == "12-10"
    _, after = await crm_admin.get("/v1/customers/cust_004/appointments?status=all")
    assert after == before
    assert "appointment" not in _answer(events)


async def test_rebooking_a_cancelled_visit_books_that_service_again(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """After "what happened to my eye exam?" (cancelled), "rebook it…" books an eye exam."""
    chat = await (await make_assistant()).connect("cust_003")
    assert "cancelled" in _answer(await chat.say("what happened to my eye exam?"))
    await chat.say("rebook it for monday at 1pm")
    _, body = await crm_admin.get("/v1/customers/cust_003/appointments?status=upcoming")
    booked = [a for a in body["appointments"] if a["service"] == "Eye exam"]
    assert len(booked) == 1
    assert datetime.fromisoformat(booked[0]["starts_at"]).strftime("%A") in ("Monday",)


async def test_a_complaint_with_no_details_asks_what_happened_and_files_it(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """ "I want to complain" asks what happened; the answer becomes the case, in her words."""
    chat = await (await make_assistant()).connect()
    asked = _answer(await chat.say("i want to complain"))
    assert "what happened" in asked.lower() and "sorry" in asked.lower()
    await chat.say("the receptionist was rude at my last visit")
    _, body = await crm_admin.get("/v1/customers/cust_001/tickets?status=open")
    subjects = [t["subject"] for t in body["tickets"]]
    assert "A complaint" in subjects
