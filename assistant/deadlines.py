"""`asyncio.timeout_at` for the turn's many timed waits, sharing one timer per loop.

A turn makes about seven timed waits (each decision, each tool attempt, the answer).
`asyncio.timeout` gives each a TimerHandle of its own, made and cancelled around a
wait that nearly always ends long before its deadline: ~4.5 µs each, a tenth of the
engine's own cost per turn (bench/engine.py). Here every wait of a loop registers its
deadline in one set, and one TimerHandle is armed for the earliest deadline only. A
new wait whose deadline is later than the armed one (the usual case: waits of the same
kind start later and last as long) costs a set insertion. When the handle fires, the
waits past their deadline are expired and the handle is armed again for the earliest
that is left, if any.

An expired wait behaves exactly as with `asyncio.timeout_at`: its task is cancelled,
and the `async with` raises TimeoutError, unless the task was also cancelled from
outside, which then wins.
"""

from __future__ import annotations

import asyncio
import weakref
from types import TracebackType


class _Waits:
    """The deadlines of one loop's timed waits, and the one handle for the earliest."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._waits: dict[Deadline, float] = {}
        self._handle: asyncio.TimerHandle | None = None

    def add(self, wait: Deadline, when: float) -> None:
        self._waits[wait] = when
        handle = self._handle
        if handle is None or when < handle.when():
            if handle is not None:
                handle.cancel()
            self._handle = self._loop.call_at(when, self._fire)

    def discard(self, wait: Deadline) -> None:
        # The handle stays armed: when it fires with nothing due it only re-arms.
        self._waits.pop(wait, None)

    def _fire(self) -> None:
        self._handle = None
        now = self._loop.time()
        # In the order of their deadlines, as separate timers would fire: when the loop was
        # held up past several, the earliest still expires first.
        due = sorted(
            ((when, wait) for wait, when in self._waits.items() if when <= now),
            key=lambda pair: pair[0],
        )
        for _, wait in due:
            del self._waits[wait]
            wait.expire()
        if self._waits:
            self._handle = self._loop.call_at(min(self._waits.values()), self._fire)


_PER_LOOP: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Waits] = (
    weakref.WeakKeyDictionary()
)
# The last loop asked about: a process nearly always runs one (a weak lookup costs more).
_last: tuple[asyncio.AbstractEventLoop | None, _Waits | None] = (None, None)


def _waits_of(loop: asyncio.AbstractEventLoop) -> _Waits:
    global _last
    last_loop, waits = _last
    if last_loop is loop and waits is not None:
        return waits
    waits = _PER_LOOP.get(loop)
    if waits is None:
        waits = _PER_LOOP[loop] = _Waits(loop)
    _last = (loop, waits)
    return waits


class Deadline:
    """`with Deadline(when):` (or `async with`), inside a task, cancels the block at loop
    time `when` (None: never) and raises TimeoutError, like `asyncio.timeout_at(when)`."""

    __slots__ = ("_cancelling", "_expired", "_task", "_waits", "when")

    def __init__(self, when: float | None) -> None:
        self.when = when
        self._task: asyncio.Task[object] | None = None
        self._cancelling = 0
        self._expired = False
        self._waits: _Waits | None = None

    def __enter__(self) -> Deadline:
        if self.when is None:
            return self  # never expires: no task to cancel, nothing to register
        loop = asyncio.get_running_loop()
        task = asyncio.current_task(loop)
        if task is None:
            raise RuntimeError("Deadline must be used inside a task")
        self._task = task
        self._cancelling = task.cancelling()
        waits = self._waits = _waits_of(loop)
        waits.add(self, self.when)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._waits is not None:
            self._waits.discard(self)
        # An expiry of ours, unless someone else cancelled the task as well (theirs goes on).
        if (
            self._expired
            and self._task is not None
            and self._task.uncancel() <= self._cancelling
            and exc_type is asyncio.CancelledError
        ):
            raise TimeoutError from exc

    # `async with` as well, like asyncio.timeout_at; the turn's own waits use `with`, which
    # makes no coroutine to enter or leave (two a wait, ~1,500 instructions).
    async def __aenter__(self) -> Deadline:
        return self.__enter__()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.__exit__(exc_type, exc, traceback)

    def expire(self) -> None:
        if self._task is not None and not self._task.done():
            self._expired = True
            self._task.cancel()

    def expired(self) -> bool:
        return self._expired


def deadline_in(delay_s: float | None) -> Deadline:
    """Like `asyncio.timeout(delay_s)`."""
    if delay_s is None:
        return Deadline(None)
    return Deadline(asyncio.get_running_loop().time() + delay_s)


__all__ = ["Deadline", "deadline_in"]
