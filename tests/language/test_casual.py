"""How people really ask: negations, statements before a request, passives, enumerations.

Each test is a way of speaking, not a sentence: the rule behind it is what is checked,
with a second wording where the rule should carry over.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.language import classify_chat, detect_intents, unsupported
from assistant.language.smalltalk import asks_how_to
from tests.fixtures.phrasings import kept_phrasings

TZ = "America/New_York"
NOW = datetime(2025, 3, 1, 12, 0, tzinfo=ZoneInfo(TZ))  # a Saturday


def kinds(text: str) -> list[str]:
    return [intent.kind for intent in detect_intents(text, NOW, TZ)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("don't cancel anything, just tell me when my next appointment is", ["next_appointment"]),
        ("I'm not asking about my bill, I want my tasks", ["tasks"]),
        ("don't add a task, just show me my list", ["tasks"]),
        ("no need to book anything, what appointments do I already have", ["appointments"]),
        ("I'm not really interested in my tickets, what do I owe", ["billing"]),
    ],
)
def test_a_negated_request_is_dropped_and_the_rest_is_read(text: str, expected: list[str]) -> None:
    """What the customer says not to do is not done; what they do ask for is."""
    assert kinds(text) == expected


@pytest.mark.parametrize("text", ["I don't owe anything, do I?", "why don't you show my tasks"])
def test_a_negative_word_alone_does_not_cancel_a_request(text: str) -> None:
    """ "I don't owe anything, do I?" still asks for the balance; "why don't you…" asks."""
    assert kinds(text) != []


def test_a_negation_inside_a_reported_problem_keeps_the_ticket() -> None:
    """ "open a ticket, the portal does not let me update my card" opens the case."""
    assert kinds("open a ticket, the portal does not let me update my card") == ["create_ticket"]


@pytest.mark.parametrize(
    ("text", "kind", "words"),
    [
        ("I don't need the eye exam reminder anymore, delete it", "delete_task", {"eye"}),
        (
            "I don't want to delete the groceries task, just mark it done",
            "complete_task",
            {"groceries"},
        ),
        ("the eye exam is scheduled now so mark that task complete", "complete_task", {"eye"}),
        ("finished the grocery shopping, cross it off", "complete_task", {"grocery"}),
    ],
)
def test_it_after_a_statement_is_what_the_statement_described(
    text: str, kind: str, words: set[str]
) -> None:
    """ "…, delete it" after something told (not asked) acts on what was told of."""
    intents = detect_intents(text, NOW, TZ)
    assert [i.kind for i in intents] == [kind]
    assert intents[0].target is not None and words <= set(intents[0].target.words)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("I need to get my haircut cancelled", "cancel_appointment"),
        ("please get my next appointment canceled", "cancel_appointment"),
        ("I'd like to make a cancellation for my dental cleaning", "cancel_appointment"),
        ("I need my haircut moved to the 10th at 3pm", "reschedule_appointment"),
        ("could you have my cleaning pushed back to friday at 9am", "reschedule_appointment"),
    ],
)
def test_wanting_something_done_to_an_appointment_is_asking_for_it(text: str, kind: str) -> None:
    """ "get my haircut cancelled", "need it moved to…" ask for the change itself."""
    assert kinds(text) == [kind]


def test_a_question_about_a_cancellation_only_looks() -> None:
    """ "is my haircut cancelled?" cancels nothing."""
    assert "cancel_appointment" not in kinds("is my haircut cancelled?")


def test_a_missed_appointment_is_not_a_new_booking() -> None:
    """ "I'm not gonna make it to the dentist on monday, cancel it" cancels that one."""
    intents = detect_intents("I'm not gonna make it to the dentist on monday, cancel it", NOW, TZ)
    assert [i.kind for i in intents] == ["cancel_appointment"]
    assert intents[0].target is not None and intents[0].target.weekday == 0


def test_an_enumeration_is_several_requests() -> None:
    """ "first my balance, second when am I seeing the dentist, third any tickets": three."""
    text = "um so first whats my balance second when am i seeing the dentist and third any tickets"
    assert kinds(text) == ["billing", "next_appointment", "tickets"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("what's in my diary", ["appointments"]),
        ("any idea when I'm due in next?", ["next_appointment"]),
        ("is my account in good standing", ["billing"]),
        ("cancel my next appointment please thank you", ["cancel_appointment"]),
    ],
)
def test_everyday_wordings_name_the_right_thing(text: str, expected: list[str]) -> None:
    """British "diary", "due in next", "good standing" and polite tails are understood."""
    assert kinds(text) == expected


def test_politeness_is_not_part_of_the_target() -> None:
    """ "cancel my next appointment please thank you" means the next one, nothing else."""
    (intent,) = detect_intents("cancel my next appointment please thank you", NOW, TZ)
    assert intent.target is not None and intent.target.words == ()
    assert intent.lookup == "crm.getNextAppointment"


@pytest.mark.parametrize(
    "text",
    ["cheers, that's everything", "can you recommend a good dentist", "thanks for everything"],
)
def test_closings_and_recommendations_ask_for_no_lookup(text: str) -> None:
    """ "that's everything" is goodbye, and "a good dentist" is not an appointment on file."""
    assert kinds(text) == []


def test_that_is_everything_is_a_goodbye() -> None:
    """ "cheers, that's everything" is answered as a goodbye, not a thank-you alone."""
    assert classify_chat("cheers, that's everything") == "goodbye"


@pytest.mark.parametrize(
    "text",
    ["can you pay my invoice with my card", "I want a refund for my last visit", "charge my card"],
)
def test_payments_and_refunds_are_out_of_scope(text: str) -> None:
    """Asking to pay or be refunded makes no call: no tool can do it."""
    assert unsupported(text) and kinds(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("do I need to pay anything this month", ["billing"]),
        ("open a ticket, my refund never arrived", ["create_ticket"]),
    ],
)
def test_questions_about_paying_and_refund_problems_are_still_served(
    text: str, expected: list[str]
) -> None:
    """A question about what to pay reads the balance; a missing refund is a support case."""
    assert kinds(text) == expected


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("groceries - done", {"groceries"}),
        ("car insurance is renewed, you can mark it", {"renew", "car", "insurance"}),
        ("finished the grocery shopping", {"grocery", "shopping"}),
    ],
)
def test_a_task_said_to_be_done_is_completed(text: str, words: set[str]) -> None:
    """ "groceries - done", "the car insurance is renewed": that task is completed."""
    intents = detect_intents(text, NOW, TZ)
    assert [i.kind for i in intents] == ["complete_task"]
    assert intents[0].target is not None and words <= set(intents[0].target.words)


@pytest.mark.parametrize("text", ["I'm done", "all done thanks", "almost done"])
def test_done_about_the_conversation_completes_nothing(text: str) -> None:
    """ "I'm done" ends a conversation; it is not a task to complete."""
    assert "complete_task" not in kinds(text)


def test_bump_moves_an_appointment() -> None:
    """ "bump my next appointment to thursday at 10am" moves it."""
    (intent,) = detect_intents("can you bump my next appointment to thursday at 10am", NOW, TZ)
    assert intent.kind == "reschedule_appointment"
    assert intent.arguments == {"starts_at": "2025-03-06T10:00:00-05:00"}


def test_getting_a_balance_is_not_booking_one() -> None:
    """ "could I get my balance" reads the balance; nothing called "Balance" is booked."""
    assert kinds("hello there, could I get my balance") == ["billing"]


def test_forget_the_bill_drops_the_bill() -> None:
    """ "forget the bill, do I have any open tickets" asks only for the tickets."""
    assert kinds("forget the bill, do I have any open tickets") == ["tickets"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "what tickets do I have and can you open a new one saying my login is broken",
            ["tickets", "create_ticket"],
        ),
        (
            "I don't need a new appointment, just tell me when the existing one is",
            ["appointments"],
        ),
        ("add a task to buy milk and a new one to call mom", ["add_task", "add_task"]),
    ],
)
def test_one_is_the_thing_named_just_before(text: str, expected: list[str]) -> None:
    """ "…open a new one", "…the existing one": "one" is what the clause before named."""
    assert kinds(text) == expected


def test_a_new_one_after_a_cancellation_books_the_same_service() -> None:
    """ "cancel my haircut and book a new one friday at 3pm" books a haircut."""
    cancel, book = detect_intents("cancel my haircut and book a new one friday at 3pm", NOW, TZ)
    assert cancel.kind == "cancel_appointment"
    assert book.arguments == {"service": "Haircut", "starts_at": "2025-03-07T15:00:00-05:00"}


@pytest.mark.parametrize(
    "text",
    [
        "I was hoping to reschedule my cleaning, maybe thursday at noon?",
        "move my cleaning, how about thursday at 12pm",
    ],
)
def test_a_time_offered_after_the_request_is_the_new_time(text: str) -> None:
    """ "reschedule my cleaning, maybe thursday at noon?" moves it to Thursday at noon."""
    (intent,) = detect_intents(text, NOW, TZ)
    assert intent.kind == "reschedule_appointment"
    assert intent.arguments == {"starts_at": "2025-03-06T12:00:00-05:00"}


@pytest.mark.parametrize(
    "text",
    [
        "I'll not be needing the haircut on friday, please cancel",
        "I need to cancel, the haircut on friday",
    ],
)
def test_cancel_with_what_to_cancel_said_apart(text: str) -> None:
    """The appointment may be described before "please cancel" or after "I need to cancel,"."""
    (intent,) = detect_intents(text, NOW, TZ)
    assert intent.kind == "cancel_appointment"
    assert intent.target is not None
    assert intent.target.words == ("haircut",) and intent.target.weekday == 4


@pytest.mark.parametrize("text", ["cancel", "please cancel", "hmm, cancel that"])
def test_a_bare_cancel_cancels_nothing(text: str) -> None:
    """ "cancel" with nothing said about what is not a cancellation of a guessed thing."""
    assert kinds(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("what have I got on next week", ["appointments"]),
        ("is there anything on my to-do list I've forgotten about", ["tasks"]),
        ("what mobile number have you got for me", ["profile"]),
        ("have you got my correct email", ["profile"]),
        ("add to my list - get the car washed", ["add_task"]),
        ("i need to add a to do item for booking a plumber", ["add_task"]),
        ("bin the groceries task", ["delete_task"]),
        ("I need to raise an issue about a charge on my bill", ["create_ticket"]),
    ],
)
def test_more_everyday_wordings(text: str, expected: list[str]) -> None:
    """British and casual wordings ("got on", "bin", "raise an issue") name the right thing."""
    assert kinds(text) == expected


@pytest.mark.parametrize(
    "text", ["do you take apple pay", "I need a receipt for my last payment", "can I pay by card"]
)
def test_payment_means_and_receipts_are_out_of_scope(text: str) -> None:
    """How to pay and receipts are not something any tool does: no call."""
    assert unsupported(text) and kinds(text) == []


def test_examples_say_what_a_vague_request_meant() -> None:
    """ "my account, like appointments and bills" asks for those two, not the profile."""
    text = "so what's the story with my account, like appointments and bills"
    assert kinds(text) == ["appointments", "billing"]


def test_emphasis_keeps_everything() -> None:
    """ "give me everything, especially my bills" still asks for all four."""
    assert kinds("give me everything, especially my bills") == [
        "appointments",
        "billing",
        "tasks",
        "tickets",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("show me whats due, whats booked and whats pending", ["billing", "appointments", "tasks"]),
        ("I'm not after my tasks, just my tickets", ["tickets"]),
        ("what do i ow on my acount", ["billing"]),
        (
            "can you check my tickets and then make a new one about my bill being wrong",
            ["tickets", "create_ticket"],
        ),
    ],
)
def test_multi_part_requests_with_slips(text: str, expected: list[str]) -> None:
    """Typos, "not after", "a new one" and "what's pending" in one breath are each read."""
    assert kinds(text) == expected


def test_a_service_said_as_two_words_is_the_listed_service() -> None:
    """ "my hair cut" is the appointment listed as "Haircut"."""
    (intent,) = detect_intents("resechedule my hair cut to friday at 1pm", NOW, TZ)
    assert intent.kind == "reschedule_appointment"
    assert intent.target is not None and intent.target.words == ("haircut",)


def test_paying_a_bill_is_not_a_task_done() -> None:
    """ "I paid my bill last week, why is it still showing" reads the bill, completes nothing."""
    assert kinds("I paid my bill last week, why is it still showing") == ["billing"]


def test_the_how_to_check_asked_before_reading_answers_as_the_small_talk_kinds() -> None:
    """The planner's quick "how do I…?" check says how-to exactly where the small-talk
    reading does, over every kept phrasing (and a how-to that another kind wins)."""
    texts = [*kept_phrasings(), "how do i book one", "thanks, how do i cancel a visit"]
    assert [t for t in texts if asks_how_to(t) != (classify_chat(t) == "how_to")] == []
    assert asks_how_to("how do i book one")
