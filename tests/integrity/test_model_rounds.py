"""A model that pushes writes across rounds and turns: past the round limit, again after
a refusal, and around a held write's yes, with the real `openai` client against the
scripted model server and the real CRM stub: a yes applies exactly what was asked
about, once, and nothing refused comes back in by another round."""

from __future__ import annotations

from assistant.fakes.openai_server import OpenAIServer, text_reply, tool_calls_reply
from assistant.models.openai_compat import OpenAINarrator, OpenAIPlanner
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import (
    answer,
    call,
    haircuts,
    profile,
    tasks,
    titles,
    tomorrow_at,
    writes_applied,
)

Models = tuple[OpenAIPlanner, OpenAINarrator]


async def test_a_write_past_the_round_limit_is_not_made_nor_claimed(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """Three rounds of listings, then addTask in round four: skipped, not claimed."""
    planner, narrator = openai_models
    for n in range(3):
        openai_server.stream(tool_calls_reply(call(f"l{n}", "crm_listTasks", status="all")))
    openai_server.stream(tool_calls_reply(call("c4", "crm_addTask", title="Buy milk")))
    openai_server.stream(text_reply("I've added 'Buy milk' to your list."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("add a task to buy milk")
    assert "Buy milk" not in await titles(crm_admin)
    assert "I've added" not in answer(events)


async def test_a_refused_hour_sneaked_back_in_the_next_round_is_refused(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'Tomorrow at 3pm', booked at 4pm (refused), then at 4pm again under a new id in
    round two: no haircut at 4pm."""
    planner, narrator = openai_models
    wrong = tomorrow_at(16).isoformat()
    openai_server.stream(
        tool_calls_reply(call("c1", "crm_bookAppointment", service="Haircut", starts_at=wrong))
    )
    openai_server.stream(
        tool_calls_reply(call("c2", "crm_bookAppointment", service="Haircut", starts_at=wrong))
    )
    openai_server.stream(text_reply("Booked for 4."))
    before = await haircuts(crm_admin)
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    await chat.say("book me a haircut tomorrow at 3pm")
    assert await haircuts(crm_admin) == before


async def test_a_refused_number_sneaked_back_on_a_bare_yes_is_not_written(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """A made-up number refused, then the customer says 'yes' (nothing was asked) and the
    model writes it again: not written, not held for a yes."""
    planner, narrator = openai_models
    before = await profile(crm_admin)
    made_up = "+14155550000"
    openai_server.stream(tool_calls_reply(call("c1", "crm_updateContactInfo", phone=made_up)))
    openai_server.stream(text_reply("Shall I put +14155550000 on file?"))
    openai_server.stream(tool_calls_reply(call("c2", "crm_updateContactInfo", phone=made_up)))
    openai_server.stream(text_reply("Done."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    await chat.say("my phone number changed")
    events = await chat.say("yes")
    assert events[-1]["awaiting_confirmation"] is None
    assert (await profile(crm_admin))["phone"] == before["phone"]


async def test_a_yes_applies_the_held_delete_not_the_models_new_target(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """Delete 'Buy groceries' held; 'yes, and add a task to buy milk'; the model deletes
    task_0002 in the yes turn: groceries is gone, insurance stays, milk is added."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_deleteTask", task_id="task_0001")))
    openai_server.stream(text_reply("Are you sure?"))
    openai_server.stream(
        tool_calls_reply(
            call("c2", "crm_deleteTask", task_id="task_0002"),
            call("c3", "crm_addTask", title="Buy milk"),
        )
    )
    openai_server.stream(text_reply(""))
    openai_server.stream(text_reply("Done."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    await chat.say("delete the grocery task")
    await chat.say("yes, and add a task to buy milk")
    listed = await tasks(crm_admin)
    assert "Buy groceries" not in listed
    assert "Renew car insurance" in listed
    assert "Buy milk" in listed


async def test_a_held_booking_issued_again_in_the_yes_turn_is_made_once(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """A booking held for a yes; 'yes, and add a task to buy milk'; the model books the
    same haircut again beside the task: one haircut, one task."""
    planner, narrator = openai_models
    when = tomorrow_at(15).isoformat()
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_bookAppointment", service="Haircut", starts_at=when),
            preamble=["Shall I book a haircut for tomorrow at 3 PM?"],
        )
    )
    openai_server.stream(text_reply("Shall I go ahead?"))
    openai_server.stream(
        tool_calls_reply(
            call("c2", "crm_bookAppointment", service="Haircut", starts_at=when),
            call("c3", "crm_addTask", title="Buy milk"),
        )
    )
    openai_server.stream(text_reply(""))
    openai_server.stream(text_reply("All done."))
    before = await haircuts(crm_admin)
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    await chat.say("I might want a haircut tomorrow at 3pm")
    await chat.say("yes, and add a task to buy milk")
    assert len(await haircuts(crm_admin)) == len(before) + 1
    assert (await titles(crm_admin)).count("Buy milk") == 1


async def test_a_yes_to_a_held_booking_books_the_time_asked_about(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """A booking at 3pm held for a yes; on 'yes' the 3pm asked about is booked, whatever
    the model would now say."""
    planner, narrator = openai_models
    when = tomorrow_at(15)
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_bookAppointment", service="Haircut", starts_at=when.isoformat()),
            preamble=["Shall I book a haircut for tomorrow at 3 PM?"],
        )
    )
    openai_server.stream(text_reply("Shall I go ahead?"))
    openai_server.stream(text_reply("Your haircut is booked for 4 PM."))
    before = await haircuts(crm_admin)
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    await chat.say("I might want a haircut tomorrow at 3pm")
    events = await chat.say("yes")
    added = [s for s in await haircuts(crm_admin) if s not in before]
    assert len(added) == 1
    assert "4 PM" not in answer(events)


async def test_a_held_delete_issued_again_in_the_yes_turn_is_not_asked_again(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """Delete 'Buy groceries' held; 'yes, and add a task to buy milk'; the model deletes
    the same task again beside the new one: deleted once, milk added, and no second
    question about a task already gone."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_deleteTask", task_id="task_0001")))
    openai_server.stream(text_reply("Are you sure?"))
    openai_server.stream(
        tool_calls_reply(
            call("c2", "crm_deleteTask", task_id="task_0001"),
            call("c3", "crm_addTask", title="Buy milk"),
        )
    )
    openai_server.stream(text_reply(""))
    openai_server.stream(text_reply("Done."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    await chat.say("delete the grocery task")
    events = await chat.say("yes, and add a task to buy milk")
    listed = await tasks(crm_admin)
    assert "Buy groceries" not in listed and "Buy milk" in listed
    assert events[-1]["awaiting_confirmation"] is None
    assert (await writes_applied(crm_admin)).get("DELETE /v1/customers/{cid}/tasks/{tid}") == 1
