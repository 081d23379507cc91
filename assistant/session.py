"""A conversation's state: who it is for, its history, and a pending confirmation."""

from __future__ import annotations

import itertools
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from assistant.dialogue_state import Dialogue
from assistant.schema import CustomerContext, Message, ToolCall, ToolDefinition

# Enough context for follow-ups ("and the one after that?") without growing forever.
MAX_HISTORY_MESSAGES = 60


@dataclass(frozen=True, slots=True)
class PendingConfirmation:
    """Calls waiting for the customer's "yes", all asked about in one question."""

    calls: tuple[ToolCall, ...]
    prompt: str
    session_id: str
    expires_at: float  # time.monotonic()
    # What to say on a "no", and when the customer moves on to something else.
    declined: str = "Okay, I won't go ahead with that."
    dropped: str = "I didn't go ahead with that."

    def wire(self) -> dict[str, Any]:
        first = self.calls[0]
        return {
            "tool": first.tool_name,
            "arguments": first.arguments,
            "prompt": self.prompt,
            "calls": [{"tool": c.tool_name, "arguments": c.arguments} for c in self.calls],
        }


@dataclass(frozen=True, slots=True)
class RecentWrite:
    """A write this conversation made, for asking before the same one is made again."""

    key: str  # the tool and its arguments
    at: float  # wall-clock seconds (the engine's clock)
    done: str  # "added 'Buy milk'"


@dataclass(slots=True)
class Session:
    """One customer's conversation, owned by one transport connection."""

    customer: CustomerContext | None
    tools: tuple[ToolDefinition, ...]
    session_id: str = field(default_factory=lambda: f"s_{secrets.token_hex(6)}")
    history: list[Message] = field(default_factory=list)
    pending: PendingConfirmation | None = None
    recent_writes: list[RecentWrite] = field(default_factory=list)
    # What the conversation is about (assistant.dialogue): planner and narrator share it.
    dialogue: Dialogue = field(default_factory=Dialogue)
    _turns: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def next_turn_id(self) -> str:
        return f"t_{next(self._turns)}"

    def remember(self, *messages: Message) -> None:
        self.history.extend(messages)
        if len(self.history) > MAX_HISTORY_MESSAGES:
            del self.history[: len(self.history) - MAX_HISTORY_MESSAGES]

    def take_pending(self, now: float | None = None) -> PendingConfirmation | None:
        """The pending confirmation, if still valid and this session's; it is consumed."""
        pending, self.pending = self.pending, None
        if pending is None or pending.session_id != self.session_id:
            return None
        if (time.monotonic() if now is None else now) >= pending.expires_at:
            return None
        return pending
