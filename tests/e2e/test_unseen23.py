"""Conversations nobody tuned for: a twenty-third set, things named in other words.

Through the websocket and the real CRM stub.

tests/data/conversations_unseen23.jsonl (25 sessions, 110 turns, 3-5 turns each), written
before the rules were read: a visit named by what it is for, where it is or who sees you
("my teeth thing", "the dentist", "the barber", "the one at Studio Nine", "the Valencia
street one", "the 2:30", "the 10 o'clock", "my weekend one"), a to-do by part of its words
or another word for them ("the shopping one", "the car thing", "the insurance renewal",
"the pharmacy call", "the optician one"), money said otherwise ("what's my tab", "how much
is outstanding", "am I in the red", "what's the damage", "did my last payment go
through"), the assistant's own words taken back up ("that one you just said", "the first
thing you mentioned", "the one after it in your list") and a correction of which was meant
("no, the teeth one", "no not that, the car thing", "no wait the first one"). Every turn
checks every service's visits ahead and cancelled, every task, the tasks added, the cases
opened, every invoice, the phone and the email.

FIRST RUN, on the code as it was: 9/25 sessions (66/110 turns). WRONG WRITES:
- "and the 10 o'clock an hour later" after "move the 2:30 to 4" MOVED THE HAIRCUT to 11 AM
  (the hour named read as the new hour of the one just moved), not the cleaning;
- "can you move that one to saturday same time" after "and the one at Studio Nine, when's
  that" (not understood) MOVED THE CLEANING (the one told before);
- "push it to friday" after "and the car thing, when's that due" (answered of the
  groceries) CHANGED THE GROCERIES' DUE DAY (a to-do already marked done);
- "and the shopping one is still tomorrow right" after the dry cleaning's day was changed
  UPDATED THE GROCERIES (to the day it had: a day said back read as the change made again);
- "mark the pharmacy call as done" (done already) sent completeTask again.
Misses: "whens my teeth thing", "and the hair one, where is that", "what's my tab", "and
what time do I see them" met "I can't help with that"; "push my weekend one back a day",
"the first thing you mentioned, that's done", "and the one after it, make it due
saturday", "and the one after it in your list to saturday at noon", "and the 2:30 to friday
as well", "no, the teeth one" (a held cancel re-aimed) and "now tick off the optician one
since it's booked" were not understood; "did my last payment go through" was answered with
the balance; "book me another one two weeks after that" asked when.

Fixed with general rules (see CHANGELOG), wrong writes first. 22/25 (102/110 turns): "did my
last payment go through" is told the latest invoice paid, as "what was my last payment".

Left open, writing nothing wrong (KNOWN_OPEN): a to-do done already is marked done again,
the CRM's row left as it was (not calling lost the "ok then the optician one" that goes on
from it); "book me another one two weeks after that" asks when; "what's the car
thing on my list" reads the list out, its "when is that due" is answered with the bill and
"make it due the day before" is not understood (nothing changed).

Written after the fixes (u23b, 6 sessions, 26 turns), FIRST RUN 4/6 (23/26 turns). WRONG
WRITE: "and the renewal thing is finished, tick it off" just after the groceries were moved
MARKED THE GROCERIES DONE ("it" read as the to-do in view, not the one just named); fixed.
"and the barber is still sunday at 2:30 right" offered to book a haircut at that hour (no
write); now answered as a question. 6/6; the set 28/31 (128/136 turns).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN23: Path = DATA / "conversations_unseen23.jsonl"

# Each writes nothing wrong (see the docstring): a to-do done already is marked done again
# (the CRM's row is left as it was), and "book me another one two weeks after that" asks
# what time on February 3 (nothing written). ("make it due the day before" of the car
# insurance just told is read since leftopen15: u23-car passes.)
KNOWN_OPEN: list[str] = [
    "u23-pharmacy-call-already-done-then-optician-one",
    "u23-hair-appointment-another-two-weeks-after",
]


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the twenty-third unseen set passes: nothing is written unasked, on a
    wrong day, to the wrong visit or to-do, lost or doubled."""
    assert len(read_cases(UNSEEN23)) == 31
    _, failed = await score(make_assistant, crm_admin, UNSEEN23, capsys)
    assert failed == KNOWN_OPEN
