"""The kinds of request the twelfth held-out set found read wrongly (tests/data/heldout12.jsonl),
requests with several constraints and quantities, each in wordings beyond the set's own: an
hour given as a limit ("sometime after 3", "no later than 11"), a day said once for several
to-dos, a shift of an hour and a half, a visit named then "make it <shift>", a to-do named by
its priority or by having no due date, tickets "except the open ones", "the earlier of my
two", a visit named by its street, one change said once for two to-dos, a due day moved by a
shift said after "due", and an hour counted from another visit's start.

Played in the test world (assistant/fakes/world.py: Saturday, March 1, 2025; a dental
cleaning on Monday at 10 at Downtown Dental, 120 Market St, a haircut on Friday at 2:30 at
Studio Nine, 48 Valencia St; groceries (due tomorrow, normal), car insurance (due March 8,
high) and eye exam (no due date, low) to-dos). Written after the set's first fixes; first
run 26/28. WRONG WRITE (1): "can the cleaning go on wednesday no later than 11" moved it to
Wednesday at 10 ("no later than" is read as "by" before the limit was looked for: "by
<hour>" is now a limit too, "by two hours" still a shift). Missed: "set the one without a
due date due on the 10th" (looked for a task "without": "set … due" cut the words at the
first "due", as "make … due" had). Both fixed."""

from __future__ import annotations

import pytest

from assistant.fakes.world import play
from tests.language.played import ADD, BOOK, MOVE, UPDATE, writes


@pytest.mark.parametrize(
    "text",
    [
        "move my haircut to saturday sometime after 2",
        "can the cleaning go on wednesday no later than 11",
        "book me a massage on thursday any time after lunch",
        "push the haircut to monday, not before 4pm",
        "reschedule my cleaning to friday before noon",
    ],
)
async def test_an_hour_given_as_a_limit_is_asked_not_written(text: str) -> None:
    turn = await play(text)
    assert not await writes(text), text
    assert "time" in (turn.final or turn.answer).lower()


@pytest.mark.parametrize(
    ("text", "due", "count"),
    [
        ("add two tasks for friday: return the library books and buy a card", "2025-03-07", 2),
        ("add three reminders on monday, call the bank, email sam and pay rent", "2025-03-03", 3),
        ("add two tasks: wash the car and walk the dog, both for tomorrow", "2025-03-02", 2),
    ],
)
async def test_a_day_said_once_for_several_todos_is_each_ones(
    text: str, due: str, count: int
) -> None:
    made = await writes(text)
    assert [tool for tool, _ in made] == [ADD] * count, made
    assert all(args.get("due_on") == due for _, args in made), made


@pytest.mark.parametrize(
    ("text", "appointment_id", "starts_at"),
    [
        ("push my haircut back an hour and a half", "appt_2", "2025-03-07T16:00:00-08:00"),
        ("bring the cleaning forward an hour and a half", "appt_1", "2025-03-03T08:30:00-08:00"),
        (
            "the haircut on friday, make it 3 days later at the same time",
            "appt_2",
            "2025-03-10T14:30:00-07:00",
        ),
        ("my cleaning, make it a day later", "appt_1", "2025-03-04T10:00:00-08:00"),
        (
            "move the one on valencia street to thursday at 4pm",
            "appt_2",
            "2025-03-06T16:00:00-08:00",
        ),
        (
            "shift the appointment at the market street clinic to tuesday at 9am",
            "appt_1",
            "2025-03-04T09:00:00-08:00",
        ),
    ],
)
async def test_a_visit_moved_by_a_shift_or_named_by_its_street(
    text: str, appointment_id: str, starts_at: str
) -> None:
    assert await writes(text) == [
        (MOVE, {"appointment_id": appointment_id, "starts_at": starts_at})
    ], text


@pytest.mark.parametrize(
    ("text", "args"),
    [
        ("tick off the high priority task", {"task_id": "task_2"}),
        ("complete the low priority one", {"task_id": "task_3"}),
        ("make the low priority one high priority", {"task_id": "task_3", "priority": "high"}),
        (
            "set the one without a due date due on the 10th",
            {"task_id": "task_3", "due_on": "2025-03-10"},
        ),
        ("make the groceries due two days later", {"task_id": "task_1", "due_on": "2025-03-04"}),
        (
            "the car insurance, make it due a week later",
            {"task_id": "task_2", "due_on": "2025-03-15"},
        ),
    ],
)
async def test_a_todo_named_by_what_it_has(text: str, args: dict[str, str]) -> None:
    made = await writes(text)
    assert len(made) == 1, made
    assert all(made[0][1].get(key) == value for key, value in args.items()), made


@pytest.mark.parametrize(
    ("text", "changes"),
    [
        (
            "make both the insurance and the eye exam low priority",
            [{"task_id": "task_2", "priority": "low"}, {"task_id": "task_3", "priority": "low"}],
        ),
        (
            "set the groceries and the eye exam due on sunday",
            [
                {"task_id": "task_1", "due_on": "2025-03-02"},
                {"task_id": "task_3", "due_on": "2025-03-02"},
            ],
        ),
    ],
)
async def test_one_change_said_once_for_two_todos(text: str, changes: list[dict[str, str]]) -> None:
    assert await writes(text) == [(UPDATE, change) for change in changes], text


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("list my tickets other than the open ones", "closed"),
        ("which of my support cases are not open", "closed"),
    ],
)
async def test_tickets_except_the_open_ones_are_the_closed(text: str, status: str) -> None:
    turn = await play(text)
    calls = [c for calls in turn.rounds for c in calls]
    assert [(c.tool_name, c.arguments.get("status")) for c in calls] == [
        ("crm.listTickets", status)
    ]


async def test_the_earlier_of_two_is_the_first() -> None:
    turn = await play("cancel the later of my two appointments")
    assert turn.held is not None and turn.held.arguments == {"appointment_id": "appt_2"}


@pytest.mark.parametrize(
    ("text", "service", "starts_at"),
    [
        (
            "book a massage three hours after my cleaning starts",
            "Massage",
            "2025-03-03T13:00:00-08:00",
        ),
        ("book a facial an hour before my haircut starts", "Facial", "2025-03-07T13:30:00-08:00"),
    ],
)
async def test_an_hour_counted_from_another_visits_start(
    text: str, service: str, starts_at: str
) -> None:
    assert await writes(text) == [(BOOK, {"service": service, "starts_at": starts_at})], text


async def test_hours_after_a_visit_not_said_from_its_start_are_asked() -> None:
    assert not await writes("book a massage two hours after my haircut")
