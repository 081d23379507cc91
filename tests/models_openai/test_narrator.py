"""The OpenAI-compatible narrator: history with every call answered, spoken output."""

from __future__ import annotations

import json

import pytest

from assistant.errors import ModelUnavailable
from assistant.fakes.openai_server import OpenAIServer, content, finish, text_reply
from assistant.models.openai_compat import OpenAINarrator, OpenAIPlanner
from assistant.schema import AssistantTurn, ToolExchange, UserTurn
from tests.models_openai.helpers import failed, narrator_input, ok

Models = tuple[OpenAIPlanner, OpenAINarrator]

APPOINTMENTS = [{"id": "appt_1", "service": "Haircut", "starts_at": "2025-06-10T10:00:00-04:00"}]
RESULTS = (
    ok("call_a", "crm.listUpcomingAppointments", APPOINTMENTS),
    failed("call_b", "crm.getOpenInvoices", "timeout", "billing did not answer in 3 s"),
    failed("call_c", "crm.listTasks", "round_limit", "not run", status="skipped"),
)


async def collect(narrator: OpenAINarrator, request) -> list[str]:  # type: ignore[no-untyped-def]
    return [piece async for piece in narrator.narrate(request)]


async def test_every_call_gets_its_tool_message_failures_included(
    openai_server: OpenAIServer, openai_models: Models
) -> None:
    """Ok, failed and skipped calls each get one tool message, so the server accepts it."""
    openai_server.stream(text_reply("You have a haircut on Tuesday."))
    await collect(openai_models[1], narrator_input(RESULTS))
    assert openai_server.rejections == []
    body = openai_server.requests[0]
    messages = body["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool", "tool", "tool"]
    assert [c["id"] for c in messages[2]["tool_calls"]] == ["call_a", "call_b", "call_c"]
    answers = {m["tool_call_id"]: json.loads(m["content"]) for m in messages[3:]}
    assert answers["call_a"] == APPOINTMENTS
    assert answers["call_b"] == {
        "status": "error",
        "error": {"code": "timeout", "message": "billing did not answer in 3 s"},
    }
    assert answers["call_c"]["status"] == "skipped"
    assert "tools" not in body and "tool_choice" not in body


async def test_context_hint_and_spoken_style_are_in_the_prompt(
    openai_server: OpenAIServer, openai_models: Models
) -> None:
    """The narrator is asked for one spoken answer that says plainly what failed."""
    openai_server.stream(text_reply("Done."))
    await collect(openai_models[1], narrator_input(RESULTS))
    system = openai_server.requests[0]["messages"][0]["content"]
    assert "Summarise the appointments and billing; say plainly what failed." in system
    assert "no markdown" in system
    assert "could not be looked up" in system


async def test_answer_streams_in_whole_sentences(
    openai_server: OpenAIServer, openai_models: Models
) -> None:
    """Tokens come out regrouped as sentences, and together they are the whole answer."""
    openai_server.stream(
        text_reply(
            "You have a haircut on", " Tuesday at 10.", "30. I couldn't", " get your billing."
        )
    )
    pieces = await collect(openai_models[1], narrator_input(RESULTS))
    assert pieces == ["You have a haircut on Tuesday at 10.30. ", "I couldn't get your billing."]


async def test_markdown_never_reaches_the_caller(
    openai_server: OpenAIServer, openai_models: Models
) -> None:
    """Bold markers, headings and bullets a model slips in are not spoken."""
    openai_server.stream(
        text_reply("## Summary\n", "- **Haircut** on Tuesday.\n", "- Billing failed.")
    )
    text = "".join(await collect(openai_models[1], narrator_input(RESULTS)))
    assert text == "Summary Haircut on Tuesday. Billing failed."


async def test_results_already_in_the_history_are_not_sent_twice(
    openai_server: OpenAIServer, openai_models: Models
) -> None:
    """When the conversation holds this turn's rounds, each call is answered exactly once."""
    conversation = (
        UserTurn(text="Show me my appointments and what I owe"),
        AssistantTurn(kind="ack", text="Sure, I'll look that up."),
        ToolExchange(round=1, results=RESULTS),
    )
    openai_server.stream(text_reply("Here you go."))
    await collect(openai_models[1], narrator_input(RESULTS, conversation=conversation))
    messages = openai_server.requests[0]["messages"]
    assert [m["role"] for m in messages].count("tool") == 3
    assert [m["role"] for m in messages].count("user") == 1
    assert messages[2]["content"] == "Sure, I'll look that up."


async def test_confirmation_question_is_asked_and_ends_the_answer(
    openai_server: OpenAIServer, openai_models: Models
) -> None:
    """With a pending confirmation the model is told the question, and it is said once."""
    question = "Do you want me to cancel your haircut on Tuesday, June 10?"
    openai_server.stream(text_reply("Your haircut is on Tuesday. ", question))
    text = "".join(
        await collect(openai_models[1], narrator_input(RESULTS, confirmation_prompt=question))
    )
    assert text.endswith(question)
    assert text.count(question) == 1
    assert (
        f'exactly this question: "{question}"'
        in openai_server.requests[0]["messages"][0]["content"]
    )


async def test_forgotten_confirmation_question_is_added(
    openai_server: OpenAIServer, openai_models: Models
) -> None:
    """A model that forgets to ask still leaves the customer hearing the question."""
    question = "Do you want me to delete the task Buy groceries?"
    openai_server.stream(text_reply("I found your grocery task."))
    text = "".join(
        await collect(openai_models[1], narrator_input(RESULTS, confirmation_prompt=question))
    )
    assert text == f"I found your grocery task. {question}"


async def test_empty_answer_is_a_model_failure(
    openai_server: OpenAIServer, openai_models: Models
) -> None:
    """A narration with no words is reported unavailable so the engine can apologise."""
    openai_server.stream([content("", role=True), finish("stop")])
    with pytest.raises(ModelUnavailable, match="empty answer"):
        await collect(openai_models[1], narrator_input(RESULTS))
