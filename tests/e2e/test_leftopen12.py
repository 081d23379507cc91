"""The cases the last session left open, played through the websocket and the real CRM stub.

tests/data/conversations_leftopen12.jsonl: for nine kinds the case as it was reported (ids
lo12a-), then two sessions in other words (lo12b-), written before the rules they exercise
were read; the tenth kind (a write the CRM did not confirm, asked after once another went
through) is played under CRM faults below, as tests/e2e/test_honest2.py plays them.

As decided: (1) "cancel my wednesday appointment and book a massage in its place", "scrap
the dentist on the 16th and put a facial in that slot", "cancel my sunday haircut id rather
have a massage in that slot" are one replacement, at the cancelled visit's day and time,
both held for one yes; (2) a number someone else calls from is not the customer's: nothing
is changed, and it is said plainly (one number and one email are kept, the customer's own);
(3) more words for a case just opened ("actually also add that I want a call back") are
answered plainly: no tool adds to a case, the team will be in touch, and a new case asking
for a call back can be opened; (4) "book a haircut two hours before my cleaning" is asked
with the hour counted from the cleaning's start ("Your dental cleaning starts at 10 AM, so
two hours before it is 8 AM. Would you like me to book a haircut on Wednesday at 8 AM?");
(5) "remind me to pay it" under a condition on the balance is "Pay the bill", the condition
left out of the title; (6) "move an appointment to the day after that" → "which?" → "the
cleaning" / "the one on sunday" moves it to the day counted from the visit told before the
question; (7) a priority set by a place in a list never heard names the to-do in its
question ("In the order of your list, that's Renew car insurance… Would you like me to make
Renew car insurance high priority?"), and a yes sets it; (8) a title with a full stop ("Call
Dr. Smith") is one title in that question and its yes, and in what the customer says; (9)
see UNCONFIRMED_THEN_ANOTHER; (10) "if the eye exam task has no due date, set it for the
10th" reads the list and changes the to-do only when it has none ("Buy groceries already has
a due date, tomorrow, so I haven't changed it.").

FIRST RUN, on the code as it was: 1/27 sessions (22/57 turns), and 1/3 of the fault
sessions. WRONG WRITES: "cancel my sunday haircut id rather have a massage in that slot"
RESCHEDULED THE HAIRCUT (to its own time: "Your haircut is already on Sunday…"); "can you also
put down that i want a callback", just after a case was opened, ADDED A TASK "I want a
callback"; "Bump the first thing on my list up to high priority." with no list heard SET BUY
GROCERIES HIGH (the CRM's order); after a to-do was added (the list looked up for it, never
read out), "mark the last two tasks done", "tick off the last 2 on my list", "The last two
tasks are finished." each COMPLETED SCHEDULE EYE EXAM AND THE NEW TO-DO (the CRM's order);
garbled titles added on a yes: "Pay it", "Pay the dental cleaning bill off if i still owe
anything". Misses: the replacement asked the massage's time (or read "put a facial in that
slot" as a move of a facial); "my wife will be calling from 415 555 0177, can you add that"
asked "What's the new phone number?"; "actually also add that I want a call back" was
"didn't catch"; "X hours before my cleaning" asked the hour, "an hour after" (said "I'd like
a massage…") asked it with no hour counted; "move an appointment to the day after that"
read the visits out, asked nothing, and the answers were not read ("the one on sunday": "I
can't help with that"), and "Can one of my appointments go to…" read the to-dos too;
"make the second one high priority" asked "Which task do you mean: …?" that a yes does not
answer; the yes to "mark Call Dr. Smith and Schedule eye exam as done" left "mark call dr"
not understood; the conditions on a to-do's due date asked "Would you like me to go ahead
with that?" with nothing named, or said "I can't take a due date off a task"; "did the
cancel go through?" after a task was added since: "Which one should I cancel?"; "did the
move go through?" after the cancel beside it went through: "didn't catch".

Checks of mine put right after the first run: the phone sessions asked the number read back
(a plain "I can only change your own phone number…" is what was asked for); the bookings
counted from a visit asked a write at once (held for a yes with the hour said is as fair,
and "an hour after my dental cleaning" counts from its end, as decided before: noon); the
days were dates (the ways of replaying every set play them on other Mondays). After: 27/27,
3/3. A first version of the gate on lists never heard broke older sets (caught by
test_unseen10, test_unseen8, test_thread2 before any commit): a list heard and looked up
again to change one of it no longer counted as heard ("the second one you listed, push it
to friday" → "and the last one, just delete it" asked to delete THE INSURANCE), and a visit
named by "same time" was counted in the to-dos. The same to-dos looked up again are still
the list heard, and the gate holds only for the to-do list in view.

Eight sessions written after the fixes (lo12c-), and one under faults: first run 7/8
(15/16 turns), the fault session failed. "if the insurance renewal doesn't have a due date,
make it friday" said 'I couldn't find a task matching "insurance renewal without"' (nothing
written; "undated" is now read with the name, and "make it friday" is its due day); "was
the massage booked in the end?" after the booking was not confirmed and the groceries were
marked done since read out every visit, the massage among them, and said no yes: a question
naming the item of a write overtaken so is asked of it. After: 35/35, 4/4.

Found by probing after that (lo12d-, two sessions): WRONG WRITE "cancel my haircut id rather
have a massage on saturday at 2" MOVED THE HAIRCUT to Saturday at 2 (the slot words were
what made it a replacement; "i'd rather have" a service after a cancel now says one); "I
would rather have a facial than my haircut" was "I can't help with that" (now the
replacement, its time asked with the visit's offered). After: 37/37.
`bench.decisions --dump` (3,855 decisions) is the same before and after every change.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.e2e.test_honest2 import (
    APPT,
    APPTS,
    CANCEL_PATH,
    COMPLETE_PATH,
    NO,
    TIMEOUT,
    UNCONFIRMED,
    YES,
    Case,
    Clear,
    Say,
    _fault,
    play,
)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

LEFT_OPEN: Path = DATA / "conversations_leftopen12.jsonl"
# Does less than asked; writes nothing that was not asked.
KNOWN_OPEN: list[str] = []
# Played in two halves side by side (every other session), to keep each test short.
_HALVES = 2

BOOK = "POST /v1/customers/{cid}/appointments"
CANCEL = "POST /v1/customers/{cid}/appointments/{aid}/cancel"
MOVE = "PATCH /v1/customers/{cid}/appointments/{aid}"
ADD = "POST /v1/customers/{cid}/tasks"
COMPLETE = "POST /v1/customers/{cid}/tasks/{tid}/complete"
DELETE = "DELETE /v1/customers/{cid}/tasks/{tid}"


@pytest.mark.parametrize("half", range(_HALVES))
async def test_the_twelfth_cases_left_open_are_answered_as_asked(
    half: int, make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any, tmp_path: Path
) -> None:
    """Each case: what was said is done, nothing near is done instead."""
    cases = read_cases(LEFT_OPEN)
    assert len(cases) == 37
    mine = tmp_path / LEFT_OPEN.name
    mine.write_text("".join(json.dumps(case) + "\n" for case in cases[half::_HALVES]))
    _, failed = await score(make_assistant, crm_admin, mine, capsys)
    assert failed == [case["id"] for case in cases[half::_HALVES] if case["id"] in KNOWN_OPEN]


# (9) A write the CRM did not confirm in time, asked after once another write went through.
UNCONFIRMED_THEN_ANOTHER: list[Case] = [
    Case(
        "lo12a-cancel-unconfirmed-then-task-added-did-the-cancel-go-through",
        [
            Say("cancel my haircut", confirm="crm.cancelAppointment"),
            _fault("POST", CANCEL_PATH, apply_after=True, hang=True, times=1),
            _fault("POST", CANCEL_PATH, hang=True),
            Say("yes", has=[UNCONFIRMED]),
            Say("add a task to call the bank", done=[("bank", "add")]),
            Clear(),
            Say("did the cancel go through?", has=[YES], never=("which one should i cancel",)),
        ],
        writes={CANCEL: 1, ADD: 1},
        crm=[("appt", "Haircut", "0"), ("task", "Call the bank", "pending")],
        settings=TIMEOUT,
    ),
    Case(
        "lo12b-move-unconfirmed-beside-cancel-did-the-move-go-through",
        [
            _fault("PATCH", APPT, hang=True),
            Say("move my haircut to saturday at 11 and cancel my cleaning", confirm="*"),
            Say("yes", done=[("dentist", "cancel")]),
            Clear(),
            Say("did the move go through?", has=[NO], never=("didn't catch",)),
        ],
        writes={CANCEL: 1},
        crm=[("appt", "Haircut", "1"), ("appt", "Dental cleaning", "0")],
        settings=TIMEOUT,
    ),
    Case(
        "lo12b-completion-unconfirmed-then-delete-is-groceries-done",
        [
            _fault("POST", COMPLETE_PATH, apply_after=True, hang=True, times=1),
            _fault("POST", COMPLETE_PATH, hang=True),
            Say("mark groceries done and delete the eye exam", confirm="crm.deleteTask"),
            Say("yes", done=[("eye exam", "delete")]),
            Clear(),
            Say("is the groceries one done?", has=[YES], never=("didn't catch",)),
        ],
        writes={COMPLETE: 1, DELETE: 1},
        crm=[("task", "Buy groceries", "completed"), ("task", "Schedule eye exam", "gone")],
        settings=TIMEOUT,
    ),
]
# Written after the fixes.
UNCONFIRMED_THEN_ANOTHER += [
    Case(
        "lo12c-booking-unconfirmed-then-groceries-done-was-the-massage-booked",
        [
            _fault("POST", APPTS, apply_after=True, hang=True, times=1),
            _fault("POST", APPTS, hang=True),
            Say("book a massage friday at 3", has=[UNCONFIRMED]),
            Clear(),
            Say("mark the groceries done", done=[("groceries", "complete")]),
            Say("was the massage booked in the end?", has=[YES], never=("didn't catch",)),
        ],
        writes={BOOK: 1, COMPLETE: 1},
        crm=[("appt", "Massage", "1"), ("task", "Buy groceries", "completed")],
        settings=TIMEOUT,
    ),
]
KNOWN_OPEN_UNCONFIRMED: list[str] = []


@pytest.mark.parametrize(
    "case", UNCONFIRMED_THEN_ANOTHER, ids=[c.id for c in UNCONFIRMED_THEN_ANOTHER]
)
async def test_an_unconfirmed_write_is_remembered_past_another(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, case: Case
) -> None:
    problems = await play(make_assistant, crm_admin, case)
    if case.id in KNOWN_OPEN_UNCONFIRMED:
        assert problems, f"{case.id} passes now: take it out of KNOWN_OPEN_UNCONFIRMED"
        return
    assert not problems, "\n".join(problems)
