"""What a message asks for: intents in order, with their slots, as `detect_intents` reads them."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.language import classify_chat, detect_intents, is_affirmative, is_negative

TZ = "America/New_York"
NOW = datetime(2025, 3, 1, 12, 0, tzinfo=ZoneInfo(TZ))  # a Saturday


def kinds(text: str) -> list[str]:
    return [intent.kind for intent in detect_intents(text, NOW, TZ)]


def only(text: str) -> dict[str, object]:
    intents = detect_intents(text, NOW, TZ)
    assert len(intents) == 1, intents
    return dict(intents[0].arguments)


def test_task_title_is_the_customers_words_as_a_to_do() -> None:
    """ "add a task to call the pharmacy" adds "Call the pharmacy"."""
    assert only("Add a task to call the pharmacy") == {"title": "Call the pharmacy"}


def test_due_date_is_taken_out_of_the_title() -> None:
    """ "…renew my insurance by Friday" is the task "Renew my insurance" due Friday."""
    assert only("Remind me to renew my insurance by Friday") == {
        "title": "Renew my insurance",
        "due_on": "2025-03-07",
    }


def test_priority_is_read_and_kept_out_of_the_title() -> None:
    """A "high priority task: …" is high priority, and the title is only the to-do."""
    assert only("Create a high priority task: send the signed contract") == {
        "title": "Send the signed contract",
        "priority": "high",
    }


def test_title_keeps_the_customers_spelling_and_capitals() -> None:
    """Words near a vocabulary word ("contract") and names keep the customer's spelling."""
    assert only("add a task to email Dr. Okafor about the contract")["title"] == (
        "Email Dr. Okafor about the contract"
    )


def test_ticket_gets_a_short_subject_and_the_whole_problem_as_body() -> None:
    """A support case's subject is short and its body says the problem."""
    arguments = only("Open a support case: my invoice amount looks wrong")
    assert arguments["body"] == "My invoice amount looks wrong."
    assert 0 < len(str(arguments["subject"])) <= 60


def test_email_is_lifted_out_intact() -> None:
    """An email address is passed exactly, whatever the words around it."""
    assert only("Update my email to Jane.Doe@Example.com") == {"email": "jane.doe@example.com"}


@pytest.mark.parametrize(
    ("text", "phone"),
    [
        ("My new phone number is +1 415 555 0199", "+14155550199"),
        ("change my number to 415-555-0199", "+14155550199"),
        ("my cell is (415) 555-0199", "+14155550199"),
        ("set my phone to +44 20 7946 0958", "+442079460958"),
        ("change my phone number to 07700 900123", "+447700900123"),
        ("my new number is 020 7946 0958", "+442079460958"),
    ],
)
def test_phone_numbers_become_e164(text: str, phone: str) -> None:
    """Phone numbers are sent in E.164, assuming +1 for ten digits, +44 for a UK 0-number."""
    assert only(text) == {"phone": phone}


@pytest.mark.parametrize(
    "text",
    [
        "change my number from 415 555 0101 to 415 555 0177",
        "replace 415 555 0101 with 415 555 0177",
        "my old number was 415 555 0101, the new one is 415 555 0177",
        "my number is 415 555 0177 not 415 555 0101",
        "my number used to be 415 555 0101 but now it's 415 555 0177",
    ],
)
def test_of_two_numbers_the_new_one_is_written(text: str) -> None:
    """Said beside the number it replaces, the new number is the one sent, never the old."""
    assert only(text) == {"phone": "+14155550177"}


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("my old number was 415 555 0101, it's changed", "phone"),
        ("you have my old phone number", "phone"),
        ("the email you have for me is wrong", "email"),
        ("my email is maria at gmail", "email"),
        ("my new number is 555 0199", "phone"),
        ("change my number from 415 555 0101", "phone"),
    ],
)
def test_a_detail_out_of_date_without_a_new_one_asks_for_it(text: str, wanted: str) -> None:
    """An old or partial detail is never written: the new one is asked for."""
    (intent,) = detect_intents(text, NOW, TZ)
    assert (intent.kind, intent.arguments, intent.missing) == ("update_contact", {}, (wanted,))


@pytest.mark.parametrize("text", ["change my number to 0612 345 678", "my phone is 1234567890"])
def test_a_number_of_no_known_country_is_asked_for_again(text: str) -> None:
    """Ten digits that cannot be North American are never sent with +1: the number is asked."""
    (intent,) = detect_intents(text, NOW, TZ)
    assert intent.kind == "update_contact"
    assert "phone" not in intent.arguments and intent.missing == ("phone_country",)


def test_booking_reads_the_service_and_the_start_time() -> None:
    """ "a dental cleaning on the 15th at 10am" books that service at that time."""
    assert only("Can I get a dental cleaning on the 15th at 10am?") == {
        "service": "Dental cleaning",
        "starts_at": "2025-03-15T10:00:00-04:00",
    }


def test_booking_without_a_time_asks_instead_of_guessing() -> None:
    """A booking with no time, or a time already past, is not made: the time is missing."""
    (intent,) = detect_intents("book a haircut", NOW, TZ)
    assert intent.missing == ("when",)
    (past,) = detect_intents("book a haircut today at 9am", NOW, TZ)
    assert past.missing == ("future",)


def test_a_task_without_a_title_lacks_its_title() -> None:
    """ "add a task" alone asks what the task is."""
    (intent,) = detect_intents("add a task", NOW, TZ)
    assert intent.missing == ("title",)


def test_four_requests_in_one_sentence_come_out_in_order() -> None:
    """Several intents in one message become several lookups, in the order asked."""
    assert kinds("Give me everything: appointments, invoices, tasks and tickets") == [
        "appointments",
        "billing",
        "tasks",
        "tickets",
    ]
    assert kinds("what do i owe? also when's my next visit") == ["billing", "next_appointment"]


def test_a_write_and_a_read_in_one_message() -> None:
    """ "book … and remind me to …" is a booking and a new task, each with its own slots."""
    first, second = detect_intents(
        "book a haircut friday at 10am and remind me to bring my id", NOW, TZ
    )
    assert first.kind == "book_appointment"
    assert second.kind == "add_task"
    assert second.arguments["title"] == "Bring my id"


def test_and_inside_a_title_does_not_split_it() -> None:
    """ "…Buy groceries and milk" is one new title, not a second request."""
    (intent,) = detect_intents("Rename the grocery task to Buy groceries and milk", NOW, TZ)
    assert intent.kind == "update_task"
    assert intent.arguments == {"title": "Buy groceries and milk"}
    assert intent.target is not None
    assert intent.target.words == ("grocery",)


def test_find_then_act_requests_name_their_lookup() -> None:
    """Acting on an existing item starts with the listing that finds it."""
    (complete,) = detect_intents("Complete the grocery task", NOW, TZ)
    assert (complete.lookup, complete.tool) == ("crm.listTasks", "crm.completeTask")
    (cancel,) = detect_intents("Cancel my next appointment", NOW, TZ)
    assert (cancel.lookup, cancel.tool) == ("crm.getNextAppointment", "crm.cancelAppointment")
    (move,) = detect_intents("move my tuesday appointment to friday", NOW, TZ)
    assert move.lookup == "crm.listUpcomingAppointments"
    assert move.target is not None
    assert move.target.weekday == 1


def test_small_typos_are_understood() -> None:
    """Misspelt keywords still reach the right tools."""
    assert kinds("show me my apointments and my invocies") == ["appointments", "billing"]
    assert kinds("whens my nxt apointment") == ["next_appointment"]
    assert kinds("cancle my haircut") == ["cancel_appointment"]


def test_pronoun_refers_to_the_clause_before() -> None:
    """ "I can't make my next appointment, please cancel it" cancels the next one."""
    (intent,) = detect_intents("I can't make my next appointment, please cancel it", NOW, TZ)
    assert intent.kind == "cancel_appointment"
    assert intent.target is not None
    assert intent.target.position == 1


def test_negated_requests_are_not_acted_on() -> None:
    """ "I don't need my balance, just my appointments" only looks up appointments."""
    assert kinds("I don't need my balance, just my appointments") == ["appointments"]


@pytest.mark.parametrize("text", ["Hi there", "Thanks, that's all", "Tell me a joke"])
def test_small_talk_asks_for_no_tool(text: str) -> None:
    """Greetings, thanks and jokes ask for nothing from the CRM."""
    assert detect_intents(text, NOW, TZ) == []


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Hi there", "greeting"),
        ("Thanks, that's all", "goodbye"),
        ("thank you so much", "thanks"),
        ("What can you help me with?", "capabilities"),
        ("What's the weather like tomorrow?", "weather"),
        ("Tell me a joke", "joke"),
        ("what's the capital of France", "out_of_scope"),
        ("can i talk to a real person", "human"),
    ],
)
def test_chat_messages_are_told_apart(text: str, kind: str) -> None:
    """Each kind of small talk is recognised, so it gets a fitting reply."""
    assert classify_chat(text) == kind


@pytest.mark.parametrize(
    "text", ["yes", "yeah go ahead", "sure, do it", "yep please", "confirm", "Yes, cancel it"]
)
def test_yes_in_its_usual_forms(text: str) -> None:
    """The ways people say yes to "Are you sure?" are yes."""
    assert is_affirmative(text)
    assert not is_negative(text)


@pytest.mark.parametrize("text", ["no", "nope, keep it", "never mind", "wait", "yes... no, wait"])
def test_no_and_hesitation_are_not_yes(text: str) -> None:
    """No, or any hesitation, never confirms a destructive action."""
    assert is_negative(text)
    assert not is_affirmative(text)


def test_a_new_request_is_not_a_yes() -> None:
    """A message that asks for something else does not confirm."""
    assert not is_affirmative("show me my tasks")
    assert not is_affirmative("what's my balance")


def test_an_unknown_timezone_reads_dates_in_utc() -> None:
    """A customer with a broken timezone setting still gets a booking, in UTC."""
    (intent,) = detect_intents("book a haircut tomorrow at 3pm", NOW, "Mars/Olympus")
    assert intent.arguments["starts_at"] == "2025-03-02T15:00:00+00:00"


def test_both_after_two_things_told_done_completes_each() -> None:
    """ "I've done the groceries and booked the eye exam, tick both off": two completions,
    and no lookup for the "booked" that only told what was done."""
    intents = detect_intents(
        "i've done the groceries and booked the eye exam so tick both off", NOW, TZ
    )
    assert [i.kind for i in intents] == ["complete_task", "complete_task"]
    assert [i.target.words for i in intents if i.target] == [("groceries",), ("eye", "exam")]


def test_both_with_nothing_told_before_stays_vague() -> None:
    """ "tick both off" alone names nothing: its target stays to be asked about."""
    (intent,) = detect_intents("tick both off", NOW, TZ)
    assert intent.target is not None and intent.target.words == ("both",)


def test_a_task_pushed_back_by_a_span_moves_from_its_due_date() -> None:
    """ "push the insurance task back two days": a due-date change by two days, no date guessed."""
    (intent,) = detect_intents("push the insurance task back two days", NOW, TZ)
    assert intent.kind == "update_task" and not intent.arguments
    assert intent.shift is not None and intent.shift.days == 2


def test_a_reminder_on_a_date_not_on_the_calendar_asks_which_day() -> None:
    """ "pay rent on june 31st" is not added with the date in its title: the day is asked."""
    (intent,) = detect_intents("remind me to pay rent on june 31st", NOW, TZ)
    assert intent.missing[0] == "no_such_date" and intent.arguments == {"title": "Pay rent"}


@pytest.mark.parametrize(
    "text",
    ["what happens if i cancel my haircut", "if i move my cleaning to friday will i be charged"],
)
def test_a_question_about_what_an_action_would_do_asks_for_none(text: str) -> None:
    """ "what happens if I cancel…" is not a cancellation (a yes to it must cancel nothing)."""
    assert detect_intents(text, NOW, TZ) == []


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("did i cancel my haircut", "appointments"),
        ("did you cancel my haircut?", "appointments"),
        ("have i already deleted the groceries task", "tasks"),
    ],
)
def test_a_question_whether_a_change_was_made_only_reads(text: str, read: str) -> None:
    """ "did I cancel my haircut?" looks it up; it is no cancellation waiting for a yes."""
    assert [intent.kind for intent in detect_intents(text, NOW, TZ)] == [read]


@pytest.mark.parametrize(
    "text",
    ["should i delete the eye exam task or keep it", "could you remind me about something"],
)
def test_advice_and_a_reminder_about_nothing_write_nothing(text: str) -> None:
    """ "should I delete…?" asks advice; "remind me about something" has no title to add."""
    assert not any(intent.writes and not intent.missing for intent in detect_intents(text, NOW, TZ))


def test_a_priority_change_without_a_level_asks_which() -> None:
    """ "change the priority of my insurance task" asks for the level instead of guessing."""
    (intent,) = detect_intents("change the priority of my insurance task", NOW, TZ)
    assert intent.kind == "update_task" and intent.missing == ("level",)


def test_if_i_could_book_is_still_a_booking() -> None:
    """ "if I could book a haircut friday at 3, that would be great" is a polite request."""
    (intent,) = detect_intents("if i could book a haircut friday at 3 that would be great", NOW, TZ)
    assert intent.kind == "book_appointment" and "starts_at" in intent.arguments


def test_both_after_one_clause_naming_two_things_is_each_of_them() -> None:
    """ "I don't need the groceries or the eye exam reminders any more, delete both": two
    deletes (each still confirmed), not a task called "both"."""
    intents = detect_intents(
        "i don't need the groceries or the eye exam reminders anymore, delete both", NOW, TZ
    )
    assert [i.kind for i in intents] == ["delete_task", "delete_task"]


@pytest.mark.parametrize(
    "text",
    [
        "the app keeps crashing when i open my invoices please report it",
        "the app keeps crashing when i open my invoices, please report it",
    ],
)
def test_a_problem_told_then_report_it_opens_a_case_about_it(text: str) -> None:
    """ "…crashing when I open my invoices, please report it": a case, not a balance read."""
    (intent,) = detect_intents(text, NOW, TZ)
    assert intent.kind == "create_ticket" and "crashing" in intent.arguments["subject"]


def test_a_reminder_for_a_day_gone_asks_instead_of_setting_it() -> None:
    """ "remind me yesterday to call bob": the day is asked about, not set in the past."""
    (intent,) = detect_intents("remind me yesterday to call bob", NOW, TZ)
    assert intent.missing == ("future",) and "due_on" not in intent.arguments


@pytest.mark.parametrize(
    ("text", "kind", "words"),
    [
        (
            "dont cancel my haircut just move it to friday at 11",
            "reschedule_appointment",
            "haircut",
        ),
        ("please don't delete the eye exam task just mark it done", "complete_task", "eye exam"),
    ],
)
def test_what_not_to_do_then_just_what_to_do_is_the_second_action(
    text: str, kind: str, words: str
) -> None:
    """ "don't cancel my haircut just move it…" moves the haircut and cancels nothing."""
    (intent,) = detect_intents(text, NOW, TZ)
    assert intent.kind == kind
    assert intent.target is not None and " ".join(intent.target.words) == words


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("when is the car insurance due", ["tasks"]),
        ("whens the groceries task due", ["tasks"]),
        ("when is my water bill due", ["billing"]),
    ],
)
def test_when_something_named_is_due_looks_at_tasks_unless_it_is_a_bill(
    text: str, expected: list[str]
) -> None:
    """ "when is the car insurance due" reads the tasks; "when is my water bill due" the bills."""
    assert kinds(text) == expected


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("add milk to my shopping list", "Buy milk"),
        ("put eggs and bread on the grocery list", "Buy eggs and bread"),
        ("add get batteries to my shopping list", "Get batteries"),
    ],
)
def test_a_thing_for_the_shopping_list_is_a_task_to_buy_it(text: str, title: str) -> None:
    """ "Add milk to my shopping list" was refused: it is a task to buy it, titled so."""
    (intent,) = detect_intents(text, NOW, TZ)
    assert intent.kind == "add_task" and intent.arguments.get("title") == title


@pytest.mark.parametrize(
    "text",
    [
        "move my haircut to the day after my dentist",
        "book a haircut on the same day as my dentist at 4pm",
        "move my haircut to two days before my dentist",
        "book a massage the day before my haircut at 11am",
        "move my dentist to the same time as my haircut but on saturday",
    ],
)
def test_a_day_told_by_another_appointment_is_asked_not_guessed(text: str) -> None:
    """No start is read from words around "…after my dentist": the day is asked."""
    (intent,) = detect_intents(text, NOW, TZ)
    assert "starts_at" not in intent.arguments
    assert intent.missing == ("anchored_when",)
