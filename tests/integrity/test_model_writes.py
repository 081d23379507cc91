"""A misbehaving model never makes a write the customer did not ask for (write integrity),
with the real `openai` client against the scripted model server and the real CRM stub:
each case is what a real model may do, and what the customer would notice is asserted."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from assistant.fakes.openai_server import OpenAIServer, text_reply, tool_calls_reply
from assistant.models.openai_compat import OpenAINarrator, OpenAIPlanner
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import (
    answer,
    call,
    called,
    haircuts,
    profile,
    tasks,
    tomorrow_at,
    writes_applied,
)

Models = tuple[OpenAIPlanner, OpenAINarrator]


async def test_a_delete_hidden_among_reads_waits_for_a_yes(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """Two reads and a deleteTask in one round: the reads run, the task stays until a yes."""
    planner, narrator = openai_models
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_listTasks"),
            call("c2", "crm_deleteTask", task_id="task_0001"),
            call("c3", "crm_getOpenInvoices"),
        )
    )
    openai_server.stream(text_reply(""))
    openai_server.stream(text_reply("Are you sure you want to delete 'Buy groceries'?"))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("show me my tasks and my billing")
    assert "crm.deleteTask" not in called(events)
    assert [c["tool"] for c in events[-1]["awaiting_confirmation"]["calls"]] == ["crm.deleteTask"]
    assert "Buy groceries" in await tasks(crm_admin)
    assert await writes_applied(crm_admin) == {}


async def test_a_lookup_is_not_chained_into_a_write_nobody_asked_for(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'What's on my list?': the model lists, then completes a task; nothing is completed
    before the customer says yes, and the answer asks."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_listTasks")))
    openai_server.stream(tool_calls_reply(call("c2", "crm_completeTask", task_id="task_0001")))
    openai_server.stream(text_reply("Shall I mark 'Buy groceries' as complete?"))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("what's on my to-do list?")
    assert called(events) == ["crm.listTasks"]
    assert events[-1]["awaiting_confirmation"] is not None
    assert (await tasks(crm_admin))["Buy groceries"]["status"] == "pending"
    assert await writes_applied(crm_admin) == {}


async def test_a_second_round_cannot_delete_what_the_first_only_listed(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """A listing, then a delete of every item in round two: held; 'no' deletes none."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_listTasks")))
    openai_server.stream(
        tool_calls_reply(
            call("c2", "crm_deleteTask", task_id="task_0001"),
            call("c3", "crm_deleteTask", task_id="task_0002"),
        )
    )
    openai_server.stream(text_reply("Are you sure?"))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("list my tasks")
    assert called(events) == ["crm.listTasks"]
    await chat.say("no")
    assert {"Buy groceries", "Renew car insurance"} <= set(await tasks(crm_admin))
    assert await writes_applied(crm_admin) == {}


async def test_a_booking_at_another_hour_than_the_one_said_is_not_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'Tomorrow at 3pm', booked by the model at 4pm: no haircut at 4pm, none claimed."""
    planner, narrator = openai_models
    wrong = tomorrow_at(16)
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_bookAppointment", service="Haircut", starts_at=wrong.isoformat())
        )
    )
    openai_server.stream(text_reply("I've booked your haircut for tomorrow at 4 PM."))
    before = await haircuts(crm_admin)
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("book me a haircut tomorrow at 3pm")
    assert await haircuts(crm_admin) == before
    assert "booked" not in answer(events)


async def test_a_time_said_locally_but_booked_in_utc_is_not_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'Tomorrow at 3pm' booked as 15:00 UTC (8 AM for the customer): not booked."""
    planner, narrator = openai_models
    shifted = tomorrow_at(15, ZoneInfo("UTC"))
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_bookAppointment", service="Haircut", starts_at=shifted.isoformat())
        )
    )
    openai_server.stream(text_reply("You're all set for tomorrow at 3."))
    before = await haircuts(crm_admin)
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    await chat.say("book me a haircut tomorrow at 3pm")
    assert await haircuts(crm_admin) == before


async def test_a_booking_on_another_day_than_the_one_said_is_not_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'Tomorrow at 3pm' booked the day after at 3pm: not booked."""
    planner, narrator = openai_models
    later = tomorrow_at(15) + timedelta(days=1)
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_bookAppointment", service="Haircut", starts_at=later.isoformat())
        )
    )
    openai_server.stream(text_reply("Booked!"))
    before = await haircuts(crm_admin)
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("book me a haircut tomorrow at 3pm")
    assert await haircuts(crm_admin) == before
    assert "Booked" not in answer(events)


async def test_the_time_said_is_booked_as_said(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """The control: a model that books the hour said books it, no question asked."""
    planner, narrator = openai_models
    right = tomorrow_at(15)
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_bookAppointment", service="Haircut", starts_at=right.isoformat())
        )
    )
    openai_server.stream(text_reply("I've booked your haircut for tomorrow at 3 PM."))
    before = await haircuts(crm_admin)
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("book me a haircut tomorrow at 3pm")
    assert events[-1]["awaiting_confirmation"] is None
    added = [datetime.fromisoformat(s) for s in await haircuts(crm_admin) if s not in before]
    assert added == [right]
    assert "booked" in answer(events)


async def test_a_time_the_customer_never_said_waits_for_a_yes(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'Book me a haircut' and the model picks tomorrow 10am: asked first, naming that time."""
    planner, narrator = openai_models
    invented = tomorrow_at(10)
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_bookAppointment", service="Haircut", starts_at=invented.isoformat())
        )
    )
    openai_server.stream(text_reply("Shall I book it for tomorrow at 10 AM?"))
    before = await haircuts(crm_admin)
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("book me a haircut")
    pending = events[-1]["awaiting_confirmation"]
    assert pending is not None and "10:00 AM" in pending["prompt"]
    assert await haircuts(crm_admin) == before


async def test_an_hour_read_into_a_part_of_the_day_waits_for_a_yes(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'A haircut tomorrow morning' booked by the model at 9am: asked first, naming 9 AM;
    the yes books it then."""
    planner, narrator = openai_models
    guessed = tomorrow_at(9)
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_bookAppointment", service="Haircut", starts_at=guessed.isoformat())
        )
    )
    openai_server.stream(text_reply("Shall I book it for tomorrow at 9 AM?"))
    openai_server.stream(text_reply("You're booked for tomorrow at 9 AM."))
    before = await haircuts(crm_admin)
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("book me a haircut tomorrow morning")
    pending = events[-1]["awaiting_confirmation"]
    assert pending is not None and "9:00 AM" in pending["prompt"]
    assert await haircuts(crm_admin) == before
    await chat.say("yes")
    assert len(await haircuts(crm_admin)) == len(before) + 1


async def test_a_phone_number_the_customer_never_gave_is_not_offered(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'My phone number changed' with no number: the model's made-up one is neither written
    nor put to the customer for a yes."""
    planner, narrator = openai_models
    before = await profile(crm_admin)
    openai_server.stream(
        tool_calls_reply(call("c1", "crm_updateContactInfo", phone="+14155550000"))
    )
    openai_server.stream(text_reply("What is your new number?"))
    openai_server.stream(text_reply("There's nothing waiting for a yes."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("my phone number changed")
    assert events[-1]["awaiting_confirmation"] is None
    await chat.say("yes")
    assert (await profile(crm_admin))["phone"] == before["phone"]


async def test_a_phone_number_other_than_the_one_said_is_not_offered(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'My new number is 415 555 0199', the model writes …0100: not held for a yes, not written."""
    planner, narrator = openai_models
    before = await profile(crm_admin)
    openai_server.stream(
        tool_calls_reply(call("c1", "crm_updateContactInfo", phone="+14155550100"))
    )
    openai_server.stream(text_reply("Sorry, could you say the number again?"))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("my new number is 415 555 0199")
    assert events[-1]["awaiting_confirmation"] is None
    assert (await profile(crm_admin))["phone"] == before["phone"]


async def test_an_email_the_customer_never_gave_is_not_offered(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'Update my email to maria at example dot org', the model writes another address: refused."""
    planner, narrator = openai_models
    before = await profile(crm_admin)
    openai_server.stream(
        tool_calls_reply(call("c1", "crm_updateContactInfo", email="maria@example.com"))
    )
    openai_server.stream(text_reply("Could you spell the address for me?"))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("update my email to maria at example dot org")
    assert events[-1]["awaiting_confirmation"] is None
    assert (await profile(crm_admin))["email"] == before["email"]


async def test_the_number_said_is_put_to_the_customer(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """The control: the number said, spoken digit by digit, is asked about and written on yes."""
    planner, narrator = openai_models
    openai_server.stream(
        tool_calls_reply(call("c1", "crm_updateContactInfo", phone="+14155550199"))
    )
    openai_server.stream(text_reply("Are you sure?"))
    openai_server.stream(text_reply("Your number is updated."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("my new number is four one five, five five five, zero one nine nine")
    assert events[-1]["awaiting_confirmation"]["arguments"] == {"phone": "+14155550199"}
    await chat.say("yes")
    assert (await profile(crm_admin))["phone"] == "+14155550199"
