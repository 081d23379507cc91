"""A misbehaving model's answer after the CRM refused its write, with the real `openai`
client against the scripted model server and the real CRM stub (faults injected)."""

from __future__ import annotations

from assistant.fakes.openai_server import OpenAIServer, text_reply, tool_calls_reply
from assistant.models.openai_compat import OpenAINarrator, OpenAIPlanner
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, call, titles

Models = tuple[OpenAIPlanner, OpenAINarrator]


async def test_a_claim_after_the_crm_refused_the_write_is_not_spoken(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """The CRM answers 422 to addTask; the model's 'I've added it to your list' is not said."""
    planner, narrator = openai_models
    await crm_admin.add_fault(method="POST", path="/v1/customers/*/tasks", status=422, times=5)
    openai_server.stream(tool_calls_reply(call("c1", "crm_addTask", title="Buy milk")))
    openai_server.stream(text_reply("I've added 'Buy milk' to your list. ", "Anything else?"))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("add a task to buy milk")
    finished = [e for e in events if e["type"] == "tool.finished" and e["tool"] == "crm.addTask"]
    assert [e["status"] for e in finished] == ["error"]
    said = answer(events)
    assert "added" not in said and "haven't actually made that change" in said
    assert "Buy milk" not in await titles(crm_admin)
