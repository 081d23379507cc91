"""A slow lookup on a call: the caller hears what is ready, that the rest is coming,
then the rest, in one talk cycle, each sentence once (embedded models, real CRM stub)."""

from __future__ import annotations

import re

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
