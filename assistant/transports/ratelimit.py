"""Message rate limits: a budget per session and one per customer, shared by all of that
customer's sessions (two tabs do not get twice the budget).

`MessageLimits` is the seam: `InMemoryLimits` (one process, the default) here, and
`assistant.redis_state.RedisLimits` when several workers or instances share Redis, so
that the budgets hold across all of them.

Each budget is a leaky bucket (as aiolimiter's): `rate` messages per `period_s`, with bursts
up to `rate`. A message over either budget is refused, never delayed: the client hears
`rate_limited` with a `retry_after_s` and may send again later.
"""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass
from typing import Literal, Protocol

Scope = Literal["session", "customer"]

# Forget the buckets of customers who went quiet once this many are kept.
_MAX_IDLE_CUSTOMERS = 10_000


@dataclass(frozen=True, slots=True)
class Refusal:
    """A message refused by a budget; `retry_after_s` is when one more surely fits."""

    scope: Scope
    retry_after_s: float


class Budget:
    """`rate` messages per `period_s` (a leaky bucket, drawn as aiolimiter's AsyncLimiter
    draws one: the level drips out at `rate / period_s` a second, and one more message
    fits while the level stays within `rate`). Written out because a message is only
    ever taken when it fits, right after asking: no waiting, so none of the limiter's
    coroutines, futures and wake-ups, four of its calls a message fewer."""

    __slots__ = ("_last", "_level", "_per_s", "rate", "retry_after_s")

    def __init__(self, rate: float, period_s: float = 60.0) -> None:
        self.rate = rate
        self._per_s = rate / period_s
        self._level = 0.0
        self._last = 0.0
        # When the bucket is full, one message drips out every period/rate seconds:
        # the longest anyone has to wait for room for one more.
        self.retry_after_s = math.ceil(period_s / rate * 10) / 10

    def _leak(self, now: float | None = None) -> None:
        if now is None:
            now = asyncio.get_running_loop().time()
        if self._level:
            self._level = max(self._level - (now - self._last) * self._per_s, 0)
        self._last = now

    def has_room(self, now: float | None = None) -> bool:
        """Whether one more message fits, the bucket drained to `now` (loop time)."""
        self._leak(now)
        return self._level + 1 <= self.rate

    def is_idle(self) -> bool:
        """True when the bucket has drained completely (it can be forgotten)."""
        self._leak()
        return self._level + self.rate <= self.rate

    def take_now(self, drained: bool = False) -> None:
        """Take one message; only after `has_room()` said it fits (`drained`: at this
        very loop time, so there is nothing more to drip)."""
        if not drained:
            self._leak()
        self._level += 1

    async def take(self) -> None:
        self.take_now()


class CustomerBudgets:
    """One budget per customer, for every session of the app."""

    def __init__(self, rate: float, period_s: float = 60.0) -> None:
        self.rate = rate
        self.period_s = period_s
        self._budgets: dict[str, Budget] = {}

    def of(self, customer_id: str) -> Budget:
        budget = self._budgets.get(customer_id)
        if budget is None:
            if len(self._budgets) >= _MAX_IDLE_CUSTOMERS:
                self._forget_idle()
            budget = self._budgets[customer_id] = Budget(self.rate, self.period_s)
        return budget

    def _forget_idle(self) -> None:
        for customer_id in [c for c, budget in self._budgets.items() if budget.is_idle()]:
            del self._budgets[customer_id]


async def admit(session: Budget, customer: Budget) -> Refusal | None:
    """Take one message from both budgets, or from neither and say which refused.

    Both are checked before either is charged, so a message the customer budget
    refuses does not also use up the session's budget.
    """
    now = asyncio.get_running_loop().time()  # one time for the four steps
    if not session.has_room(now):
        return Refusal("session", session.retry_after_s)
    if not customer.has_room(now):
        return Refusal("customer", customer.retry_after_s)
    session.take_now(drained=True)
    customer.take_now(drained=True)
    return None


class SessionLimits(Protocol):
    """One session's view of the limits: its budget and its customer's."""

    async def admit(self) -> Refusal | None:
        """Take one message from both budgets, or from neither and say which refused."""
        ...


class MessageLimits(Protocol):
    def for_session(self, session_id: str, customer_id: str) -> SessionLimits: ...


@dataclass(frozen=True, slots=True)
class _LocalSession:
    session: Budget
    customer: Budget

    async def admit(self) -> Refusal | None:
        return await admit(self.session, self.customer)


class InMemoryLimits:
    """The budgets of this process: a session's lives as long as its connection."""

    def __init__(self, session_rate: float, customer_rate: float, period_s: float = 60.0) -> None:
        self._session_rate = session_rate
        self._period_s = period_s
        self._customers = CustomerBudgets(customer_rate, period_s)

    def for_session(self, session_id: str, customer_id: str) -> SessionLimits:
        return _LocalSession(
            Budget(self._session_rate, self._period_s), self._customers.of(customer_id)
        )
