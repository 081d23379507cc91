"""Claims follow the CRM (write integrity, guarantee 6), through the websocket with the real
CRM stub, and with the openai backend against the scripted model server."""

from __future__ import annotations

from assistant.fakes import ScriptedPlanner, calls
from assistant.fakes.openai_server import (
    OpenAIServer,
    content,
    finish,
    fragment,
    text_reply,
    tool_calls_reply,
    tool_delta,
)
from assistant.models.embedded import EmbeddedNarrator, EmbeddedPlanner
from assistant.models.openai_compat import OpenAINarrator, OpenAIPlanner
from assistant.schema import FinalDecision
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, appointments, called, tasks

Models = tuple[OpenAIPlanner, OpenAINarrator]


async def test_a_models_claim_with_no_tool_call_is_not_spoken(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'Done! I marked Buy groceries as complete.' with no call: not said; the task is
    still pending, and the customer hears it has not been done."""
    planner, narrator = openai_models
    openai_server.stream(text_reply("Done! I marked Buy groceries as complete."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("thanks for that")
    said = answer(events)
    assert "marked" not in said
    assert "haven't actually made that change" in said
    assert (await tasks(crm_admin))["Buy groceries"]["status"] == "pending"


async def test_a_models_claim_is_replaced_by_the_action_it_claimed(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """The model claims the grocery task done without calling a tool: the engine follows
    up itself (list, then the model completes it), and only then is it narrated."""
    planner, narrator = openai_models
    openai_server.stream(text_reply("Done! I marked Buy groceries as complete."))
    openai_server.stream(
        tool_calls_reply(("call_1", "crm_completeTask", '{"task_id": "task_0001"}'))
    )
    openai_server.stream(text_reply("I marked Buy groceries as complete."))
    assistant = await make_assistant(
        planner=planner, narrator=narrator, follow_up=EmbeddedPlanner()
    )
    chat = await assistant.connect()
    events = await chat.say("complete the grocery task")
    assert called(events) == ["crm.listTasks", "crm.completeTask"]
    assert (await tasks(crm_admin))["Buy groceries"]["status"] == "completed"
    assert "Buy groceries" in answer(events)


async def test_text_after_a_models_tool_calls_is_not_the_acknowledgement(
    make_assistant: MakeAssistant, openai_server: OpenAIServer, openai_models: Models
) -> None:
    """A model that streams 'All done!' after its calls: only the words before them are
    spoken before the tools run."""
    planner, narrator = openai_models
    openai_server.stream(
        [
            content("", role=True),
            content("Let me check your billing."),
            tool_delta(fragment(index=0, call_id="call_a", name="crm_getOpenInvoices")),
            content(" All done, you owe nothing!"),
            tool_delta(fragment(index=0, arguments="{}")),
            finish("tool_calls"),
        ]
    )
    openai_server.stream(text_reply("Your balance is $150."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("what do I owe")
    acks = [e["text"] for e in events if e["type"] in ("ack.delta", "ack.done")]
    assert acks == ["Let me check your billing.", "Let me check your billing."]


async def test_a_move_to_the_time_it_already_has_is_already_there(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Moving an appointment to the time it has: 'already', never 'Done … now'."""
    cleaning = next(a for a in await appointments(crm_admin) if a["service"] == "Dental cleaning")
    planner = ScriptedPlanner(
        calls("crm.listUpcomingAppointments"),
        calls(
            (
                "crm.rescheduleAppointment",
                {"appointment_id": cleaning["id"], "starts_at": cleaning["starts_at"]},
            )
        ),
        FinalDecision(text=""),
    )
    chat = await (await make_assistant(planner=planner, narrator=EmbeddedNarrator())).connect()
    events = await chat.say("move my cleaning to the time it has")
    said = answer(events)
    assert "already" in said and "Done" not in said
    moved = next(a for a in await appointments(crm_admin) if a["id"] == cleaning["id"])
    assert moved["starts_at"] == cleaning["starts_at"]
