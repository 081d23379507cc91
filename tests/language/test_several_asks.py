"""Several asks in one message: each is its own intent, and none changes another."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.language import detect_intents

TZ = "America/Los_Angeles"
NOW = datetime(2025, 3, 1, 12, 0, tzinfo=ZoneInfo(TZ))  # a Saturday


def read(text: str) -> list[tuple[str, dict[str, object]]]:
    return [(intent.kind, dict(intent.arguments)) for intent in detect_intents(text, NOW, TZ)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "add eggs to my list but don't mark the groceries done yet",
            [("add_task", {"title": "Eggs"})],
        ),
        (
            "have i paid the haircut invoice, also dont open a ticket about it yet",
            [("billing", {})],
        ),
        ("i was going to reschedule the cleaning but never mind, what do i owe", [("billing", {})]),
    ],
)
def test_what_is_held_back_is_not_done_and_does_not_undo_the_rest(
    text: str, expected: list[tuple[str, dict[str, object]]]
) -> None:
    """A "don't …" or "never mind" clause asks for nothing, and leaves the other asks as said."""
    assert read(text) == expected


def test_a_question_said_in_one_breath_after_a_request_is_its_own_ask() -> None:
    """ "add renew passport to my tasks whats my next appointment": the title stops where the
    question starts, and the question is read too."""
    assert read("add renew passport to my tasks whats my next appointment") == [
        ("add_task", {"title": "Renew passport"}),
        ("next_appointment", {}),
    ]


def test_a_question_that_names_no_listing_asks_about_the_one_just_changed() -> None:
    """ "…and tell me what else is due" reads the tasks; it is not a second change."""
    assert [
        kind
        for kind, _ in read(
            "change the car insurance due date to friday and tell me what else is due"
        )
    ] == [
        "update_task",
        "tasks",
    ]


def test_an_ask_about_a_past_visit_beside_a_write_is_kept() -> None:
    """ "update my phone … and tell me when I last came in": both asks are read."""
    assert [
        kind for kind, _ in read("update my phone to 415 555 0100 and tell me when i last came in")
    ] == [
        "update_contact",
        "appointments",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("has anyone answered my ticket about the invoice", ["tickets"]),
        ("leave the haircut where it is, what tasks are due this week", ["tasks"]),
    ],
)
def test_what_only_describes_another_ask_is_not_read(text: str, expected: list[str]) -> None:
    """A bill a case is about, or a visit to be left alone, is not looked up beside the ask."""
    assert [kind for kind, _ in read(text)] == expected


def test_a_question_about_it_after_a_reminder_is_not_part_of_the_title() -> None:
    """ "remind me to bring my x-rays to the cleaning on monday what time is it": the title
    stops before the question, which reads the appointments ("it" is the cleaning)."""
    assert read("remind me to bring my x-rays to the cleaning on monday what time is it") == [
        ("add_task", {"title": "Bring my x-rays to the cleaning", "due_on": "2025-03-03"}),
        ("appointments", {}),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("what have i paid this year and whats still outstanding", ["billing", "billing"]),
        (
            "how many times have i been in this year and how much have i spent",
            ["appointments", "billing"],
        ),
        ("all my invoices please, paid and unpaid", ["billing"]),
    ],
)
def test_two_questions_about_one_kind_are_both_kept(text: str, expected: list[str]) -> None:
    """Two questions of one kind stay two (one may ask the history, the other what is
    open); words that only elaborate one ask do not become a second."""
    assert [kind for kind, _ in read(text)] == expected


@pytest.mark.parametrize(
    "text",
    [
        "whats my balance and put a reminder in to pay it on friday, high priority",
        "do I owe anything? remind me to pay it on friday, high priority",
    ],
)
def test_a_priority_said_after_an_ask_read_with_the_one_before_keeps_both(text: str) -> None:
    """ "…and put a reminder in to pay it on friday, high priority": the balance is still
    asked and the task is still "Pay the bill" (the priority clause, joined to the ask,
    read it again without the lookup it was read with: the balance went unanswered and the
    task was titled "Pay it")."""
    found = read(text)
    assert [kind for kind, _ in found] == ["billing", "add_task"]
    assert found[1][1]["title"] == "Pay the bill" and found[1][1]["priority"] == "high"
