"""Stand-ins that answer the engine with what a recording holds.

`ReplayScript` hands out one turn's recorded decisions, narrations and tool results
in order; `ReplayPlanner`, `ReplayNarrator` and `ReplayToolBackend` answer from it,
and `ReplayCallPolicy` gives each call its recorded outcome (result or error, and the
attempts it took) without retries or waiting, so a replay is fast and exact.

When the engine asks for something the recording does not have (a further planner
round, a different tool call), the stand-in says so in a note, which counts as a
difference, and answers with a failure, so the turn still ends and the events show it.

A call, decision or narration that was cancelled in the recording waits here until
the replay cancels the turn at the same point.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from assistant.errors import AssistantError, ModelUnavailable, ToolFailure
from assistant.recording.compare import canonical
from assistant.recording.format import (
    DecisionRecord,
    ModelError,
    ModelSource,
    NarrationRecord,
    NarratorSource,
    Recording,
    Turn,
)
from assistant.schema import (
    FinalDecision,
    NarratorInput,
    PlanRequest,
    ToolCallsDecision,
    ToolDefinition,
    ToolResult,
)
from assistant.tools.catalog import bind_customer
from assistant.tools.resilience import Attempt, CallPolicy, Outcome


class NotRecorded(AssistantError):
    """The engine asked for something the recording does not hold."""


@dataclass(slots=True)
class Note:
    """A difference that is not an event: what the engine asked for, against the script."""

    text: str
    # The recording lacks an input the engine needed: `--update` cannot rewrite it.
    unrecorded_input: bool = False


@dataclass(slots=True)
class _Entry:
    key: tuple[str, str]
    result: ToolResult
    used: bool = False


@dataclass(slots=True)
class ReplayScript:
    """One recording's inputs, turn by turn. `live` lets tool lookups cross turns."""

    recording: Recording
    live: bool = False
    notes: dict[int, list[Note]] = field(default_factory=dict)
    _turn: Turn | None = None
    _decisions: dict[str, deque[DecisionRecord]] = field(default_factory=dict)
    _narrations: dict[str, deque[NarrationRecord]] = field(default_factory=dict)
    _results: list[_Entry] = field(default_factory=list)
    _now: datetime | None = None

    def begin(self, turn: Turn) -> None:
        self._turn = turn
        self._decisions = {}
        for decision in turn.decisions:
            self._decisions.setdefault(decision.source, deque()).append(decision)
        self._narrations = {}
        for narration in turn.narrations:
            self._narrations.setdefault(narration.source, deque()).append(narration)
        customer = self.recording.header.customer
        customer_id = customer.customer_id if customer else None
        # Earlier turns stay at the back, latest first: a live model may ask again for
        # what they fetched.
        current = [
            _Entry(_key(r.result.call.tool_name, r.result.call.arguments, customer_id), r.result)
            for r in turn.tool_results
        ]
        self._results = current + self._results
        self._now = turn.now or self._now or self.recording.header.started_at

    def now(self) -> datetime:
        """The engine's clock: the `now` the recorded turn's models were given."""
        return self._now or datetime.now(UTC)

    @property
    def turn_number(self) -> int:
        return self._turn.number if self._turn else 0

    def note(self, text: str, *, unrecorded_input: bool = False) -> None:
        self.notes.setdefault(self.turn_number, []).append(Note(text, unrecorded_input))

    def next_decision(self, source: ModelSource) -> DecisionRecord | None:
        queue = self._decisions.get(source)
        return queue.popleft() if queue else None

    def next_narration(self, source: NarratorSource) -> NarrationRecord | None:
        queue = self._narrations.get(source)
        return queue.popleft() if queue else None

    def tool_result(self, tool: str, arguments: Mapping[str, Any]) -> ToolResult | None:
        key = (tool, canonical(dict(arguments)))
        number = len(self._turn.tool_results) if self._turn else 0
        searched = self._results if self.live else self._results[:number]
        for entry in searched:
            if entry.key == key and (not entry.used or self.live):
                entry.used = True
                return entry.result
        return None

    def end(self) -> None:
        """Note what the turn recorded but the engine never asked for (replayed models)."""
        if self.live:
            return
        for source, queue in self._decisions.items():
            for left in (record for record in queue if not record.cancelled):
                self.note(f"the {source} was not asked for round {left.round}, as recorded")
        for source, narrations in self._narrations.items():
            if any(not record.cancelled for record in narrations):
                self.note(f"the {source} was not asked to narrate, as recorded")


def _key(tool: str, arguments: Mapping[str, Any], customer_id: str | None) -> tuple[str, str]:
    bound, _ = bind_customer(arguments, customer_id)
    return tool, canonical(bound)


def _raise(error: ModelError) -> None:
    if error.type == "ModelUnavailable":
        raise ModelUnavailable(error.message)
    raise RuntimeError(f"{error.type}: {error.message}")


async def _wait_for_cancel() -> None:
    """Cancelled in the recording: wait for the replay to cancel the turn here too."""
    await asyncio.Event().wait()


class ReplayPlanner:
    def __init__(self, script: ReplayScript, source: ModelSource = "planner") -> None:
        self._script = script
        self._source: ModelSource = source

    async def decide(self, request: PlanRequest) -> FinalDecision | ToolCallsDecision:
        record = self._script.next_decision(self._source)
        await asyncio.sleep(0)  # a real model suspends here; a cancel lands where it did
        if record is None:
            self._script.note(
                f"the {self._source} was asked for round {request.round}, which the "
                "recording does not have",
                unrecorded_input=True,
            )
            raise NotRecorded(f"no recorded {self._source} decision for round {request.round}")
        if record.round != request.round:
            self._script.note(
                f"the {self._source} was asked for round {request.round}; "
                f"the recording answered round {record.round}"
            )
        if record.now != request.now:
            self._script.note(
                f"the {self._source} was given now={request.now.isoformat()}; "
                f"the recording had {record.now.isoformat()}"
            )
        if request.on_text is not None:
            for piece in record.streamed_text:
                await request.on_text(piece)
        for piece in record.ack_pieces:
            if request.on_ack is not None:
                await request.on_ack(piece)
        if request.on_call is not None and isinstance(record.decision, ToolCallsDecision):
            by_id = {call.call_id: call for call in record.decision.calls}
            for call_id in record.streamed_calls:
                if call_id in by_id:
                    await asyncio.sleep(0)  # streamed: the call before it got going
                    await request.on_call(by_id[call_id])
        if record.cancelled:
            await _wait_for_cancel()
        if record.error is not None:
            _raise(record.error)
        assert record.decision is not None  # a record is a decision, an error or cancelled
        return record.decision


class ReplayNarrator:
    def __init__(self, script: ReplayScript, source: NarratorSource = "narrator") -> None:
        self._script = script
        self._source: NarratorSource = source

    async def narrate(self, request: NarratorInput) -> AsyncIterator[str]:
        record = self._script.next_narration(self._source)
        if record is None:
            self._script.note(
                f"the {self._source} was asked to narrate, which the recording does not have",
                unrecorded_input=True,
            )
            raise NotRecorded(f"no recorded {self._source} narration")
        if record.context_hint != request.context_hint:
            self._script.note(
                f"the {self._source} was given another hint:\n"
                f"  - recorded: {record.context_hint}\n  + replayed: {request.context_hint}"
            )
        for piece in record.pieces:
            await asyncio.sleep(0)  # streamed: a cancel lands between pieces
            yield piece
        if record.cancelled:
            await _wait_for_cancel()
        if record.error is not None:
            _raise(record.error)


@dataclass(frozen=True, slots=True)
class _Replayed:
    """A recorded outcome on its way from the backend to `ReplayCallPolicy`."""

    result: ToolResult


class ReplayToolBackend:
    """Answers each call with the recorded result for the same tool and arguments."""

    def __init__(self, script: ReplayScript) -> None:
        self._script = script

    def supports(self, tool_name: str) -> bool:
        return True

    async def invoke(
        self,
        tool: ToolDefinition,
        customer_id: str,
        arguments: Mapping[str, Any],
        *,
        idempotency_key: str | None,
        trace_id: str,
    ) -> Any:
        result = self._script.tool_result(tool.name, arguments)
        if result is None:
            shown = canonical(dict(arguments))
            self._script.note(
                f"the engine called {tool.name} {shown}, which the recording has no result for",
                unrecorded_input=True,
            )
            raise ToolFailure("unavailable", f"{tool.name} {shown} is not in the recording")
        return _Replayed(result)


class ReplayCallPolicy(CallPolicy):
    """One attempt against `ReplayToolBackend`, reported as the recording had it."""

    def __init__(self) -> None:  # no breaker, no retries: the outcome is recorded
        pass

    async def run(
        self,
        tool: ToolDefinition,
        attempt: Attempt,
        *,
        deadline: float,
        idempotent: bool = True,
        resent: bool = False,
    ) -> Outcome:
        try:
            answer = await attempt()
        except ToolFailure as missing:
            return Outcome(failure=missing, attempts=1)
        if not isinstance(answer, _Replayed):  # a live backend behind the replay policy
            return Outcome(result=answer, attempts=1)
        recorded = answer.result
        if recorded.ok:
            return Outcome(result=recorded.result, attempts=recorded.attempts)
        error = recorded.error
        if error is None:
            return Outcome(failure=ToolFailure("internal", "recorded without an error"))
        if error.code == "cancelled":
            await _wait_for_cancel()
        failure = ToolFailure(error.code, error.message, retry_after_s=error.retry_after_s)
        return Outcome(failure=failure, attempts=recorded.attempts)
