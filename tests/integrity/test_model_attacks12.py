"""A model narrator whose words contradict the CRM's answer: another weekday or hour than
the move landed on, the CRM's UTC hour read as hers, "done" over a cancel or an add
the CRM refused, "couldn't" over a move that was made, another due day than written.
The embedded planner decides (so the writes are the ones said); the narrator is the
real `openai` client against the scripted OpenAI-compatible server; the real CRM stub.
What the CRM holds is checked after each, and the customer never hears the narrator's
contradiction as it was.

FIRST RUN (written before the rules they exercise were read): 7 probes, all held once
the probe's own mistake was put right (a cancelled visit's status is "cancelled", an
untouched one "upcoming", not "scheduled"). The narrator's words were each replaced by
what went through: "Done. Your haircut is now on Friday, November 27 at 3:00 PM, moved
from …" over "Thursday" and over "5 PM" and over "Sorry, I couldn't move your haircut";
"Sorry, I couldn't cancel your appointment …" over "All done, your haircut is
cancelled."; the add refused told as not made over "Added!"; "Buy groceries is now due
friday, …" over "Saturday"; and the CRM's UTC hour read as hers was not said.
Written afterwards, first run: 3 probes, all held (an hour later told as two; the right
weekday with the next day's date; "I couldn't delete that task. Try again later." over
a delete made after the yes). Nothing to fix here.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from assistant.fakes.openai_server import OpenAIServer, text_reply
from assistant.models.openai_compat import OpenAINarrator, OpenAIPlanner
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import HOME, answer, appointments, tasks, titles

Models = tuple[OpenAIPlanner, OpenAINarrator]


@pytest.fixture(autouse=True)
def _spare_answers(openai_server: OpenAIServer) -> Iterator[None]:
    """Each probe scripts a narrator answer for every turn that may ask for one; the ones
    a turn did not need are left unused, which is not what these probes judge."""
    yield
    openai_server.script.clear()


def _local(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(HOME)


def _friday(hour: int) -> datetime:
    day = datetime.now(HOME).date() + timedelta(days=2)
    while day.weekday() != 4:
        day += timedelta(days=1)
    return datetime(day.year, day.month, day.day, hour, tzinfo=HOME)


async def _haircut(crm: CrmAdmin) -> dict[str, Any]:
    (haircut,) = [
        a
        for a in await appointments(crm, "all")
        if a["service"] == "Haircut"
        and a["status"] != "completed"
        and _local(a["starts_at"]) > datetime.now(HOME)
    ]
    return haircut


async def _chat(make_assistant: MakeAssistant, models: Models) -> Any:
    return await (await make_assistant(narrator=models[1])).connect()


async def test_a_move_told_on_another_weekday_is_not_said(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """Moved to Friday at 3 PM as asked; the model says Thursday: 'Thursday' is not said,
    and she hears Friday."""
    openai_server.stream(text_reply("Done! Your haircut is now on Thursday at 3 PM."))
    chat = await _chat(make_assistant, openai_models)
    events = await chat.say("move my haircut to friday at 3pm")
    assert _local((await _haircut(crm_admin))["starts_at"]) == _friday(15)
    said = answer(events).lower()
    assert "thursday" not in said and "friday" in said, said


async def test_a_move_told_at_another_hour_is_not_said(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """Moved to Friday at 3 PM; the model says 5 PM: '5 PM' is not said."""
    openai_server.stream(text_reply("All set, your haircut is moved to Friday at 5 PM."))
    chat = await _chat(make_assistant, openai_models)
    events = await chat.say("move my haircut to friday at 3pm")
    assert _local((await _haircut(crm_admin))["starts_at"]) == _friday(15)
    said = answer(events).lower()
    assert "5 pm" not in said and "5:00" not in said and "3" in said, said


async def test_a_booking_told_at_the_crms_utc_hour_is_not_said(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'book a consultation on friday at 10am', booked at 10 AM her time; the model reads
    the CRM's UTC stamp and says 6 PM (or 5 PM): that hour is not said."""
    utc = _friday(10).astimezone(UTC)
    wrong = f"{utc.hour % 12 or 12} PM"
    openai_server.stream(text_reply(f"You're booked for a consultation on Friday at {wrong}."))
    chat = await _chat(make_assistant, openai_models)
    events = await chat.say("book a consultation on friday at 10am")
    if events[-1]["awaiting_confirmation"]:
        openai_server.stream(text_reply(f"You're booked for a consultation on Friday at {wrong}."))
        events = await chat.say("yes")
    booked = [
        _local(a["starts_at"])
        for a in await appointments(crm_admin)
        if a["service"] == "Consultation"
    ]
    assert _friday(10) in booked, (answer(events), booked)
    said = answer(events)
    assert wrong not in said and "10" in said, said


async def test_done_over_a_refused_cancel_is_not_said(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'cancel my haircut', 'yes'; the CRM refuses the cancel (422); the model says it is
    cancelled: she is not told it was, and the haircut stays."""
    openai_server.stream(text_reply("Are you sure you want to cancel your haircut?"))
    chat = await _chat(make_assistant, openai_models)
    asked = await chat.say("cancel my haircut")
    assert asked[-1]["awaiting_confirmation"], answer(asked)
    await crm_admin.add_fault(
        method="POST", path="/v1/customers/*/appointments/*/cancel", status=422, times=1
    )
    openai_server.stream(text_reply("All done, your haircut is cancelled."))
    events = await chat.say("yes")
    assert (await _haircut(crm_admin))["status"] == "upcoming"
    said = answer(events).lower()
    assert "all done" not in said and "is cancelled" not in said, said


async def test_added_over_a_refused_add_is_not_said(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'add a task to buy milk'; the CRM refuses it (422); the model says it was added:
    not said, and no 'Buy milk' task exists."""
    await crm_admin.add_fault(method="POST", path="/v1/customers/*/tasks", status=422, times=1)
    openai_server.stream(text_reply("Added! Buy milk is on your list now."))
    chat = await _chat(make_assistant, openai_models)
    events = await chat.say("add a task to buy milk")
    assert "Buy milk" not in await titles(crm_admin)
    said = answer(events).lower()
    assert "added!" not in said and "on your list now" not in said, said


async def test_couldnt_over_a_move_made_is_not_said(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """Moved to Friday at 3 PM; the model says it could not move it and it is still on
    its old day: not said (she would ask again), and she hears it moved."""
    before = _local((await _haircut(crm_admin))["starts_at"])
    openai_server.stream(
        text_reply(
            f"Sorry, I couldn't move your haircut. It's still on {before:%A} at"
            f" {before.hour % 12 or 12}:{before.minute:02d} PM."
        )
    )
    chat = await _chat(make_assistant, openai_models)
    events = await chat.say("move my haircut to friday at 3pm")
    assert _local((await _haircut(crm_admin))["starts_at"]) == _friday(15)
    said = answer(events).lower()
    assert "couldn't" not in said and "still on" not in said, said


async def test_a_due_day_told_as_another_weekday_is_not_said(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'make the groceries task due friday', due Friday; the model says Saturday: not
    said."""
    openai_server.stream(text_reply("Okay, Buy groceries is now due on Saturday."))
    chat = await _chat(make_assistant, openai_models)
    events = await chat.say("make the groceries task due friday")
    if events[-1]["awaiting_confirmation"]:
        openai_server.stream(text_reply("Okay, Buy groceries is now due on Saturday."))
        events = await chat.say("yes")
    due = (await tasks(crm_admin))["Buy groceries"]["due_on"]
    assert date.fromisoformat(due).weekday() == 4, (answer(events), due)
    said = answer(events).lower()
    assert "saturday" not in said, said


# --- written after the fixes -------------------------------------------------------------


async def test_an_hour_later_told_two_hours_later_is_not_said(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'push my haircut back an hour' (2:30 → 3:30); the model says 4:30: not said."""
    openai_server.stream(text_reply("Okay! Your haircut is now at 4:30 PM."))
    chat = await _chat(make_assistant, openai_models)
    events = await chat.say("push my haircut back an hour")
    if events[-1]["awaiting_confirmation"]:
        openai_server.stream(text_reply("Okay! Your haircut is now at 4:30 PM."))
        events = await chat.say("yes")
    assert _local((await _haircut(crm_admin))["starts_at"]).hour == 15
    said = answer(events)
    assert "4:30" not in said and "3:30" in said, said


async def test_a_move_told_on_the_wrong_date_of_the_right_weekday_is_not_said(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """Moved to Friday at 3 PM; the model names that Friday with the next day's date:
    that date is not said."""
    wrong = _friday(15) + timedelta(days=1)
    openai_server.stream(text_reply(f"Done, it's now Friday, {wrong:%B} {wrong.day} at 3 PM."))
    chat = await _chat(make_assistant, openai_models)
    events = await chat.say("move my haircut to friday at 3pm")
    said = answer(events)
    assert f"{wrong:%B} {wrong.day}" not in said, said


async def test_couldnt_over_a_delete_made_after_the_yes_is_not_said(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'delete the buy groceries task', 'yes', deleted; the model says it could not: not
    said (she would ask again)."""
    openai_server.stream(text_reply("Are you sure you want to delete Buy groceries?"))
    chat = await _chat(make_assistant, openai_models)
    assert (await chat.say("delete the buy groceries task"))[-1]["awaiting_confirmation"]
    openai_server.stream(text_reply("I'm sorry, I couldn't delete that task. Try again later."))
    events = await chat.say("yes")
    assert "Buy groceries" not in await titles(crm_admin)
    said = answer(events).lower()
    assert "couldn't" not in said and "try again" not in said, said
