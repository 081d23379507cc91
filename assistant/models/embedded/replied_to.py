"""The answer a short reply answers: "yes" to "Would you like me to add a task to call the
pharmacy?", "cancel" to "…cancel it, or move it to another day?"."""

from __future__ import annotations

from collections.abc import Sequence

from assistant.schema import AssistantTurn, Message, UserTurn


def answer_replied_to(conversation: Sequence[Message]) -> str | None:
    """The answer given just before the customer's last message (which the conversation
    ends with, or not yet); None when none was, or another message of theirs came
    between (acknowledgements and lookups between are passed over)."""
    said = [
        m
        for m in conversation
        if isinstance(m, UserTurn) or (isinstance(m, AssistantTurn) and m.kind == "answer")
    ]
    if said and isinstance(said[-1], UserTurn):
        said.pop()  # the message itself
    last = said[-1] if said else None
    return last.text if isinstance(last, AssistantTurn) else None


__all__ = ["answer_replied_to"]
