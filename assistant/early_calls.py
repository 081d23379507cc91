"""Reads started while the decision that asks for them is still streaming.

A model streams its tool calls one after another, 300–500 ms each. The planner hands
every call over the moment its arguments are complete (`PlanRequest.on_call`); a read
is announced at once ("Sure, I'll look up your upcoming appointments", then " and
check your billing" when the next arrives) and started. The acknowledgement ends (its
full stop and ack.done) when the decision does; the early calls' tool.started and
tool.finished are held until then (round_run.py), as PROTOCOL.md orders them.

A write is never started on a partial decision: destructive and identity changes are
confirmed first, and the write-integrity checks (times, duplicates: guard.py) judge
writes against the whole decision, so every write waits for the decision's end and
goes through the same steps as before. Calls the executor would refuse wait too, so
they are reported with the rest.

Dedup and the per-round cap count every call handed over, reads and writes alike, in
stream order: a read starts early only if it would also have been kept at the end.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from assistant.acknowledge import hint_to_clause
from assistant.round_run import RoundRun
from assistant.schema import AckDelta, ToolCall
from assistant.tools.executor import ToolExecutor
from assistant.turn import TurnState, call_key


class EarlyCalls:
    """The `on_call`/`on_ack` sinks of one streamed decision."""

    def __init__(
        self,
        run: RoundRun,
        executor: ToolExecutor,
        state: TurnState,
        round_no: int,
        *,
        dedupe: bool,
        cap: int,
    ) -> None:
        self.run = run
        self._executor = executor
        self._state = state
        self._round = round_no
        self._dedupe = dedupe
        self._cap = cap
        self._seen: list[tuple[str, str]] = []
        self.started: list[ToolCall] = []
        self.pieces: list[str] = []  # the acknowledgement said so far, hint by hint
        self.model_spoke = False
        self.first_piece_at: float | None = None  # perf_counter of the first ack.delta
        self.closed = False  # set once the answer has begun: nothing more starts

    @property
    def lead(self) -> str:
        return "Sure, I'll" if self._round == 1 else "Now I'll"

    async def on_ack(self, piece: str) -> None:
        """The model's own acknowledgement: spoken instead of the waiting hints."""
        self.model_spoke = True
        await self._say(piece)

    async def on_call(self, call: ToolCall) -> None:
        key = self._key(call)
        if key in self._seen:
            return  # a duplicate: dropped at the end as well
        self._seen.append(key)
        if self.closed or len(self._seen) > self._cap or not self._is_plain_read(call):
            return
        tool = self._executor.tool(call.tool_name)
        hint = tool.waiting_hint if tool is not None else ""
        if hint and not self.model_spoke and hint not in self._state.spoken_hints:
            self._state.spoken_hints.add(hint)
            clause = hint_to_clause(hint)
            piece = f"{self.lead} {clause}" if not self.pieces else f" and {clause}"
            self.pieces.append(piece)
            await self._say(piece)
        self.started.append(call)
        self.run.hold()  # its tool.started goes out after the round's ack.done
        await self.run.start([call])

    async def _say(self, piece: str) -> None:
        if self.first_piece_at is None:
            self.first_piece_at = time.perf_counter()
        await self._state.emit(AckDelta(self._state.turn_id, self._round, piece))

    def _is_plain_read(self, call: ToolCall) -> bool:
        tool = self._executor.tool(call.tool_name)
        customer = self._state.session.customer
        return (
            tool is not None
            and not tool.writes
            and not tool.needs_confirmation
            and customer is not None
            and self._executor.argument_error(call, customer.customer_id) is None
        )

    def closing(self, hints: Sequence[str]) -> list[str]:
        """The rest of the acknowledgement at the decision's end: the calls not started
        early, then the full stop."""
        clauses = list(dict.fromkeys(hint_to_clause(hint) for hint in hints if hint.strip()))
        pieces = [f" and {clause}" for clause in clauses]
        if pieces:
            pieces[-1] += "."
        else:
            pieces.append(".")
        return pieces

    def keep(self, calls: Sequence[ToolCall]) -> tuple[list[ToolCall], list[ToolCall]]:
        """The decision's calls not started yet that dedup and the cap keep, and those
        over the cap. The calls already running keep their places."""
        started_ids = {call.call_id for call in self.started}
        seen = {self._key(call) for call in self.started}
        rest: list[ToolCall] = []
        for call in calls:
            key = self._key(call)
            if call.call_id not in started_ids and key not in seen:
                seen.add(key)
                rest.append(call)
        room = max(0, self._cap - len(self.started))
        return rest[:room], rest[room:]

    def _key(self, call: ToolCall) -> tuple[str, str]:
        return call_key(call) if self._dedupe else (call.call_id, "")
