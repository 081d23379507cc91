"""A bulkhead for CRM requests: per-route and per-customer caps on requests in flight.

The app's HTTP client has one connection pool (`crm_pool_size`). When one CRM route
hangs, every request to it holds a pooled connection until its timeout; enough of them
and the pool is gone, so every other route, for every customer, waits too. The
bulkhead caps requests in flight per route (the part of the CRM: accounts,
scheduling, billing, tasks, support) below the pool size, and per customer below
that, so one slow route or one busy customer cannot take the pool from the rest.

A request over a cap waits a moment for a slot (`wait_s`, half a second by default),
so that a burst of healthy requests (a hundred sessions opening at once) is absorbed;
past that it fails with `unavailable` (never holding a connection), which the call
policy may retry after its backoff. The wait is short on purpose: a slot that stays
full is full because its requests are slow, and waiting long behind them only adds
their slowness to this call.
"""

from __future__ import annotations

import asyncio
from collections import Counter

from assistant.errors import ToolFailure


class Bulkhead:
    """Counts CRM requests in flight by route and by customer."""

    def __init__(self, *, per_route: int, per_customer: int, wait_s: float = 0.5) -> None:
        self._route_cap = per_route
        self._customer_cap = per_customer
        self._wait_s = wait_s
        self._routes: Counter[str] = Counter()
        self._customers: Counter[str] = Counter()
        # Set (and replaced) whenever a slot is given back: waiters look again.
        self._freed = asyncio.Event()
        self._waiting = 0  # requests waiting for a slot: only they need to be woken

    def in_flight(self, route: str) -> int:
        return self._routes[route]

    def slot(self, route: str, customer_id: str, *, system: str) -> _Slot:
        """Hold one slot of `route` and of `customer_id` for a request (`async with`);
        ToolFailure when none frees up within `wait_s`."""
        return _Slot(self, route, customer_id, system)

    def take_now(self, route: str, customer_id: str) -> bool:
        """Hold a slot of `route` and of `customer_id` if both have one free (nearly
        always): no coroutine for the common case. `give_back` when the request ends."""
        routes, customers = self._routes, self._customers
        if routes[route] >= self._route_cap or customers[customer_id] >= self._customer_cap:
            return False
        routes[route] += 1
        customers[customer_id] += 1
        return True

    async def take(self, route: str, customer_id: str, *, system: str) -> None:
        """Hold a slot, waiting up to `wait_s` for one; ToolFailure when none frees up."""
        if self.take_now(route, customer_id):
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._wait_s
        while (full := self._full(route, customer_id, system)) is not None:
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise full
            self._waiting += 1
            try:
                await asyncio.wait_for(self._freed.wait(), remaining)
            except TimeoutError:
                raise full from None
            finally:
                self._waiting -= 1
        self._routes[route] += 1
        self._customers[customer_id] += 1

    def give_back(self, route: str, customer_id: str) -> None:
        for counter, key in ((self._routes, route), (self._customers, customer_id)):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]  # memory bounded by what is in flight
        if self._waiting:
            self._freed.set()
            self._freed = asyncio.Event()

    def _full(self, route: str, customer_id: str, system: str) -> ToolFailure | None:
        if self._routes[route] >= self._route_cap:
            return ToolFailure(
                "unavailable",
                f"{system} is slow to answer: {self._route_cap} requests are already waiting",
            )
        if self._customers[customer_id] >= self._customer_cap:
            return ToolFailure(
                "unavailable", f"too many requests to {system} are in flight for this customer"
            )
        return None


class _Slot:
    """One request's slot, as a plain async context manager (a generator-based one cost
    more than the rest of the bulkhead, on every CRM request)."""

    __slots__ = ("_bulkhead", "_customer_id", "_route", "_system")

    def __init__(self, bulkhead: Bulkhead, route: str, customer_id: str, system: str) -> None:
        self._bulkhead = bulkhead
        self._route = route
        self._customer_id = customer_id
        self._system = system

    async def __aenter__(self) -> None:
        await self._bulkhead.take(self._route, self._customer_id, system=self._system)

    async def __aexit__(self, *_exc: object) -> None:
        self._bulkhead.give_back(self._route, self._customer_id)


__all__ = ["Bulkhead"]
