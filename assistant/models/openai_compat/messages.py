"""The session's history as chat-completion messages, and the catalog as `tools`.

The rule the APIs enforce, and this module keeps: an assistant message with
`tool_calls` is followed by exactly one `tool` message per `tool_call_id`, failed,
timed-out, skipped and truncated calls included. An acknowledgement spoken in a round
becomes the content of that round's assistant message, so the model sees that it
already said it and does not say it again.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from assistant.models.openai_compat.names import ToolNames
from assistant.schema import (
    AssistantTurn,
    Message,
    ToolDefinition,
    ToolExchange,
    ToolResult,
    UserTurn,
)

ChatMessage = dict[str, Any]


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)


def tool_params(tools: Iterable[ToolDefinition], names: ToolNames) -> list[dict[str, Any]]:
    """The `tools` request parameter: every catalog tool as a function."""
    return [
        {
            "type": "function",
            "function": {
                "name": names.to_wire(tool.name),
                "description": tool.description,
                "parameters": tool.parameters,
            },
        }
        for tool in tools
    ]


def result_content(result: ToolResult) -> str:
    """What the model reads for one call: the result, or a JSON error object."""
    if result.status == "ok":
        return _compact(result.result if result.result is not None else {"ok": True})
    error: dict[str, Any] = {"code": "internal", "message": "no result was recorded"}
    if result.error is not None:
        error = {"code": result.error.code, "message": result.error.message}
        if result.error.unconfirmed:
            error["unconfirmed"] = True
    return _compact({"status": result.status, "error": error})


def exchange_messages(
    results: Sequence[ToolResult], names: ToolNames, *, content: str | None = None
) -> list[ChatMessage]:
    """One assistant message with every call, then one tool message per call."""
    unique: dict[str, ToolResult] = {}
    for result in results:
        unique.setdefault(result.call.call_id, result)  # one answer per id, never two
    if not unique:
        return [{"role": "assistant", "content": content}] if content else []
    calls = [
        {
            "id": result.call.call_id,
            "type": "function",
            "function": {
                "name": names.to_wire(result.call.tool_name),
                "arguments": _compact(result.call.arguments),
            },
        }
        for result in unique.values()
    ]
    assistant: ChatMessage = {"role": "assistant", "content": content, "tool_calls": calls}
    return [
        assistant,
        *(
            {"role": "tool", "tool_call_id": call_id, "content": result_content(result)}
            for call_id, result in unique.items()
        ),
    ]


def history_messages(conversation: Iterable[Message], names: ToolNames) -> list[ChatMessage]:
    """The conversation, in order, as chat messages (no system message)."""
    messages: list[ChatMessage] = []
    spoken: list[str] = []  # acknowledgements waiting for the round they announced

    def flush_spoken() -> None:
        if spoken:
            messages.append({"role": "assistant", "content": " ".join(spoken)})
            spoken.clear()

    for message in conversation:
        if isinstance(message, UserTurn):
            flush_spoken()
            messages.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantTurn) and message.kind == "ack":
            spoken.append(message.text)
        elif isinstance(message, AssistantTurn):
            flush_spoken()
            messages.append({"role": "assistant", "content": message.text})
        elif isinstance(message, ToolExchange):
            content = " ".join(spoken) or None
            spoken.clear()
            messages.extend(exchange_messages(message.results, names, content=content))
    flush_spoken()
    return messages


def answered_call_ids(conversation: Iterable[Message]) -> set[str]:
    """Ids of calls whose results the conversation already carries."""
    return {
        result.call.call_id
        for message in conversation
        if isinstance(message, ToolExchange)
        for result in message.results
    }


def narration_messages(
    conversation: Sequence[Message],
    user_message: str,
    tool_results: Sequence[ToolResult],
    names: ToolNames,
) -> list[ChatMessage]:
    """History for the narrator: the conversation, then any result it lacks, by round.

    The engine may hand the narrator a conversation that already holds this turn's
    rounds, or only earlier turns; either way every result appears exactly once, after
    the user message it answers.
    """
    answered = answered_call_ids(conversation)
    missing = [result for result in tool_results if result.call.call_id not in answered]
    body = list(conversation)
    trailing_acks: list[str] = []
    while missing and body and isinstance(last := body[-1], AssistantTurn) and last.kind == "ack":
        # Spoken for rounds whose results arrive below: keep them with that round.
        trailing_acks.insert(0, last.text)
        body.pop()
    messages = history_messages(body, names)
    last_user = next((m.text for m in reversed(body) if isinstance(m, UserTurn)), None)
    if user_message and last_user != user_message:
        messages.append({"role": "user", "content": user_message})
    content = " ".join(trailing_acks) or None
    for round_number in sorted({result.round for result in missing}):
        this_round = [result for result in missing if result.round == round_number]
        messages.extend(exchange_messages(this_round, names, content=content))
        content = None
    return messages
