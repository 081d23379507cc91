"""Models whose answers cost nothing after the first: the engine's own CPU, measured alone.

A deployment on a model endpoint spends the planner's and the narrator's CPU on another
machine; the embedded models spend it here, about half the server's CPU on
bench.sessions' turns. `--models remembered` wraps them so that each distinct request is
decided (or narrated) once, for real, and its answer is replayed afterwards: what is
left is the house's own work per turn (the websocket, events, the executor, the CRM
client, dialogue state, metrics), the part every deployment pays.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Hashable
from typing import Any

from assistant.models.base import Narrator, Planner
from assistant.schema import FinalDecision, NarratorInput, PlanRequest, ToolCallsDecision


def _results(results: Any) -> Hashable:
    return tuple((result.call.tool_name, result.status) for result in results)


class RememberedPlanner:
    """`inner`'s decision for each (round, words, results so far), decided once."""

    def __init__(self, inner: Planner) -> None:
        self._inner = inner
        self._decided: dict[Hashable, FinalDecision | ToolCallsDecision] = {}

    async def decide(self, request: PlanRequest) -> FinalDecision | ToolCallsDecision:
        key = (request.round, request.user_message, _results(request.turn_results))
        decision = self._decided.get(key)
        if decision is None:
            decision = self._decided[key] = await self._inner.decide(request)
        return decision


class RememberedNarrator:
    """`inner`'s answer for each (words, results, what was told already), spoken once."""

    def __init__(self, inner: Narrator) -> None:
        self._inner = inner
        self._said: dict[Hashable, list[str]] = {}

    async def narrate(self, request: NarratorInput) -> AsyncIterator[str]:
        key = (
            request.user_message,
            _results(request.tool_results),
            request.waiting_on,
            len(request.told),
            request.confirmation_prompt,
        )
        pieces = self._said.get(key)
        if pieces is None:
            pieces = self._said[key] = [piece async for piece in self._inner.narrate(request)]
        for piece in pieces:
            yield piece
