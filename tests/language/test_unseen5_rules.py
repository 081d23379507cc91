"""Readings the fifth unseen set showed wrong, where a misreading writes what was not asked."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.language import classify_chat, detect_intents
from assistant.language.confirm import go_ahead_named, taken_back
from assistant.language.shifts import weekday_beside
from assistant.models.embedded.pinning import positions_said

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))  # a Monday


@pytest.mark.parametrize(
    "said",
    [
        "hmm, on second thought, could I just move it to next week",
        "wait a second, move it to friday",
        "first of all, what's on my list",
        "move it to first thing monday",
        "the same as last week please",
    ],
)
def test_an_ordinal_in_a_saying_counts_no_position(said: str) -> None:
    """ "on second thought" is no "second one": a move never goes to the second listed."""
    assert positions_said(said) == []


def test_the_second_one_still_counts() -> None:
    """ "cancel the second one", "the last appointment" are still positions."""
    assert positions_said("cancel the second one") == [1]
    assert positions_said("move the last appointment") == [-1]


@pytest.mark.parametrize(
    ("said", "day"),
    [
        (
            "is my cleaning on wednesday still on? could I also get a haircut that same day at 2",
            date(2030, 1, 16),
        ),
        ("book a haircut friday at 10 and a massage that day at 3", date(2030, 1, 18)),
    ],
)
def test_that_same_day_is_the_day_said_before(said: str, day: date) -> None:
    """ "a haircut that same day at 2" after Wednesday is on Wednesday, not today."""
    booked = [i for i in detect_intents(said, NOW, TZ) if i.kind == "book_appointment"]
    assert booked and booked[-1].arguments["starts_at"].startswith(day.isoformat())


def test_that_day_with_no_day_said_asks_the_day() -> None:
    """ "book a haircut that day at 2" with no day said before asks which day: never today."""
    (intent,) = detect_intents("book a haircut that day at 2", NOW, TZ)
    assert "starts_at" not in intent.arguments and intent.missing == ("when",)


@pytest.mark.parametrize(
    ("said", "due"),
    [
        ("remind me to renew my passport by the end of next month", "2030-02-28"),
        ("remind me to renew my passport by the end of the month", "2030-01-31"),
        ("add a task to file taxes by the end of next week", "2030-01-25"),
    ],
)
def test_the_end_of_next_month_is_its_last_day(said: str, due: str) -> None:
    """ "the end of next month" is its last day, not the 1st of it."""
    (intent,) = detect_intents(said, NOW, TZ)
    assert intent.arguments["due_on"] == due


@pytest.mark.parametrize(
    ("said", "title"),
    [
        (
            "I need to remember to send the signed consent form, could you note that down "
            "for the 3rd?",
            "Send the signed consent form",
        ),
        ("do I owe anything? remind me to pay it on friday", "Pay the bill"),
        ("whats my balance and put a reminder in to pay it on friday", "Pay the bill"),
    ],
)
def test_a_title_holds_only_the_to_do(said: str, title: str) -> None:
    """No "could you note that down" in a title, and "pay it" after the balance is the bill."""
    added = [i for i in detect_intents(said, NOW, TZ) if i.kind == "add_task"]
    assert [i.arguments["title"] for i in added] == [title]


def test_put_it_on_my_list_is_the_to_do_said_before() -> None:
    """ "remind me to call mom, can you put it on my list" adds one task, not "Can you"."""
    intents = detect_intents("remind me to call mom, can you put it on my list for friday", NOW, TZ)
    assert [(i.kind, i.arguments.get("title"), i.arguments.get("due_on")) for i in intents] == [
        ("add_task", "Call mom", "2030-01-18")
    ]


def test_a_condition_said_first_holds_the_ask_after_it() -> None:
    """ "do I owe anything? if I do, remind me…": asked about after the lookup, not made."""
    intents = detect_intents("do I owe anything? if I do, remind me to pay it on friday", NOW, TZ)
    added = [i for i in intents if i.kind == "add_task"]
    assert added and added[0].missing == ("consent",)


def test_a_weekend_condition_names_the_visit() -> None:
    """ "if my haircut falls on the weekend, move it to the friday before": the haircut of
    this weekend is the one moved (none there: nothing moves), counted from its own day."""
    (intent,) = detect_intents(
        "if my haircut falls on the weekend, could you move it to the friday before, same time?",
        NOW,
        TZ,
    )
    assert intent.kind == "reschedule_appointment" and not intent.missing
    assert intent.target is not None and intent.target.within == (
        date(2030, 1, 19),
        date(2030, 1, 20),
    )
    assert weekday_beside(intent.clause, date(2030, 1, 20)) == date(2030, 1, 18)


def test_a_clause_with_its_own_verb_never_takes_the_action_before() -> None:
    """ "the groceries are done, and could you move the car insurance one to friday"
    completes one and moves the other's due date: it never completes the second."""
    intents = detect_intents(
        "the groceries are done, and could you move the car insurance one to friday", NOW, TZ
    )
    assert [(i.kind, dict(i.arguments)) for i in intents] == [
        ("complete_task", {}),
        ("update_task", {"due_on": "2030-01-18"}),
    ]


def test_come_in_earlier_at_a_time_is_a_move() -> None:
    """ "could I come in for my cleaning a bit earlier that day, say 8:30" moves it."""
    (intent,) = detect_intents(
        "is there any chance I could come in for my cleaning a bit earlier that day, say 8:30?",
        NOW,
        TZ,
    )
    assert intent.kind == "reschedule_appointment" and not intent.missing


def test_having_two_visits_is_no_booking() -> None:
    """ "so I've got two haircuts on sunday now?" asks; "can I have a haircut…" books."""
    assert not any(
        i.writes for i in detect_intents("so I've got two haircuts on sunday now?", NOW, TZ)
    )
    (booked,) = detect_intents("can I have another haircut this sunday at noon?", NOW, TZ)
    assert booked.kind == "book_appointment" and booked.arguments["starts_at"]


def test_an_ask_kept_after_a_reason_is_taken_back() -> None:
    """ "delete the eye exam task, oh wait, I haven't booked it yet, keep it": nothing."""
    said = "delete the eye exam task, oh wait, I haven't actually booked it yet, keep it"
    assert taken_back(said)
    assert not taken_back("if there is no slot on friday, leave it")


def test_ill_let_you_know_is_no_refusal() -> None:
    """ "ok, I'll let you know" needs nothing: it is not an unknown ask."""
    assert classify_chat("ok, I'll let you know") == "never_mind"
    assert classify_chat("I'll check with my husband and get back to you") == "never_mind"


def test_a_day_said_before_the_to_do_is_no_part_of_its_title() -> None:
    """ "remind me the day before to find my old glasses": the title is the to-do; the day
    is asked (before what?), never written as "The day before to…"."""
    (intent,) = detect_intents("remind me the day before to find my old glasses", NOW, TZ)
    assert intent.arguments["title"] == "Find my old glasses"
    assert "due_on" not in intent.arguments and intent.missing == ("when",)


def test_adding_a_reminder_politely_adds_one() -> None:
    """ "would you mind adding a reminder to drop off the library books by thursday?"."""
    (intent,) = detect_intents(
        "would you mind adding a reminder to drop off the library books by thursday?", NOW, TZ
    )
    assert intent.kind == "add_task"
    assert dict(intent.arguments) == {"title": "Drop off the library books", "due_on": "2030-01-17"}


def test_a_question_about_my_dentist_books_nothing() -> None:
    """ "and my dentist is still wednesday at 10?" asks; "book my dentist for…" books."""
    said = "and my dentist is still wednesday at 10?"
    assert not any(i.writes for i in detect_intents(said, NOW, TZ))
    (booked,) = detect_intents("book my dentist for wednesday at 10", NOW, TZ)
    assert booked.kind == "book_appointment"


def test_leave_it_ill_keep_it_is_a_no() -> None:
    """ "no, actually leave it, I'll keep it" leaves everything as it is."""
    assert classify_chat("no, actually leave it, I'll keep it") == "never_mind"
    assert detect_intents("no, actually leave it, I'll keep it", NOW, TZ) == []


def test_half_past_two_is_an_hour_not_to() -> None:
    """ "set a reminder for half past two tomorrow to call mum": 2:30 tomorrow, titled
    "Call mum" (the "two" was heard as "to": a title "Half past to to call mum")."""
    (intent,) = detect_intents("set a reminder for half past two tomorrow to call mum", NOW, TZ)
    assert dict(intent.arguments) == {
        "title": "Call mum",
        "due_on": "2030-01-15",
        "description": "Time said: 2:30 PM",  # a task keeps a day; its note, the time
    }


def test_no_date_said_is_no_part_of_the_title() -> None:
    """ "and another to buy dog food, no date" adds "Buy dog food", undated."""
    (intent,) = detect_intents("add a task to buy dog food, no date", NOW, TZ)
    assert dict(intent.arguments) == {"title": "Buy dog food"}


def test_a_condition_is_no_part_of_the_target() -> None:
    """ "cancel my dentist if it's before noon" is about the dentist. Since heldout14 the
    condition names it (the dentist in the morning, as "if my dentist is in the morning,
    cancel it" did): found, its cancel is held for a yes that names it; not found, nothing
    is cancelled. A condition that names nothing is still asked."""
    (intent,) = detect_intents("cancel my dentist if it's before noon", NOW, TZ)
    assert intent.target is not None and intent.target.words == ("dentist",)
    assert intent.target.hours == (0, 12) and intent.missing == ()
    (asked,) = detect_intents("cancel my dentist if it's raining", NOW, TZ)
    assert asked.target is not None and asked.target.words == ("dentist",)
    assert asked.missing == ("consent",)


def test_a_time_offered_as_a_question_is_the_move() -> None:
    """ "I need to move my cleaning, would the 23rd at 2 work?" moves it there."""
    (intent,) = detect_intents("I need to move my cleaning, would the 23rd at 2 work?", NOW, TZ)
    assert intent.kind == "reschedule_appointment"
    assert intent.arguments["starts_at"] == "2030-01-23T14:00:00-08:00"


def test_what_did_i_just_book_asks_for_no_booking() -> None:
    """ "what did I just book?" is told from the change just made: nothing is booked."""
    assert not any(i.writes for i in detect_intents("what did I just book?", NOW, TZ))


@pytest.mark.parametrize(
    ("said", "title", "due"),
    [
        ("remind me tomorrow at noon to call the bank", "Call the bank", "2030-01-15"),
        (
            "put a reminder in for the 3rd, renew my gym membership",
            "Renew my gym membership",
            "2030-02-03",
        ),
        (
            "I need a reminder to take the bins out every tuesday",
            "Take the bins out every tuesday",
            None,
        ),
    ],
)
def test_the_day_said_around_a_to_do_is_no_part_of_its_title(
    said: str, title: str, due: str | None
) -> None:
    """ "remind me tomorrow at noon to…" was titled "Morrow to call the bank"; "put a reminder
    in for the 3rd, …" "In renew…"; a to-do said every Tuesday was due tomorrow as "…every"."""
    (intent,) = detect_intents(said, NOW, TZ)
    assert intent.arguments["title"] == title
    assert intent.arguments.get("due_on") == due


def test_dont_change_this_just_the_other() -> None:
    """ "please don't change my email, just the phone to 415 555 0170": the phone only."""
    (intent,) = detect_intents(
        "please don't change my email, just the phone to 415 555 0170", NOW, TZ
    )
    assert intent.kind == "update_contact" and dict(intent.arguments) == {"phone": "+14155550170"}


def test_go_ahead_and_change_it_names_a_held_contact_change() -> None:
    """ "ok yes go ahead and change it" takes up a held change of the phone or email that
    a question moved on from (only that tool: it never runs a held delete)."""
    assert go_ahead_named("ok yes go ahead and change it") == "crm.updateContactInfo"
    assert go_ahead_named("ok, go ahead with the delete") == "crm.deleteTask"


def test_what_time_is_free_reads_what_is_booked() -> None:
    """ "actually what time is free thursday?" is a lookup (the answer says open times
    are not known here), not a refusal."""
    assert [i.kind for i in detect_intents("actually what time is free thursday?", NOW, TZ)] == [
        "appointments"
    ]


def test_keep_it_that_way_needs_nothing() -> None:
    """ "good, keep it that way" after being told the haircut is still booked."""
    assert classify_chat("good, keep it that way") == "never_mind"


def test_the_week_after_next_on_tuesday_is_not_tomorrow() -> None:
    """ "book a checkup the week after next on tuesday at 10" on a Monday: the 29th, not the
    coming Tuesday (it booked tomorrow)."""
    for said in (
        "book a checkup the week after next on tuesday at 10",
        "book a checkup tuesday the week after next at 10",
    ):
        (intent,) = detect_intents(said, NOW, TZ)
        assert intent.arguments["starts_at"] == "2030-01-29T10:00:00-08:00"


def test_did_that_cancel_the_dentist_is_a_question() -> None:
    """ "wait, did that cancel the dentist too?" after a cancel asks; it cancels nothing."""
    assert not any(
        i.writes for i in detect_intents("wait, did that cancel the dentist too?", NOW, TZ)
    )


def test_an_undecided_ask_is_asked_about_not_held() -> None:
    """ "cancel the dentist, I'm not sure yet" is asked about (never held for a bare "ok");
    "I probably need to cancel the dentist" only reads it."""
    (intent,) = detect_intents("cancel the dentist, I'm not sure yet", NOW, TZ)
    assert intent.kind == "cancel_appointment" and intent.missing == ("consent",)
    assert intent.target is not None and intent.target.words == ("dentist",)
    said = "I probably need to cancel the dentist, I'm not sure yet"
    assert not any(i.writes for i in detect_intents(said, NOW, TZ))


@pytest.mark.parametrize(
    ("said", "arguments"),
    [
        (
            "could you please add a reminder for me to renew my driving licence before the "
            "3rd? thanks so much",
            # (due the day before the 3rd: "before the 3rd" was once due the 3rd itself)
            {"title": "Renew my driving licence", "due_on": "2030-02-02"},
        ),
        ("make a note to email Sarah about the 3rd", {"title": "Email Sarah about the 3rd"}),
    ],
)
def test_thanks_and_a_topic_day_stay_where_they_belong(
    said: str, arguments: dict[str, str]
) -> None:
    """ "…? thanks so much" is no part of the title; "about the 3rd" is what it is about."""
    (intent,) = detect_intents(said, NOW, TZ)
    assert dict(intent.arguments) == arguments


def test_cancel_and_rebook_it_is_one_move() -> None:
    """ "cancel my cleaning and rebook it for next week same time" moves it; a cancel of the
    same visit as well (held for a yes) cancelled the visit just moved."""
    said = "can you cancel my cleaning and rebook it for next week same time"
    assert [i.kind for i in detect_intents(said, NOW, TZ)] == ["reschedule_appointment"]


def test_an_hour_alone_books_on_the_day_said_before() -> None:
    """ "what have I got on thursday? if nothing, book me a massage at 4": Thursday at 4
    (asked about first), never today at 4."""
    said = "what have I got on thursday? if nothing, book me a massage at 4"
    (booked,) = [i for i in detect_intents(said, NOW, TZ) if i.kind == "book_appointment"]
    assert booked.arguments["starts_at"] == "2030-01-17T16:00:00-08:00"
    assert booked.missing == ("consent",)


def test_the_last_day_of_the_month_is_a_day() -> None:
    """ "remind me on the last day of the month to pay rent" was titled "On the last day of
    the month to pay rent", undated."""
    (intent,) = detect_intents("please remind me on the last day of the month to pay rent", NOW, TZ)
    assert dict(intent.arguments) == {"title": "Pay rent", "due_on": "2030-01-31"}
