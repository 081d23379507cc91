"""The shared deadline timer behaves as `asyncio.timeout_at` does, for every wait at once."""

from __future__ import annotations

import asyncio
import time

import pytest

from assistant.deadlines import Deadline, deadline_in


async def test_a_wait_past_its_deadline_raises_timeout_error() -> None:
    """A block still waiting at its deadline is cancelled and raises TimeoutError."""
    with pytest.raises(TimeoutError):
        async with deadline_in(0.01):
            await asyncio.Event().wait()


async def test_a_wait_that_ends_in_time_is_left_alone() -> None:
    """A block that finishes before its deadline returns its value, and nothing fires later."""
    async with deadline_in(0.05) as deadline:
        await asyncio.sleep(0)
    await asyncio.sleep(0.08)
    assert not deadline.expired()
    assert asyncio.current_task().cancelling() == 0  # type: ignore[union-attr]


async def _noted(order: list[str], name: str, delay_s: float) -> None:
    """A wait that never ends by itself; its name is noted when it times out."""
    try:
        async with deadline_in(delay_s):
            await asyncio.Event().wait()
    except TimeoutError:
        order.append(name)


async def test_waits_expire_in_the_order_of_their_deadlines() -> None:
    """Many waits share one timer: each expires at its own deadline, the later ones later."""
    order: list[str] = []

    # Registered latest-first, so the timer is re-armed for each earlier one.
    await asyncio.gather(
        _noted(order, "third", 0.06), _noted(order, "second", 0.04), _noted(order, "first", 0.02)
    )
    assert order == ["first", "second", "third"]


def test_waits_past_their_deadlines_at_once_expire_earliest_first() -> None:
    """The loop held up past all three deadlines (a busy machine): they still expire in the
    order of their deadlines, not the order they were registered in."""
    order: list[str] = []

    async def main() -> None:
        waits = asyncio.gather(
            _noted(order, "third", 0.03),
            _noted(order, "second", 0.02),
            _noted(order, "first", 0.01),
        )
        await asyncio.sleep(0)  # all three registered
        time.sleep(0.05)  # noqa: ASYNC251 (on purpose: the loop held up past every deadline)
        await waits

    asyncio.run(main())
    assert order == ["first", "second", "third"]


async def test_an_outside_cancel_is_not_turned_into_a_timeout() -> None:
    """Cancelled from outside before its deadline, the block ends with CancelledError."""

    async def guarded() -> None:
        async with deadline_in(5):
            await asyncio.Event().wait()

    task = asyncio.create_task(guarded())
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_a_deadline_already_past_expires_at_the_next_turn_of_the_loop() -> None:
    """Like asyncio.timeout_at with a past time: the first wait in the block times out."""
    loop = asyncio.get_running_loop()
    with pytest.raises(TimeoutError):
        async with Deadline(loop.time() - 1):
            await asyncio.sleep(1)


async def test_no_deadline_never_expires() -> None:
    """Deadline(None) is no limit at all."""
    async with Deadline(None) as deadline:
        await asyncio.sleep(0.01)
    assert not deadline.expired()


async def test_nested_deadlines_the_inner_expiring_first() -> None:
    """An inner deadline's TimeoutError can be handled inside a longer outer one."""
    async with deadline_in(1) as outer:
        with pytest.raises(TimeoutError):
            async with deadline_in(0.01):
                await asyncio.Event().wait()
        await asyncio.sleep(0)
    assert not outer.expired()


async def test_a_plain_with_behaves_as_async_with() -> None:
    """`with` (the turn's own waits) times out, leaves a quick block alone and lets an
    outside cancel through, exactly as `async with` does."""
    with pytest.raises(TimeoutError), deadline_in(0.01):
        await asyncio.Event().wait()
    with deadline_in(0.05) as deadline:
        await asyncio.sleep(0)
    await asyncio.sleep(0.08)
    assert not deadline.expired()
    assert asyncio.current_task().cancelling() == 0  # type: ignore[union-attr]

    async def guarded() -> None:
        with deadline_in(5):
            await asyncio.Event().wait()

    task = asyncio.create_task(guarded())
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    with Deadline(None) as never:
        await asyncio.sleep(0)
    assert not never.expired()
