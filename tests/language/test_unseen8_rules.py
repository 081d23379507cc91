"""Readings the eighth unseen set showed wrong: a date lost into a title, a reply that picks
some of the changes asked about, a task named by what it lacks, a yes said with its verb,
a visit named by its day, a holiday on a fixed date."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.confirmation import narrowed
from assistant.dialogue_state import Action, Dialogue
from assistant.language import detect_intents
from assistant.language.confirm import go_ahead_named
from assistant.language.dates import find_when
from assistant.language.narrowed import agreed, picked
from assistant.language.slots import service
from assistant.models.embedded.corrections import correction
from assistant.models.embedded.pinning import named_by_day
from assistant.models.embedded.question_words import FOCUS_QUESTION
from assistant.schema import ToolCall

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))  # a Monday

KINDS = ["appointment", "task"]
NAMES = [
    "cancel your haircut on Sunday, January 20 at 2:30 PM",
    "delete the task 'Buy groceries'",
]


@pytest.mark.parametrize(
    ("said", "due"),
    [
        ("add a task to renew my passport by the end of the year", "2030-12-31"),
        ("remind me to file my taxes by the last day of the year", "2030-12-31"),
    ],
)
def test_the_end_of_the_year_is_its_last_day_not_words_of_the_title(said: str, due: str) -> None:
    """ "…by the end of the year" is due December 31, and the title holds none of it."""
    (intent,) = detect_intents(said, NOW, TZ)
    assert intent.arguments["due_on"] == due
    assert "year" not in intent.arguments["title"].lower()


@pytest.mark.parametrize(
    ("said", "chosen"),
    [
        ("yes to the first, no to the second", {0}),
        ("yes to the first no to the second", {0}),
        ("no wait, just the task", {1}),
        ("only the second one please", {1}),
        ("yes but not the task", {0}),
        ("just the haircut", {0}),
        ("no, just delete it", {1}),
        ("yes, only the groceries one", {1}),
    ],
)
def test_a_reply_that_picks_some_of_the_changes(said: str, chosen: set[int]) -> None:
    """The changes a reply picks, by place, kind, verb or a word of them."""
    assert picked(said, KINDS, NAMES) == frozenset(chosen)


@pytest.mark.parametrize(
    "said",
    [
        "yes",
        "no",
        "yes both",
        "no wait a second",
        "the haircut is fine, hmm",
        "just the dentist",  # names nothing asked about: not read as a pick
        "no, neither",
    ],
)
def test_a_reply_that_picks_nothing_apart_is_not_a_pick(said: str) -> None:
    """A yes, a no, or a name that matches nothing asked about is left to be heard as before."""
    assert picked(said, KINDS, NAMES) is None


def test_a_pick_goes_ahead_only_with_a_yes_said() -> None:
    """ "yes to the first" goes ahead; "no wait, just the task" is asked again."""
    calls = [
        ToolCall(call_id="c1", tool_name="crm.cancelAppointment", arguments={"id": "a"}),
        ToolCall(call_id="c2", tool_name="crm.deleteTask", arguments={"id": "t"}),
    ]
    named = list(zip(["c1", "c2"], NAMES, strict=True))
    first = narrowed("yes to the first, no to the second", calls, named)
    assert first is not None and first.agreed and [c.call_id for c in first.calls] == ["c1"]
    assert first.left == "Okay, I won't delete the task 'Buy groceries'."
    task = narrowed("no wait, just the task", calls, named)
    assert task is not None and not task.agreed and [c.call_id for c in task.calls] == ["c2"]
    assert task.prompt == "Are you sure you want to delete the task 'Buy groceries'?"
    assert agreed("yep, the second") and not agreed("just the second")


@pytest.mark.parametrize("said", ["yes delete it", "yeah ok cancel it please", "yep delete that"])
def test_a_yes_said_with_its_verb_names_the_change(said: str) -> None:
    """ "yes delete it" after the question was moved on from takes that change up."""
    assert go_ahead_named(said) in ("crm.deleteTask", "crm.cancelAppointment")


def test_a_bare_verb_without_a_yes_takes_nothing_up() -> None:
    """ "delete it" alone is a new request, not the old question's yes."""
    assert go_ahead_named("delete it") is None


@pytest.mark.parametrize(
    "said",
    [
        "the one with no date, give it the 25th",
        "the one without a due date, give it the 25th",
    ],
)
def test_a_task_named_by_its_missing_date(said: str) -> None:
    """ "the one with no date": a task with no due date; "give it the 25th" dates it."""
    (intent,) = detect_intents(said, NOW, TZ)
    assert intent.kind == "update_task" and intent.arguments == {"due_on": "2030-01-25"}
    assert intent.target is not None and intent.target.undated and not intent.target.words


@pytest.mark.parametrize("said", ["book me the usual", "book me the same as before"])
def test_the_usual_names_no_service(said: str) -> None:
    """ "the usual" points back at a visit: no service called "The usual" is refused."""
    assert service(said, said) is None


@pytest.mark.parametrize(
    "said", ["keep it, what's the address there", "nah leave it, what's the address there"]
)
def test_the_address_after_a_cancel_declined_is_of_that_visit(said: str) -> None:
    """ "keep it, what's the address there": a question about the visit in focus."""
    assert FOCUS_QUESTION.search(said)


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("remind me to book the venue on new year's eve", "2030-12-31"),
        ("remind me to buy a card by valentine's day", "2030-02-14"),
        ("add a task to order the turkey for christmas eve", "2030-12-24"),
    ],
)
def test_a_holiday_on_a_fixed_date_is_that_date(said: str, day: str) -> None:
    """ "on new year's eve" is December 31, due that day, and no words of the title."""
    (intent,) = detect_intents(said, NOW, TZ)
    assert intent.arguments["due_on"] == day
    assert not {"eve", "valentine's", "christmas"} & set(intent.arguments["title"].split())


@pytest.mark.parametrize(
    "said", ["the day after christmas at 11am", "the week of christmas", "on thanksgiving"]
)
def test_a_day_counted_from_a_holiday_stays_unread(said: str) -> None:
    """ "the day after christmas" is not Christmas: the day is still asked about."""
    when = find_when(said, NOW)
    assert when is None or when.day_unread


def test_a_visit_named_by_its_day_is_that_visit_not_a_new_day() -> None:
    """ "and the wednesday one an hour earlier": the visit on Wednesday, not the one in
    view moved to Wednesday; none known on the day named: not read as that visit."""
    zone = ZoneInfo(TZ)
    dental = {"id": "a1", "service": "Dental cleaning", "starts_at": "2030-01-16T18:00:00+00:00"}
    haircut = {"id": "a3", "service": "Haircut", "starts_at": "2030-01-19T22:30:00+00:00"}
    state = Dialogue(
        listed_kind="appointment",
        listed=(dental, haircut),
        focus_kind="appointment",
        focus=haircut,
    )
    found = named_by_day(state, "and the wednesday one an hour earlier", zone)
    assert found == (dental, "and the one an hour earlier")
    assert named_by_day(state, "move the friday one to 3", zone) == (None, "move the one to 3")
    assert named_by_day(state, "move it to wednesday", zone) is None


def test_a_task_put_back_is_set_back_never_given_a_day_said_beside_it() -> None:
    """ "…to friday. Actually leave groceries where it was" right after the groceries were
    moved: their day before the move, not the Friday said of another task."""
    before = {"id": "t1", "title": "Buy groceries", "due_on": "2030-01-15"}
    after = {**before, "due_on": "2030-01-17"}
    state = Dialogue(
        focus_kind="task",
        focus=after,
        last_action=Action("crm.updateTask", {"due_on": "2030-01-17"}, "task", before, after),
    )
    said = "and the car insurance one to friday. actually leave groceries where it was"
    (intent,) = correction(state, said, NOW, ZoneInfo(TZ)) or []
    assert intent.kind == "update_task" and intent.arguments == {"due_on": "2030-01-15"}
