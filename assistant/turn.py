"""One turn's state and its handle: what was called, said and decided, and `turn.done`."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any

from assistant import truthful
from assistant.acknowledge import hint_to_clause
from assistant.schema import (
    AssistantTurn,
    EventSink,
    ToolCall,
    ToolResult,
    TurnDone,
    TurnStatus,
    tool_error_wire,
)
from assistant.session import PendingConfirmation, Session
from assistant.turn_budget import TurnBudget
from assistant.zones import same_moment_value


@dataclass(slots=True)
class TurnState:
    """What one turn has done so far; the engine fills it, `turn_done` reports it."""

    session: Session
    text: str
    turn_id: str
    message_id: str | None
    emit: EventSink
    trace_id: str
    started: float
    deadline: float  # the tools' end (turn_budget.py)
    now: datetime
    budget: TurnBudget  # when each part of the turn must be done
    # When the customer's message arrived (wall-clock seconds); None: not known (replay).
    received_at: float | None = None
    # False: the question waiting was asked on another connection of the session.
    question_heard: bool = True
    results: list[ToolResult] = field(default_factory=list)
    truncated: int = 0
    # Writes a decision asked for past the per-round cap: run in the next round (a
    # customer's fifth task of five asked for is added, not lost without a word).
    carried: list[ToolCall] = field(default_factory=list)
    spoken_hints: set[str] = field(default_factory=set)
    pending: PendingConfirmation | None = None
    # Said before the answer: what became of a pending confirmation the customer left.
    preface: str | None = None
    # Said after the answer: a booking not made because the cancel it replaced failed.
    afterword: str | None = None
    # The calls that confirmation held, left this turn: a narrowed "no, just the haircut"
    # holds some of them again, and the preface about them all is then not said.
    dropped_calls: tuple[ToolCall, ...] = ()
    # The question a request said to come first left waiting ("hang on, first book me a
    # haircut" while a cancel waits): asked again after that request, if it asks nothing.
    held_over: PendingConfirmation | None = None
    # Call ids of the lookups the engine made to check a write for duplicates.
    checks: set[str] = field(default_factory=set)
    # Writes sent again under an earlier attempt's idempotency key, by call id
    # (integrity.py `_resend_under_earlier_keys`).
    resend_keys: dict[str, str] = field(default_factory=dict)
    answer: list[str] = field(default_factory=list)
    # Call ids of the results the answer told while other calls were still running.
    told: set[str] = field(default_factory=set)
    told_pieces: int = 0  # how many answer pieces that first part was
    failed: bool = False
    answer_remembered: bool = False
    # The figures the conversation's results hold, as last read by answering.py (the
    # zone, the calls held, the results read, what they hold), for its next sentence.
    figures_read: tuple[str, tuple[ToolCall, ...], tuple[ToolResult, ...], Any] | None = None
    timings: dict[str, float] = field(
        default_factory=lambda: {"decision": 0.0, "ack": 0.0, "tools": 0.0, "answer": 0.0}
    )

    def remember_answer(self) -> None:
        """Keep what was said (all of it, or as far as a cancelled turn got) once."""
        text = "".join(self.answer).strip()
        if text and not self.answer_remembered:
            self.session.remember(AssistantTurn(kind="answer", text=text))
        self.answer_remembered = True

    def status(self) -> TurnStatus:
        if self.failed:
            return "failed"
        if not self.results:
            return "ok"
        ok = sum(1 for result in self.results if result.ok)
        if ok == len(self.results):
            return "ok"
        return "failed" if ok == 0 else "partial"

    def turn_done(self, status: TurnStatus) -> TurnDone:
        total = time.perf_counter() - self.started
        timings = {name: round(seconds * 1000) for name, seconds in self.timings.items()}
        timings["total"] = round(total * 1000)
        return TurnDone(
            turn_id=self.turn_id,
            status=status,
            tool_calls=[call_summary(result) for result in self.results],
            truncated_calls=self.truncated,
            awaiting_confirmation=(
                self.pending.wire() if self.pending and status != "cancelled" else None
            ),
            timings_ms=timings,
            trace_id=self.trace_id,
        )


class Turn:
    """A running turn. `cancel()` is the cooperative stop of `turn.cancel` and barge-in:
    reads stop, writes in flight finish, and the turn ends with status `cancelled`."""

    def __init__(self, task: asyncio.Task[TurnDone], turn_id: str) -> None:
        self.turn_id = turn_id
        self.cancel_requested = False
        self.trace_id: str | None = None  # set when the turn starts running
        self._task = task

    def cancel(self) -> None:
        if not self._task.done():
            self.cancel_requested = True
            self._task.cancel()

    def done(self) -> bool:
        return self._task.done()

    @property
    def task(self) -> asyncio.Task[TurnDone]:
        """The task running the turn, for waiting on it without a task of one's own."""
        return self._task

    async def wait(self) -> TurnDone:
        return await self._task


def call_key(call: ToolCall) -> tuple[str, str]:
    """The same call, whatever its id (a moment by its instant, whatever its offset)."""
    arguments = call.arguments
    if "starts_at" not in arguments:
        return call.tool_name, repr(sorted(arguments.items()))
    return call.tool_name, repr(
        sorted((name, same_moment_value(name, value)) for name, value in arguments.items())
    )


def call_summary(result: ToolResult) -> dict[str, object]:
    return {
        "call_id": result.call.call_id,
        "round": result.round,
        "tool": result.call.tool_name,
        "arguments": result.call.arguments,
        "status": result.status,
        "error": tool_error_wire(result.error),
        "latency_ms": result.latency_ms,
        "attempts": result.attempts,
    }


def written_before(state: TurnState) -> frozenset[str]:
    """The tools of the writes this conversation made before this turn (the dialogue is
    advanced only when the turn ends): what a state said again may rest on. A write the
    CRM did not confirm may have landed: "…did go through after all: your haircut is
    cancelled", told from the listing read since, rests on it (was: said instead as "I
    haven't actually made that change yet", the opposite of what the CRM held)."""
    dialogue = state.session.dialogue
    return frozenset(str(item.get("tool")) for item in dialogue.done) | frozenset(
        str(item.get("tool")) for item in dialogue.failed if item.get("unconfirmed")
    )


def said_instead(
    state: TurnState, text: str, writes: Collection[str], *, held: bool = False
) -> str | None:
    """The line said in place of a model's `text` that would tell the opposite of what
    this turn did (assistant/truthful.py), or None."""
    if not truthful.may_mislead(text):
        return None
    customer = state.session.customer
    return truthful.said_instead(
        text,
        state.results,
        writes,
        timezone=customer.timezone if customer else "UTC",
        held=held,
        earlier=written_before(state),
        pending=(
            [call.tool_name for call in state.pending.calls]
            if held and state.pending is not None
            else ()
        ),
    )


def context_hint(results: Sequence[ToolResult], hints: Callable[[str], str | None]) -> str:
    """ "Summarise both your upcoming appointments and your billing naturally; …"."""
    return _context_hint(tuple(result.call.tool_name for result in results), hints)


@lru_cache(maxsize=256)
def _context_hint(tool_names: tuple[str, ...], hints: Callable[[str], str | None]) -> str:
    # The same few combinations of tools come back turn after turn.
    topics: list[str] = []
    for tool_name in tool_names:
        hint = hints(tool_name)
        if hint:
            topic = hint_to_clause(hint).partition(" ")[2]
            topic = topic.removeprefix("up ")  # "look up your …" → "your …"
            if topic and topic not in topics:
                topics.append(topic)
    if not topics:
        subject = "the results"
    elif len(topics) == 1:
        subject = topics[0]
    elif len(topics) == 2:
        subject = f"both {topics[0]} and {topics[1]}"
    else:
        subject = ", ".join(topics[:-1]) + f", and {topics[-1]}"
    return (
        f"Summarise {subject} naturally, in short spoken sentences; "
        "say plainly what could not be retrieved or done."
    )
