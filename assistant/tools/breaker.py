"""A circuit breaker per tool, so that billing being down does not stop appointments.

    closed ──(N failures in a row)──► open ──(cool-down)──► half-open
      ▲                                 ▲                      │ one probe
      └────────── probe succeeds ───────┼──── probe fails ─────┘

Only failures that say the route is unhealthy count (timeout, unavailable, connection
errors); a 4xx means the route answered, and a 429 neither opens nor closes it.
While open, calls fail at once with `circuit_open` and never touch the network.
Written here because no maintained asyncio breaker fits in a few lines.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Literal

from assistant.errors import ToolFailure
from assistant.metrics import Metrics

State = Literal["closed", "open", "half_open"]
_GAUGE = {"closed": 0, "half_open": 1, "open": 2}


class CircuitBreaker:
    def __init__(
        self,
        name: str,
        *,
        failure_threshold: int = 5,
        cooldown_s: float = 15.0,
        clock: Callable[[], float] = time.monotonic,
        on_change: Callable[[str, State], None] | None = None,
    ) -> None:
        self.name = name
        self._threshold = failure_threshold
        self._cooldown_s = cooldown_s
        self._clock = clock
        self._on_change = on_change
        self._state: State = "closed"
        self._failures = 0
        self._opened_at = 0.0
        self._probe_in_flight = False

    @property
    def state(self) -> State:
        return self._state

    def allow(self) -> bool:
        """May a call go out now? In half-open, exactly one probe may."""
        if self._state == "closed":
            return True
        if self._state == "open":
            if self._clock() - self._opened_at < self._cooldown_s:
                return False
            self._set("half_open")
        if self._probe_in_flight:
            return False
        self._probe_in_flight = True
        return True

    def record(self, failure: ToolFailure | None) -> None:
        """The outcome of an attempt that `allow()` let through."""
        self._probe_in_flight = False
        if failure is None or not (failure.retryable or failure.code == "rate_limited"):
            # Success, or a 4xx: the route is answering.
            self._failures = 0
            if self._state != "closed":
                self._set("closed")
            return
        if failure.code == "rate_limited":
            return  # busy, not broken: neither opens nor closes
        self._failures += 1
        if self._state == "half_open" or self._failures >= self._threshold:
            self._opened_at = self._clock()
            self._set("open")

    def release(self) -> None:
        """An attempt was cancelled before it said anything about the route."""
        self._probe_in_flight = False

    def open_failure(self) -> ToolFailure:
        wait_s = max(0.0, self._cooldown_s - (self._clock() - self._opened_at))
        return ToolFailure(
            "circuit_open",
            f"recent calls failed, so this was not tried; it will be tried again in {wait_s:.0f} s",
            retry_after_s=round(wait_s, 1),
        )

    def _set(self, state: State) -> None:
        self._state = state
        if self._on_change is not None:
            self._on_change(self.name, state)


class BreakerRegistry:
    """One breaker per tool name, made on first use, reported in /metrics."""

    def __init__(
        self,
        *,
        failure_threshold: int = 5,
        cooldown_s: float = 15.0,
        metrics: Metrics | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._threshold = failure_threshold
        self._cooldown_s = cooldown_s
        self._metrics = metrics
        self._clock = clock
        self._breakers: dict[str, CircuitBreaker] = {}

    def get(self, name: str) -> CircuitBreaker:
        breaker = self._breakers.get(name)
        if breaker is None:
            breaker = CircuitBreaker(
                name,
                failure_threshold=self._threshold,
                cooldown_s=self._cooldown_s,
                clock=self._clock,
                on_change=self._report,
            )
            self._breakers[name] = breaker
            self._report(name, "closed")
        return breaker

    def states(self) -> dict[str, State]:
        return {name: breaker.state for name, breaker in self._breakers.items()}

    def _report(self, name: str, state: State) -> None:
        if self._metrics is not None:
            self._metrics.circuit_state.labels(name).set(_GAUGE[state])
