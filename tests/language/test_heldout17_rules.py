"""The kinds of request the seventeenth held-out set found read wrongly (tests/data/
heldout17.jsonl), each in wordings beyond the set's own: a change said aloud as a thought or
asked as advice ("maybe I should…", "do you think I should…"); how to change a detail asked
as "how would I update…"; an errand told with its day, then "put it on my list"; a plan
told with its day, then "remind me"; "the call/request about my invoice" asked after; a
to-do deleted by the name of a visit booked; "I paid already"; an amount put toward the
bill; the number on file named by its last digits as old.

Played in the test world (assistant/fakes/world.py: Saturday, March 1, 2025; a dental
cleaning on Monday 10-11, a haircut on Friday 2:30-3:15; groceries (due tomorrow), car
insurance (due March 8, high) and eye exam (no due date) to-dos; a $150 open invoice)."""

from __future__ import annotations

from typing import Any

import pytest

from assistant.fakes.world import play
from tests.language.played import ADD, CANCEL, writes


@pytest.mark.parametrize(
    "text",
    [
        "perhaps I should delete the groceries",
        "maybe we should cancel the haircut",
        "do you reckon I should move my cleaning to friday",
        "I wonder if I should tick off the insurance task",
    ],
)
async def test_a_change_thought_aloud_or_asked_as_advice_writes_nothing(text: str) -> None:
    assert await writes(text) == [], text


async def test_how_to_change_a_detail_is_told_for_that_detail() -> None:
    turn = await play("how can I update my email")
    assert turn.tools == [] and "new phone number or email" in (turn.final or turn.answer)


@pytest.mark.parametrize(
    ("text", "made"),
    [
        (
            "I have to renew my passport on friday, add it to my list",
            [(ADD, {"title": "Renew my passport", "due_on": "2025-03-07"})],
        ),
        (
            "I'm going to call the bank on monday, remind me",
            [(ADD, {"title": "Call the bank", "due_on": "2025-03-03"})],
        ),
    ],
)
async def test_an_errand_or_plan_told_with_its_day_then_asked_for_is_added(
    text: str, made: list[tuple[str, dict[str, Any]]]
) -> None:
    assert await writes(text) == made, text


@pytest.mark.parametrize(
    "text", ["I'll be late, remind me", "I'll pay it on friday, remind me", "I'll pay the bill"]
)
async def test_a_plan_with_no_day_or_no_thing_named_adds_nothing(text: str) -> None:
    assert await writes(text) == [], text


async def test_the_request_about_a_charge_asked_after_reads_the_cases() -> None:
    turn = await play("any news on my request about the charge")
    assert turn.tools == ["crm.listOpenTickets"]


async def test_a_visit_deleted_by_its_name_is_a_cancel_held() -> None:
    assert await writes("get rid of the cleaning") == [(CANCEL, {"appointment_id": "appt_1"})]


@pytest.mark.parametrize(
    "text", ["remove my massage", "delete the haircut task", "delete the dry cleaning"]
)
async def test_no_visit_or_no_task_named_so_writes_nothing(text: str) -> None:
    assert await writes(text) == [], text


@pytest.mark.parametrize("text", ["I paid yesterday", "I paid already"])
async def test_paid_with_nothing_named_reads_the_bill(text: str) -> None:
    turn = await play(text)
    assert turn.tools == ["crm.getOpenInvoices"] and turn.held is None


@pytest.mark.parametrize("text", ["can you apply 20 dollars to my bill", "put $50 toward it"])
async def test_an_amount_put_toward_the_bill_is_said_not_taken(text: str) -> None:
    turn = await play(text)
    assert turn.tools == [] and "can't take payments" in (turn.final or turn.answer)


async def test_the_number_on_file_named_old_by_its_end_asks_for_the_new_one() -> None:
    turn = await play("the number ending in 0101 is old")
    assert turn.tools == [] and (turn.final or turn.answer) == "Sure. What's the new phone number?"


@pytest.mark.parametrize(
    "text",
    [
        "perhaps we ought to push the haircut to saturday",
        "maybe I should bump the insurance to low",
    ],
)
async def test_advice_asked_of_any_change_verb_writes_nothing(text: str) -> None:
    assert await writes(text) == [], text


async def test_drop_off_is_an_errand_not_a_delete() -> None:
    made = await writes("I've got to drop off the parcel on thursday, stick it on my to-do list")
    assert made == [(ADD, {"title": "Drop off the parcel", "due_on": "2025-03-06"})]


# Known open (each writes nothing wrong; what it says is pinned in its comment):
@pytest.mark.parametrize(
    "text",
    [
        # the visits read, then "Which one should I cancel?" (how to cancel online is not told)
        "can I cancel online?",
        # "I couldn't find a task matching 'send'": which to-do is asked
        "i sent it already",
        # the balance read out; no reminder added ("it" names nothing to title a to-do)
        "I will pay it on the 10th, can you remind me",
        # "I didn't catch what you meant by 'call the pharmacy'" (no call can be made)
        "call the pharmacy for me",
        # "Nothing changes unless you ask me to…" (Wednesday is not looked at)
        "what if I moved the cleaning to wednesday, would that be free?",
        # offered, titled "Pick up dry cleaning add it for wednesday" (asked, not added)
        "I need to pick up dry cleaning on tuesday, add it for wednesday",
    ],
)
async def test_known_open_writes_nothing(text: str) -> None:
    assert await writes(text) == [], text
