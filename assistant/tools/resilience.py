"""Per-call policy: timeout, retries with backoff, Retry-After, deadline, circuit breaker.

The executor hands every call to `CallPolicy.run`, which never raises a ToolFailure: it
returns an `Outcome` with the result or the failure and the number of attempts made.

- Each attempt runs under the tool's timeout, cut to what remains of the turn's
  deadline; no attempt starts past the deadline and no backoff sleeps across it.
- Retried (up to the tool's attempts, with exponential backoff and jitter, through
  an injected sleep): `timeout`, `unavailable` and connection errors. A write is retried only
  when it carries an idempotency key (the executor gives every write one), and a 409
  on a retried write (the first attempt still in flight at the CRM) is retried too.
- A write whose outcome is unknown (it timed out, its reply was lost to a reset or a
  5xx, or the CRM answers 409 "still in progress") is reconciled: it is sent again
  with the same idempotency key, past the tool's attempts and until the turn's
  deadline, until the CRM's stored reply comes back. Only when the deadline comes
  first is the failure reported, marked `unconfirmed` (it may have been applied).
- 429: wait Retry-After when it fits before the deadline, else fail `rate_limited`.
- One circuit breaker per tool (its CRM route): `breaker.CircuitBreaker`.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from assistant import tracing
from assistant.deadlines import deadline_in
from assistant.errors import ToolFailure
from assistant.metrics import Metrics
from assistant.schema import ToolDefinition
from assistant.tools.breaker import BreakerRegistry

log = logging.getLogger(__name__)

Attempt = Callable[[], Awaitable[Any]]


@dataclass(slots=True)
class Outcome:
    """What a policy run produced: the result, or the failure, and attempts made."""

    result: Any = None
    failure: ToolFailure | None = None
    attempts: int = 0


class _GiveUp(Exception):
    """Stops the retry loop with the failure to report (never retried)."""

    def __init__(self, failure: ToolFailure) -> None:
        super().__init__(failure.message)
        self.failure = failure


class CallPolicy:
    def __init__(
        self,
        breakers: BreakerRegistry | None = None,
        *,
        metrics: Metrics | None = None,
        rng: random.Random | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        # Retries are logged and counted in `retrying`, per tool and reason. `sleep` is
        # the wait between attempts: tests pass one that does not wait real seconds.
        self._sleep = sleep
        self._breakers = breakers or BreakerRegistry()
        self._metrics = metrics
        self._rng = rng or random.Random()

    @property
    def breakers(self) -> BreakerRegistry:
        return self._breakers

    async def run(
        self,
        tool: ToolDefinition,
        attempt: Attempt,
        *,
        deadline: float,
        idempotent: bool = True,
        resent: bool = False,
    ) -> Outcome:
        """Run `attempt` until it succeeds or the policy gives up; never raises ToolFailure.

        `deadline` is a loop time (`asyncio.get_running_loop().time()`). `resent`: the
        write goes under the key of an earlier turn's attempt that may still be landing,
        so even its first 409 means that attempt is still in flight.
        """
        max_attempts = tool.retry.attempts if (idempotent or not tool.writes) else 1
        run = _CallRun(self, tool, deadline, max_attempts)
        if resent:
            run.attempts_before = 1
        # Each attempt is awaited here, not in a coroutine of its own: every call of every
        # turn goes through this loop, and nearly every one succeeds at once.
        while True:
            try:
                budget = run.begin()
                try:
                    with deadline_in(budget):
                        result = await attempt()
                except TimeoutError:
                    raise run.timed_out(budget) from None
                except ToolFailure as failure:
                    run.failed(failure)
                    raise
                except asyncio.CancelledError:
                    run.cancelled()
                    raise
                run.succeeded()
                return Outcome(result=result, attempts=run.attempts)
            except _GiveUp as give_up:
                return Outcome(failure=run.settled(give_up.failure), attempts=run.attempts)
            except ToolFailure as failure:
                # Again after each wait, until `backoff` says no: a write being reconciled
                # is bounded by the deadline, anything else also by the tool's attempts.
                wait_s = run.backoff(failure)
                if wait_s is False:
                    return Outcome(failure=run.settled(_final(failure)), attempts=run.attempts)
            await self._sleep(wait_s)

    def jitter(self) -> float:
        return self._rng.uniform(0.5, 1.0)

    def retrying(self, tool: ToolDefinition, reason: str, wait_s: float) -> float:
        log.info(
            "retrying %s after %s in %.2f s",
            tool.name,
            reason,
            wait_s,
            extra={"tool": tool.name, "reason": reason},
        )
        if self._metrics is not None:
            self._metrics.retries.labels(tool.name, reason).inc()
        tracing.event("retry", reason=reason, wait_s=round(wait_s, 3))
        return wait_s


class _CallRun:
    """One call's attempts: the breaker, the deadline, and when to try again."""

    def __init__(
        self,
        policy: CallPolicy,
        tool: ToolDefinition,
        deadline: float,
        max_attempts: int,
    ) -> None:
        self._policy = policy
        self._tool = tool
        self._deadline = deadline
        self._max_attempts = max_attempts
        self._loop = asyncio.get_running_loop()
        self._breaker = policy.breakers.get(tool.name)
        self._last: ToolFailure | None = None
        self.attempts = 0
        # Attempts made under the same key by an earlier turn (a write sent again).
        self.attempts_before = 0
        # Set once a write attempt ended without a known outcome (see the docstring).
        self.reconciling = False
        self._idempotent_write = tool.writes and max_attempts > 1

    def begin(self) -> float:
        """Start an attempt: the seconds it may take (the tool's timeout, cut to the
        deadline); `_GiveUp` when none may start. `CallPolicy.run` awaits it."""
        remaining = self._deadline - self._loop.time()
        if remaining <= 0:
            raise _GiveUp(self._last or _deadline_passed())
        # A write being reconciled is sent again even through an open breaker: its
        # outcome is what the customer will be told.
        if not self._breaker.allow() and not self.reconciling:
            raise _GiveUp(self._breaker.open_failure())
        self.attempts += 1
        if tracing.enabled():
            tracing.event("attempt", number=self.attempts, breaker=self._breaker.state)
        return min(self._tool.timeout_s, remaining)

    def succeeded(self) -> None:
        self._breaker.record(None)

    def failed(self, failure: ToolFailure) -> None:
        self._last = failure
        self._breaker.record(failure)

    def timed_out(self, budget: float) -> ToolFailure:
        """The failure of an attempt cut off after `budget` seconds, told the breaker."""
        failure = ToolFailure("timeout", f"no answer within {budget:.1f} s")
        self.failed(failure)
        return failure

    def cancelled(self) -> None:
        self._breaker.release()

    def settled(self, failure: ToolFailure) -> ToolFailure:
        """The failure to report; a write still unreconciled is marked unconfirmed."""
        if self.reconciling and failure.code not in _DEFINITE_REFUSALS:
            failure.unconfirmed = True
        return failure

    def backoff(self, exc: Exception) -> bool | float:
        """Whether (False) or after how many seconds to try again, within the deadline."""
        tool = self._tool
        if not isinstance(exc, ToolFailure):
            return False
        if self._idempotent_write and _outcome_unknown(exc, self.attempts + self.attempts_before):
            self.reconciling = True
        if self.attempts >= self._max_attempts and not self.reconciling:
            return False
        remaining = self._deadline - self._loop.time()
        if exc.code == "rate_limited":
            wait_s = exc.retry_after_s if exc.retry_after_s is not None else 1.0
            if wait_s >= remaining:
                return False
            return self._policy.retrying(tool, "rate_limited", wait_s)
        # A 409 on a retried write: the first attempt is still in flight at the CRM.
        retry_conflict = (
            exc.code == "conflict" and tool.writes and self.attempts + self.attempts_before > 1
        )
        if not (exc.retryable or retry_conflict):
            return False
        base = tool.retry.backoff_initial_s * 2 ** (self.attempts - 1)
        wait_s = min(tool.retry.backoff_max_s, base) * self._policy.jitter()
        if wait_s >= remaining:
            return False
        return self._policy.retrying(tool, exc.code, wait_s)


# Answers after which a write is known not to have been applied.
_DEFINITE_REFUSALS = frozenset({"invalid_arguments", "not_found", "permission_denied"})


def _outcome_unknown(failure: ToolFailure, attempts: int) -> bool:
    """Whether a write that failed this way may have been applied by the CRM."""
    if failure.code == "conflict":
        # On a resend, 409 means the first attempt is still being applied.
        return attempts > 1
    return failure.code == "timeout" or failure.retryable


def _deadline_passed() -> ToolFailure:
    return ToolFailure("timeout", "the turn's time ran out before this could be tried")


def _final(failure: ToolFailure) -> ToolFailure:
    """A 429 that could not be waited out says how long to wait, for the narrator."""
    if failure.code == "rate_limited" and failure.retry_after_s is not None:
        return ToolFailure(
            "rate_limited",
            f"the CRM is busy; it asked to wait {failure.retry_after_s:.0f} s",
            retry_after_s=failure.retry_after_s,
        )
    return failure
