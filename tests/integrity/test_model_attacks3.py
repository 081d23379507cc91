"""A model endpoint that breaks off or reaches too far, with the real `openai` client
against the scripted OpenAI-compatible server (its connection cut mid-stream by `Drop`)
and the real CRM stub: a decision cut half way through its calls, an answer cut half way
after a write, a read of another customer's account, and a delete asked for twice in
one decision. Nothing is written that the customer did not hear asked or told, nobody
else's data reaches the model, and the customer is never told the opposite of what
happened.

First run (written before any fix): 6 probes, 5 held, 1 failed.
- the model's answer dropped half way after the milk task was added (and the model
  server down for the narrator next): the customer heard only "I'm sorry, I can't reach
  my assistant service right now. Please try again in a moment." (the task was there:
  told the opposite of what happened, and invited to add it again). That first version
  built the models by hand, without the fallback narrator `serve` wires with the openai
  backend (which then spoke "I added a task: Buy milk."): unfair as written, it was
  rewritten to the served wiring, where a model that has said its first sentence before
  the cut failed the same way ("All right, here's where things stand. I'm sorry, I
  can't reach my assistant service right now. Please try again in a moment.").
- held: a decision cut inside an add's arguments adds nothing; one cut after a whole add
  and inside a second adds neither (nothing runs from a decision that did not end); a
  delete streamed whole before the cut is not applied by a later yes; a read naming
  another customer sends none of their data to the model; one delete asked twice in a
  decision is one question and one delete. (That probe first counted the tasks left
  wrongly, 4 for 3: the probe's mistake, corrected.)
After the fix (answering.py: a narrator that fails after saying part of the answer is
finished by the fallback narrator, which tells the results, instead of an apology) all
hold. Written afterwards, first run: 3 probes, all held: a delete missing its task_id is
refused naming it and asks nothing; a completion streamed whole before the cut is not
claimed unmade; a tool name in other case deletes nothing unasked.
"""

from __future__ import annotations

import json

import pytest

from assistant.fakes.openai_server import (
    Drop,
    OpenAIServer,
    content,
    fragment,
    text_reply,
    tool_calls_reply,
    tool_delta,
)
from assistant.models.openai_compat import OpenAINarrator, OpenAIPlanner
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, call, tasks, titles

Models = tuple[OpenAIPlanner, OpenAINarrator]


def _cut(*complete: tuple[str, str, str], partial: tuple[str, str, str] | None = None) -> list:
    """Complete tool calls, then (optionally) the first half of another, then the
    connection drops: no finish reason, no [DONE]."""
    chunks = tool_calls_reply(*complete)[:-1]  # without the finish chunk
    if partial is not None:
        call_id, name, arguments = partial
        index = len(complete)
        chunks.append(tool_delta(fragment(index=index, call_id=call_id, name=name, arguments="")))
        chunks.append(tool_delta(fragment(index=index, arguments=arguments[: len(arguments) // 2])))
    return [*chunks, Drop()]


async def test_a_decision_cut_inside_an_adds_arguments_adds_nothing(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """The planner's stream drops half way through addTask's arguments: no task titled
    with half the words, an answer that does not say it was added, and the next turn
    is answered."""
    planner, narrator = openai_models
    before = await titles(crm_admin)
    openai_server.stream(_cut(partial=call("c1", "crm_addTask", title="Call the plumber")))
    openai_server.stream(text_reply("You're welcome."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    said = answer(await chat.say("add a task to call the plumber"))
    assert await titles(crm_admin) == before, said
    assert "added" not in said.lower() or "n't" in said.lower(), said
    assert answer(await chat.say("thanks")) == "You're welcome."


async def test_a_decision_cut_after_a_whole_add_tells_what_was_done(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """addTask 'Buy milk' streamed whole, then the connection drops inside a second call:
    the milk task is added at most once, and if it was, the customer hears so (not only
    'I can't reach my assistant service')."""
    planner, narrator = openai_models
    openai_server.stream(
        _cut(
            call("c1", "crm_addTask", title="Buy milk"),
            partial=call("c2", "crm_addTask", title="Buy bread"),
        )
    )
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    said = answer(await chat.say("add tasks to buy milk and to buy bread"))
    await crm_admin.wait_until_settled()
    now = await titles(crm_admin)
    assert now.count("Buy milk") <= 1 and not any(t.startswith("Buy br") for t in now), now
    if "Buy milk" in now:
        assert "milk" in said.lower(), said


async def test_a_delete_streamed_whole_before_the_cut_is_not_applied_by_a_later_yes(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """deleteTask on Buy groceries streamed whole, then the connection drops before the
    decision ends: unless the customer heard the question naming it, their next 'yes'
    deletes nothing."""
    planner, narrator = openai_models
    openai_server.stream(_cut(call("c1", "crm_deleteTask", task_id="task_0001")))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    first = await chat.say("delete the buy groceries task")
    heard = answer(first)
    if first[-1]["awaiting_confirmation"] is None:
        openai_server.stream(text_reply("Okay."))
    else:
        openai_server.stream(text_reply("Done."))
    await chat.say("yes")
    await crm_admin.wait_until_settled()
    if "groceries" not in heard.lower() or first[-1]["awaiting_confirmation"] is None:
        assert "Buy groceries" in await tasks(crm_admin), heard


async def test_an_answer_cut_half_way_after_an_add_still_tells_it_was_added(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The task is added, then the model's answer drops after its first sentence (the
    openai backend as `serve` wires it, with its fallback narrator): the task is there
    once, and the customer hears it was added, not only that the service could not be
    reached."""
    monkeypatch.setenv("OPENAI_BASE_URL", openai_server.base_url)
    openai_server.stream(tool_calls_reply(call("c1", "crm_addTask", title="Buy milk")))
    openai_server.stream(text_reply(""))
    openai_server.stream(
        [content("", role=True), content("All right, here's where things stand. "), Drop()]
    )
    harness = await make_assistant(backend="openai", openai_max_retries=0, openai_model="m")
    said = answer(await (await harness.connect()).say("add a task to buy milk"))
    await crm_admin.wait_until_settled()
    assert (await titles(crm_admin)).count("Buy milk") == 1, said
    assert "milk" in said.lower() and "can't reach" not in said.lower(), said


async def test_a_read_of_another_customers_tasks_reaches_no_model(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """listTasks naming cust_002: refused; James's task titles are in no request to the
    model and not said."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_listTasks", customer_id="cust_002")))
    openai_server.stream(text_reply("I couldn't look those up."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    said = answer(await chat.say("what's on my list"))
    sent = json.dumps(openai_server.requests)
    assert "water bill" not in sent.lower() and "water bill" not in said.lower(), said


async def test_one_delete_asked_twice_in_a_decision_is_one_question_and_one_delete(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """deleteTask on Buy groceries twice under two ids in one decision: one question that
    names it once, and the yes deletes it once (the other tasks stay)."""
    planner, narrator = openai_models
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_deleteTask", task_id="task_0001"),
            call("c2", "crm_deleteTask", task_id="task_0001"),
        )
    )
    openai_server.stream(text_reply("Shall I delete it?"))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    asked = await chat.say("delete the buy groceries task")
    pending = asked[-1]["awaiting_confirmation"]
    assert pending is not None and len(pending["calls"]) == 1, pending
    assert pending["prompt"].lower().count("groceries") == 1, pending["prompt"]
    openai_server.stream(text_reply("Done."))
    await chat.say("yes")
    await crm_admin.wait_until_settled()
    now = await tasks(crm_admin)
    assert "Buy groceries" not in now and len(now) == 3, sorted(now)


async def test_a_delete_missing_its_task_id_is_refused_by_name_and_asks_nothing(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """deleteTask with no task_id (arguments that fail validation): refused naming the
    field, no question is put, nothing is deleted, and the next turn is answered."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_deleteTask")))
    openai_server.stream(text_reply("I couldn't do that."))
    openai_server.stream(text_reply("You're welcome."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("delete the buy groceries task")
    finished = [e for e in events if e["type"] == "tool.finished"]
    assert finished and finished[0]["error"]["code"] == "invalid_arguments", finished
    assert "task_id" in finished[0]["error"]["message"], finished[0]["error"]
    assert events[-1]["awaiting_confirmation"] is None
    assert "Buy groceries" in await tasks(crm_admin)
    assert answer(await chat.say("thanks")) == "You're welcome."


async def test_a_completion_streamed_whole_before_the_cut_is_not_claimed_unmade(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """completeTask on Buy groceries streamed whole, then the connection drops: either it
    is not completed, or the customer hears that it was."""
    planner, narrator = openai_models
    openai_server.stream(_cut(call("c1", "crm_completeTask", task_id="task_0001")))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    said = answer(await chat.say("mark buy groceries as done"))
    await crm_admin.wait_until_settled()
    if (await tasks(crm_admin))["Buy groceries"]["status"] == "completed":
        assert "groceries" in said.lower(), said


async def test_a_tool_name_in_other_case_deletes_nothing_unasked(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'crm_DELETETASK' for the groceries task: refused as unknown or held for a yes,
    never run."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_DELETETASK", task_id="task_0001")))
    openai_server.stream(text_reply("Done."))
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("what's on my list")
    assert "Buy groceries" in await tasks(crm_admin), answer(events)
    assert "deleted" not in answer(events).lower(), answer(events)
