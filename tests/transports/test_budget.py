"""A message budget lets through and refuses exactly what aiolimiter's bucket would."""

from __future__ import annotations

import asyncio
import random

from aiolimiter import AsyncLimiter

from assistant.transports.ratelimit import Budget, admit


class _Clock(asyncio.SelectorEventLoop):
    """A loop whose time moves only when told."""

    now = 1000.0

    def time(self) -> float:
        return self.now


def _on_a_told_clock(steps: list[float], rate: float, period_s: float) -> tuple[list, list]:
    loop = _Clock()

    async def both() -> tuple[list[bool], list[bool]]:
        ours, theirs = Budget(rate, period_s), AsyncLimiter(rate, period_s)
        said_ours, said_theirs = [], []
        for step in steps:
            loop.now += step
            fits = ours.has_room()
            said_ours.append(fits)
            if fits:
                ours.take_now()
            said_theirs.append(theirs.has_capacity())
            if said_theirs[-1]:
                await theirs.acquire()
            said_ours.append(ours.is_idle())
            said_theirs.append(theirs.has_capacity(theirs.max_rate))
        return said_ours, said_theirs

    try:
        return loop.run_until_complete(both())
    finally:
        loop.close()


def test_bursts_drips_and_idleness_match_aiolimiter() -> None:
    """Bursts up to the rate, refusals past it, room coming back as the bucket drips,
    and a drained bucket called idle: step by step as AsyncLimiter says."""
    draw = random.Random(19)
    for rate, period_s in ((3, 60.0), (10, 60.0), (1, 1.0), (100_000, 60.0)):
        quick = [0.0] * 8 + [0.001, 0.01, 0.1]
        steps = [draw.choice((*quick, 0.5, 2.0, 7.0, 20.0, 61.0)) for _ in range(600)]
        ours, theirs = _on_a_told_clock(steps, rate, period_s)
        assert ours == theirs
        fitted = ours[::2]
        assert True in fitted
        assert (False in fitted) == (rate < 100_000)  # the limit was reached, when it can be


def test_admitting_messages_matches_two_aiolimiter_buckets() -> None:
    """`admit` over a session and a customer budget lets through and refuses, scope by
    scope, what the two AsyncLimiters it replaced did, asked and charged in the same order."""
    loop = _Clock()
    draw = random.Random(7)

    async def both() -> tuple[list[object], list[object]]:
        ours = (Budget(4, 60.0), Budget(6, 60.0))
        theirs = (AsyncLimiter(4, 60.0), AsyncLimiter(6, 60.0))
        said_ours: list[object] = []
        said_theirs: list[object] = []
        for _ in range(500):
            loop.now += draw.choice((0.0, 0.0, 0.0, 0.2, 1.0, 5.0, 15.0, 40.0))
            refusal = await admit(*ours)
            said_ours.append(refusal.scope if refusal else None)
            session, customer = theirs
            if not session.has_capacity():
                said_theirs.append("session")
            elif not customer.has_capacity():
                said_theirs.append("customer")
            else:
                await session.acquire()
                await customer.acquire()
                said_theirs.append(None)
        return said_ours, said_theirs

    try:
        ours, theirs = loop.run_until_complete(both())
    finally:
        loop.close()
    assert ours == theirs
    assert {"session", None} <= set(ours)


def test_a_refused_message_charges_neither_budget() -> None:
    """The customer budget refusing leaves the session budget as it was."""

    async def scenario() -> None:
        session, customer = Budget(5), Budget(1)
        assert await admit(session, customer) is None
        refusal = await admit(session, customer)
        assert refusal is not None and refusal.scope == "customer"
        assert refusal.retry_after_s == 60.0
        for _ in range(4):  # the session still has four of its five
            assert session.has_room()
            session.take_now()
        assert not session.has_room()

    asyncio.run(scenario())
