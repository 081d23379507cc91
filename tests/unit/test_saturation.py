"""Admission control's loop-lag signal: a loop kept busy reads as saturated, a moment's
stall does not, and a recovered loop admits again."""

from __future__ import annotations

import asyncio
import contextlib
import time

from assistant.transports.saturation import Saturation


async def _watching(saturation: Saturation) -> asyncio.Task[None]:
    task = asyncio.create_task(saturation.watch())
    await asyncio.sleep(0.12)  # a few quiet ticks
    return task


async def test_a_loop_kept_busy_is_saturated_and_admits_again_once_it_recovers() -> None:
    """Blocked again and again (the CPU behind every tick), the worker refuses with a
    retry time; once the loop keeps time again, it admits."""
    saturation = Saturation(lambda: 0, max_turns=40, max_lag_s=0.1)
    task = await _watching(saturation)
    try:
        assert saturation.retry_after_s() is None
        for _ in range(8):
            time.sleep(0.2)  # noqa: ASYNC251 - the loop kept busy: the watcher wakes late
            await asyncio.sleep(0)
        assert (retry := saturation.retry_after_s()) is not None and retry >= 1
        await asyncio.sleep(0.8)
        assert saturation.retry_after_s() is None
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def test_one_short_stall_refuses_no_one() -> None:
    """A single stall (a collection, a burst of sessions opening) is smoothed away."""
    saturation = Saturation(lambda: 0, max_turns=40, max_lag_s=0.1)
    task = await _watching(saturation)
    try:
        time.sleep(0.15)  # noqa: ASYNC251 - one stall of the loop
        await asyncio.sleep(0.06)
        assert saturation.retry_after_s() is None
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def test_too_many_turns_in_flight_is_saturated() -> None:
    """Past `max_turns` turns in flight, new work waits a second."""
    in_flight = [3]
    saturation = Saturation(lambda: in_flight[0], max_turns=3, max_lag_s=10)
    assert saturation.retry_after_s() == 1.0
    in_flight[0] = 2
    assert saturation.retry_after_s() is None
