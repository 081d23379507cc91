"""Several writes in one breath, each read with its own words (conversations_mixed): a
second target's own time or level, a second change of the same task said without it,
tasks asked for in the plural, and a question after them."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from assistant.language import detect_intents

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))  # a Monday noon


def _read(text: str) -> list[tuple[str, dict[str, object], str | None]]:
    return [
        (i.kind, dict(i.arguments), i.target.phrase if i.target else None)
        for i in detect_intents(text, NOW, TZ)
    ]


def test_a_second_visit_goes_where_its_own_words_say() -> None:
    """The haircut goes to Friday 4 PM, not to the dentist's Thursday 9 AM."""
    assert _read("move the dentist to thursday at 9am and the haircut to friday at 4pm") == [
        ("reschedule_appointment", {"starts_at": "2030-01-17T09:00:00-08:00"}, "the dentist"),
        ("reschedule_appointment", {"starts_at": "2030-01-18T16:00:00-08:00"}, "the haircut"),
    ]


def test_a_second_change_of_the_same_task_is_one_change_of_both() -> None:
    """ "…high priority and due friday": one update with both, not a task named "due friday"."""
    assert _read("make the eye exam high priority and due friday") == [
        ("update_task", {"priority": "high", "due_on": "2030-01-18"}, "the eye exam")
    ]


def test_tasks_asked_for_in_the_plural_are_each_their_own() -> None:
    """ "add tasks to X and to Y": two tasks titled X and Y (the plural's "s" was a title)."""
    found = _read("add tasks to call mom and to pay rent")
    assert [(kind, args.get("title")) for kind, args, _ in found] == [
        ("add_task", "Call mom"),
        ("add_task", "Pay rent"),
    ]


def test_a_question_after_the_tasks_is_asked_not_added() -> None:
    """ "…, and what's my balance" is a lookup, never a task titled "What's my balance"."""
    found = _read(
        "create reminders to book the vet and to renew my passport, and what's my balance"
    )
    assert [kind for kind, _, _ in found] == ["add_task", "add_task", "billing"]


def test_a_to_do_asked_for_again_without_a_pause_is_a_second_task() -> None:
    """ "add a task to buy milk add a task to call mom" (a transcript with no comma):
    two tasks, not one titled "Buy milk add a task to call mom"; "remind me to add a task
    for the plumber" is still one."""
    for said in (
        "add a task to buy milk add a task to call mom",
        "remind me to buy milk remind me to call mom",
    ):
        found = _read(said)
        assert [(kind, args.get("title")) for kind, args, _ in found] == [
            ("add_task", "Buy milk"),
            ("add_task", "Call mom"),
        ], said
    assert len(_read("remind me to add a task for the plumber")) == 1
