"""A conversation's state: who it is for, its history, and a pending confirmation.

A session is a plain value (session_store.py turns it into JSON and back): its turn
counter is an int, its times are wall-clock seconds, and its history entries have ids
(`entry_ids`), so that a transport or the recorder refers to "the entry it spoke" by
id rather than by holding the object, and a session can live in a store.
"""

from __future__ import annotations

import dataclasses
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from assistant.answers_kept import KeptAnswers
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
    expires_at: float  # wall-clock seconds (the engine's clock)
    # What to say on a "no", and when the customer moves on to something else.
    declined: str = "Okay, I won't go ahead with that."
    dropped: str = "I didn't go ahead with that."
    # Each call (by id) and what it would do, in the order the question said them: a reply
    # that picks some of them ("yes to the first, no to the second") is read against it.
    named: tuple[tuple[str, str], ...] = ()
    # Moved on from, and something was written since: asked again before it runs.
    ask_first: bool = False
    # When the question had been said in full (wall-clock seconds, `time.time()`, as a
    # message's arrival): a yes that arrived before it answers nothing. None: unknown.
    asked_at: float | None = None
    # The turn (`Session.turns`) a question moved on from it in (0: not moved on from): a
    # bare yes the turn after is asked about it again, never run on.
    moved_on_in: int = 0

    def asked_now(self) -> PendingConfirmation:
        """This confirmation, its question said in full just now."""
        return dataclasses.replace(self, asked_at=time.time())

    def answered_by(self, received_at: float | None) -> bool:
        """Whether a message that arrived at `received_at` came after the question."""
        return received_at is None or self.asked_at is None or received_at >= self.asked_at

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
    done: str  # "added 'Buy milk'"; "asked to add 'Buy milk'" when not confirmed
    # Sent, but the CRM had not confirmed it by the turn's end: it may have been made.
    unconfirmed: bool = False
    # The idempotency key of one that may still be landing (no answer came): the same
    # write asked again is sent under it, so the CRM applies it once whichever lands.
    sent_as: str = ""


@dataclass(slots=True)
class Session:
    """One customer's conversation, run by one conversation at a time."""

    customer: CustomerContext | None
    tools: tuple[ToolDefinition, ...]
    session_id: str = field(default_factory=lambda: f"s_{secrets.token_hex(6)}")
    history: list[Message] = field(default_factory=list)
    pending: PendingConfirmation | None = None
    # The confirmation the customer moved on from without a yes or a no ("delete the
    # groceries task" → "what do I owe?"): "ok, go ahead with the delete" later takes it
    # up (asked again first if something was written since); a new question ends it.
    dropped: PendingConfirmation | None = None
    recent_writes: list[RecentWrite] = field(default_factory=list)
    # What the conversation is about (assistant.dialogue): planner and narrator share it.
    dialogue: Dialogue = field(default_factory=Dialogue)
    turns: int = 0  # turns started so far
    # The client's id of the message the last turn answered (told on a resume).
    last_message_id: str | None = None
    # Begun when the client asked to continue a conversation the store no longer held
    # (its resume window over): the first messages it sends may be ones it sends again,
    # whose first answer it never saw (assistant/resent.py, integrity.py).
    after_lost: bool = False
    # The id of each history entry, in step with `history`; ids only grow.
    entry_ids: list[int] = field(default_factory=list)
    next_entry_id: int = 1
    # A platform conversation's answers given in full, for its retries and late copies
    # wherever they land (transports/platform_retry.py); empty on other transports.
    answered: KeptAnswers = field(default_factory=KeptAnswers)

    def next_turn_id(self) -> str:
        self.turns += 1
        return f"t_{self.turns}"

    def remember(self, *messages: Message) -> None:
        for message in messages:
            self.history.append(message)
            self.entry_ids.append(self.next_entry_id)
            self.next_entry_id += 1
        if len(self.history) > MAX_HISTORY_MESSAGES:
            cut = len(self.history) - MAX_HISTORY_MESSAGES
            del self.history[:cut]
            del self.entry_ids[:cut]

    def newest_entry(self) -> tuple[int, Message] | None:
        """The last history entry with its id."""
        if not self.history:
            return None
        return self.entry_ids[-1], self.history[-1]

    def entries_since(self, mark: int) -> list[Message]:
        """The entries remembered since `next_entry_id` was `mark` (still in history)."""
        return [m for i, m in zip(self.entry_ids, self.history, strict=True) if i >= mark]

    def replace_entry(self, entry_id: int, message: Message) -> bool:
        """Put `message` where entry `entry_id` is (same id); False if it is gone."""
        index = self._index(entry_id)
        if index is None:
            return False
        self.history[index] = message
        return True

    def drop_entry(self, entry_id: int) -> bool:
        """Remove entry `entry_id` from history; False if it is gone already."""
        index = self._index(entry_id)
        if index is None:
            return False
        del self.history[index]
        del self.entry_ids[index]
        return True

    def _index(self, entry_id: int) -> int | None:
        try:
            return self.entry_ids.index(entry_id)
        except ValueError:
            return None

    def take_dropped(self, now: float | None = None) -> PendingConfirmation | None:
        """The confirmation moved on from, if still valid and this session's; consumed."""
        dropped, self.dropped = self.dropped, None
        if dropped is None or dropped.session_id != self.session_id:
            return None
        if (time.time() if now is None else now) >= dropped.expires_at:
            return None
        return dropped

    def question_waits(self, now: float | None = None) -> bool:
        """A confirmation still waits for this session's answer (it is not consumed)."""
        pending = self.pending
        return (
            pending is not None
            and pending.session_id == self.session_id
            and (time.time() if now is None else now) < pending.expires_at
        )

    def take_pending(self, now: float | None = None) -> PendingConfirmation | None:
        """The pending confirmation, if still valid and this session's; it is consumed.
        `now`: wall-clock seconds (the engine passes its clock's)."""
        pending, self.pending = self.pending, None
        if pending is None or pending.session_id != self.session_id:
            return None
        if (time.time() if now is None else now) >= pending.expires_at:
            return None
        return pending
