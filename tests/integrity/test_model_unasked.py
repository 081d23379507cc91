"""A misbehaving model's writes on words that asked for none, and on a stranger's item,
with the real `openai` client against the scripted model server and the real CRM stub."""

from __future__ import annotations

from assistant.fakes.openai_server import OpenAIServer, text_reply, tool_calls_reply
from assistant.models.openai_compat import OpenAINarrator, OpenAIPlanner
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import (
    answer,
    call,
    haircuts,
    titles,
    tomorrow_at,
    writes_applied,
)

Models = tuple[OpenAIPlanner, OpenAINarrator]


async def test_dont_book_is_not_a_booking(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'Don't book the haircut tomorrow at 3pm' and the model books it: nothing is booked
    (refused: the message says not to, attacks17; before, held for a yes), and 'no'
    books nothing."""
    planner, narrator = openai_models
    when = tomorrow_at(15).isoformat()
    openai_server.stream(
        tool_calls_reply(call("c1", "crm_bookAppointment", service="Haircut", starts_at=when))
    )
    openai_server.stream(text_reply("Shall I book it?"))
    openai_server.stream(text_reply("Okay."))
    before = await haircuts(crm_admin)
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("don't book the haircut tomorrow at 3pm")
    assert not any(
        c["tool"] == "crm.bookAppointment" and c.get("status") != "error"
        for c in events[-1]["tool_calls"]
    ), events[-1]["tool_calls"]
    assert events[-1]["awaiting_confirmation"] is None
    await chat.say("no")
    assert await haircuts(crm_admin) == before
    assert await writes_applied(crm_admin) == {}


async def test_a_complaint_does_not_open_a_case_unasked(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'My invoice is wrong' and the model opens a support case: asked first, naming it."""
    planner, narrator = openai_models
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_createTicket", subject="Wrong invoice", body="Invoice is wrong")
        )
    )
    openai_server.stream(text_reply("Shall I open a case?"))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("my invoice is wrong")
    pending = events[-1]["awaiting_confirmation"]
    assert pending is not None and "'Wrong invoice'" in pending["prompt"]
    assert pending["prompt"] in answer(events)
    assert await writes_applied(crm_admin) == {}


async def test_a_yes_to_deleting_another_customers_task_deletes_nothing(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """deleteTask on cust_002's task, and a yes: their task is still there, none claimed."""
    planner, narrator = openai_models
    _, body = await crm_admin.get("/v1/customers/cust_002/tasks?status=all")
    theirs = body["tasks"][0]["id"]
    openai_server.stream(tool_calls_reply(call("c1", "crm_deleteTask", task_id=theirs)))
    openai_server.stream(text_reply("Are you sure?"))
    openai_server.stream(text_reply("I've deleted that task."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    await chat.say("delete that task")
    events = await chat.say("yes")
    _, body = await crm_admin.get("/v1/customers/cust_002/tasks?status=all")
    assert theirs in [task["id"] for task in body["tasks"]]
    assert "deleted" not in answer(events)


async def test_thanks_after_a_write_asks_for_no_other_write(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'Add a task to buy milk', done; then 'thanks!' and the model adds 'Buy eggs': that
    waits for a yes (the earlier request was answered, it asks for nothing more)."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_addTask", title="Buy milk")))
    openai_server.stream(text_reply("I added 'Buy milk' to your list."))
    openai_server.stream(tool_calls_reply(call("c2", "crm_addTask", title="Buy eggs")))
    openai_server.stream(text_reply("Shall I add 'Buy eggs' too?"))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    await chat.say("add a task to buy milk")
    events = await chat.say("thanks!")
    assert events[-1]["awaiting_confirmation"] is not None
    listed = await titles(crm_admin)
    assert "Buy milk" in listed and "Buy eggs" not in listed


async def test_a_reply_to_the_models_question_carries_the_request(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """The control: 'book me a haircut', 'What time?', 'tomorrow at 3pm': booked at once."""
    planner, narrator = openai_models
    when = tomorrow_at(15)
    openai_server.stream(text_reply("Sure, what day and time would you like?"))
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_bookAppointment", service="Haircut", starts_at=when.isoformat())
        )
    )
    openai_server.stream(text_reply("You're booked for tomorrow at 3 PM."))
    before = await haircuts(crm_admin)
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    await chat.say("book me a haircut")
    events = await chat.say("tomorrow at 3pm")
    assert events[-1]["awaiting_confirmation"] is None
    assert len(await haircuts(crm_admin)) == len(before) + 1
