"""Admission control: a saturated worker answers new messages `busy` (with retry_after_s)
and new connections 503, and the turns it accepted still finish."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from assistant.schema import FinalDecision, PlanRequest, ToolCallsDecision
from tests.fakes import EchoNarrator
from tests.fixtures.app import MakeAssistant


class HeldPlanner:
    """Answers once `release` is set: turns stay in flight until then."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.waiting = 0

    async def decide(self, request: PlanRequest) -> FinalDecision | ToolCallsDecision:
        self.waiting += 1
        await self.release.wait()
        return FinalDecision(text="Done thinking.")


async def test_past_capacity_new_work_is_refused_and_accepted_turns_finish(
    make_assistant: MakeAssistant,
) -> None:
    """Two turns in flight at a capacity of two: a third session's message is `busy` with
    retry_after_s, a new connection gets 503 with Retry-After; the two then finish ok."""
    planner = HeldPlanner()
    assistant = await make_assistant(
        planner=planner, narrator=EchoNarrator(), saturation_turns_in_flight=2
    )
    first, second = await assistant.connect("cust_001"), await assistant.connect("cust_002")
    third = await assistant.connect("cust_003")
    await first.send_message("one")
    await second.send_message("two")
    while planner.waiting < 2:  # noqa: ASYNC110
        await asyncio.sleep(0.01)

    await third.send_message("three")
    busy = await third.next_of("error")
    assert busy["code"] == "busy"
    assert busy["retry_after_s"] > 0
    token = assistant.token("cust_004")
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await assistant.open_ws(headers={"Authorization": f"Bearer {token}"})
    assert refused.value.status == 503
    assert refused.value.headers is not None and int(refused.value.headers["Retry-After"]) > 0

    planner.release.set()
    for chat in (first, second):
        done = await chat.next_of("turn.done")
        assert done["status"] == "ok"
    # With room again, the third session is served.
    assert (await third.say("three again"))[-1]["status"] == "ok"
