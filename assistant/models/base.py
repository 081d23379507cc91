"""The two seams every model backend plugs into: a Planner and a Narrator."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Protocol

from assistant.schema import FinalDecision, NarratorInput, PlanRequest, ToolCallsDecision


class Planner(Protocol):
    async def decide(self, request: PlanRequest) -> FinalDecision | ToolCallsDecision:
        """Return a final answer or up to `request.max_calls` tool calls.

        Raises `ModelUnavailable` when the model cannot be reached.
        """
        ...


class Narrator(Protocol):
    def narrate(self, request: NarratorInput) -> AsyncIterator[str]:
        """Stream one spoken answer, in sentence-sized pieces, for every result given.

        Raises `ModelUnavailable` when the model cannot be reached.
        """
        ...
