"""A narrator model that gets the figures wrong (an amount, a time, a count), with the
real `openai` client against the scripted model server and the real CRM stub: the
customer never hears a figure the CRM's results contradict."""

from __future__ import annotations

from datetime import datetime, timedelta

from assistant.fakes.openai_server import OpenAIServer, text_reply, tool_calls_reply
from assistant.models.openai_compat import OpenAINarrator, OpenAIPlanner
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import HOME, answer, appointments, call

Models = tuple[OpenAIPlanner, OpenAINarrator]


async def test_a_balance_the_invoices_do_not_hold_is_not_said(
    make_assistant: MakeAssistant,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """The balance is $150.00; the model says '$95.00': the customer hears $150, not $95."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_getOpenInvoices")))
    openai_server.stream(text_reply("Your current balance is $95.00. ", "Anything else?"))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    said = answer(await chat.say("how much do I owe?"))
    assert "95" not in said
    assert "$150" in said


async def test_the_balance_the_invoices_hold_is_said_as_written(
    make_assistant: MakeAssistant,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """The control: '$150' (the balance, without cents) is said as the model wrote it."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_getOpenInvoices")))
    openai_server.stream(text_reply("You owe $150 for your dental cleaning. ", "Anything else?"))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    said = answer(await chat.say("how much do I owe?"))
    assert said == "You owe $150 for your dental cleaning. Anything else?"


async def _dental(crm: CrmAdmin) -> datetime:
    found = next(a for a in await appointments(crm) if a["service"] == "Dental cleaning")
    return datetime.fromisoformat(found["starts_at"]).astimezone(HOME)


async def test_an_hour_the_appointments_do_not_hold_is_not_said(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """The dental cleaning is at 10 AM; the model says 4 PM: 4 PM is not said, 10 is."""
    planner, narrator = openai_models
    when = await _dental(crm_admin)
    openai_server.stream(tool_calls_reply(call("c1", "crm_getNextAppointment")))
    openai_server.stream(
        text_reply(f"Your next appointment is a dental cleaning on {when:%A} at 4 PM.")
    )
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    said = answer(await chat.say("when is my next appointment?"))
    assert "4 PM" not in said
    assert "10" in said


async def test_the_hour_the_appointments_hold_is_said_as_written(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """The control: 'on <day> at 10 AM', the true hour, is said as the model wrote it."""
    planner, narrator = openai_models
    when = await _dental(crm_admin)
    line = f"Your next appointment is a dental cleaning on {when:%A} at 10 AM."
    openai_server.stream(tool_calls_reply(call("c1", "crm_getNextAppointment")))
    openai_server.stream(text_reply(line))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    assert answer(await chat.say("when is my next appointment?")) == line


async def test_a_count_the_listing_does_not_hold_is_not_said(
    make_assistant: MakeAssistant,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """Three tasks are pending; the model says 'five pending tasks': not said."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_listTasks", status="pending")))
    openai_server.stream(text_reply("You have five pending tasks. ", "The first is groceries."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    said = answer(await chat.say("how many tasks do I have left?"))
    assert "five" not in said.lower()


async def test_a_cancel_the_crm_refused_after_the_yes_is_not_claimed(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'Cancel my haircut', yes, the CRM refuses: 'I've cancelled it' is not said and the
    haircut is still booked."""
    planner, narrator = openai_models
    await crm_admin.add_fault(
        method="POST", path="/v1/customers/*/appointments/*/cancel", status=409, times=5
    )
    openai_server.stream(
        tool_calls_reply(call("c1", "crm_cancelAppointment", appointment_id="appt_0003"))
    )
    openai_server.stream(text_reply("Shall I cancel it?"))
    openai_server.stream(text_reply("I've cancelled your haircut."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    await chat.say("cancel my haircut")
    events = await chat.say("yes")
    assert "cancelled your haircut" not in answer(events)
    assert any(a["id"] == "appt_0003" for a in await appointments(crm_admin))


async def test_a_true_count_is_said_as_written(
    make_assistant: MakeAssistant,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """The control: 'three pending tasks' (true) is said as the model wrote it."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_listTasks", status="pending")))
    openai_server.stream(text_reply("You have three pending tasks. ", "The first is groceries."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    said = answer(await chat.say("how many tasks do I have left?"))
    assert said == "You have three pending tasks. The first is groceries."


async def test_a_count_after_a_write_of_its_kind_is_not_judged_by_the_older_listing(
    make_assistant: MakeAssistant,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """Three pending, groceries completed, 'two pending tasks left': said as written."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_listTasks", status="pending")))
    openai_server.stream(tool_calls_reply(call("c2", "crm_completeTask", task_id="task_0001")))
    openai_server.stream(text_reply("Done. You have two pending tasks left."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    said = answer(await chat.say("complete the grocery task"))
    assert said.endswith("You have two pending tasks left.")


async def test_a_weekday_the_appointment_is_not_on_is_not_said(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """The dental cleaning is on one day; the model names the day after: the customer
    hears the cleaning's own day."""
    planner, narrator = openai_models
    when = await _dental(crm_admin)
    wrong = when + timedelta(days=1)
    openai_server.stream(tool_calls_reply(call("c1", "crm_getNextAppointment")))
    openai_server.stream(text_reply(f"Your dental cleaning is on {wrong:%A}."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    said = answer(await chat.say("when is my next appointment?"))
    assert said == f"Your dental cleaning is on {when:%A}."


async def test_an_hour_about_nothing_looked_up_is_said_as_written(
    make_assistant: MakeAssistant,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """The control: after a listing, 'the office opens at 9 AM' (about no appointment)
    is not the results' to judge: said as written."""
    planner, narrator = openai_models
    line = "You have two appointments coming up. The office opens at 9 AM on weekdays."
    openai_server.stream(tool_calls_reply(call("c1", "crm_listUpcomingAppointments")))
    openai_server.stream(text_reply(line))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    assert answer(await chat.say("what appointments do I have?")) == line
