"""Readings the third unseen set showed wrong, where a misreading would write what was not asked."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from assistant.language import detect_intents
from assistant.language.text import normalize

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))  # a Monday


def read(text: str) -> list[tuple[str, dict[str, object]]]:
    return [(i.kind, dict(i.arguments)) for i in detect_intents(text, NOW, TZ)]


def test_each_task_keeps_the_level_said_for_it() -> None:
    """ "set groceries to low and car insurance to normal" sets each its own level."""
    assert read("set groceries to low and car insurance to normal") == [
        ("update_task", {"priority": "low"}),
        ("update_task", {"priority": "normal"}),
    ]


def test_dropping_a_task_to_a_level_is_not_a_delete() -> None:
    """ "drop it to normal priority" changes the priority; nothing is deleted."""
    assert read("drop it to normal priority") == [("update_task", {"priority": "normal"})]


def test_two_changes_of_one_task_are_one_update() -> None:
    """A new due day and a new level for the same task, said together, are one change."""
    assert read("move the car insurance task to wednesday and drop it to normal priority") == [
        ("update_task", {"due_on": "2030-01-16", "priority": "normal"})
    ]


def test_not_that_urgent_is_low_priority() -> None:
    """ "…, it's not that urgent" on a new task is low priority, never high."""
    assert read("add a task to fix the fence, its not that urgent")[0][1]["priority"] == "low"


def test_whats_due_this_week_reads_the_tasks() -> None:
    """ "what's due this week" asks about to-dos; "what's due on my account" about bills."""
    assert read("whats due this week") == [("tasks", {})]
    assert read("whats due on my account") == [("billing", {})]


def test_a_number_taken_back_is_replaced_whole() -> None:
    """ "415 555 0123, sorry, 415 555 0132" leaves only the second number."""
    assert normalize("my new number is 415 555 0123, sorry, 415 555 0132").phones == ("4155550132",)


def test_a_payment_told_is_not_a_task_done_or_a_visit() -> None:
    """ "I paid the dental bill this morning" reads the bill; it books and completes nothing."""
    assert read("i paid the dental bill this morning") == [("billing", {})]
    assert read("i already paid that last week") == [("billing", {})]


def test_a_day_relative_to_something_unsaid_is_not_guessed() -> None:
    """ "remind me to call mum two days before" is undated and asks when; the title is clean."""
    (intent,) = detect_intents("remind me to call mum two days before", NOW, TZ)
    assert intent.missing == ("when",)
    assert dict(intent.arguments) == {"title": "Call mum"}
