"""What a resumed session's `session.ready` tells of the turn before the reconnect.

A socket that dropped mid-turn never received that turn's answer or `turn.done`: the
write it asked for may have landed, and a question may be waiting for a yes. The
resumed `session.ready` carries `last_turn` (an added field, PROTOCOL.md allows it):

    {"turn_id": "t_3", "message_id": "m7", "answer": "I added a task: …" | null,
     "tool_calls": [{call_id, round, tool, arguments, status, error, …}],
     "awaiting_confirmation": null | {tool, arguments, prompt, calls}}

`answer` is what the turn answered (None when it was stopped before answering: a
dropped socket stops the turn, and a write in flight finishes unnarrated), and
`tool_calls` every call it made with its outcome, as in `turn.done`; both read from the
session's history, so the client shows what happened instead of sending the message
again. The runner reads the session only once that turn is over
(`Conversation.resume` waits for the session's lock).
"""

from __future__ import annotations

from typing import Any

from assistant.schema import AssistantTurn, ToolExchange, UserTurn
from assistant.session import Session
from assistant.turn import call_summary


def last_turn(session: Session) -> dict[str, Any] | None:
    """The last turn of `session` as `session.ready` tells it; None before any turn."""
    if session.turns == 0:
        return None
    answer: list[str] = []
    calls: list[dict[str, object]] = []
    for entry in reversed(session.history):
        if isinstance(entry, UserTurn):
            break
        if isinstance(entry, AssistantTurn) and entry.kind == "answer":
            answer.append(entry.text)
        elif isinstance(entry, ToolExchange):
            calls[:0] = [call_summary(result) for result in entry.results]
    pending = session.pending
    return {
        "turn_id": f"t_{session.turns}",
        "message_id": session.last_message_id,
        "answer": " ".join(reversed(answer)) or None,
        "tool_calls": calls,
        "awaiting_confirmation": pending.wire() if pending is not None else None,
    }


__all__ = ["last_turn"]
