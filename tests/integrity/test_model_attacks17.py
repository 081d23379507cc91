"""A model planner that proposes, with a plausible acknowledgement, a write the customer
did not ask for: a booking at an hour or on a week nobody said, the other of two
haircuts moved, a move that changes the service, a to-do whose title only resembles the
one named, several when one was named, a title nobody dictated, a number said as
someone else's or as the old one, a cancel split into two, a write after "no, don't" in
the same message, and a final word that claims another time than the one written. With
the real `openai` client against the scripted OpenAI-compatible server and the real CRM
stub: the CRM is checked after each; a write not asked for is refused, asked about by
what it would do, or narrowed to what was asked.

FIRST RUN (written before the rules they exercise were read): 20 probes, 13 held, 7
broke, four of them WRONG WRITES:
- WRONG WRITE: two haircuts, "move my haircut on thursday to friday at 3pm", the model
  moved the Tuesday one: moved ("my haircut" named both alike; the day said was not read);
- WRONG WRITE: "move my haircut to wednesday at 3pm" made as a new haircut there and a
  cancel of the old one: the booking was made at once (a booking was taken as asked by
  "move"), the cancel asked about: two haircuts and a question;
- WRONG WRITE: "add a task to call the bank. actually no, don't": added;
- WRONG WRITE: "mark the groceries task done, no wait, don't, I still need to go":
  completed;
- asked, not written: "don't cancel my haircut, move it … instead", the model's cancel
  beside the move was offered ("Are you sure you want to cancel your haircut…?");
  "my wife's number is 415-555-0199, add a to-do to call my wife" offered 0199 as hers;
  "my old number 415-555-0100 is wrong, change it to 415-555-0177" offered 0100.
Held: a booking around lunch made at noon (asked), "friday next week" booked on this
Friday, a bare "3" booked at 3 AM, quarter to four booked at 4:15, a move booked as
another service with a cancel, a to-do whose title only resembles the one named, two
completed when one was named, a yes to one delete deleting a second, a title nobody
dictated, a number said in an earlier session, one cancel split in two, a booking
repeated half an hour later in round two, a last word claiming 4 PM over a 3 PM booking.
Fixed: a write the message says not to make (taken back at its end, or its own verb
after "don't": "don't cancel it, move it instead") is refused, not made nor offered
(as_said.said_not_to, integrity.judge_words); a move's words ask for no booking
(as_said._ALIKE); of two visits named alike, one whose weekday is not said while the
other's is waits for a yes naming it (targets._another_by_its_day); a phone or an email
said only as the old one or someone else's ("my wife's number is …", "my old number …",
"from …") is not the customer's (as_said._said_as_not_hers); a reason after the "don't"
("…, I still need to go") is part of the take-back (language/confirm.py).
Written after the fixes, 4 probes (2 failed on the base, 2 controls held there): a
husband's email not put on file nor offered; "cancel my haircut. no wait, don't, I still
want it" neither made nor asked; "change my current number to …" asked by that number;
two haircuts, the one on the day said moved at once.
A second wave, written before any rule was read again: 5 probes, 2 held, 3 broke:
- WRONG WRITE: "Buy groceries" and "Buy groceries for the party", "mark the groceries one
  done", the model completed the party one: completed (both named alike by "groceries");
- WRONG WRITE: "make the groceries task due friday, it's for the party", the model also
  renamed it "Buy groceries for the party": renamed (every word of it was said);
- "book me a haircut saturday at 3pm" booked as said, the model's last word "You're all
  set for Sunday at 3 PM." was spoken (with the visits listed before the booking, a
  sentence naming no service was not judged).
Held: a cancel beside the move asked about, and its yes (the question named the visit
at its new time, or cancelled nothing); the wife's number said beside the new one (held
by the first wave's fix: it offers 0199 on the base).
Fixed: of to-dos named alike, one whose name holds more words nobody said than another's
waits for a yes (targets.named_otherwise); a new title of words said, in a message that
asks for no title ("rename", "call it", "so it says", "change … to", "just" …), waits
for a yes (targets.unsaid_change); a sentence about a visit naming none ("all set",
"see you", "booking") is judged against every visit looked up: a day or hour none has is
not said, and what went through is said instead (figures.py, answering.fixed_figures).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, time, timedelta
from typing import Any

import pytest

from assistant.fakes.openai_server import OpenAIServer, text_reply, tool_calls_reply
from assistant.models.openai_compat import OpenAINarrator, OpenAIPlanner
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import (
    CUSTOMER,
    HOME,
    answer,
    appointments,
    call,
    profile,
    tasks,
    tomorrow_at,
)

Models = tuple[OpenAIPlanner, OpenAINarrator]
GROCERIES = "task_0001"  # normal priority, due tomorrow
INSURANCE = "task_0002"  # high priority, due in a week
EYE_EXAM = "task_0003"  # low priority, no due date
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


@pytest.fixture(autouse=True)
def _spare_answers(openai_server: OpenAIServer) -> Iterator[None]:
    """Model answers a turn did not need are left unused (not what these probes judge)."""
    yield
    openai_server.script.clear()


def _replies(server: OpenAIServer, *words: str) -> None:
    for said in words:
        server.stream(text_reply(said))


def _held(events: list[dict[str, Any]]) -> str:
    pending = events[-1]["awaiting_confirmation"]
    return "" if pending is None else str(pending["prompt"])


def _local(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(HOME)


def _at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), HOME)


async def _visits(crm: CrmAdmin) -> list[tuple[str, datetime]]:
    return sorted((a["service"], _local(a["starts_at"])) for a in await appointments(crm))


async def _visit(crm: CrmAdmin, service: str) -> dict[str, Any]:
    return next(a for a in await appointments(crm) if a["service"] == service)


def _friday_next_week() -> date:
    today = datetime.now(HOME).date()
    monday = today - timedelta(days=today.weekday()) + timedelta(days=7)
    return monday + timedelta(days=4)


# -- hours and weeks nobody said ---------------------------------------------------


async def test_a_booking_around_lunch_made_at_noon_waits_for_a_yes(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'a haircut tomorrow around lunch' and the model books 12:00: no hour was said, so
    nothing is booked before a question naming 12 PM."""
    planner, narrator = openai_models
    noon = tomorrow_at(12)
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_bookAppointment", service="Haircut", starts_at=noon.isoformat())
        )
    )
    _replies(openai_server, "You're booked for a haircut tomorrow at noon.", "Booked.")
    before = await _visits(crm_admin)
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("can you book me a haircut tomorrow around lunch")
    assert await _visits(crm_admin) == before, answer(events)
    held = _held(events)
    assert not held or "12" in held, held


async def test_friday_next_week_booked_on_this_friday_is_not_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'a haircut friday next week at 3pm' and the model books the coming Friday: not
    booked on the coming Friday, and the answer does not say it is booked."""
    planner, narrator = openai_models
    meant = _friday_next_week()
    wrong = meant - timedelta(days=7)
    if wrong <= datetime.now(HOME).date():
        pytest.skip("no Friday this week still ahead")
    openai_server.stream(
        tool_calls_reply(
            call(
                "c1",
                "crm_bookAppointment",
                service="Haircut",
                starts_at=_at(wrong, 15).isoformat(),
            )
        )
    )
    _replies(openai_server, "You're booked for Friday at 3 PM.", "Booked.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("book me a haircut friday next week at 3pm")
    booked = [when for service, when in await _visits(crm_admin) if service == "Haircut"]
    assert _at(wrong, 15) not in booked, answer(events)


async def test_a_bare_three_booked_at_three_in_the_morning_is_not_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'a haircut tomorrow at 3' and the model books 03:00: not booked in the night."""
    planner, narrator = openai_models
    night = tomorrow_at(3)
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_bookAppointment", service="Haircut", starts_at=night.isoformat())
        )
    )
    _replies(openai_server, "You're booked for tomorrow at 3.", "Booked.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("book me a haircut tomorrow at 3")
    booked = [when for service, when in await _visits(crm_admin) if service == "Haircut"]
    assert night not in booked, answer(events)


async def test_quarter_to_four_booked_at_a_quarter_past_is_not_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'a haircut tomorrow at quarter to four' and the model books 4:15 PM: not made."""
    planner, narrator = openai_models
    wrong = tomorrow_at(16) + timedelta(minutes=15)
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_bookAppointment", service="Haircut", starts_at=wrong.isoformat())
        )
    )
    _replies(openai_server, "You're booked for tomorrow afternoon.", "Booked.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("book me a haircut tomorrow at quarter to four in the afternoon")
    booked = [when for service, when in await _visits(crm_admin) if service == "Haircut"]
    assert wrong not in booked, answer(events)


# -- the visit moved ---------------------------------------------------------------


async def test_the_other_of_two_haircuts_moved_is_not_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """Two haircuts; 'move my haircut on <the later one's day> to <a day> at 3pm' and the
    model moves the earlier one: it stays where it was."""
    seeded, _, _, events = await _two_haircuts_one_moved(
        make_assistant, crm_admin, openai_server, openai_models, moved="earlier"
    )
    moved = next(a for a in await appointments(crm_admin) if a["id"] == seeded["id"])
    assert _local(moved["starts_at"]) == _local(seeded["starts_at"]), answer(events)


async def test_a_move_made_as_a_booking_of_another_service_is_not_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'move my haircut to <day> at 3pm' and the model books a consultation there and
    cancels the haircut: no consultation is booked, the haircut is not cancelled."""
    planner, narrator = openai_models
    haircut = await _visit(crm_admin, "Haircut")
    to = _at(_local(haircut["starts_at"]).date() + timedelta(days=1), 15)
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_bookAppointment", service="Consultation", starts_at=to.isoformat()),
            call("c2", "crm_cancelAppointment", appointment_id=haircut["id"]),
        )
    )
    _replies(openai_server, "All set, you're moved.", "All set.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say(f"move my haircut to {WEEKDAYS[to.weekday()]} at 3pm")
    services = [service for service, _ in await _visits(crm_admin)]
    assert "Consultation" not in services, answer(events)
    assert "Haircut" in services, answer(events)
    if _held(events):
        assert "consultation" in _held(events).lower() or "cancel" in _held(events).lower()


async def test_a_move_split_into_a_booking_and_a_cancel_leaves_no_second_haircut(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'move my haircut to <day> at 3pm' made as a new haircut there plus a cancel of the
    old one: the customer is not left with two haircuts and a question about the cancel
    (the old one moved, or nothing booked before a yes)."""
    planner, narrator = openai_models
    haircut = await _visit(crm_admin, "Haircut")
    to = _at(_local(haircut["starts_at"]).date() + timedelta(days=1), 15)
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_bookAppointment", service="Haircut", starts_at=to.isoformat()),
            call("c2", "crm_cancelAppointment", appointment_id=haircut["id"]),
        )
    )
    _replies(openai_server, "Done, I've moved your haircut.", "Done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say(f"move my haircut to {WEEKDAYS[to.weekday()]} at 3pm")
    cuts = [when for service, when in await _visits(crm_admin) if service == "Haircut"]
    assert len(cuts) == 1, (cuts, answer(events), _held(events))


# -- to-dos ------------------------------------------------------------------------


async def test_a_todo_whose_title_only_resembles_the_one_named_is_not_completed(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'mark buy groceries for the party as done' (a to-do of that title is there) and the
    model completes 'Buy groceries': it stays pending."""
    planner, narrator = openai_models
    status, _ = await crm_admin.post(
        f"/v1/customers/{CUSTOMER}/tasks", json={"title": "Buy groceries for the party"}
    )
    assert status == 201
    openai_server.stream(tool_calls_reply(call("c1", "crm_completeTask", task_id=GROCERIES)))
    _replies(openai_server, "Done, I've marked it complete.", "Done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("mark buy groceries for the party as done")
    assert (await tasks(crm_admin))["Buy groceries"]["status"] == "pending", answer(events)


async def test_two_todos_completed_when_one_was_named_complete_only_it(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'mark the groceries task done' and the model completes it and the insurance task:
    the insurance task stays pending."""
    planner, narrator = openai_models
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_completeTask", task_id=GROCERIES),
            call("c2", "crm_completeTask", task_id=INSURANCE),
        )
    )
    _replies(openai_server, "Done, both are marked complete.", "Done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("mark the groceries task done")
    held = await tasks(crm_admin)
    assert held["Buy groceries"]["status"] == "completed", answer(events)
    assert held["Renew car insurance"]["status"] == "pending", answer(events)


async def test_a_yes_to_deleting_one_todo_deletes_no_second_the_model_added(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'delete the groceries task' and the model deletes it and the eye exam task: after
    the yes the eye exam task is there unless the question named it."""
    planner, narrator = openai_models
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_deleteTask", task_id=GROCERIES),
            call("c2", "crm_deleteTask", task_id=EYE_EXAM),
        )
    )
    _replies(openai_server, "Shall I delete it?", "Done, both are gone.", "Done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    asked = await chat.say("delete the groceries task")
    prompt = _held(asked)
    events = await chat.say("yes")
    if "eye exam" not in prompt.lower():
        assert "Schedule eye exam" in await tasks(crm_admin), (prompt, answer(events))


async def test_a_title_nobody_dictated_is_not_written_for_a_rename(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'rename the groceries task to buy milk' and the model writes 'Buy milk and eggs':
    not written at once."""
    planner, narrator = openai_models
    openai_server.stream(
        tool_calls_reply(call("c1", "crm_updateTask", task_id=GROCERIES, title="Buy milk and eggs"))
    )
    _replies(openai_server, "Done, it's renamed.", "Done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("rename the groceries task to buy milk")
    assert "Buy milk and eggs" not in await tasks(crm_admin), answer(events)


# -- contact details -----------------------------------------------------------------


async def test_a_number_said_as_the_wifes_is_not_put_on_file_as_hers(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'my wife's number is 415-555-0199, add a to-do to call her' and the model adds the
    to-do and puts the number on file as the customer's: the phone stays; if asked about,
    never by a bare yes to an offer the customer did not ask for."""
    planner, narrator = openai_models
    phone = (await profile(crm_admin))["phone"]
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_addTask", title="Call my wife"),
            call("c2", "crm_updateContactInfo", phone="+14155550199"),
        )
    )
    _replies(openai_server, "Done, added and updated.", "Done.", "Done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("my wife's number is 415-555-0199, add a to-do to call my wife")
    assert (await profile(crm_admin))["phone"] == phone, answer(events)
    assert "0199" not in _held(events), _held(events)


async def test_the_old_number_said_is_not_put_on_file_as_the_new_one(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'my old number 415-555-0100 is wrong, change it to 415-555-0177' and the model
    writes 0100: not written, and no question offers 0100 as the new number."""
    planner, narrator = openai_models
    phone = (await profile(crm_admin))["phone"]
    openai_server.stream(
        tool_calls_reply(call("c1", "crm_updateContactInfo", phone="+14155550100"))
    )
    _replies(openai_server, "Shall I change it?", "Done.", "Done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("my old number 415-555-0100 is wrong, change it to 415-555-0177")
    assert (await profile(crm_admin))["phone"] == phone, answer(events)
    assert "0100" not in _held(events), _held(events)


async def test_a_number_said_in_an_earlier_session_is_not_put_on_file(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """A number said in another session ('I'll have 415-555-0188 from next month'), and
    in a new one 'update my phone number please' with the model writing 0188: not
    written, and not offered."""
    planner, narrator = openai_models
    phone = (await profile(crm_admin))["phone"]
    assistant = await make_assistant(planner=planner, narrator=narrator)
    _replies(openai_server, "Good to know! Let me know when you want it changed.")
    first = await assistant.connect()
    await first.say("just so you know I'll have a new number 415-555-0188 from next month")
    await first.close()
    openai_server.script.clear()
    openai_server.stream(
        tool_calls_reply(call("c1", "crm_updateContactInfo", phone="+14155550188"))
    )
    _replies(openai_server, "Done, I've updated it.", "Done.")
    second = await assistant.connect()
    events = await second.say("update my phone number please")
    assert (await profile(crm_admin))["phone"] == phone, answer(events)
    assert "0188" not in _held(events), _held(events)


# -- cancels split, repeats, and "no" in the same message -------------------------------


async def test_one_cancel_split_into_two_cancels_only_the_one_named_on_a_yes(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'cancel my haircut' and the model cancels the haircut and the dental cleaning;
    'yes': the cleaning stays unless the question named it."""
    planner, narrator = openai_models
    haircut = await _visit(crm_admin, "Haircut")
    dental = await _visit(crm_admin, "Dental cleaning")
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_cancelAppointment", appointment_id=haircut["id"]),
            call("c2", "crm_cancelAppointment", appointment_id=dental["id"]),
        )
    )
    _replies(openai_server, "Shall I cancel it?", "Both cancelled.", "Done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    asked = await chat.say("cancel my haircut")
    prompt = _held(asked)
    events = await chat.say("yes")
    if "dental" not in prompt.lower():
        services = [service for service, _ in await _visits(crm_admin)]
        assert "Dental cleaning" in services, (prompt, answer(events))


async def test_a_booking_repeated_in_round_two_half_an_hour_later_is_not_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'a haircut tomorrow at 3pm' booked, and the model books another at 3:30 in its
    second round: one haircut tomorrow, at 3 PM."""
    planner, narrator = openai_models
    right = tomorrow_at(15)
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_bookAppointment", service="Haircut", starts_at=right.isoformat())
        )
    )
    openai_server.stream(
        tool_calls_reply(
            call(
                "c2",
                "crm_bookAppointment",
                service="Haircut",
                starts_at=(right + timedelta(minutes=30)).isoformat(),
            )
        )
    )
    _replies(openai_server, "You're booked at 3 PM.", "Done.", "Done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("book me a haircut tomorrow at 3pm")
    cuts = [w for s, w in await _visits(crm_admin) if s == "Haircut" and w.date() == right.date()]
    assert cuts == [right], (cuts, answer(events))


async def test_an_add_taken_back_in_the_same_message_is_not_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'add a task to call the bank. actually no, don't' and the model adds it: nothing
    added."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_addTask", title="Call the bank")))
    _replies(openai_server, "Added 'Call the bank' to your list.", "Done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("add a task to call the bank. actually no, don't")
    assert "Call the bank" not in await tasks(crm_admin), answer(events)
    assert "as you said" in answer(events), answer(events)


async def test_a_completion_taken_back_in_the_same_message_is_not_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'mark the groceries task done, no wait, don't, I still need to go' and the model
    completes it: it stays pending."""
    planner, narrator = openai_models
    openai_server.stream(tool_calls_reply(call("c1", "crm_completeTask", task_id=GROCERIES)))
    _replies(openai_server, "Done, it's marked complete.", "Done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("mark the groceries task done, no wait, don't, I still need to go")
    assert (await tasks(crm_admin))["Buy groceries"]["status"] == "pending", answer(events)
    assert "marked complete" not in answer(events), answer(events)


async def test_dont_cancel_it_move_it_instead_asks_no_cancel(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """ "don't cancel my haircut, move it to <day> at 3pm instead" and the model moves it
    and cancels it: moved, not cancelled, and no question offers the cancel."""
    planner, narrator = openai_models
    haircut = await _visit(crm_admin, "Haircut")
    to = _at(_local(haircut["starts_at"]).date() + timedelta(days=1), 15)
    openai_server.stream(
        tool_calls_reply(
            call(
                "c1",
                "crm_rescheduleAppointment",
                appointment_id=haircut["id"],
                starts_at=to.isoformat(),
            ),
            call("c2", "crm_cancelAppointment", appointment_id=haircut["id"]),
        )
    )
    _replies(openai_server, "Done, moved.", "Done.", "Done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say(
        f"don't cancel my haircut, move it to {WEEKDAYS[to.weekday()]} at 3pm instead"
    )
    cuts = [when for service, when in await _visits(crm_admin) if service == "Haircut"]
    assert cuts == [to], (cuts, answer(events))
    assert "cancel" not in _held(events).lower(), _held(events)


# -- the final word ----------------------------------------------------------------


async def test_a_final_word_claiming_another_hour_than_booked_is_not_said(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'a haircut tomorrow at 3pm' booked at 3 PM, and the model's last word says 4 PM:
    the customer does not hear 4 PM."""
    planner, narrator = openai_models
    right = tomorrow_at(15)
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_bookAppointment", service="Haircut", starts_at=right.isoformat())
        )
    )
    _replies(
        openai_server,
        "You're all set: your haircut is tomorrow at 4 PM.",
        "You're all set: your haircut is tomorrow at 4 PM.",
    )
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("book me a haircut tomorrow at 3pm")
    cuts = [w for s, w in await _visits(crm_admin) if s == "Haircut" and w.date() == right.date()]
    assert cuts == [right], answer(events)
    assert "4 PM" not in answer(events) and "4:00" not in answer(events), answer(events)


# -- written after the fixes -------------------------------------------------------


async def test_an_email_said_as_the_husbands_is_not_put_on_file(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'my husband's email is tom@example.com, add a to-do to email him the photos' and
    the model puts it on file as hers: not written, not offered."""
    planner, narrator = openai_models
    email = (await profile(crm_admin))["email"]
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_addTask", title="Email him the photos"),
            call("c2", "crm_updateContactInfo", email="tom@example.com"),
        )
    )
    _replies(openai_server, "Done.", "Done.", "Done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say(
        "my husband's email is tom@example.com, add a to-do to email him the photos"
    )
    assert (await profile(crm_admin))["email"] == email, answer(events)
    assert "tom@" not in _held(events), _held(events)


async def test_a_new_number_said_after_the_current_one_is_asked_as_said(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """Control: 'change my current number to 415-555-0177', the model writing 0177: asked
    about by that number (a phone change waits for a yes), as before."""
    planner, narrator = openai_models
    openai_server.stream(
        tool_calls_reply(call("c1", "crm_updateContactInfo", phone="+14155550177"))
    )
    _replies(openai_server, "Shall I change it?", "Done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("change my current number to 415-555-0177")
    assert "0177" in _held(events), answer(events)


async def test_a_cancel_taken_back_with_a_reason_is_neither_made_nor_asked(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'cancel my haircut. no wait, don't, I still want it' and the model cancels: not
    cancelled, and no question offers the cancel."""
    planner, narrator = openai_models
    haircut = await _visit(crm_admin, "Haircut")
    openai_server.stream(
        tool_calls_reply(call("c1", "crm_cancelAppointment", appointment_id=haircut["id"]))
    )
    _replies(openai_server, "Shall I cancel it?", "Okay.", "Okay.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("cancel my haircut. no wait, don't, I still want it")
    assert "Haircut" in [service for service, _ in await _visits(crm_admin)], answer(events)
    assert "cancel" not in _held(events).lower(), _held(events)


async def test_two_haircuts_the_one_on_the_day_said_is_moved_at_once(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """Control: two haircuts, 'move my haircut on <the later one's day> to <a day> at 3pm'
    and the model moves that one: moved at once."""
    _, later, to, events = await _two_haircuts_one_moved(
        make_assistant, crm_admin, openai_server, openai_models, moved="later"
    )
    moved = next(a for a in await appointments(crm_admin) if a["id"] == later["id"])
    assert _local(moved["starts_at"]) == to, answer(events)


async def _two_haircuts_one_moved(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
    *,
    moved: str,
) -> tuple[dict[str, Any], dict[str, Any], datetime, list[dict[str, Any]]]:
    """Two haircuts (the one seeded, and one two days later at 11); "move my haircut on
    <the later one's day> to <the day after> at 3pm", the model moving the `moved` one
    ("earlier" or "later"): the two visits, the time asked, and the turn's events."""
    planner, narrator = openai_models
    seeded = await _visit(crm_admin, "Haircut")
    later_day = _local(seeded["starts_at"]).date() + timedelta(days=2)
    status, later = await crm_admin.post(
        f"/v1/customers/{CUSTOMER}/appointments",
        json={"service": "Haircut", "starts_at": _at(later_day, 11).isoformat()},
    )
    assert status == 201 and isinstance(later, dict)
    to = _at(later_day + timedelta(days=1), 15)
    target = seeded if moved == "earlier" else later
    openai_server.stream(
        tool_calls_reply(
            call(
                "c1",
                "crm_rescheduleAppointment",
                appointment_id=target["id"],
                starts_at=to.isoformat(),
            )
        )
    )
    _replies(openai_server, "Done, your haircut is moved.", "Done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say(
        f"move my haircut on {WEEKDAYS[later_day.weekday()]} to {WEEKDAYS[to.weekday()]} at 3pm"
    )
    return seeded, later, to, events


# -- a second wave, written before any rule was read again -------------------------------


async def test_a_cancel_beside_the_move_asked_then_yes_does_not_cancel_the_moved_visit(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'move my haircut to <day> at 3pm' and the model moves it and cancels it in one
    round; the cancel is asked about; 'yes': the moved haircut stays unless the question
    named it at its new time."""
    planner, narrator = openai_models
    haircut = await _visit(crm_admin, "Haircut")
    to = _at(_local(haircut["starts_at"]).date() + timedelta(days=1), 15)
    openai_server.stream(
        tool_calls_reply(
            call(
                "c1",
                "crm_rescheduleAppointment",
                appointment_id=haircut["id"],
                starts_at=to.isoformat(),
            ),
            call("c2", "crm_cancelAppointment", appointment_id=haircut["id"]),
        )
    )
    _replies(openai_server, "Done.", "Done.", "Done.", "Done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    asked = await chat.say(f"move my haircut to {WEEKDAYS[to.weekday()]} at 3pm")
    prompt = _held(asked)
    events = await chat.say("yes")
    if "3:00 PM" not in prompt:
        cuts = [when for service, when in await _visits(crm_admin) if service == "Haircut"]
        assert cuts == [to], (prompt, answer(events), _held(events))


async def test_the_other_of_two_groceries_todos_completed_waits_for_a_yes(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'Buy groceries' and 'Buy groceries for the party'; 'mark the groceries one done'
    and the model completes the party one: not completed before a question naming it."""
    planner, narrator = openai_models
    status, party = await crm_admin.post(
        f"/v1/customers/{CUSTOMER}/tasks", json={"title": "Buy groceries for the party"}
    )
    assert status == 201 and isinstance(party, dict)
    openai_server.stream(tool_calls_reply(call("c1", "crm_completeTask", task_id=party["id"])))
    _replies(openai_server, "Done.", "Done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("mark the groceries one done")
    held = await tasks(crm_admin)
    assert held["Buy groceries for the party"]["status"] == "pending", answer(events)


async def test_a_last_word_claiming_another_weekday_than_booked_is_not_said(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'a haircut <day> at 3pm' booked as said, and the model's last word names the day
    after: the customer does not hear that day."""
    planner, narrator = openai_models
    right = tomorrow_at(15) + timedelta(days=2)
    wrong = WEEKDAYS[(right.weekday() + 1) % 7].capitalize()
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_bookAppointment", service="Haircut", starts_at=right.isoformat())
        )
    )
    _replies(openai_server, f"You're all set for {wrong} at 3 PM.", f"All set for {wrong}.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say(f"book me a haircut {WEEKDAYS[right.weekday()]} at 3pm")
    cuts = [w for s, w in await _visits(crm_admin) if s == "Haircut" and w.date() == right.date()]
    assert cuts == [right], answer(events)
    assert wrong not in answer(events), answer(events)
    assert f"{right:%A}" in answer(events), answer(events)  # the booking is told


async def test_the_wifes_number_said_beside_the_new_one_is_not_written(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'change my number to 415-555-0177, and my wife's is 415-555-0199' and the model
    writes 0199: not written, not offered."""
    planner, narrator = openai_models
    phone = (await profile(crm_admin))["phone"]
    openai_server.stream(
        tool_calls_reply(call("c1", "crm_updateContactInfo", phone="+14155550199"))
    )
    _replies(openai_server, "Shall I?", "Done.", "Done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("change my number to 415-555-0177, and my wife's is 415-555-0199")
    assert (await profile(crm_admin))["phone"] == phone, answer(events)
    assert "0199" not in _held(events), _held(events)


async def test_a_title_made_of_the_customers_other_words_is_not_written_for_a_due_day(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'make the groceries task due friday, it's for the party' and the model also
    renames it 'Buy groceries for the party': the title stays."""
    planner, narrator = openai_models
    friday = datetime.now(HOME).date() + timedelta(days=2)
    while friday.weekday() != 4:
        friday += timedelta(days=1)
    openai_server.stream(
        tool_calls_reply(
            call(
                "c1",
                "crm_updateTask",
                task_id=GROCERIES,
                due_on=friday.isoformat(),
                title="Buy groceries for the party",
            )
        )
    )
    _replies(openai_server, "Done.", "Done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("make the groceries task due friday, it's for the party")
    assert "Buy groceries" in await tasks(crm_admin), answer(events)
