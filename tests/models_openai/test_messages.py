"""History mapping: acknowledgements with their round, every call answered once."""

from __future__ import annotations

from assistant.models.openai_compat.messages import history_messages, narration_messages
from assistant.models.openai_compat.names import ToolNames
from assistant.schema import AssistantTurn, ToolExchange, UserTurn
from tests.models_openai.helpers import CATALOG, failed, ok

NAMES = ToolNames(tool.name for tool in CATALOG.tools)


def test_acknowledgement_is_the_content_of_its_rounds_tool_calls() -> None:
    """What was spoken before a round rides on that round's assistant message, once."""
    messages = history_messages(
        (
            UserTurn(text="my tasks"),
            AssistantTurn(kind="ack", text="Sure, checking your tasks."),
            ToolExchange(round=1, results=(ok("c1", "crm.listTasks", []),)),
            AssistantTurn(kind="answer", text="You have no tasks."),
        ),
        NAMES,
    )
    assert [m["role"] for m in messages] == ["user", "assistant", "tool", "assistant"]
    assert messages[1]["content"] == "Sure, checking your tasks."
    assert messages[1]["tool_calls"][0]["function"]["name"] == "crm_listTasks"


def test_acknowledgement_without_a_round_is_kept_as_speech() -> None:
    """An ack whose calls never ran (held for confirmation) is still in the history."""
    messages = history_messages(
        (UserTurn(text="delete it"), AssistantTurn(kind="ack", text="One moment.")), NAMES
    )
    assert messages[-1] == {"role": "assistant", "content": "One moment."}


def test_repeated_call_id_is_answered_once() -> None:
    """Two results for one call id become one call and one tool message, never two."""
    result = ok("c1", "crm.listTasks", [])
    messages = history_messages((ToolExchange(round=1, results=(result, result)),), NAMES)
    assert len(messages[0]["tool_calls"]) == 1
    assert [m["role"] for m in messages] == ["assistant", "tool"]


def test_narration_adds_missing_rounds_in_order_after_the_user_message() -> None:
    """Results the conversation lacks follow the user message, one assistant message per round."""
    messages = narration_messages(
        (),
        "complete the grocery task",
        (
            ok("c1", "crm.listTasks", [{"id": "t1", "title": "Groceries"}]),
            failed("c2", "crm.completeTask", "conflict", "already completed", round_no=2),
        ),
        NAMES,
    )
    assert [m["role"] for m in messages] == ["user", "assistant", "tool", "assistant", "tool"]
    assert messages[3]["tool_calls"][0]["function"]["name"] == "crm_completeTask"
    assert '"code":"conflict"' in messages[4]["content"]
