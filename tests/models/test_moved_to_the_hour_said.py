"""A visit moved to a day and an hour said forty ways lands on exactly that day and hour.

Forty ways of saying when (a 24-hour clock, "quarter to three", "ten past nine", "the
fourteenth at eleven", "a week from tuesday at 10", "3/12 at 2pm", "half an hour later"…),
each in three asks to move the dental cleaning (120 messages), were written before any
rule was read. First run: 116 right; "thursday at 1430" MOVED IT TO THURSDAY AT ITS OWN
10:00 in all three asks (the four digits were no hour the rules read, and the guard for an
hour said but unread knew only one or two digits); "can you reschedule the cleaning for
3/12 at 2pm" was refused as a visit for three people. Now a 24-hour clock without its
colon is read (a street number after "at" is not), four digits after "at" that are no
hour ask for the hour, and "for 3/12" is a day.

The same probe over which visit a change lands on (`/work/notes` tools: six visits, two
haircuts, two cleanings, two on one Friday; 96 messages) found no change made to another
visit than the one named: a visit named ambiguously is asked about.
"""

from __future__ import annotations

import pytest

from assistant.fakes.world import APPOINTMENTS, play

SAID = {
    "thursday at 4pm": "03-06T16:00", "thursday at 4": "03-06T16:00",
    "the 12th at noon": "03-12T12:00", "march 12 at 9:30am": "03-12T09:30",
    "a week from tuesday at 10": "03-11T10:00", "the day after tomorrow at 3pm": "03-03T15:00",
    "wednesday at quarter to three": "03-05T14:45", "wednesday at 14:45": "03-05T14:45",
    "friday at 9 in the morning": "03-07T09:00", "friday at 7 in the evening": "03-07T19:00",
    "friday evening at 6": "03-07T18:00", "tomorrow at 11am": "03-02T11:00",
    "monday the 10th at 10:15": "03-10T10:15", "the 10th at ten fifteen": "03-10T10:15",
    "3/12 at 2pm": "03-12T14:00", "12 march at 2pm": "03-12T14:00",
    "march twelfth at two in the afternoon": "03-12T14:00", "an hour later": "03-03T11:00",
    "30 minutes earlier": "03-03T09:30", "half an hour later": "03-03T10:30",
    "the same time on thursday": "03-06T10:00", "thursday, same time": "03-06T10:00",
    "thursday at noon": "03-06T12:00", "thursday at midday": "03-06T12:00",
    "thursday at 1": "03-06T13:00", "the 6th at 3:30 pm": "03-06T15:30",
    "april 2nd at 10am": "04-02T10:00", "a week later": "03-10T10:00",
    "two days later": "03-05T10:00", "the following day": "03-04T10:00",
    "thursday at half two": "03-06T14:30", "thursday at 2.30pm": "03-06T14:30",
    "thursday at 1430": "03-06T14:30", "thurs 4:15pm": "03-06T16:15",
    "the fourteenth at eleven": "03-14T11:00", "friday the 14th at 11": "03-14T11:00",
    "wednesday at ten past nine": "03-05T09:10", "wednesday at twenty to five": "03-05T16:40",
    "the 5th at 9 a.m.": "03-05T09:00", "wed at 5 pm": "03-05T17:00",
}  # fmt: skip
ASKS = (
    "move my dental cleaning to {s}",
    "can you reschedule the cleaning for {s}",
    "push my cleaning to {s} please",
)


@pytest.mark.parametrize(
    ("said", "want"), [(a.format(s=s), w) for s, w in SAID.items() for a in ASKS]
)
async def test_the_visit_moves_to_the_day_and_hour_said(said: str, want: str) -> None:
    turn = await play(said)
    moved = [c for cs in turn.rounds for c in cs if c.tool_name == "crm.rescheduleAppointment"]
    assert len(moved) == 1, f"{said!r}: {turn.answer}"
    assert moved[0].arguments["appointment_id"] == APPOINTMENTS[0]["id"]
    assert f"2025-{want}" in moved[0].arguments["starts_at"], moved[0].arguments


@pytest.mark.parametrize(
    "said", ["move my dental cleaning to thursday at 2545", "move my cleaning to friday at 1961"]
)
async def test_four_digits_that_are_no_hour_ask_for_the_hour(said: str) -> None:
    turn = await play(said)
    assert not [c for cs in turn.rounds for c in cs if c.tool_name == "crm.rescheduleAppointment"]
    assert "?" in turn.answer


async def test_a_street_number_after_at_is_no_hour() -> None:
    turn = await play("book a haircut at 1430 main street on friday at 2pm")
    booked = [c for cs in turn.rounds for c in cs if c.tool_name == "crm.bookAppointment"]
    assert booked and "T14:00" in booked[0].arguments["starts_at"]


@pytest.mark.parametrize(
    ("said", "phone"),
    [
        ("update my phone to 415 555 0162 sorry i mean 1426", "+14155551426"),
        ("update my phone to 415 555 0162 oops i mean 0126", "+14155550126"),
        ("change my mobile to 415 555 0177 wait no 2130", "+14155552130"),
    ],
)
async def test_a_phone_numbers_digits_put_right_are_no_clock(said: str, phone: str) -> None:
    """Four digits said over a phone number's last four are its digits, even when they
    read as a 24-hour clock (once "at 1426" was one, the first number was kept)."""
    turn = await play(said)
    changed = [c for cs in turn.rounds for c in cs if c.tool_name == "crm.updateContactInfo"]
    assert [c.arguments.get("phone") for c in changed] == [phone], turn.answer
