"""Conversations nobody tuned for: an eighteenth set, longer, wandering and coming back,
writing nothing not asked.

Through the websocket and the real CRM stub.

tests/data/conversations_unseen18.jsonl (26 sessions, 120 turns, 4-6 turns each) was written
before the rules were read: a topic left and come back to ("back to the bill, when's it
due?", "and the other thing I asked about, where is that?", "back to the list, push the
insurance one to the 25th"), a change asked about turns later ("wait, did you actually move
it?", "what time did you put it at?", "ok undo that", "actually undo that booking" after a
question), the assistant's question answered in part or a turn late ("the one this week",
"the earlier one"; "ok 3pm for the consultation" after asking about the cleaning; "tuesday
then"), several changes to one item over turns ("move the groceries to friday", "actually
make it saturday", "and add a note to it…"; a haircut moved, then 4, then 4:30 after a
question; two visits changed in turns), another voice and the assistant corrected ("my
husband says my cleaning is on thursday, is it?", "my daughter says you moved my haircut",
"you said my cleaning was at 11, right?", "no, put it back to low"), and the ends of a
conversation ("that's all thanks", "bye", "nothing else", "actually that's all thanks" while
a delete waits), which write nothing. Every turn checks every service's visits ahead and
cancelled, their times, every task's status, day and priority, the tasks added, the cases
opened, every invoice, the phone and the email.

FIRST RUN, on the code as it was: 11/26 sessions (92/120 turns). THREE WRONG WRITES:
"actually the cleaning at 9 instead" (the cleaning moved to friday, then the haircut to
saturday) put the haircut back on sunday and the cleaning at the haircut's saturday 2:30,
the 9 unread; "back to the list, push the insurance one to the 25th" just after "when is my
cleaning?" moved the cleaning to the 25th; "the day after that then", after "book me a
haircut at 10am" and "what day is my cleaning?", moved the cleaning to thursday. One check
was put right by the house's rule: "book me a haircut at 10am" with no day books the next
10am (tomorrow), as every set has it; the set had asked for a question there.
Misses: "and the other thing I asked about, where is that?", "the one this week" to "which
appointment should I cancel?", "fine, leave that one where it is", "ok good, leave it where it
is", "wait, so it's at 11 now, not 10?", "and it's still at 2?", "same time as before,
right?", "wait, which one did you tick off?", "and the insurance one is still open?" met "I
can't help with that"; "actually undo that booking" a question after it listed the visits;
"and add a note to it saying get milk and eggs" was told a booking holds no note; "what day
did you put it on?" after a reminder left the day out; "is it still high priority?" listed
every high one and lost the one in view, so "no, put it back to low" changed nothing.

Fixed (general rules, see CHANGELOG): a visit named in a correction that was itself moved
earlier, said with a time of its own, is its own change said again; a message naming a
listed to-do and no visit never moves the visit in view; a day said alone a turn or two after
another visit was booked or moved asks which visit; the rest above are read. 25/26 (118/120
turns); KNOWN_OPEN writes nothing.

Six sessions (ids u18b-, 26 turns) were then written after those fixes and not tuned on.
FIRST RUN: 3/6 sessions (21/26 turns), NO WRONG WRITE: "ok going back to the insurance, make
it due friday" looked for a to-do matching "back insurance"; "so it's on thursday at 4?" (a
physio just booked) and "what else is left?" (after the groceries were ticked off) met "I
can't help with that". Fixed: "(going) back to X, …" names X; a visit checked back by its day
and hour; "what else is left?" is the to-do list. 31/32 (144/146 turns).

Found on the way (the decisions dump over every written conversation): a correction naming
another visit with a day of its own ("the dental cleaning, can it be thursday instead, same
time please" just after the haircut was moved) put the haircut back and gave the cleaning
the haircut's slot; it is read alone now, and a correction that re-aims a move ("actually
the cleaning at 9 instead", the cleaning not moved before) keeps the hour it says.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN18: Path = DATA / "conversations_unseen18.jsonl"

KNOWN_OPEN: list[str] = [
    # "the day after that then", after "book me a haircut at 10am" (booked tomorrow) and
    # "what day is my cleaning?": which visit to move is asked (it had moved the cleaning);
    # nothing is written, and the answer to the question is not yet read with that day
    "u18-haircut-day-asked-answered-by-cleaning",
]


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the eighteenth unseen set passes: nothing is written unasked, on a
    wrong day, lost or doubled."""
    assert len(read_cases(UNSEEN18)) == 32
    _, failed = await score(make_assistant, crm_admin, UNSEEN18, capsys)
    assert failed == KNOWN_OPEN
