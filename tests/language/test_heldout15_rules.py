"""The kinds of request the fifteenth held-out set found read wrongly (tests/data/heldout15.jsonl),
each in wordings beyond the set's own: a day written short that is also a word ("sat", "sun",
"wed"); "not the X, the other one"; a change the customer may make ("I might…"); "retitle X
as Y" and a note given; a change of level said casually ("pop it down to…"); thanks wrapped
round the ask ("I'd be so grateful if you'd…"); "all … are done except X"; a new detail said
beside the other one that stays; a move said as what the thing needs; "I never asked for X,
get rid of it"; "it" after a to-do changed; a visit's service as the condition of its change;
"whichever is earlier"; the next two visits; a count of past visits; bills over an amount.

Played in the test world (assistant/fakes/world.py: Saturday, March 1, 2025; a dental
cleaning on Monday at 10, a haircut on Friday at 2:30; groceries (due tomorrow), car
insurance (due March 8, high) and eye exam (no due date) to-dos; the phone on file ends
0101; a $150 open invoice, a $45 paid one). Written after the set's fixes and played on the
code before them: 22 of these 27 checks failed there, eight as a wrong write: "haircut sat
10am pls" booked tomorrow; "move my cleaning to wed at 9" moved it to Monday at 9; "remind
me to buy sun cream by sun" added "Buy sun cream by sun" with no due day; "not the cleaning,
the other one. cancel it" held the cleaning's cancel; "I might move the haircut to saturday,
I'll let you know" moved it; "we may well cancel the cleaning at some point" held its
cancel; "retitle the groceries task as weekly shop…" titled it "As weekly shop"; "the
cleaning's fine, it's the haircut that needs to move to saturday at 1" moved the cleaning.
Read wrongly: "any invoices under 50 dollars?" and "…over $200" said "I don't see an
invoice for $50.00 (200.00)"."""

from __future__ import annotations

from typing import Any

import pytest

from assistant.fakes.world import play
from tests.language.played import ADD, BOOK, CANCEL, COMPLETE, CONTACT, MOVE, UPDATE, writes


@pytest.mark.parametrize(
    ("text", "made"),
    [
        # (was "haircut sat 10am pls": the world has a haircut, and since leftopen16 a visit
        # held, named bare then when, is asked about as its move first; no massage is held)
        (
            "massage sat 10am pls",
            [(BOOK, {"service": "Massage", "starts_at": "2025-03-08T10:00:00-08:00"})],
        ),
        (
            "move my cleaning to wed at 9",
            [(MOVE, {"appointment_id": "appt_1", "starts_at": "2025-03-05T09:00:00-08:00"})],
        ),
        (
            "remind me to buy sun cream by sun",
            [(ADD, {"title": "Buy sun cream", "due_on": "2025-03-02"})],
        ),
    ],
)
async def test_a_day_written_short_is_that_day_where_a_day_goes(
    text: str, made: list[tuple[str, dict[str, Any]]]
) -> None:
    assert await writes(text) == made, text


async def test_not_the_one_named_then_the_other_one_is_the_other() -> None:
    made = await writes("not the cleaning, the other one. cancel it")
    assert made == [(CANCEL, {"appointment_id": "appt_2"})]


@pytest.mark.parametrize(
    "text",
    [
        "I might move the haircut to saturday, I'll let you know",
        "we may well cancel the cleaning at some point",
    ],
)
async def test_a_change_the_customer_may_make_is_not_made(text: str) -> None:
    turn = await play(text)
    assert await writes(text) == [] and turn.held is None, (text, turn.tools)


async def test_retitled_as_and_a_note_given() -> None:
    made = await writes("retitle the groceries task as weekly shop and give it a note saying aldi")
    assert made == [(UPDATE, {"task_id": "task_1", "title": "Weekly shop", "description": "aldi"})]


async def test_a_level_popped_up_or_down() -> None:
    assert await writes("can you pop the eye exam up to high") == [
        (UPDATE, {"task_id": "task_3", "priority": "high"})
    ]


async def test_thanks_wrapped_round_the_ask_asks_it() -> None:
    made = await writes("I'd really appreciate it if you would move my haircut to saturday at 4")
    assert made == [(MOVE, {"appointment_id": "appt_2", "starts_at": "2025-03-08T16:00:00-08:00"})]


async def test_all_done_except_marks_the_others() -> None:
    made = await writes("everything is finished apart from the insurance")
    assert sorted(a["task_id"] for _, a in made) == ["task_1", "task_3"]
    assert {tool for tool, _ in made} == {COMPLETE}


@pytest.mark.parametrize(
    ("text", "made"),
    [
        (
            "keep my number, new email mg@fastmail.com",
            [(CONTACT, {"email": "mg@fastmail.com"})],
        ),
        (
            "my email's the same, new number 415 555 0199",
            [(CONTACT, {"phone": "+14155550199"})],
        ),
        ("my husband's number changed, it's 415 555 0199", []),
    ],
)
async def test_a_new_detail_beside_the_other_kept_is_changed(
    text: str, made: list[tuple[str, dict[str, Any]]]
) -> None:
    assert await writes(text) == made, text


@pytest.mark.parametrize(
    ("text", "made"),
    [
        (
            "the cleaning's fine, it's the haircut that needs to move to saturday at 1",
            [(MOVE, {"appointment_id": "appt_2", "starts_at": "2025-03-08T13:00:00-08:00"})],
        ),
        (
            "my cleaning has to be moved to tuesday at 2",
            [(MOVE, {"appointment_id": "appt_1", "starts_at": "2025-03-04T14:00:00-08:00"})],
        ),
        ("I need to go to the dentist on friday", []),
        ("the dog needs to go to the vet on friday", []),
        (
            "the groceries need pushing back a day",
            [(UPDATE, {"task_id": "task_1", "due_on": "2025-03-03"})],
        ),
    ],
)
async def test_a_move_said_as_what_the_thing_needs(
    text: str, made: list[tuple[str, dict[str, Any]]]
) -> None:
    assert await writes(text) == made, text


async def test_a_visit_never_asked_for_is_cancelled_on_a_yes() -> None:
    turn = await play("i didn't ask for the cleaning on monday so remove that")
    assert turn.held is not None and turn.held.tool_name == CANCEL
    assert turn.held.arguments == {"appointment_id": "appt_1"}


async def test_it_after_a_to_do_changed_is_that_to_do() -> None:
    made = await writes("make the groceries high priority and move it to monday")
    assert made == [
        (UPDATE, {"task_id": "task_1", "priority": "high"}),
        (UPDATE, {"task_id": "task_1", "due_on": "2025-03-03"}),
    ]


@pytest.mark.parametrize(
    ("text", "made"),
    [
        (
            "move the 10am one to thursday if it's the cleaning",
            [(MOVE, {"appointment_id": "appt_1", "starts_at": "2025-03-06T10:00:00-08:00"})],
        ),
        ("cancel my monday appointment but only if it's the haircut", []),
    ],
)
async def test_a_service_said_as_the_condition_names_the_visit(
    text: str, made: list[tuple[str, dict[str, Any]]]
) -> None:
    assert await writes(text) == made, text


@pytest.mark.parametrize(
    ("text", "made"),
    [
        (
            "book a haircut thursday or friday, whichever is later, at 3",
            [(BOOK, {"service": "Haircut", "starts_at": "2025-03-07T15:00:00-08:00"})],
        ),
        (
            "move my cleaning to whichever is earlier, the 10th or the 8th at 9",
            [(MOVE, {"appointment_id": "appt_1", "starts_at": "2025-03-08T09:00:00-08:00"})],
        ),
    ],
)
async def test_whichever_is_earlier_or_later_is_that_day(
    text: str, made: list[tuple[str, dict[str, Any]]]
) -> None:
    assert await writes(text) == made, text


async def test_the_next_two_visits_are_each_changed() -> None:
    made = await writes("push my next 2 appointments back an hour")
    assert made == [
        (MOVE, {"appointment_id": "appt_1", "starts_at": "2025-03-03T11:00:00-08:00"}),
        (MOVE, {"appointment_id": "appt_2", "starts_at": "2025-03-07T15:30:00-08:00"}),
    ]


async def test_a_count_of_past_visits_reads_the_history() -> None:
    turn = await play("what were my previous three appointments")
    assert turn.tools == ["crm.listAppointments"], turn.tools


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("any invoices under 50 dollars?", "under $50.00: $45.00 for haircut (paid)"),
        ("do I have any bills over $200", "None of your invoices is over $200.00"),
    ],
)
async def test_bills_over_or_under_an_amount_are_said(text: str, said: str) -> None:
    turn = await play(text)
    assert said in turn.answer, turn.answer


async def test_a_condition_on_a_to_do_reads_the_to_dos() -> None:
    turn = await play("if the insurance is high priority, mark it done")
    assert (
        turn.tools == ["crm.listTasks"]
        and await writes("if the insurance is high priority, mark it done") == []
    ), turn.tools


# Written after the set's second block: its two misses, in other words.
@pytest.mark.parametrize(
    ("text", "made"),
    [
        (
            "my haircut needs to be brought forward two days",
            [(MOVE, {"appointment_id": "appt_2", "starts_at": "2025-03-05T14:30:00-08:00"})],
        ),
        # (no "how much": nothing to move by, so nothing moved)
        ("the cleaning needs pushing back", []),
        (
            "move whichever appointment comes first to saturday at 10",
            [(MOVE, {"appointment_id": "appt_1", "starts_at": "2025-03-08T10:00:00-08:00"})],
        ),
    ],
)
async def test_a_move_by_how_much_and_the_earlier_visit(
    text: str, made: list[tuple[str, dict[str, Any]]]
) -> None:
    assert await writes(text) == made, text
