"""The kinds of request the thirteenth held-out set found read wrongly (tests/data/heldout13.jsonl),
requests as a speech recogniser writes them and as learners of English say them, each in
wordings beyond the set's own: an hour written "4 15", "1145am", "at 930", "16.45", "17h",
"11h15", "at three hours"; a day written first ("25/03"); words heard for others ("too
fifteen", "the won", "to the nine at ten", "to day", "dun", "on the third"); words split or
joined ("re-schedule", "eyeexam"); a learner's grammar ("can you to move", "at saturday", "in
the tuesday", "i want book", "make done", "more early", "same hour", "i dont need it no
more", a day said before "remind me", "i did it yesterday", "when i went last time", a visit
told of by its day then "it", "would it be possible that <thing> could go to <value>").

Played in the test world (assistant/fakes/world.py: Saturday, March 1, 2025; a dental
cleaning on Monday at 10, a haircut on Friday at 2:30; groceries (due tomorrow, normal), car
insurance (due March 8, high) and eye exam (no due date, low) to-dos; the clocks change on
March 9). Written after the set's first fixes, not tuned on: first run 31/32, no wrong write.
Missed: "i need a eyeexam on thursday at 3" (nothing booked: two names run together were
split only from nine letters on, "eyeexam" has seven); fixed. The last three cases are the
kinds the set's second block found ("tree fifteen", "for be due", "yeah so …"). The street
numbers and sums that must stay digits ("at 120 market st", "charged me for 12.50", "the
bill came to 16.45") were written on reading the rule over, before any was run: four of
five were read as hours ("1:20 market st"), and the rule now leaves them."""

from __future__ import annotations

import pytest

from assistant.fakes.world import play
from assistant.language.transcript import plain
from tests.language.played import ADD, BOOK, CANCEL, COMPLETE, DELETE, MOVE, UPDATE, writes


@pytest.mark.parametrize(
    ("text", "tool", "starts_at"),
    [
        ("book a facial on wednesday at 4 15", BOOK, "2025-03-05T16:15:00-08:00"),
        ("book a haircut saturday 1145am", BOOK, "2025-03-08T11:45:00-08:00"),
        ("move the cleaning to tuesday at 930", MOVE, "2025-03-04T09:30:00-08:00"),
        ("book a massage thursday 16.45", BOOK, "2025-03-06T16:45:00-08:00"),
        ("move my haircut to 17h saturday", MOVE, "2025-03-08T17:00:00-08:00"),
        ("book a facial at 11h15 on tuesday", BOOK, "2025-03-04T11:15:00-08:00"),
        ("book a haircut on monday at three hours", BOOK, "2025-03-03T15:00:00-08:00"),
        ("book a massage friday at too fifteen", BOOK, "2025-03-07T14:15:00-08:00"),
        ("move the haircut to the nine at ten", MOVE, "2025-03-09T10:00:00-07:00"),
        ("book a facial for the twenty one at two", BOOK, "2025-03-21T14:00:00-07:00"),
        ("book a haircut to day at five", BOOK, "2025-03-01T17:00:00-08:00"),
        ("book a massage at tree fifteen on tuesday", BOOK, "2025-03-04T15:15:00-08:00"),
        ("can you re-schedule the haircut to monday at 4", MOVE, "2025-03-03T16:00:00-08:00"),
        ("i need a eyeexam on thursday at 3", BOOK, "2025-03-06T15:00:00-08:00"),
        ("can you to move my haircut at saturday", MOVE, "2025-03-08T14:30:00-08:00"),
        ("i want book a massage in the tuesday at 10", BOOK, "2025-03-04T10:00:00-08:00"),
        ("move the haircut 1 hour more early", MOVE, "2025-03-07T13:30:00-08:00"),
        (
            "i have a appointment on friday, i want move it for saturday same hour",
            MOVE,
            "2025-03-08T14:30:00-08:00",
        ),
    ],
)
async def test_a_time_said_as_heard_is_the_time_written(
    text: str, tool: str, starts_at: str
) -> None:
    made = await writes(text)
    assert [name for name, _ in made] == [tool], (text, made)
    assert made[0][1]["starts_at"] == starts_at, (text, made)


@pytest.mark.parametrize(
    ("text", "tool", "arguments"),
    [
        ("add a task to renew my passport on 25/03", ADD, {"due_on": "2025-03-25"}),
        ("on monday remind me to call the dentist", ADD, {"due_on": "2025-03-03"}),
        ("please make done the car insurance", COMPLETE, {"task_id": "task_2"}),
        ("the eye exam, i did it yesterday", COMPLETE, {"task_id": "task_3"}),
        ("mark the car insurance dun", COMPLETE, {"task_id": "task_2"}),
        (
            "would it be possible that the eye exam could go to high priority",
            UPDATE,
            {"task_id": "task_3", "priority": "high"},
        ),
        ("delete the groceries task because i dont need it no more", DELETE, {"task_id": "task_1"}),
        ("cancel the won on friday", CANCEL, {"appointment_id": "appt_2"}),
        ("update the insurance for be due on friday", UPDATE, {"due_on": "2025-03-07"}),
        (
            "yeah so the eye exam task can you make it high priority",
            UPDATE,
            {"task_id": "task_3", "priority": "high"},
        ),
    ],
)
async def test_a_change_said_as_heard_is_the_change_written(
    text: str, tool: str, arguments: dict[str, str]
) -> None:
    made = await writes(text)
    assert [name for name, _ in made] == [tool], (text, made)
    assert {key: made[0][1].get(key) for key in arguments} == arguments, (text, made)


@pytest.mark.parametrize(
    ("text", "tools"),
    [
        ("is the groceries dun", ["crm.listTasks"]),
        ("anything booked on the third?", ["crm.listUpcomingAppointments"]),
        ("when i went last time to the dentist", ["crm.listAppointments"]),
    ],
)
async def test_a_question_said_as_heard_only_reads(text: str, tools: list[str]) -> None:
    turn = await play(text)
    assert turn.tools == tools and turn.held is None, (text, turn.tools)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # a phone number after "at" is no hour ("at 415" was "at 4:15")
        ("text me at 415 555 0123 from now on", "+14155550123"),
        # "the one at ten" is an item, not a day of the month
        ("cancel the one at ten", "appt_1"),
    ],
)
async def test_numbers_that_are_no_time_are_left(text: str, kept: str) -> None:
    made = await writes(text)
    assert made and kept in made[0][1].values(), (text, made)


@pytest.mark.parametrize(
    "said",
    [
        "cancel the one at 120 market st",
        "i was charged for 230",
        "they charged me for 12.50 twice",
        "the bill came to 16.45",
        "my invoice number is 1030",
    ],
)
def test_a_place_or_a_sum_is_no_hour(said: str) -> None:
    """Digits a typist writes as a street number or a sum are left as they are."""
    assert ":" not in plain(said), plain(said)


async def test_a_length_of_time_is_no_hour() -> None:
    """ "2h later" is two hours, never 2 o'clock."""
    made = await writes("push the cleaning 2h later")
    assert all("T02:00" not in str(args) and "T14:00" not in str(args) for _, args in made)


async def test_hoping_for_a_change_is_no_question() -> None:
    """ "i hope you can cancel my haircut" asks it (held), as before."""
    made = await writes("i hope you can cancel my haircut")
    assert made == [(CANCEL, {"appointment_id": "appt_2"})]
