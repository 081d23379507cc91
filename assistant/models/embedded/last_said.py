"""The customer's last message of a planner's request, and the request with it said again
in other words ("…two days before my bill is due" → "…on February 1"): what the modules
that count a day from something read (bill_anchored.py, task_anchored.py)."""

from __future__ import annotations

import dataclasses

from assistant.schema import PlanRequest, UserTurn


def last_said(request: PlanRequest) -> tuple[int, str] | None:
    """Where the customer's last message is in the conversation, and its words."""
    conversation = request.conversation
    for index in range(len(conversation) - 1, -1, -1):
        message = conversation[index]
        if isinstance(message, UserTurn):
            return index, message.text
    return None


def said_as(request: PlanRequest, index: int, told: str) -> PlanRequest:
    """`request` with the message at `index` said as `told`."""
    conversation = (
        *request.conversation[:index],
        UserTurn(text=told),
        *request.conversation[index + 1 :],
    )
    return dataclasses.replace(request, conversation=conversation)
