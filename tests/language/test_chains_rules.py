"""Asks that lean on the ask before them in the same message: what "it" is, a corrected
ask, a condition that names the target, a task by its due day."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.language import detect_intents
from assistant.language.if_named import condition_named
from assistant.language.shifts import find_shift

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))  # a Monday


def targets(text: str) -> list[tuple[str, tuple[str, ...], date | None]]:
    return [
        (i.kind, i.target.words if i.target else (), i.target.day if i.target else None)
        for i in detect_intents(text, NOW, TZ)
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "mark the insurance task as done and then delete it",
            [("complete_task", ("insurance",), None), ("delete_task", ("insurance",), None)],
        ),
        (
            "move my dental cleaning to friday and then cancel it",
            [
                ("reschedule_appointment", ("dental", "cleaning"), None),
                ("cancel_appointment", ("dental", "cleaning"), None),
            ],
        ),
        (
            "add a task to buy milk, then mark it done",
            [("add_task", (), None), ("complete_task", ("buy", "milk"), None)],
        ),
    ],
)
def test_it_in_a_later_ask_is_what_the_ask_before_acted_on(
    text: str, expected: list[tuple[str, tuple[str, ...], date | None]]
) -> None:
    """ "…and then delete it": the thing the ask before named, not a question of which."""
    assert targets(text) == expected


def test_an_ask_corrected_in_the_same_breath_is_replaced() -> None:
    """ "cancel my haircut, no wait, I mean move it to saturday" cancels nothing."""
    found = detect_intents("cancel my haircut, no wait, I mean move it to saturday", NOW, TZ)
    assert [(i.kind, i.target.words if i.target else ()) for i in found] == [
        ("reschedule_appointment", ("haircut",))
    ]


def test_only_the_corrected_ask_is_replaced() -> None:
    """ "cancel the haircut and book, no, move the dentist to friday" keeps the cancel."""
    found = detect_intents("cancel the haircut and book, no, move the dentist to friday", NOW, TZ)
    assert [i.kind for i in found] == ["cancel_appointment", "reschedule_appointment"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("if groceries is still there mark it done", "mark groceries done"),
        (
            "if my dental cleaning is on wednesday move it to thursday",
            "move my dental cleaning on wednesday to thursday",
        ),
        ("if it's more than 100 dollars add a task", "if it's more than 100 dollars add a task"),
    ],
)
def test_a_condition_that_only_names_the_target_is_the_target(text: str, expected: str) -> None:
    """Finding the thing checks the condition; other conditions are left to be asked."""
    assert condition_named(text) == expected


def test_a_task_by_its_due_day_is_deleted_not_given_that_due_day() -> None:
    """ "delete whichever one is due tomorrow" was read as a change of due date."""
    assert targets("delete whichever one is due tomorrow") == [
        ("delete_task", (), date(2030, 1, 15))
    ]


def test_moved_up_is_earlier() -> None:
    """ "moved up by a day" is a day earlier, and the passive ask is a move."""
    assert find_shift("can i get my haircut moved up by a day") is not None
    assert find_shift("can i get my haircut moved up by a day").days == -1  # type: ignore[union-attr]
    assert [i.kind for i in detect_intents("can I get my haircut moved up by a day", NOW, TZ)] == [
        "reschedule_appointment"
    ]


def test_a_day_of_a_month_before_a_part_of_the_day_is_not_an_hour() -> None:
    """ "january 21 in the morning" booked 9 PM on the 21st; the hour is asked now."""
    found = detect_intents("book a haircut on january 21 in the morning", NOW, TZ)
    assert [(i.kind, "starts_at" in i.arguments, i.missing) for i in found] == [
        ("book_appointment", False, ("time",))
    ]
