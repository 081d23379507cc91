"""Latency on a call: reads announced one by one as a model streams them, and a slow
lookup that does not hold up what is ready; one talk cycle, each sentence once."""

from __future__ import annotations

import asyncio
import re

from assistant.fakes import calls
from assistant.models.embedded import EmbeddedNarrator
from assistant.schema import FinalDecision, PlanRequest, ToolCallsDecision
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.transports_relay.conftest import Dial, spoken

INVOICES = "/v1/customers/*/invoices"


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]


async def test_the_caller_hears_what_is_ready_while_billing_is_slow(
    make_assistant: MakeAssistant, dial: Dial, crm_admin: CrmAdmin
) -> None:
    """Appointments are spoken, then "I'm still checking your billing.", then the balance:
    one talk cycle, no sentence twice."""
    # Billing answers eight times the threshold after it was asked.
    await crm_admin.add_fault(method="GET", path=INVOICES, latency_ms=400)
    harness = await make_assistant(progress_after_s=0.05)
    relay = await dial(harness)
    await relay.setup()

    frames = await relay.ask("Show me my appointments and my billing")

    assert [frame["last"] for frame in frames] == [False] * (len(frames) - 1) + [True]
    text = spoken(frames)
    assert text.startswith("Sure, I'll look up your upcoming appointments and check your billing.")
    appointments = text.index("You have two upcoming appointments")
    still = text.index("I'm still checking your billing.")
    balance = text.index("Your balance is $150.00")
    assert appointments < still < balance, text
    said = sentences(text)
    assert len(said) == len(set(said)), said


class StreamingPlanner:
    """Hands each call over as a streaming model does, one by one, before deciding."""

    async def decide(self, request: PlanRequest) -> FinalDecision | ToolCallsDecision:
        if request.round > 1:
            return FinalDecision(text="")
        decision = calls("crm.listUpcomingAppointments", "crm.getOpenInvoices")
        for call in decision.calls:
            await asyncio.sleep(0)
            if request.on_call is not None:
                await request.on_call(call)
        return decision


async def test_an_acknowledgement_in_pieces_is_spoken_as_one_sentence(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """Each call's piece of the acknowledgement is spoken as it comes, not cut short by
    the answer, and the caller hears one sentence, then the answer."""
    harness = await make_assistant(planner=StreamingPlanner(), narrator=EmbeddedNarrator())
    relay = await dial(harness)
    await relay.setup()

    frames = await relay.ask("Show me my appointments and my billing")

    ack = [frame for frame in frames if frame.get("preemptible") is False]
    assert len(ack) == 3  # one piece per call, then the full stop
    assert ack == frames[: len(ack)]
    assert spoken(ack) == "Sure, I'll look up your upcoming appointments and check your billing."
    assert "Your balance is $150.00" in spoken(frames[len(ack) :])
