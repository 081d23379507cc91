"""The cases the seventeenth session left open, played through the websocket and the real CRM stub.

tests/data/conversations_leftopen9.jsonl (ids lo9a-), two to four sessions for each kind, in
words other than those the cases were reported in (one in those words), several said as
speech-to-text writes them: a yes to a cancel's question with a move instead ("yes but make
it next sunday instead"); a day and an hour put right in one breath ("…2:30 on saturday, no,
sunday is fine, just make it 3"); asked to text or email what is read; a visit named by the
one before it; the last tasks of the list; a bill by its amount; a visit some hours after,
just before, or the same day right after another; a to-do named as a booking; a yes naming
a cancel a turn after its question was left for another; a replacement whose new time
clashes with another visit; where a visit is.

FIRST RUN, on the code as it was: 8/34 sessions (17/43 turns). WRONG WRITES: "move my
cleaning to thursday at 9 no friday actually make it 10" MOVED THE CLEANING TO THURSDAY AT
9 AM; "Can you move the haircut to Sunday at noon? Wait, Monday works better, at 1 please."
MOVED IT TO SUNDAY AT NOON; "move my haircut to 2:30 on saturday, no, sunday is fine, just
make it 3" re-wrote the haircut at its own Sunday 2:30, "make it 3" lost. "Can I get a
massage an hour after my haircut?" answered "All done." with nothing done. Held, not
written: "yes but make it next sunday instead" to "cancel your haircut?" (the haircut on
this Sunday) and "Sure, but put it on Monday at 4 instead." asked which visit, the second
which to CANCEL; "ok yes cancel the haircut", "Right, yes, go ahead and cancel the
cleaning." a turn after the question was left asked it again; a replacement at a time
another visit holds ("cancel the cleaning and book a checkup in its place at 3 on
wednesday", a facial booked at 3) asked without the clash. Misses: "can you text me my
appointments", "email me my bill", "send my to-do list to my phone", "shoot me a text…"
read them out without saying it cannot send; "mark the last two tasks on my list done",
"the bottom two are finished" looked for a task called "two"; "which invoice was the 45
dollars for", "the $95 charge" gave the open balance; "When's the appointment after my
cleaning?" told the cleaning; "two hours after my cleaning" said "I can't work out a day
from another appointment yet"; "right before my haircut", "the same day as my cleaning,
right after it", "on the day of my haircut straight after it" asked "What time on Sunday
works for you?" (neither the service nor the haircut's hour said); "book in the car
insurance for friday" asked what to book. Five checks of mine had the seeded haircut on
Saturday (it is on Sunday) and were corrected after the first run; the score is the same.

Fixed as rules for their kinds (see CHANGELOG): a day and an hour put right one after the
other keep the last said of each, a bare "no" before a day said over another
(language/put_right.py); a turn that only looked something up never says "All done."
(narrator.py); "make it next sunday" of a visit on this Sunday is the one after, "put it
on …" after a cancel's question moves the visit asked about (pinning.py, corrections.py);
asked to send what it reads, the answer says plainly it cannot, then tells it
(narrator.py); tasks counted from one end of the list are each the task at its place
(intents.py, targets.py); a bill named by its amount reads every invoice and tells that one
(questions.py, billing.py); "the appointment after my cleaning" is the next by time
(questions.py, answers.py); "right before my haircut" asks the hour before the haircut's
own, naming the service, and the same day "right after it" is when that visit ends
(anchored.py, replies.py); "book in the car insurance for friday" is a move of the thing
named: the to-do is due then (mixed_verbs.py); a yes naming the action and the thing a
question was asked of, the turn after it was left, takes it up (engine.py); a
replacement's question says the visit its new time overlaps (guard.py, integrity.py).
Every kept phrasing (bench.decisions --dump, 3,855 decisions) decides as before: the dumps
before the first rule change and after do not differ (one that did, "make it due next
friday" with a haircut on that Friday in view, moved the haircut a week: a due day now
never moves a visit, pinning.py). After: 32/34; KNOWN_OPEN says what is left.

Then thirteen sessions (ids lo9b-, 16 turns) were written in new words for the same kinds,
not tuned on. FIRST RUN: 11/13 sessions (14/16 turns). WRONG WRITE: "Move the haircut to
Saturday at 1, actually no, Monday, make it 11." MOVED THE HAIRCUT TO MONDAY AT 11 PM (an
hour put right kept in the afternoon's half of the day; now one that would fall at 9 PM or
later after an afternoon hour is read as a bare hour is). "the last 2 things on my to do
list are finished" looked for a task called "do" ("to do list" said with a space). Both
fixed: 13/13.

Since the eleventh left-open set (tests/e2e/test_leftopen11.py): "mark the last two tasks
on my list done" and "the last 2 things on my to do list are finished", no list heard in
the conversation, read the list and ask ("…Would you like me to mark Renew car insurance
and Schedule eye exam as done?"), and a yes marks them: places counted in the CRM's order,
which the customer never heard, are a write by an order no one said.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

LEFT_OPEN: Path = DATA / "conversations_leftopen9.jsonl"
# Does less than asked; writes nothing that was not asked.
KNOWN_OPEN: list[str] = [
    # (both left open here, "a facial two hours after my cleaning" and "a massage an hour
    # after my haircut", are asked with the hour the visit's end gives since
    # tests/e2e/test_leftopen10.py: the booking waits for a yes)
]
# Played in three parts side by side (every third session), to keep each test short.
_HALVES = 3


@pytest.mark.parametrize("half", range(_HALVES))
async def test_the_ninth_cases_left_open_are_answered_as_asked(
    half: int, make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any, tmp_path: Path
) -> None:
    """Each case: what was said is done, nothing near is done instead."""
    cases = read_cases(LEFT_OPEN)
    assert len(cases) == 47
    mine = tmp_path / LEFT_OPEN.name
    mine.write_text("".join(json.dumps(case) + "\n" for case in cases[half::_HALVES]))
    _, failed = await score(make_assistant, crm_admin, mine, capsys)
    assert failed == [case["id"] for case in cases[half::_HALVES] if case["id"] in KNOWN_OPEN]
