"""Per-call policy seam: timeout, retries, Retry-After and the circuit breaker.

The executor hands every call attempt to `CallPolicy.run`; this first version makes one
attempt under the tool's timeout. ("Resilience" replaces it with retries and breakers.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from assistant.errors import ToolFailure
from assistant.schema import ToolDefinition

Attempt = Callable[[], Awaitable[Any]]


@dataclass(slots=True)
class Outcome:
    """What a policy run produced: the result, or the failure, and attempts made."""

    result: Any = None
    failure: ToolFailure | None = None
    attempts: int = 0


class CallPolicy:
    async def run(self, tool: ToolDefinition, attempt: Attempt, *, deadline: float) -> Outcome:
        """Run `attempt` until it succeeds or the policy gives up; never raises ToolFailure.

        `deadline` is a loop time (`asyncio.get_running_loop().time()`): no attempt
        starts past it and none runs beyond it.
        """
        loop = asyncio.get_running_loop()
        budget = min(tool.timeout_s, deadline - loop.time())
        if budget <= 0:
            return Outcome(failure=ToolFailure("timeout", "the turn's deadline had passed"))
        try:
            async with asyncio.timeout(budget):
                return Outcome(result=await attempt(), attempts=1)
        except TimeoutError:
            return Outcome(
                failure=ToolFailure("timeout", f"no answer within {budget:.1f} s"), attempts=1
            )
        except ToolFailure as failure:
            return Outcome(failure=failure, attempts=1)
