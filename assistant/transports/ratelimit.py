"""Message rate limits: a budget per session and one per customer, shared by all of that
customer's sessions (two tabs do not get twice the budget).

`MessageLimits` is the seam: `InMemoryLimits` (one process, the default) here, and
`assistant.redis_state.RedisLimits` when several workers or instances share Redis, so
that the budgets hold across all of them.

Each budget is a leaky bucket (aiolimiter): `rate` messages per `period_s`, with bursts
up to `rate`. A message over either budget is refused, never delayed: the client hears
`rate_limited` with a `retry_after_s` and may send again later.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, Protocol

from aiolimiter import AsyncLimiter

Scope = Literal["session", "customer"]

# Forget the buckets of customers who went quiet once this many are kept.
_MAX_IDLE_CUSTOMERS = 10_000


@dataclass(frozen=True, slots=True)
class Refusal:
    """A message refused by a budget; `retry_after_s` is when one more surely fits."""

    scope: Scope
    retry_after_s: float


class Budget:
    """`rate` messages per `period_s` (a leaky bucket)."""

    def __init__(self, rate: float, period_s: float = 60.0) -> None:
        self._limiter = AsyncLimiter(rate, period_s)
        # When the bucket is full, one message drips out every period/rate seconds:
        # the longest anyone has to wait for room for one more.
        self.retry_after_s = math.ceil(period_s / rate * 10) / 10

    def has_room(self) -> bool:
        return self._limiter.has_capacity()

    def is_idle(self) -> bool:
        """True when the bucket has drained completely (it can be forgotten)."""
        return self._limiter.has_capacity(self._limiter.max_rate)

    async def take(self) -> None:
        # Only called after `has_room()`: acquire then returns without suspending.
        await self._limiter.acquire()


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
    if not session.has_room():
        return Refusal("session", session.retry_after_s)
    if not customer.has_room():
        return Refusal("customer", customer.retry_after_s)
    await session.take()
    await customer.take()
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
