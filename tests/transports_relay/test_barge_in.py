"""Barge-in on the phone: an interrupt or a new prompt stops the turn being spoken."""

from __future__ import annotations

from assistant.fakes import ScriptedPlanner, calls
from assistant.schema import AssistantTurn, FinalDecision, Message, UserTurn
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.transports_relay.conftest import Dial, SpokenNarrator, spoken

SLOW_INVOICES = {
    "method": "GET",
    "path": "/v1/customers/*/invoices",
    "latency_ms": 5000,
    "times": 1,
}


def _said(conversation: tuple[Message, ...]) -> list[tuple[str, str]]:
    """What the planner believes was said: (kind, text) of every assistant entry."""
    return [(m.kind, m.text) for m in conversation if isinstance(m, AssistantTurn)]


def _cancelled_turns(metrics: str) -> str:
    """The value of turn_count_total{status="cancelled"} in the /metrics text."""
    marker = 'turn_count_total{status="cancelled"}'
    return next(line for line in metrics.splitlines() if line.startswith(marker)).split()[-1]


async def test_interrupt_during_a_slow_turn_stops_it_and_the_next_prompt_works(
    make_assistant: MakeAssistant, dial: Dial, crm_admin: CrmAdmin
) -> None:
    """While billing is slow the caller talks over the ack: that turn says nothing more."""
    await crm_admin.add_fault(**SLOW_INVOICES)
    planner = ScriptedPlanner(
        calls("crm.getOpenInvoices"),  # the slow turn: cancelled before another decision
        calls("crm.listTasks"),
        FinalDecision(text=""),
    )
    harness = await make_assistant(planner=planner, narrator=SpokenNarrator())
    relay = await dial(harness)
    await relay.setup()

    await relay.prompt("What do I owe?")
    ack = await relay.next_frame()
    await relay.interrupt("Sure, I'll")
    frames = await relay.ask("Never mind. How many tasks do I have?")

    assert ack["token"] == "Sure, I'll check your billing."
    assert ack["last"] is False and ack["preemptible"] is False
    # Every frame after the interrupt belongs to the second question.
    assert spoken(frames) == "Sure, I'll check your tasks. You have 3 pending tasks."
    assert "$" not in spoken(relay.received[relay.received.index(ack) + 1 :])
    # The model remembers only the part of the ack the caller heard, and no answer.
    second_turn = planner.requests[1].conversation
    assert _said(second_turn) == [("ack", "Sure, I'll")]
    assert [m.text for m in second_turn if isinstance(m, UserTurn)] == [
        "What do I owe?",
        "Never mind. How many tasks do I have?",
    ]
    assert _cancelled_turns(await harness.metrics_text()) == "1.0"
    planner.assert_used_up()


async def test_interrupt_after_the_answer_was_sent_keeps_only_what_was_heard(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """Text goes out faster than it is spoken: history is cut to utteranceUntilInterrupt."""
    planner = ScriptedPlanner(
        calls("crm.getOpenInvoices"),
        FinalDecision(text=""),
        calls("crm.listTasks"),
        FinalDecision(text=""),
    )
    harness = await make_assistant(planner=planner, narrator=SpokenNarrator())
    relay = await dial(harness)
    await relay.setup()

    first = spoken(await relay.ask("What do I owe?"))
    await relay.interrupt("Sure, I'll check your billing. Balance: you owe")
    await relay.ask("And my tasks?")

    assert first == "Sure, I'll check your billing. Balance: you owe $150.00 and nothing else."
    assert _said(planner.requests[2].conversation) == [
        ("ack", "Sure, I'll check your billing."),
        ("answer", "Balance: you owe"),
    ]


async def test_interrupt_during_the_ack_drops_the_unheard_answer(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """A caller who cut in before any of the answer was spoken never heard it."""
    planner = ScriptedPlanner(
        calls("crm.getOpenInvoices"),
        FinalDecision(text=""),
        FinalDecision(text="Sure."),
    )
    harness = await make_assistant(planner=planner, narrator=SpokenNarrator())
    relay = await dial(harness)
    await relay.setup()

    await relay.ask("What do I owe?")
    await relay.interrupt("")
    await relay.ask("Wait, hold on")

    assert _said(planner.requests[2].conversation) == []


async def test_a_new_prompt_while_a_turn_runs_replaces_it(
    make_assistant: MakeAssistant, dial: Dial, crm_admin: CrmAdmin
) -> None:
    """The caller speaks again during a slow lookup: the old turn ends, the new one answers."""
    await crm_admin.add_fault(**SLOW_INVOICES)
    planner = ScriptedPlanner(
        calls("crm.getOpenInvoices"), calls("crm.listTasks"), FinalDecision(text="")
    )
    harness = await make_assistant(planner=planner, narrator=SpokenNarrator())
    relay = await dial(harness)
    await relay.setup()

    await relay.prompt("What do I owe?")
    ack = await relay.next_frame()
    await relay.prompt("Actually, how many tasks do I have?")
    closing = await relay.talk_cycle()
    answer = await relay.talk_cycle()

    assert ack["token"] == "Sure, I'll check your billing."
    assert closing == [{"type": "text", "token": "", "last": True}]  # the old cycle ends there
    assert spoken(answer) == "Sure, I'll check your tasks. You have 3 pending tasks."
    assert _cancelled_turns(await harness.metrics_text()) == "1.0"
    planner.assert_used_up()
