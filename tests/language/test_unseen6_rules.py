"""Readings the sixth unseen set showed wrong, where a misreading writes what was not asked."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.language import detect_intents
from assistant.language.dates import find_when
from assistant.models.embedded.pinning import task_follow_up
from assistant.models.embedded.question_words import FOCUS_DAY, FOCUS_QUESTION
from assistant.models.embedded.replies import asked_again

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))  # a Monday


@pytest.mark.parametrize(
    "said",
    [
        "can you set me a reminder for the day before my haircut, actually forget the reminder,"
        " just move the haircut to saturday, same time",
        "remind me to call mom, actually forget that, move my haircut to saturday at 2",
        "add a task to renew my passport, oh never mind the task, move my haircut to saturday at 2",
    ],
)
def test_an_ask_taken_back_by_name_is_not_made(said: str) -> None:
    """ "…, actually forget the reminder, just move…" adds no to-do titled with the take-back."""
    assert [i.kind for i in detect_intents(said, NOW, TZ)] == ["reschedule_appointment"]


def test_a_take_back_naming_another_thing_keeps_the_ask() -> None:
    """ "forget the groceries" after "remind me to call mom" takes back nothing of it."""
    (intent,) = detect_intents("remind me to call mom, forget the groceries", NOW, TZ)
    assert intent.kind == "add_task" and intent.arguments["title"] == "Call mom"


def test_a_new_sentence_of_ones_own_is_no_words_of_the_title() -> None:
    """ "…my prescription on friday. oh and I had a question about my bill": a dated to-do
    and a look at the bill, not one to-do titled with the whole breath."""
    said = (
        "I need a reminder to pick up my prescription on friday."
        " oh and I had a question about my bill"
    )
    task, bill = detect_intents(said, NOW, TZ)
    assert task.arguments == {"title": "Pick up my prescription", "due_on": "2030-01-18"}
    assert bill.kind == "billing"


def test_a_case_description_in_the_first_person_stays_the_cases() -> None:
    """ "open a support case, i was charged twice…": the description is the case's own."""
    (intent,) = detect_intents("please open a support case, i was charged twice", NOW, TZ)
    assert intent.kind == "create_ticket"


def test_a_slip_in_a_service_name_is_that_service() -> None:
    """ "move my dentest appointment…" moves the dental visit (no lookup of the to-dos)."""
    (intent,) = detect_intents("can you move my dentest appointment to tomorow at 11", NOW, TZ)
    assert intent.kind == "reschedule_appointment" and intent.target is not None
    assert intent.target.words == ("dentist",)


@pytest.mark.parametrize(
    "said", ["what day's that?", "what date's that now?", "which day's that on?"]
)
def test_the_day_of_the_one_in_focus_asked_with_a_contraction(said: str) -> None:
    """ "what day's that?" after a move asks that one's day, as "what day is that?" does."""
    assert FOCUS_QUESTION.search(said.lower()) or FOCUS_DAY.search(said.lower())


@pytest.mark.parametrize(
    ("reply", "start"),
    [
        ("hang on, let me find it", "Sure, take your time."),
        ("hmm, no, let's leave it for now", "Okay, I'll leave it for now."),
        ("purple", "Sorry, I didn't catch that."),
    ],
)
def test_a_reply_to_an_open_question_that_pauses_or_lets_it_go(reply: str, start: str) -> None:
    """A pause keeps the question open kindly; a no lets it go; only gibberish is not caught."""
    (intent,) = detect_intents("can you update my phone", NOW, TZ)
    assert asked_again(intent, "What's the new phone number?", reply).startswith(start)


@pytest.mark.parametrize(
    ("said", "days"),
    [
        (
            "can I get physio on tuesday at 9 and on thursday at 9 as well",
            ["2030-01-15T09:00", "2030-01-17T09:00"],
        ),
        (
            "book a haircut friday at 10 and saturday at 11",
            ["2030-01-18T10:00", "2030-01-19T11:00"],
        ),
    ],
)
def test_a_second_day_and_hour_after_a_booking_is_a_second_booking(
    said: str, days: list[str]
) -> None:
    """Two days run into one booking left it with none (its time was asked): two bookings."""
    intents = detect_intents(said, NOW, TZ)
    assert [i.kind for i in intents] == ["book_appointment", "book_appointment"]
    assert [str(i.arguments["starts_at"])[:16] for i in intents] == days


def test_a_to_do_moved_to_a_month_and_day() -> None:
    """ "move the groceries one to january 16" sets that due day, as "…to friday" does."""
    item = {"id": "task_1", "title": "Buy groceries", "due_on": "2030-01-15", "status": "pending"}
    (intent,) = task_follow_up("ok, move the groceries one to january 16", item, NOW) or []
    assert intent.kind == "update_task" and intent.arguments == {"due_on": "2030-01-16"}


@pytest.mark.parametrize(
    ("said", "hour"),
    [("move my haircut to the morning of the 19th, like 10?", 10), ("saturday, say 3", 15)],
)
def test_an_hour_offered_after_a_comma_is_the_time(said: str, hour: int) -> None:
    """ "…the morning of the 19th, like 10" is 10:00, not a morning whose hour is asked."""
    when = find_when(said, NOW)
    assert when is not None and when.clock is not None and when.clock.hour == hour


def test_a_count_after_a_comma_is_no_hour() -> None:
    """ "…, like 10 of them" counts things: no time is read from it."""
    assert find_when("add some things, like 10 of them", NOW) is None
