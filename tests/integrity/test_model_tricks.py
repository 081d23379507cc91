"""A misbehaving model's repeats, strangers' ids, broken arguments and false claims,
with the real `openai` client against the scripted model server and the real CRM stub:
nothing is written twice or for someone else, and the answer tells what happened."""

from __future__ import annotations

from assistant.fakes.openai_server import OpenAIServer, text_reply, tool_calls_reply
from assistant.models.openai_compat import OpenAINarrator, OpenAIPlanner
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import (
    answer,
    call,
    called,
    haircuts,
    tasks,
    titles,
    tomorrow_at,
    writes_applied,
)

Models = tuple[OpenAIPlanner, OpenAINarrator]


async def test_a_write_repeated_with_a_new_call_id_is_made_once(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """addTask in round one, the same again under a new id in round two: one task."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_addTask", title="Buy milk")))
    openai_server.stream(tool_calls_reply(call("c2", "crm_addTask", title="Buy milk")))
    openai_server.stream(text_reply("I added 'Buy milk'. Do you want it twice?"))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    await chat.say("add a task to buy milk")
    assert (await titles(crm_admin)).count("Buy milk") == 1


async def test_a_write_repeated_in_other_words_is_made_once(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'Buy milk' then 'buy milk.' in the next round (same task, other case): one task."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_addTask", title="Buy milk")))
    openai_server.stream(tool_calls_reply(call("c2", "crm_addTask", title="buy milk.")))
    openai_server.stream(text_reply("Added it. Want another one?"))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    await chat.say("add a task to buy milk")
    added = [t for t in await titles(crm_admin) if t.lower().startswith("buy milk")]
    assert len(added) == 1


async def test_a_write_said_twice_in_other_words_in_one_round_is_made_once(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """addTask 'Buy milk' and 'buy milk.' in one decision: one task, the other asked about."""
    planner, narrator = openai_models
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_addTask", title="Buy milk"),
            call("c2", "crm_addTask", title="buy milk."),
        )
    )
    openai_server.stream(text_reply(""))
    openai_server.stream(text_reply("I added 'Buy milk'."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("add a task to buy milk")
    assert [t.lower().strip(".") for t in await titles(crm_admin)].count("buy milk") == 1
    assert events[-1]["awaiting_confirmation"] is not None


async def test_the_same_write_twice_in_one_round_is_made_once(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """Two identical bookAppointment calls under two ids in one round: one haircut."""
    planner, narrator = openai_models
    when = tomorrow_at(15).isoformat()
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_bookAppointment", service="Haircut", starts_at=when),
            call("c2", "crm_bookAppointment", service="Haircut", starts_at=when),
        )
    )
    openai_server.stream(text_reply("You're booked for tomorrow at 3 PM."))
    before = await haircuts(crm_admin)
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    await chat.say("book me a haircut tomorrow at 3pm")
    assert len(await haircuts(crm_admin)) == len(before) + 1


async def test_a_write_for_another_customer_is_refused(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """addTask naming cust_002: refused; neither customer gets the task, none is claimed."""
    planner, narrator = openai_models
    openai_server.stream(
        tool_calls_reply(call("c1", "crm_addTask", title="Buy milk", customer_id="cust_002"))
    )
    openai_server.stream(text_reply("I've added 'Buy milk' to your list."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("add a task to buy milk")
    assert "Buy milk" not in await titles(crm_admin)
    assert "Buy milk" not in await titles(crm_admin, "cust_002")
    assert "added" not in answer(events)


async def test_another_customers_task_is_never_completed(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """completeTask on cust_002's task id: that task stays pending; no success is claimed."""
    planner, narrator = openai_models
    _, body = await crm_admin.get("/v1/customers/cust_002/tasks?status=pending")
    theirs = body["tasks"][0]
    openai_server.stream(tool_calls_reply(call("c1", "crm_completeTask", task_id=theirs["id"])))
    openai_server.stream(text_reply(f"I've marked '{theirs['title']}' as complete."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say(f"mark {theirs['title']} as done")
    _, body = await crm_admin.get("/v1/customers/cust_002/tasks?status=pending")
    assert theirs["id"] in [task["id"] for task in body["tasks"]]
    assert "marked" not in answer(events)


async def test_a_model_asking_in_words_while_calling_the_write_waits_for_the_yes(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'Shall I book it?' said with the booking call: nothing booked until the yes."""
    planner, narrator = openai_models
    when = tomorrow_at(15)
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_bookAppointment", service="Haircut", starts_at=when.isoformat()),
            preamble=["Shall I book a haircut for tomorrow at 3 PM?"],
        )
    )
    openai_server.stream(text_reply("Shall I go ahead?"))
    openai_server.stream(text_reply("Your haircut is booked."))
    before = await haircuts(crm_admin)
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("I might want a haircut tomorrow at 3pm")
    assert "crm.bookAppointment" not in called(events)
    assert events[-1]["awaiting_confirmation"] is not None
    assert await haircuts(crm_admin) == before
    await chat.say("yes")
    assert len(await haircuts(crm_admin)) == len(before) + 1


async def test_a_claim_after_a_refused_write_is_not_spoken(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """A booking in the past is refused; the model's 'I've booked it' is not said."""
    planner, narrator = openai_models
    past = tomorrow_at(15).replace(year=2020)
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_bookAppointment", service="Haircut", starts_at=past.isoformat())
        )
    )
    openai_server.stream(text_reply("I've booked your haircut."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say(f"book me a haircut on {past:%B} {past.day} 2020 at 3pm")
    assert "booked your haircut" not in answer(events)
    assert await writes_applied(crm_admin) == {}


async def test_a_claim_of_the_write_that_failed_beside_one_that_worked_is_not_spoken(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """The task is added, the past booking refused; 'added it and booked your haircut' is
    not said as it stands: the haircut is not claimed."""
    planner, narrator = openai_models
    past = tomorrow_at(15).replace(year=2020)
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_addTask", title="Buy milk"),
            call("c2", "crm_bookAppointment", service="Haircut", starts_at=past.isoformat()),
        )
    )
    openai_server.stream(text_reply("I've added 'Buy milk' and booked your haircut."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say(
        f"add a task to buy milk and book me a haircut on {past:%B} {past.day} 2020 at 3pm"
    )
    assert "Buy milk" in await titles(crm_admin)
    assert "booked your haircut" not in answer(events)


async def test_a_narrators_claim_of_a_held_delete_is_not_spoken(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """The delete waits for a yes; the narrator's 'I've deleted it' is not said, and the
    task is still there."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_deleteTask", task_id="task_0001")))
    openai_server.stream(text_reply("I've deleted the task 'Buy groceries'. ", "Anything else?"))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("delete the grocery task")
    assert events[-1]["awaiting_confirmation"] is not None
    assert "deleted" not in answer(events)
    assert "Buy groceries" in await tasks(crm_admin)


async def test_unknown_arguments_on_a_delete_are_refused_not_asked(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """deleteTask with an extra 'force' argument: an error event, no question, no delete."""
    planner, narrator = openai_models
    openai_server.stream(
        tool_calls_reply(call("c1", "crm_deleteTask", task_id="task_0001", force=True))
    )
    openai_server.stream(text_reply("Done, it's deleted."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("delete the grocery task")
    finished = [e for e in events if e["type"] == "tool.finished"]
    assert [(e["tool"], e["status"]) for e in finished] == [("crm.deleteTask", "error")]
    assert events[-1]["awaiting_confirmation"] is None
    assert "deleted" not in answer(events)
    assert "Buy groceries" in await tasks(crm_admin)


async def test_arguments_that_are_not_json_are_refused(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """completeTask with cut-off JSON: refused as invalid, the task stays pending, not claimed."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(("c1", "crm_completeTask", '{"task_id": "task_0001"')))
    openai_server.stream(text_reply("I've marked it complete."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("mark buy groceries as done")
    finished = [e for e in events if e["type"] == "tool.finished"]
    assert [e["status"] for e in finished] == ["error"]
    assert (await tasks(crm_admin))["Buy groceries"]["status"] == "pending"
    assert "marked" not in answer(events)


async def test_an_unknown_tool_is_refused(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """A tool the catalog lacks ('crm_purgeTasks'): refused; every task still there."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_purgeTasks")))
    openai_server.stream(text_reply("All your tasks have been removed."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("clear out my tasks")
    assert "removed" not in answer(events)
    assert len(await tasks(crm_admin)) == 4
    assert await writes_applied(crm_admin) == {}
