"""How a change to a to-do is read when said in one breath with another, or as people name
a title (tests/e2e/test_task_edits.py plays the sessions): a day and a level for one to-do
are one change of it; a title told with "so it says", "call the … task …", "should be
called" is its new title, and its words give no order."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from assistant.language.intents import detect_intents

ZONE = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, tzinfo=ZoneInfo(ZONE))  # a Monday
FRIDAY, NEXT_MONDAY = "2030-01-18", "2030-01-21"


def _changes(text: str) -> list[tuple[str, dict[str, Any], str]]:
    return [
        (i.kind, dict(i.arguments), i.target.phrase if i.target else "")
        for i in detect_intents(text, NOW, ZONE)
    ]


@pytest.mark.parametrize(
    ("text", "arguments", "named"),
    [
        (
            "bump groceries to friday and make it high",
            {"due_on": FRIDAY, "priority": "high"},
            "groceries",
        ),
        (
            "move groceries to friday and make it high priority",
            {"due_on": FRIDAY, "priority": "high"},
            "groceries",
        ),
        (
            "push the insurance one to next monday, and it's not urgent anymore",
            {"due_on": NEXT_MONDAY, "priority": "normal"},
            "insurance",
        ),
        (
            "push groceries to friday, oh and it's urgent",
            {"due_on": FRIDAY, "priority": "high"},
            "groceries",
        ),
    ],
)
def test_a_day_and_a_level_said_together_are_one_change_of_the_todo(
    text: str, arguments: dict[str, Any], named: str
) -> None:
    changes = _changes(text)
    assert [(kind, args) for kind, args, _ in changes] == [("update_task", arguments)], changes
    assert named in changes[0][2]


def test_a_visit_moved_with_a_reason_is_no_todo() -> None:
    first = _changes("move my haircut to friday, it's urgent")[0]
    assert first[0] == "reschedule_appointment", first


def test_one_level_said_once_for_two_todos_is_still_two_changes() -> None:
    changes = _changes("make both the groceries and the eye exam high priority")
    assert [(kind, args) for kind, args, _ in changes] == [
        ("update_task", {"priority": "high"}),
        ("update_task", {"priority": "high"}),
    ]


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("change the eye exam task so it says book eye exam for june", "Book eye exam for june"),
        ("call the groceries task weekly shop instead", "Weekly shop"),
        ("the insurance one should be called renew home insurance", "Renew home insurance"),
    ],
)
def test_a_title_told_is_the_new_title_and_gives_no_order(text: str, title: str) -> None:
    assert [(kind, args) for kind, args, _ in _changes(text)] == [("update_task", {"title": title})]


def test_call_the_task_with_a_day_is_no_new_title() -> None:
    assert all("title" not in args for _, args, _ in _changes("call the pharmacy task tomorrow"))


def test_a_note_put_on_a_todo_is_its_note() -> None:
    assert _changes("put a note on the groceries task saying get oat milk") == [
        ("update_task", {"description": "get oat milk"}, "the groceries task")
    ]
