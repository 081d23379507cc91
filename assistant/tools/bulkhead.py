"""A bulkhead for CRM requests: per-route and per-customer caps on requests in flight.

The app's HTTP client has one connection pool (`crm_pool_size`). When one CRM route
hangs, every request to it holds a pooled connection until its timeout; enough of them
and the pool is gone, so every other route, for every customer, waits too. The
bulkhead caps requests in flight per route (the part of the CRM: accounts,
scheduling, billing, tasks, support) below the pool size, and per customer below
that, so one slow route or one busy customer cannot take the pool from the rest.

A request over a cap fails at once with `unavailable` (never holding a connection),
which the call policy may retry after its backoff, when a slot may be free again.
Fail fast rather than queue: a slot is full because its requests are slow, and
waiting behind them only adds their slowness to this call.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterator

from assistant.errors import ToolFailure


class Bulkhead:
    """Counts CRM requests in flight by route and by customer."""

    def __init__(self, *, per_route: int, per_customer: int) -> None:
        self._route_cap = per_route
        self._customer_cap = per_customer
        self._routes: Counter[str] = Counter()
        self._customers: Counter[str] = Counter()

    def in_flight(self, route: str) -> int:
        return self._routes[route]

    @contextlib.contextmanager
    def slot(self, route: str, customer_id: str, *, system: str) -> Iterator[None]:
        """Hold one slot of `route` and of `customer_id` for a request; ToolFailure if full."""
        if self._routes[route] >= self._route_cap:
            raise ToolFailure(
                "unavailable",
                f"{system} is slow to answer: {self._route_cap} requests are already waiting",
            )
        if self._customers[customer_id] >= self._customer_cap:
            raise ToolFailure(
                "unavailable", f"too many requests to {system} are in flight for this customer"
            )
        self._routes[route] += 1
        self._customers[customer_id] += 1
        try:
            yield
        finally:
            for counter, key in ((self._routes, route), (self._customers, customer_id)):
                counter[key] -= 1
                if counter[key] <= 0:
                    del counter[key]  # memory bounded by what is in flight


__all__ = ["Bulkhead"]
