"""Model calls live inside the turn deadline: through the real server and the real
`openai` client, a stalled model is cut and the customer hears the apology."""

from __future__ import annotations

from assistant.engine import APOLOGY
from assistant.fakes import FakeToolBackend
from assistant.fakes.openai_server import Gate, OpenAIServer, content, finish, tool_calls_reply
from assistant.models.openai_compat import OpenAINarrator, OpenAIPlanner
from assistant.turn_budget import TurnBudget
from tests.fixtures.app import MakeAssistant

Models = tuple[OpenAIPlanner, OpenAINarrator]


async def test_a_stalled_answer_stream_is_cut_with_an_apology(
    make_assistant: MakeAssistant, openai_server: OpenAIServer, openai_models: Models
) -> None:
    """The narrator's stream stops after one sentence: cut at the deadline, then the apology."""
    # The deadline leaves room for the decision, the tool and the first sentence on a busy
    # machine (a 1 s deadline was once spent before the first sentence); the gate outlasts it.
    gate = Gate(bound_s=8)
    openai_server.stream(tool_calls_reply(("call_a", "crm_listTasks", "{}")))
    openai_server.stream([content("", role=True), finish("stop")])  # round 2: narrate
    openai_server.stream([content("You have one task. ", role=True), gate, finish("stop")])
    planner, narrator = openai_models
    assistant = await make_assistant(
        planner=planner, narrator=narrator, tool_backend=FakeToolBackend(), turn_deadline_s=3.0
    )
    chat = await assistant.connect()
    events = await chat.say("what are my tasks?")
    gate.open()  # let the scripted server finish its (abandoned) response
    answer = next(event["text"] for event in events if event["type"] == "answer.done")
    assert answer.startswith("You have one task.")
    assert answer.endswith(APOLOGY)
    errors = [event["code"] for event in events if event["type"] == "error"]
    assert errors == ["model_unavailable"]
    assert events[-1]["status"] == "failed"
    assert gate.reached and not gate.timed_out


async def test_a_stalled_decision_is_cut_before_the_tools_share(
    make_assistant: MakeAssistant, openai_server: OpenAIServer, openai_models: Models
) -> None:
    """A planner that never finishes deciding: cut, the turn ends failed with the apology."""
    gate = Gate(bound_s=5)
    openai_server.stream([content("", role=True), gate, finish("stop")])
    planner, narrator = openai_models
    assistant = await make_assistant(
        planner=planner, narrator=narrator, tool_backend=FakeToolBackend(), turn_deadline_s=1.0
    )
    chat = await assistant.connect()
    events = await chat.say("what are my tasks?")
    gate.open()
    answer = next(event["text"] for event in events if event["type"] == "answer.done")
    assert answer == APOLOGY
    assert [event["type"] for event in events if event["type"].startswith("tool.")] == []
    assert events[-1]["status"] == "failed"
    assert not gate.timed_out


def test_the_deadline_keeps_a_share_for_tools_and_for_the_answer() -> None:
    """Decisions end first, tools next, the answer at the deadline; short deadlines scale."""
    budget = TurnBudget.starting(100.0, 8.0, tool_reserve_s=2.0, answer_reserve_s=2.0)
    assert (budget.decisions_end, budget.tools_end, budget.answer_end) == (104.0, 106.0, 108.0)
    short = TurnBudget.starting(0.0, 1.0, tool_reserve_s=2.0, answer_reserve_s=2.0)
    assert (short.decisions_end, short.tools_end, short.answer_end) == (0.5, 0.75, 1.0)
