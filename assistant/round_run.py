"""The tool calls of one round in flight, wherever they were started from.

Reads may start while the decision is still streaming (assistant/early_calls.py) and
the rest when it ends; both land here, so the engine can wait for all of them, see
which results are already in and which calls have been out for long (to narrate what
is ready), and stop them all on cancellation the way the executor stops one batch.

Calls started while the decision still streams run at once, but their `tool.started`
and `tool.finished` are held (`hold`) until the round's `ack.done` has gone out
(`release`): PROTOCOL.md orders a round's acknowledgement before its tool events, and
the customer hears the acknowledgement first either way.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Sequence

from assistant.deadlines import deadline_in
from assistant.schema import Event, EventSink, ToolCall, ToolResult
from assistant.tools.executor import Batch, RoundContext, ToolExecutor


class RoundRun:
    def __init__(self, executor: ToolExecutor, ctx: RoundContext, emit: EventSink) -> None:
        self._executor = executor
        self._ctx = ctx
        self._emit = emit
        self._batches: list[Batch] = []
        self.calls: list[ToolCall] = []
        self.ready: dict[str, ToolResult] = {}
        self._arrival: asyncio.Event | None = None
        self._started_at: dict[str, float] = {}
        # Calls whose task has not ended, and the futures of those waiting for them all,
        # resolved by the last task's end (asyncio.wait adds and removes a callback on
        # every task at every wait).
        self._running = 0
        self._waiters: list[asyncio.Future[None]] = []
        # perf_counter of the first start, for the turn's `tools` timing.
        self.began: float | None = None
        self._events = _ToolEvents(emit)

    def hold(self) -> None:
        """Keep the calls' events until `release` (the acknowledgement is not done)."""
        if self._events.held is None:
            self._events.held = []

    async def release(self) -> None:
        """Send the events held so far, in order, and every later one at once."""
        await self._events.release()

    @property
    def started(self) -> bool:
        return bool(self._batches)

    async def start(self, calls: Sequence[ToolCall]) -> None:
        """Announce and run `calls` concurrently, alongside any started before."""
        if not calls:
            return
        now = asyncio.get_running_loop().time()
        if self.began is None:
            self.began = time.perf_counter()
        for call in calls:
            self.calls.append(call)
            self._started_at[call.call_id] = now
        batch = await self._executor.launch(
            calls, self._ctx, self._events.send, on_result=self._arrived
        )
        self._batches.append(batch)
        self._running += len(batch.tasks)
        for task in batch.tasks:
            task.add_done_callback(self._ended)

    def _ended(self, _task: asyncio.Task[None]) -> None:
        # After a task's end its callbacks are dropped: no cycle outlives the round.
        self._running -= 1
        if self._running == 0:
            waiters, self._waiters = self._waiters, []
            for waiter in waiters:
                if not waiter.done():  # a wait cut short cancelled its own
                    waiter.set_result(None)

    def _arrived(self, result: ToolResult) -> None:
        self.ready[result.call.call_id] = result
        if self._arrival is not None:
            self._arrival.set()

    async def next_arrival(self, within_s: float | None) -> None:
        """Wait for the next result (at most `within_s` seconds); stops on cancellation."""
        # Made only when needed: most rounds end before anyone waits for one result.
        arrival = self._arrival = self._arrival or asyncio.Event()
        arrival.clear()
        try:
            with deadline_in(within_s):
                await arrival.wait()
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
        return self._running == 0

    async def wait(self, within_s: float | None = None) -> None:
        """Wait for every call (at most `within_s` seconds). Cancelled meanwhile, it stops
        the calls as the executor does (reads stop, writes in flight finish), re-raises."""
        if self._running == 0:
            return  # already in (the common case after progress.await_round's first wait)
        ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(ended)
        try:
            with deadline_in(within_s):
                await ended
        except TimeoutError:
            # Some calls are still out: the caller looks at which. (Unless the last one
            # ended as the time ran out: it took the waiters already.)
            if ended in self._waiters:
                self._waiters.remove(ended)
        except asyncio.CancelledError:
            if ended in self._waiters:
                self._waiters.remove(ended)
            await self.stop()
            raise

    async def stop(self) -> None:
        """Cancel: reads stop, writes in flight finish, every call is reported once."""
        for batch in self._batches:
            await batch.stop()

    def results(self, order: Sequence[ToolCall] = ()) -> list[ToolResult]:
        """Every result so far, in the order of `order` (the decision's), then started."""
        unique = {
            result.call.call_id: result for batch in self._batches for result in batch.results()
        }
        if not order and len(self._batches) <= 1:
            return list(unique.values())  # one batch: already in the order started
        ranked = [*order, *self.calls]
        order_of: dict[str, int] = {}
        for n, call in enumerate(ranked):
            order_of.setdefault(call.call_id, n)
        return sorted(unique.values(), key=lambda result: order_of.get(result.call.call_id, 0))


class _ToolEvents:
    """A round's tool events: sent at once, or held until the acknowledgement is done.

    Apart from the RoundRun so that its batches, which keep the sink, do not keep the
    RoundRun: that cycle left every round's tasks to the garbage collector.
    """

    __slots__ = ("_emit", "held")

    def __init__(self, emit: EventSink) -> None:
        self._emit = emit
        self.held: list[Event] | None = None

    def send(self, event: Event) -> Awaitable[None]:
        # The sink's own awaitable when not held: no coroutine around it for each event.
        if self.held is None:
            return self._emit(event)
        return self._hold(event)

    async def _hold(self, event: Event) -> None:
        if self.held is None:  # released since `send` (its caller awaits it at once)
            await self._emit(event)
        else:
            self.held.append(event)

    async def release(self) -> None:
        held, self.held = self.held, None
        for event in held or ():
            await self._emit(event)
