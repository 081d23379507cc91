"""Admission control: a saturated worker refuses new work instead of slowing down all.

Past its capacity a worker that takes every turn lets them all queue in the event loop
until they miss their deadline: every customer waits, and many turns fail. So it says
no early instead, and the turns it accepted keep their latency:

- a new connection gets HTTP 503 with `Retry-After` (before the upgrade);
- a new message of an open session gets `error` code `busy` with `retry_after_s`.

Saturated means: more turns in flight than `max_turns`, or the event loop running late
by more than `max_lag_s` (measured by a watcher that sleeps a short interval and sees
how late it wakes; smoothed, so one slow tick does not refuse anyone).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import AsyncIterator, Callable

from aiohttp import web

# How often the loop's lateness is measured, and how much one sample weighs.
_TICK_S = 0.05
_WEIGHT = 0.3


class Saturation:
    def __init__(
        self, turns_in_flight: Callable[[], int], *, max_turns: int, max_lag_s: float
    ) -> None:
        self._turns_in_flight = turns_in_flight
        self._max_turns = max_turns
        self._max_lag_s = max_lag_s
        self.lag_s = 0.0

    def retry_after_s(self) -> float | None:
        """None when there is room; else how long to wait before trying again."""
        if self._turns_in_flight() >= self._max_turns:
            return 1.0
        if self.lag_s > self._max_lag_s:
            return float(max(1, math.ceil(self.lag_s * 4)))
        return None

    async def watch(self) -> None:
        """Measure the event loop's lateness until cancelled."""
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(_TICK_S)
            late = max(0.0, loop.time() - before - _TICK_S)
            self.lag_s = (1 - _WEIGHT) * self.lag_s + _WEIGHT * late


SATURATION = web.AppKey("saturation", Saturation)


def setup_saturation(app: web.Application, saturation: Saturation) -> None:
    """Keep `saturation` on the app and its watcher running while the app runs."""
    app[SATURATION] = saturation

    async def watcher(app: web.Application) -> AsyncIterator[None]:
        task = asyncio.create_task(saturation.watch())
        yield
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    app.cleanup_ctx.append(watcher)


__all__ = ["SATURATION", "Saturation", "setup_saturation"]
