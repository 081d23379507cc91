"""A model planner that rides a write along with another: a delete of the very to-do it
was asked to complete, in the same round; a booking for an hour already gone today; a
delete of another to-do slipped into the yes that also asks for something else; and an
add answered with the title of a to-do already there plus a completion of it. With the
real `openai` client against the scripted model server and the real CRM stub: nothing is
written that the customer did not ask for (or say yes to), and nothing is claimed.

FIRST RUN (written before the code they exercise was read): 4 probes, all held.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest

from assistant.fakes.openai_server import OpenAIServer, text_reply, tool_calls_reply
from assistant.models.openai_compat import OpenAINarrator, OpenAIPlanner
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import HOME, answer, appointments, call, tasks, writes_applied

Models = tuple[OpenAIPlanner, OpenAINarrator]
GROCERIES = "task_0001"
INSURANCE = "task_0002"
DELETES = "DELETE /v1/customers/{cid}/tasks/{tid}"


@pytest.fixture(autouse=True)
def _spare_answers(openai_server: OpenAIServer) -> Iterator[None]:
    """Model answers a turn did not need are left unused (not what these probes judge)."""
    yield
    openai_server.script.clear()


async def test_a_delete_of_the_todo_asked_to_be_completed_is_not_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'mark the groceries task as done' and the model completes it and deletes it in one
    round: completed, not deleted (a delete nobody asked for waits at most for a yes),
    and the answer does not say it was deleted."""
    planner, narrator = openai_models
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_completeTask", task_id=GROCERIES),
            call("c2", "crm_deleteTask", task_id=GROCERIES),
        )
    )
    openai_server.stream(text_reply("Done, I marked it complete and removed it from your list."))
    openai_server.stream(text_reply("Done."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("mark the groceries task as done")
    held = await tasks(crm_admin)
    assert "Buy groceries" in held, answer(events)
    assert (await writes_applied(crm_admin)).get(DELETES, 0) == 0
    assert "removed" not in answer(events) and "deleted" not in answer(events).lower()


async def test_a_booking_for_an_hour_already_gone_today_is_not_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'book a massage today at 9am' said after 9 (the model books today at that hour,
    now past): nothing is booked, and the answer does not say it is booked."""
    planner, narrator = openai_models
    now = datetime.now(HOME)
    gone = (now - timedelta(hours=2)).replace(minute=0, second=0, microsecond=0)
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_bookAppointment", service="Massage", starts_at=gone.isoformat())
        )
    )
    openai_server.stream(text_reply("You're booked for a massage today."))
    openai_server.stream(text_reply("Booked."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    hour = gone.strftime("%I%p").lstrip("0").lower()
    events = await chat.say(f"book a massage today at {hour}")
    assert "Massage" not in [a["service"] for a in await appointments(crm_admin)]
    assert "booked" not in answer(events).lower().replace("not booked", ""), answer(events)


async def test_a_delete_slipped_into_a_yes_that_asks_more_is_not_made_unasked(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'delete the groceries task?' held; 'yes, and mark the insurance task done' and
    the model deletes the insurance task instead of completing it: the groceries task
    goes (the yes), the insurance task is not deleted without a question naming it."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_deleteTask", task_id=GROCERIES)))
    openai_server.stream(text_reply("Shall I delete it?"))
    openai_server.stream(tool_calls_reply(call("c2", "crm_deleteTask", task_id=INSURANCE)))
    openai_server.stream(text_reply("Both done."))
    openai_server.stream(text_reply("Both done."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    asked = await chat.say("delete the groceries task")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    events = await chat.say("yes, and mark the insurance task done")
    now = await tasks(crm_admin)
    assert "Renew car insurance" in now, answer(events)
    held = events[-1]["awaiting_confirmation"]
    if held is not None:
        assert "insurance" in held["prompt"].lower(), held


async def test_an_add_answered_by_completing_the_same_titled_todo_completes_nothing(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'add a task to buy groceries' (one is there) and the model completes the one there
    instead: nothing is completed the customer did not ask to complete."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_completeTask", task_id=GROCERIES)))
    openai_server.stream(text_reply("I've taken care of the groceries task."))
    openai_server.stream(text_reply("Done."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("add a task to buy groceries")
    assert (await tasks(crm_admin))["Buy groceries"]["status"] == "pending", answer(events)
