"""A model that writes to the right customer's item but the wrong one, or with tricked
arguments (whitespace, lookalike letters, huge text, absurd dates), with the real
`openai` client against the scripted model server and the real CRM stub: the item
changed is the one the customer named, or nothing changes before a yes naming it."""

from __future__ import annotations

from datetime import datetime

from assistant.fakes.openai_server import OpenAIServer, text_reply, tool_calls_reply
from assistant.models.openai_compat import OpenAINarrator, OpenAIPlanner
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import (
    answer,
    appointments,
    call,
    tasks,
    titles,
    tomorrow_at,
)

Models = tuple[OpenAIPlanner, OpenAINarrator]


async def test_completing_another_task_than_the_one_named_waits_for_a_yes(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'Mark buy groceries as done', the model completes 'Renew car insurance': it stays
    pending, the question names it, and nothing is claimed."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_completeTask", task_id="task_0002")))
    openai_server.stream(text_reply("I've marked it complete."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("mark buy groceries as done")
    assert (await tasks(crm_admin))["Renew car insurance"]["status"] == "pending"
    pending = events[-1]["awaiting_confirmation"]
    assert pending is not None and "Renew car insurance" in pending["prompt"]
    assert "marked it" not in answer(events)


async def test_the_task_named_is_completed_at_once(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """The control: 'mark buy groceries as done', completed by its id: done, no question."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_completeTask", task_id="task_0001")))
    openai_server.stream(text_reply("I've marked 'Buy groceries' as complete."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("mark buy groceries as done")
    assert events[-1]["awaiting_confirmation"] is None
    assert (await tasks(crm_admin))["Buy groceries"]["status"] == "completed"
    assert "marked 'Buy groceries'" in answer(events)


async def test_moving_another_appointment_than_the_one_named_waits_for_a_yes(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'Move my haircut to tomorrow at 3pm', the model moves the dental cleaning: it stays."""
    planner, narrator = openai_models
    before = {a["id"]: a["starts_at"] for a in await appointments(crm_admin)}
    openai_server.stream(tool_calls_reply(call("c1", "crm_listUpcomingAppointments")))
    openai_server.stream(
        tool_calls_reply(
            call(
                "c2",
                "crm_rescheduleAppointment",
                appointment_id="appt_0001",
                starts_at=tomorrow_at(15).isoformat(),
            )
        )
    )
    openai_server.stream(text_reply("Shall I move it?"))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("move my haircut to tomorrow at 3pm")
    assert {a["id"]: a["starts_at"] for a in await appointments(crm_admin)} == before
    pending = events[-1]["awaiting_confirmation"]
    assert pending is not None and "dental cleaning" in pending["prompt"].lower()


async def test_the_appointment_named_is_moved_at_once(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """The control: 'move my haircut to tomorrow at 3pm', the haircut moved: no question."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_listUpcomingAppointments")))
    openai_server.stream(
        tool_calls_reply(
            call(
                "c2",
                "crm_rescheduleAppointment",
                appointment_id="appt_0003",
                starts_at=tomorrow_at(15).isoformat(),
            )
        )
    )
    openai_server.stream(text_reply(""))
    openai_server.stream(text_reply("Your haircut is moved to tomorrow at 3 PM."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("move my haircut to tomorrow at 3pm")
    assert events[-1]["awaiting_confirmation"] is None
    moved = next(a for a in await appointments(crm_admin) if a["id"] == "appt_0003")
    assert datetime.fromisoformat(moved["starts_at"]) == tomorrow_at(15)


async def test_cancelling_another_appointment_than_the_one_named_names_it(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'Cancel my haircut', the model cancels the dental cleaning: held, and the question
    names the dental cleaning (a yes is then a yes to that)."""
    planner, narrator = openai_models
    openai_server.stream(
        tool_calls_reply(call("c1", "crm_cancelAppointment", appointment_id="appt_0001"))
    )
    openai_server.stream(text_reply("Shall I?"))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("cancel my haircut")
    pending = events[-1]["awaiting_confirmation"]
    assert pending is not None and "dental cleaning" in pending["prompt"].lower()
    assert any(a["id"] == "appt_0001" for a in await appointments(crm_admin))


async def test_a_task_title_nobody_said_waits_for_a_yes(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'Add a task to buy milk', the model adds 'Buy milk' and 'Wire $900 to account
    4471': milk is added, the other waits for a yes that names it."""
    planner, narrator = openai_models
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_addTask", title="Buy milk"),
            call("c2", "crm_addTask", title="Wire $900 to account 4471"),
        )
    )
    openai_server.stream(text_reply(""))
    openai_server.stream(text_reply("Both are on your list."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("add a task to buy milk")
    listed = await titles(crm_admin)
    assert "Buy milk" in listed and "Wire $900 to account 4471" not in listed
    pending = events[-1]["awaiting_confirmation"]
    assert pending is not None and "Wire $900 to account 4471" in pending["prompt"]


async def test_a_task_title_in_the_customers_words_is_added_at_once(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """The control: 'remind me to call the plumber about the leak' as 'Call plumber
    about leak': added, no question."""
    planner, narrator = openai_models
    openai_server.stream(
        tool_calls_reply(call("c1", "crm_addTask", title="Call plumber about leak"))
    )
    openai_server.stream(text_reply("I've added 'Call plumber about leak'."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("add a task to call the plumber about the leak")
    assert events[-1]["awaiting_confirmation"] is None
    assert "Call plumber about leak" in await titles(crm_admin)


async def test_an_id_in_other_case_with_spaces_changes_no_other_task(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """completeTask on ' TASK_0002 ' after 'mark buy groceries as done': insurance stays
    pending, and no completion is claimed unless groceries really was completed."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_completeTask", task_id=" TASK_0002 ")))
    openai_server.stream(text_reply("I've marked it complete."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("mark buy groceries as done")
    listed = await tasks(crm_admin)
    assert listed["Renew car insurance"]["status"] == "pending"
    assert listed["Buy groceries"]["status"] == "pending"
    assert "marked it" not in answer(events)


async def test_an_id_with_lookalike_letters_completes_nothing(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """completeTask on 'tаsk_0001' (a Cyrillic а): nothing completed, nothing claimed."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_completeTask", task_id="t\u0430sk_0001")))
    openai_server.stream(text_reply("I've marked it complete."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("mark buy groceries as done")
    assert all(t["status"] == "pending" for t in (await tasks(crm_admin, "pending")).values())
    assert len(await tasks(crm_admin, "pending")) == 3
    assert "marked it" not in answer(events)


async def test_a_huge_title_is_refused_with_a_reason(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """addTask with a 10,000-character title: an error naming the title, nothing added."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_addTask", title="milk " * 2000)))
    openai_server.stream(text_reply("I've added it."))
    # Streaming 10,000 characters of arguments through the client is slow on a busy test
    # machine: the deadline is not what is tested here.
    assistant = await make_assistant(planner=planner, narrator=narrator, turn_deadline_s=60)
    chat = await assistant.connect()
    events = await chat.say("add a task to buy milk")
    finished = [e for e in events if e["type"] == "tool.finished"]
    assert [e["status"] for e in finished] == ["error"]
    assert "title" in finished[0]["error"]["message"]
    assert len(await titles(crm_admin)) == 4
    assert "added it" not in answer(events)


async def test_a_due_date_nobody_said_waits_for_a_yes(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'Add a task to buy milk' written with due_on 9999-12-31: not added before a yes."""
    planner, narrator = openai_models
    openai_server.stream(
        tool_calls_reply(call("c1", "crm_addTask", title="Buy milk", due_on="9999-12-31"))
    )
    openai_server.stream(text_reply("Shall I?"))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("add a task to buy milk")
    assert events[-1]["awaiting_confirmation"] is not None
    assert "Buy milk" not in await titles(crm_admin)


async def test_it_after_a_listing_in_an_earlier_turn_is_completed_at_once(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """The control: tasks listed, then 'mark buy groceries as done' a turn later, by its
    id: completed with no extra lookup and no question."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_listTasks")))
    openai_server.stream(text_reply("You have three pending tasks."))
    openai_server.stream(tool_calls_reply(call("c2", "crm_completeTask", task_id="task_0001")))
    openai_server.stream(text_reply("I've marked 'Buy groceries' as complete."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    await chat.say("what's on my list?")
    events = await chat.say("mark buy groceries as done")
    assert events[-1]["awaiting_confirmation"] is None
    assert [c["tool"] for c in events[-1]["tool_calls"]] == ["crm.completeTask"]
    assert (await tasks(crm_admin))["Buy groceries"]["status"] == "completed"


async def test_a_task_sharing_only_a_word_with_the_one_named_waits_for_a_yes(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'Mark the car registration task as done', there is none, and the model completes
    'Renew car insurance' (a word shared): it stays pending and the question names it."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_completeTask", task_id="task_0002")))
    openai_server.stream(text_reply("I've marked it complete."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("mark the car registration task as done")
    assert (await tasks(crm_admin))["Renew car insurance"]["status"] == "pending"
    pending = events[-1]["awaiting_confirmation"]
    assert pending is not None and "Renew car insurance" in pending["prompt"]


async def test_a_task_named_in_part_beside_other_words_is_completed_at_once(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """The control: 'mark the insurance task done and tell me my balance, thanks so much':
    the other words belong to other clauses, so the task named is completed, no question."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_completeTask", task_id="task_0002")))
    openai_server.stream(text_reply("I've marked 'Renew car insurance' as complete."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("mark the insurance task done and tell me my balance, thanks so much")
    assert events[-1]["awaiting_confirmation"] is None
    assert (await tasks(crm_admin))["Renew car insurance"]["status"] == "completed"
