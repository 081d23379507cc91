"""Every destructive or identity call of a turn waits for one yes, together (issue: write
integrity, guarantee 1), through the websocket with the real CRM stub."""

from __future__ import annotations

from typing import Any

from assistant.fakes import EchoNarrator, ScriptedPlanner, calls
from assistant.fakes.openai_server import OpenAIServer, text_reply, tool_calls_reply
from assistant.models.openai_compat import OpenAINarrator, OpenAIPlanner
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, called, profile, tasks, writes_applied

GROCERIES_AND_EYE_EXAM = "Delete the grocery task and the eye exam task"


def ran_on_yes(events: list[dict[str, Any]]) -> list[str]:
    """The tools a yes ran, the tasks read again first left out (what a held task call
    names is checked before it runs: tests/transports/test_ws_attacks8.py)."""
    return [tool for tool in called(events) if tool != "crm.listTasks"]


async def test_two_deletes_in_one_request_ask_one_question(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Neither task is deleted before the yes; the one question names both; yes deletes both."""
    chat = await (await make_assistant()).connect()
    events = await chat.say(GROCERIES_AND_EYE_EXAM)
    pending = events[-1]["awaiting_confirmation"]
    assert [c["tool"] for c in pending["calls"]] == ["crm.deleteTask", "crm.deleteTask"]
    assert pending["tool"] == "crm.deleteTask"
    assert pending["arguments"] == pending["calls"][0]["arguments"]
    assert "'Buy groceries'" in pending["prompt"] and "'Schedule eye exam'" in pending["prompt"]
    assert answer(events).endswith(pending["prompt"])
    assert {"Buy groceries", "Schedule eye exam"} <= set(await tasks(crm_admin))
    assert await writes_applied(crm_admin) == {}

    events = await chat.say("yes please")
    assert ran_on_yes(events) == ["crm.deleteTask", "crm.deleteTask"]
    left = await tasks(crm_admin)
    assert "Buy groceries" not in left and "Schedule eye exam" not in left
    assert "Renew car insurance" in left


async def test_no_to_two_cancellations_cancels_neither(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'Cancel my dental cleaning and my haircut', then 'no': both stay booked."""
    chat = await (await make_assistant()).connect()
    events = await chat.say("Cancel my dental cleaning and my haircut")
    pending = events[-1]["awaiting_confirmation"]
    assert [c["tool"] for c in pending["calls"]] == ["crm.cancelAppointment"] * 2
    assert "dental cleaning" in pending["prompt"] and "haircut" in pending["prompt"]
    events = await chat.say("no")
    assert called(events) == []
    assert "Nothing was changed" in answer(events)
    assert await writes_applied(crm_admin) == {}


async def test_every_held_call_of_a_model_waits_not_only_the_first(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Four deleteTask calls from a model: none runs before the yes (was: three ran)."""
    ids = ["task_0001", "task_0002", "task_0003", "task_0004"]
    planner = ScriptedPlanner(
        calls("crm.listTasks"), calls(*[("crm.deleteTask", {"task_id": i}) for i in ids])
    )
    chat = await (await make_assistant(planner=planner, narrator=EchoNarrator())).connect()
    events = await chat.say("delete all my tasks")
    assert called(events) == ["crm.listTasks"]
    pending = events[-1]["awaiting_confirmation"]
    assert [c["arguments"]["task_id"] for c in pending["calls"]] == ids
    assert await writes_applied(crm_admin) == {}


async def test_a_question_about_the_phone_number_never_changes_it(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'Is my phone number +14155559999?' reads the profile; the number on file stays."""
    before = await profile(crm_admin)
    chat = await (await make_assistant()).connect()
    events = await chat.say("Is my phone number +14155559999?")
    assert "crm.updateContactInfo" not in called(events)
    assert events[-1]["awaiting_confirmation"] is None
    assert "now" not in answer(events)
    assert (await profile(crm_admin))["phone"] == before["phone"]


async def test_a_phone_change_waits_for_a_yes(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Identity data is confirmed: asked first, changed only after the yes."""
    before = await profile(crm_admin)
    chat = await (await make_assistant()).connect()
    events = await chat.say("My new phone number is +1 415 555 0199")
    pending = events[-1]["awaiting_confirmation"]
    assert pending["calls"] == [
        {"tool": "crm.updateContactInfo", "arguments": {"phone": "+14155550199"}}
    ]
    assert "415-555-0199" in pending["prompt"]
    assert (await profile(crm_admin))["phone"] == before["phone"]
    await chat.say("yes")
    assert (await profile(crm_admin))["phone"] == "+14155550199"


async def test_moving_on_says_the_held_call_was_not_done(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """A new request instead of a yes: answered, and told the task was not deleted."""
    chat = await (await make_assistant()).connect()
    await chat.say("Delete the grocery task")
    events = await chat.say("show me my billing")
    assert called(events) == ["crm.getOpenInvoices"]
    assert answer(events).startswith("I didn't delete the task 'Buy groceries'.")
    assert "Buy groceries" in await tasks(crm_admin)


async def test_a_duplicate_never_takes_a_distinct_calls_place_under_the_cap(
    make_assistant: MakeAssistant,
) -> None:
    """Five calls with one repeated: the four distinct ones run and none is cut."""
    planner = ScriptedPlanner(
        calls(
            "crm.listTasks",
            "crm.listTasks",
            "crm.getOpenInvoices",
            "crm.listOpenTickets",
            "crm.getNextAppointment",
        )
    )
    chat = await (await make_assistant(planner=planner, narrator=EchoNarrator())).connect()
    events = await chat.say("everything please")
    assert sorted(called(events)) == [
        "crm.getNextAppointment",
        "crm.getOpenInvoices",
        "crm.listOpenTickets",
        "crm.listTasks",
    ]
    assert events[-1]["truncated_calls"] == 0


async def test_an_openai_model_asking_four_deletes_gets_one_question(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: tuple[OpenAIPlanner, OpenAINarrator],
) -> None:
    """With the openai backend, four deleteTask calls run only after one yes (was: three ran)."""
    planner, narrator = openai_models
    ids = ["task_0001", "task_0002", "task_0003", "task_0004"]
    openai_server.stream(
        tool_calls_reply(
            *[(f"call_{n}", "crm_deleteTask", f'{{"task_id": "{i}"}}') for n, i in enumerate(ids)]
        )
    )
    openai_server.stream(text_reply("Are you sure you want to delete those four tasks?"))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("delete all four of my tasks")
    # Only the listing that names them in the question ran (its id marks it a check).
    assert "crm.deleteTask" not in called(events)
    pending = events[-1]["awaiting_confirmation"]
    assert [c["arguments"]["task_id"] for c in pending["calls"]] == ids
    assert "'Buy groceries'" in pending["prompt"]
    assert await writes_applied(crm_admin) == {}
    assert len(await tasks(crm_admin)) == 4


async def test_a_delete_found_in_a_later_round_joins_the_same_question(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'Delete the grocery task and change my phone': the phone change is held in round 1,
    the delete (found after the listing) joins it; one question, one yes runs both."""
    before = await profile(crm_admin)
    chat = await (await make_assistant()).connect()
    events = await chat.say("delete the grocery task and change my phone to +1 415 555 0123")
    pending = events[-1]["awaiting_confirmation"]
    assert sorted(c["tool"] for c in pending["calls"]) == [
        "crm.deleteTask",
        "crm.updateContactInfo",
    ]
    assert pending["prompt"].count("?") == 1
    assert "'Buy groceries'" in pending["prompt"] and "415-555-0123" in pending["prompt"]
    assert (await profile(crm_admin))["phone"] == before["phone"]
    assert "Buy groceries" in await tasks(crm_admin)
    await chat.say("yes")
    assert (await profile(crm_admin))["phone"] == "+14155550123"
    assert "Buy groceries" not in await tasks(crm_admin)


async def test_a_yes_with_a_new_request_runs_the_held_call_and_then_the_request(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'yes, and also add…': the held delete runs once, the new task is added, both told."""
    chat = await (await make_assistant()).connect()
    await chat.say("Delete the grocery task")
    events = await chat.say("yes, and also add a task to buy shampoo")
    assert [c for c in called(events) if c != "crm.listTasks"] == [
        "crm.deleteTask",
        "crm.addTask",
    ]
    assert events[-1]["awaiting_confirmation"] is None
    left = await tasks(crm_admin)
    assert "Buy groceries" not in left and "Buy shampoo" in left
    assert "deleted" in answer(events) and "Buy shampoo" in answer(events)


async def test_sure_thing_is_only_a_yes(make_assistant: MakeAssistant, crm_admin: CrmAdmin) -> None:
    """Words after a yes that ask nothing ('sure thing') run the held call and nothing more."""
    chat = await (await make_assistant()).connect()
    await chat.say("Delete the grocery task")
    events = await chat.say("sure thing")
    assert ran_on_yes(events) == ["crm.deleteTask"]
    assert "Buy groceries" not in await tasks(crm_admin)


async def test_a_uk_number_said_without_its_code_is_confirmed_with_the_country_named(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'07700 900123' waits for a yes to '+447700900123 (a UK number)'; nothing changes before."""
    before = await profile(crm_admin)
    chat = await (await make_assistant()).connect()
    events = await chat.say("change my phone number to 07700 900123")
    pending = events[-1]["awaiting_confirmation"]
    assert pending["arguments"] == {"phone": "+447700900123"}
    assert "a UK number" in pending["prompt"]
    assert (await profile(crm_admin))["phone"] == before["phone"]


async def test_an_unclear_reply_to_a_question_drops_it_without_refusing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'is there a fee for cancelling' drops the held cancel, says so, and is no refusal; a
    bare 'yes' just after runs nothing: the cancel is asked about again, and waits."""
    chat = await (await make_assistant()).connect()
    await chat.say("cancel the dental cleaning")
    events = await chat.say("is there a fee for cancelling")
    assert called(events) == [] and events[-1]["awaiting_confirmation"] is None
    said = answer(events)
    assert said.startswith("I didn't cancel your dental cleaning") and "can't help" not in said
    events = await chat.say("yes")
    assert "crm.cancelAppointment" not in called(events)
    assert "are you sure you want to cancel your dental cleaning" in answer(events)
    assert events[-1]["awaiting_confirmation"]["tool"] == "crm.cancelAppointment"


async def test_a_question_moved_on_from_runs_only_on_a_yes_that_names_it(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """After a lookup in between, a bare 'yes' deletes nothing; 'ok, go ahead with the
    delete' deletes the task asked about, and only it."""
    chat = await (await make_assistant()).connect()
    await chat.say("Delete the grocery task")
    await chat.say("show me my billing")
    events = await chat.say("yes")
    assert "crm.deleteTask" not in called(events)
    assert "Buy groceries" in await tasks(crm_admin)
    events = await chat.say("ok, go ahead with the delete")
    assert ran_on_yes(events) == ["crm.deleteTask"]
    left = await tasks(crm_admin)
    assert "Buy groceries" not in left and "Schedule eye exam" in left


async def test_a_question_moved_on_from_is_asked_again_after_a_write(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """A task added in between: 'go ahead with the delete' asks again before deleting."""
    chat = await (await make_assistant()).connect()
    await chat.say("Delete the grocery task")
    await chat.say("add a task to call mom")
    events = await chat.say("go ahead with the delete")
    assert called(events) == [] and "Buy groceries" in await tasks(crm_admin)
    assert events[-1]["awaiting_confirmation"]["tool"] == "crm.deleteTask"
    await chat.say("yes")
    assert "Buy groceries" not in await tasks(crm_admin)
