"""The kinds of request the nineteenth held-out set found read wrongly (tests/data/
heldout19.jsonl: every change asked in other words), each in wordings beyond the set's own:
a move said as "nudge", "slide", "shunt", "scoot", "roll … over", "swap/flip … to" or "make
<visit> <hour>"; a cancel said as "kill", "axe", "nix", "knock … off my list" or "<a visit>,
drop it / take it off"; a to-do put on the list with "stick", "pop", "throw", "chuck"; a
level "dialled" up or down; a to-do told "taken care of" or "dealt with", or "ticked"; the
number to "get me on"; and the hedges that must write nothing: "I could probably …",
"thinking about …ing", "would it be smarter to …", "almost done", "…, or maybe not",
"…? eh, probably not", "not sure if I should …".

Played in the test world (assistant/fakes/world.py: Saturday, March 1, 2025; a dental
cleaning on Monday 10-11, a haircut on Friday 2:30-3:15; groceries (due tomorrow), car
insurance (due March 8, high) and eye exam (no due date) to-dos; a $150 open invoice)."""

from __future__ import annotations

from typing import Any

import pytest

from assistant.fakes.world import play
from tests.language.played import ADD, CANCEL, COMPLETE, CONTACT, DELETE, MOVE, UPDATE, writes


def _moved(starts_at: str) -> tuple[str, dict[str, Any]]:
    return (MOVE, {"appointment_id": "appt_1", "starts_at": starts_at + ":00-08:00"})


def _updated(**changed: str) -> tuple[str, dict[str, Any]]:
    return (UPDATE, {"task_id": "task_1", **changed})


@pytest.mark.parametrize(
    ("text", "made"),
    [
        ("nudge the cleaning to 11", _moved("2025-03-03T11:00")),
        ("roll my cleaning over to tuesday", _moved("2025-03-04T10:00")),
        ("swap the cleaning to friday at 9", _moved("2025-03-07T09:00")),
        ("make the cleaning 2pm", _moved("2025-03-03T14:00")),
        ("slide my groceries task to monday", _updated(due_on="2025-03-03")),
        ("nudge the groceries back a day", _updated(due_on="2025-03-03")),
        ("dial the groceries task up to high", _updated(priority="high")),
        ("pop call mum on my list", (ADD, {"title": "Call mum"})),
        ("stick buy milk on the to-do list", (ADD, {"title": "Buy milk"})),
        ("tick the groceries one", (COMPLETE, {"task_id": "task_1"})),
        ("the eye exam task is taken care of", (COMPLETE, {"task_id": "task_3"})),
        ("you can get me at maria@example.com", (CONTACT, {"email": "maria@example.com"})),
        # held for a yes
        ("knock the haircut off my calendar", (CANCEL, {"appointment_id": "appt_2"})),
        ("nix my cleaning", (CANCEL, {"appointment_id": "appt_1"})),
        ("kill the groceries task", (DELETE, {"task_id": "task_1"})),
        ("I can't make the haircut, kill it", (CANCEL, {"appointment_id": "appt_2"})),
    ],
)
async def test_a_change_said_in_other_words_is_made(
    text: str, made: tuple[str, dict[str, Any]]
) -> None:
    assert await writes(text) == [made]


async def test_a_visit_let_go_of_by_it_is_no_to_do_looked_for() -> None:
    turn = await play("I can't make the cleaning anymore, drop it")
    assert turn.tools == ["crm.listUpcomingAppointments"]
    assert turn.held is not None and turn.held.arguments == {"appointment_id": "appt_1"}


async def test_a_title_keeps_its_other_words() -> None:
    assert await writes("remind me to nudge Sam about the rent") == [
        (ADD, {"title": "Nudge Sam about the rent"})
    ]


@pytest.mark.parametrize(
    "text",
    [
        "I can probably move the cleaning to thursday",
        "we could maybe nudge the haircut to 4",
        "thinking of moving the cleaning to tuesday",
        "would it be better to cancel the haircut?",
        "wouldn't it be smarter to book a facial on friday at 11?",
        "the insurance is nearly done",
        "the groceries aren't sorted",
        "the eye exam one is not quite dealt with",
        "cancel the haircut, or maybe not",
        "move the cleaning to friday? nah, probably not",
        "not sure whether I should cancel my haircut",
        "not sure if i should move my haircut to 4",
    ],
)
async def test_a_change_hedged_writes_nothing(text: str) -> None:
    assert await writes(text) == [], text
