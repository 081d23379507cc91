"""The kinds of request the ninth held-out set found read wrongly (tests/data/heldout9.jsonl),
each in wordings beyond the set's own: two values said for one change ("at 3 or 4", "at 10am
on monday at 2pm", "monday or tuesday", two addresses), a cancel said with a move's "to
<day>", a to-do "booked" for a day, an errand called an appointment, a bill told paid and
"taken off", tickets "from last year", and a detail removed with its replacement said."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.fakes.world import play
from assistant.language import detect_intents

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))  # a Monday


@pytest.mark.parametrize(
    "text",
    [
        "book me a facial on thursday at 11 or 12",
        "can I get a massage wednesday at 9am or 10am",
        "book a haircut on friday at 3pm on saturday at 4pm",
        "move my massage to wednesday or thursday at 10",
        "push the facial to 2 or 3 on friday",
        "move the insurance task to thursday or friday",
        "update my email to sam@a.com or sam@b.com",
        "new phone is 415 555 0111 or 415 555 0122",
    ],
)
def test_two_values_for_one_change_are_asked_about(text: str) -> None:
    """ "book a haircut saturday at 3 or 4": which, asked (the first was written)."""
    writes = [i for i in detect_intents(text, NOW, TZ) if i.writes]
    assert writes and all(i.missing[:1] == ("either",) for i in writes), text


@pytest.mark.parametrize(
    "text",
    [
        "book a haircut at 3 or so on friday",
        "move my massage to tuesday, no wednesday at 9",
        "add a task to buy 2 or 3 lemons on friday",
        "move the haircut at 2:30 to friday at 4pm",
        "book a facial tomorrow at 10am at the downtown studio",
    ],
)
def test_one_value_said_is_no_choice(text: str) -> None:
    """ "at 3 or so", a value put right, a title's "2 or 3", the visit's own hour: not asked."""
    assert all("either" not in i.missing for i in detect_intents(text, NOW, TZ)), text


async def test_the_reply_takes_the_place_of_the_two() -> None:
    """ "at 3 or 4" → "which time?" → "4pm": booked at 4 (the day said first is kept)."""
    history: list = []  # type: ignore[type-arg]
    asked = await play("book a haircut saturday at 3 or 4", history)
    assert not asked.rounds and "3 or 4" in (asked.final or "")
    told = await play("4pm", history)
    (call,) = [c for r in told.rounds for c in r]
    assert call.arguments["starts_at"] == "2025-03-08T16:00:00-08:00"


async def test_a_day_chosen_moves_the_visit_to_that_day() -> None:
    """ "thursday or friday morning" → "thursday at 10": Thursday (it moved it to Friday)."""
    history: list = []  # type: ignore[type-arg]
    await play("move the haircut to thursday or friday morning", history)
    told = await play("thursday at 10", history)
    moved = [c for r in told.rounds for c in r if c.tool_name == "crm.rescheduleAppointment"]
    assert moved and moved[0].arguments["starts_at"] == "2025-03-06T10:00:00-08:00"


@pytest.mark.parametrize(
    "text", ["cancel the facial to next monday", "can you cancel my massage to 4pm"]
)
def test_a_cancel_said_with_a_move_is_asked_about(text: str) -> None:
    """ "cancel my haircut to friday": moved or cancelled? (a cancellation was held)."""
    (intent,) = detect_intents(text, NOW, TZ)
    assert intent.kind == "cancel_appointment" and intent.missing[:1] == ("move_or_cancel",)


async def test_the_reply_says_which_of_move_or_cancel() -> None:
    """ "moved, or cancelled?" → "move it": moved there; → "cancel it": held for a yes."""
    history: list = []  # type: ignore[type-arg]
    await play("cancel my cleaning to wednesday at 3", history)
    moved = await play("move it please", history)
    (call,) = [c for r in moved.rounds for c in r if c.tool_name.endswith("Appointment")]
    assert call.arguments["starts_at"] == "2025-03-05T15:00:00-08:00"
    history = []
    await play("cancel my cleaning to wednesday at 3", history)
    cancelled = await play("no, cancel it", history)
    assert cancelled.held is not None and cancelled.held.tool_name == "crm.cancelAppointment"


def test_a_cancel_on_a_day_is_still_a_cancel() -> None:
    """ "cancel my massage on friday": the day names the visit; no question."""
    (intent,) = detect_intents("cancel my massage on friday", NOW, TZ)
    assert intent.kind == "cancel_appointment" and not intent.missing


@pytest.mark.parametrize(
    ("text", "due_on"),
    [
        ("book the eye exam task for thursday", "2030-01-17"),
        ("book my library books to-do for friday", "2030-01-18"),
    ],
)
def test_a_to_do_booked_for_a_day_is_made_due_then(text: str, due_on: str) -> None:
    """ "book the car insurance task for monday": its due day (it asked what to book)."""
    (intent,) = detect_intents(text, NOW, TZ)
    assert intent.kind == "update_task" and intent.arguments["due_on"] == due_on


def test_an_errand_called_an_appointment_is_a_to_do() -> None:
    """ "add an appointment to buy milk on sunday": a to-do (it read the visits)."""
    (intent,) = detect_intents("put an appointment to call the bank on friday", NOW, TZ)
    assert intent.kind == "add_task" and intent.arguments["due_on"] == "2030-01-18"
    said = "add an appointment to my calendar for a haircut friday 3pm"
    (booked,) = detect_intents(said, NOW, TZ)
    assert booked.kind == "book_appointment"


@pytest.mark.parametrize(
    "text", ["the bill was already paid, remove it", "I paid the dental invoice, take it off"]
)
def test_a_bill_told_paid_and_taken_off_reads_the_bill(text: str) -> None:
    """ "I already paid that invoice, take it off": no to-do deleted; the open invoices read."""
    kinds = [i.kind for i in detect_intents(text, NOW, TZ)]
    assert "delete_task" not in kinds and "billing" in kinds, kinds


async def test_tickets_from_a_time_gone_by_read_the_history() -> None:
    """ "show my tickets from last year": every case, not only the open ones."""
    turn = await play("any complaints from last month?")
    assert turn.tools == ["crm.listTickets"]


async def test_a_detail_removed_and_replaced_is_changed() -> None:
    """ "remove my phone number and put 415 555 0199": changed (it was refused as a removal);
    a removal alone is still the team's."""
    turn = await play("delete my email and use maria.new@example.com")
    assert turn.tools == ["crm.updateContactInfo"]
    alone = await play("remove my phone number and add a task to call mum")
    assert alone.tools == [] and "can't remove" in (alone.final or "")
