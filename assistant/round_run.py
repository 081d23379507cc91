"""The tool calls of one round in flight, wherever they were started from.

Reads may start while the decision is still streaming (assistant/early_calls.py) and
the rest when it ends; both land here, so the engine can wait for all of them, see
which results are already in and which calls have been out for long (to narrate what
is ready), and stop them all on cancellation the way the executor stops one batch.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

from assistant.schema import EventSink, ToolCall, ToolResult
from assistant.tools.executor import RoundContext, ToolExecutor


class RoundRun:
    def __init__(self, executor: ToolExecutor, ctx: RoundContext, emit: EventSink) -> None:
        self._executor = executor
        self._ctx = ctx
        self._emit = emit
        self._tasks: list[asyncio.Task[list[ToolResult]]] = []
        self._collected: list[ToolResult] = []
        self.calls: list[ToolCall] = []
        self.ready: dict[str, ToolResult] = {}
        self._arrival = asyncio.Event()
        self._started_at: dict[str, float] = {}
        # perf_counter of the first start, for the turn's `tools` timing.
        self.began: float | None = None

    @property
    def started(self) -> bool:
        return bool(self._tasks)

    def start(self, calls: Sequence[ToolCall]) -> None:
        """Run `calls` concurrently (one executor batch), alongside any started before."""
        if not calls:
            return
        now = asyncio.get_running_loop().time()
        if self.began is None:
            self.began = time.perf_counter()
        for call in calls:
            self.calls.append(call)
            self._started_at[call.call_id] = now
        batch = self._executor.run_round(
            list(calls), self._ctx, self._emit, into=self._collected, on_result=self._arrived
        )
        self._tasks.append(asyncio.create_task(batch))

    def _arrived(self, result: ToolResult) -> None:
        self.ready[result.call.call_id] = result
        self._arrival.set()

    async def next_arrival(self, within_s: float | None) -> None:
        """Wait for the next result (at most `within_s` seconds); stops on cancellation."""
        self._arrival.clear()
        try:
            async with asyncio.timeout(within_s):
                await self._arrival.wait()
        except TimeoutError:
            pass
        except asyncio.CancelledError:
            await self.stop()
            raise

    def running(self) -> list[ToolCall]:
        return [call for call in self.calls if call.call_id not in self.ready]

    def overdue_in(self, threshold_s: float) -> float | None:
        """Seconds until the longest-running unfinished call has run `threshold_s`
        (0 when one already has); None when nothing is running."""
        starts = [self._started_at[call.call_id] for call in self.running()]
        if not starts:
            return None
        elapsed = asyncio.get_running_loop().time() - min(starts)
        return max(0.0, threshold_s - elapsed)

    def done(self) -> bool:
        return all(task.done() for task in self._tasks)

    async def wait(self, within_s: float | None = None) -> None:
        """Wait for every call (at most `within_s` seconds). Cancelled meanwhile, it stops
        the calls as the executor does (reads stop, writes in flight finish), re-raises."""
        if self.done():
            return  # already in (the common case after progress.await_round's first wait)
        try:
            await asyncio.wait(self._tasks, timeout=within_s)
        except asyncio.CancelledError:
            await self.stop()
            raise

    async def stop(self) -> None:
        """Cancel: reads stop, writes in flight finish, every call is reported once."""
        for task in self._tasks:
            task.cancel()
        while not self.done():
            try:
                await asyncio.wait(self._tasks)
            except asyncio.CancelledError:
                continue  # a second cancel must not abandon a write mid-flight

    def results(self, order: Sequence[ToolCall] = ()) -> list[ToolResult]:
        """Every result so far, in the order of `order` (the decision's), then started."""
        ranked = [*order, *self.calls]
        order_of: dict[str, int] = {}
        for n, call in enumerate(ranked):
            order_of.setdefault(call.call_id, n)
        # Results as they arrived, and those a cancellation reported (in `_collected`).
        unique = {result.call.call_id: result for result in self._collected}
        unique.update(self.ready)
        return sorted(unique.values(), key=lambda result: order_of.get(result.call.call_id, 0))
