"""Waiting hints merged into one spoken acknowledgement."""

from __future__ import annotations

import pytest

from assistant.acknowledge import ack_pieces, base_form, hint_to_clause, merge_hints


def test_the_seed_example_comes_out_exactly() -> None:
    """The design's seed example, word for word."""
    hints = ["looking up your upcoming appointments", "checking your billing"]
    assert merge_hints(hints) == (
        "Sure, I'll look up your upcoming appointments and check your billing."
    )


def test_one_hint() -> None:
    """One hint is one clause."""
    assert merge_hints(["checking your billing"]) == "Sure, I'll check your billing."


def test_three_hints_take_a_serial_comma() -> None:
    """Three clauses: commas and ', and' before the last."""
    assert (
        merge_hints(["checking your billing", "checking your tasks", "opening a support case"])
        == "Sure, I'll check your billing, check your tasks, and open a support case."
    )


def test_four_hints() -> None:
    """Four clauses, the design's cap."""
    assert merge_hints(
        [
            "looking up your upcoming appointments",
            "checking your billing",
            "checking your tasks",
            "checking your support cases",
        ]
    ) == (
        "Sure, I'll look up your upcoming appointments, check your billing, check your tasks, "
        "and check your support cases."
    )


def test_repeated_hints_are_said_once_for_as_many_things() -> None:
    """Two identical calls' hints are said once, and for two things: the customer hears
    that two tasks are being added, not "that task" while two are."""
    assert merge_hints(["adding that task", "adding that task"]) == (
        "Sure, I'll add those two tasks."
    )


@pytest.mark.parametrize(
    ("hints", "said"),
    [
        (["marking that task complete"] * 3, "Sure, I'll mark those three tasks complete."),
        (["moving your appointment"] * 2, "Sure, I'll move your two appointments."),
        (
            ["cancelling that appointment"] * 2 + ["checking your billing"],
            "Sure, I'll cancel those two appointments and check your billing.",
        ),
        # Nothing in the hint to count: said once, as it is, rather than a wrong plural.
        (["pulling up your account"] * 2, "Sure, I'll pull up your account."),
    ],
)
def test_a_hint_for_several_calls_counts_them(hints: list[str], said: str) -> None:
    """Three completions in one round are "those three tasks" (a bulk change was
    acknowledged as "mark that task complete" while three were ticked off)."""
    assert merge_hints(hints) == said


def test_no_hints_no_acknowledgement() -> None:
    """Nothing to say: an empty acknowledgement."""
    assert merge_hints([]) == ""


@pytest.mark.parametrize(
    ("gerund", "base"),
    [
        ("looking", "look"),
        ("checking", "check"),
        ("cancelling", "cancel"),
        ("canceling", "cancel"),
        ("scheduling", "schedule"),
        ("booking", "book"),
        ("moving", "move"),
        ("pulling", "pull"),
        ("adding", "add"),
        ("marking", "mark"),
        ("updating", "update"),
        ("deleting", "delete"),
        ("opening", "open"),
        ("getting", "get"),
        ("creating", "create"),
        ("changing", "change"),
        ("reviewing", "review"),
        ("sending", "send"),
        ("writing", "write"),
        ("saving", "save"),
        ("paying", "pay"),
        ("verifying", "verify"),
    ],
)
def test_gerunds_become_the_form_that_reads_right(gerund: str, base: str) -> None:
    """'checking' → 'check', 'scheduling' → 'schedule', 'cancelling' → 'cancel'…"""
    assert base_form(gerund) == base


def test_only_the_leading_gerund_changes() -> None:
    """The rest of the phrase is kept as written ('booking' inside stays)."""
    assert hint_to_clause("checking your booking history") == "check your booking history"


def test_pieces_join_into_the_sentence_and_stream_clause_by_clause() -> None:
    """Streamed pieces are whole clauses; joined they are the sentence."""
    pieces = ack_pieces(["looking up your upcoming appointments", "checking your billing"])
    assert pieces == ["Sure, I'll look up your upcoming appointments", " and check your billing."]
