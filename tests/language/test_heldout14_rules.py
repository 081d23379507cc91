"""The kinds of request the fourteenth held-out set found read wrongly (tests/data/heldout14.jsonl),
each in wordings beyond the set's own: a second number or email told beside the one on file
that is to stay ("my office number is …, keep my mobile as the main one"); a question of a
deadline or a price that names a cancel ("is it too late to cancel…", "how much would it cost
to cancel…"); the way to do a thing asked round about ("can you tell me how to cancel…", "how
would I go about deleting…"); a number changed "now that I've moved"; a postal address said
as "new address: …"; a condition said after the ask, or asked first and leaned on with "if
so", that only names the visit ("…if it's in the morning", "is my cleaning still on monday?
if so …"); a condition on a task ("delete the insurance task if it's due next week", which
"task" ending in "ask" had hidden); a visit named by its day and then put right ("cancel the
one on friday, actually no, the monday one"); "everything due this week".

Played in the test world (assistant/fakes/world.py: Saturday, March 1, 2025; a dental
cleaning on Monday at 10, a haircut on Friday at 2:30; groceries (due tomorrow), car
insurance (due March 8, high) and eye exam (no due date) to-dos; the phone on file ends
0101). Written after the set's first fixes and played on the code before them: 21 of these
25 checks failed there, seven as a write: three numbers or emails that replaced the one on
file, and four cancels held for a yes to a question ("is it too late to cancel…", "how much
would it cost to cancel…", "how much notice … to cancel…", "until when can i cancel…")."""

from __future__ import annotations

from typing import Any

import pytest

from assistant.fakes.world import play
from tests.language.played import CANCEL, CONTACT, MOVE, writes

LIST = "crm.listUpcomingAppointments"


@pytest.mark.parametrize(
    "text",
    [
        "my office number is 650 555 0177, keep my mobile as the main one",
        "add my work email maria@acme.com as a backup",
        "here's my home phone 415 555 0166 but don't change my cell",
    ],
)
async def test_a_second_detail_beside_the_one_kept_changes_nothing(text: str) -> None:
    turn = await play(text)
    assert turn.tools == [] and turn.held is None, (text, turn.tools)
    assert "only one phone number" in (turn.final or turn.answer), turn.final


async def test_the_detail_said_alone_still_replaces_the_one_on_file() -> None:
    # "add my work number …": one number is kept, and the one added replaces it (as before)
    assert await writes("add my work number 650 555 0134") == [(CONTACT, {"phone": "+16505550134"})]
    assert await writes("my number is +44 20 7946 0958 now that i've moved to london") == [
        (CONTACT, {"phone": "+442079460958"})
    ]


@pytest.mark.parametrize(
    "text",
    [
        "is it too late to cancel my cleaning?",
        "when's the latest i can move my haircut",
        "how much would it cost to cancel the haircut",
        "how much notice do i need to give to cancel the cleaning",
        "until when can i cancel the cleaning",
        # written after the tests above passed, played on this branch: the first held the
        # cancel for a yes, the second read the balance
        "can i cancel the cleaning without being charged",
        "do you charge for cancelling",
    ],
)
async def test_a_deadline_or_price_asked_is_no_change(text: str) -> None:
    turn = await play(text)
    assert turn.tools == [] and turn.held is None, (text, turn.tools)


@pytest.mark.parametrize(
    "text",
    [
        "can you tell me how to cancel an appointment",
        "how would i go about deleting a task",
        "could you explain how to move my haircut",
        "show me how i can change my email",
    ],
)
async def test_the_way_asked_round_about_is_told(text: str) -> None:
    turn = await play(text)
    assert turn.tools == [] and turn.held is None, (text, turn.tools)
    assert (turn.final or "").startswith("Just tell me in your own words"), turn.final


async def test_a_new_address_said_is_the_postal_address() -> None:
    turn = await play("new address: 9 Elm Street, Oakland")
    assert turn.tools == [] and "postal address" in (turn.final or turn.answer)


@pytest.mark.parametrize(
    ("text", "made"),
    [
        ("cancel the cleaning if it's in the morning", [(CANCEL, {"appointment_id": "appt_1"})]),
        (
            "move the haircut to saturday at 10 if it's on friday",
            [(MOVE, {"appointment_id": "appt_2", "starts_at": "2025-03-08T10:00:00-08:00"})],
        ),
        (
            "is my cleaning still on monday? if so move it to tuesday same time",
            [(MOVE, {"appointment_id": "appt_1", "starts_at": "2025-03-04T10:00:00-08:00"})],
        ),
        ("is the haircut on thursday? if so cancel it", []),
        ("cancel the haircut if it's before noon", []),
    ],
)
async def test_a_condition_that_names_the_visit_is_checked_by_finding_it(
    text: str, made: list[tuple[str, dict[str, Any]]]
) -> None:
    assert await writes(text) == made, text


async def test_a_visit_not_found_at_that_part_of_the_day_is_said_so() -> None:
    turn = await play("cancel the haircut if it's before noon")
    assert (turn.final or turn.answer).startswith("I don't see a haircut in the morning")


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("delete the insurance task if it's due next week", "delete"),
        ("mark the groceries done if it's due tomorrow", "mark"),
    ],
)
async def test_a_condition_on_a_task_is_asked(text: str, verb: str) -> None:
    turn = await play(text)
    assert await writes(text) == [] and turn.tools == ["crm.listTasks"], text
    assert "Would you like me to" in turn.answer and "couldn't find" not in turn.answer


async def test_a_visit_named_by_its_day_and_put_right_is_the_last_one() -> None:
    made = await writes("cancel the one on friday, actually no, cancel the monday one")
    assert made == [(CANCEL, {"appointment_id": "appt_1"})]


@pytest.mark.parametrize(
    "text",
    ["show me everything due this week", "add a task to call the bank and show me everything due"],
)
async def test_everything_due_reads_what_is_due(text: str) -> None:
    turn = await play(text)
    assert [t for t in turn.tools if t.split(".")[1].startswith(("list", "get"))] == [
        "crm.listTasks"
    ], turn.tools


@pytest.mark.parametrize(
    ("text", "said"),
    [("I can't make friday anymore", "haircut"), ("i can't make it on monday", "cleaning")],
)
async def test_a_day_that_cannot_be_made_reads_its_visit(text: str, said: str) -> None:
    turn = await play(text)
    assert turn.tools == [LIST] and turn.held is None, (text, turn.tools)
    assert said in turn.answer and "services" not in turn.answer, turn.answer
