"""Long conversations that lean on turns two to five back, nobody tuned for.

Through the websocket and the real CRM stub.

tests/data/conversations_thread2.jsonl (21 sessions, 151 turns, 6-9 turns each, and 7 more
written later, 43 turns) was
written from crm_stub/seed.py alone, before the language rules were read. What is said
leans on turns two to five back: a thing named early and referred to after another topic
("can you move that appointment to saturday" after the balance and a new to-do, "and the
other one, where's that?", "the one on thursday", "the first one you mentioned", "the same
for the haircut", "do that for the insurance task too", "and the other booking"); a
correction of an earlier turn's write ("actually the massage I booked, make it 5 not 4",
"undo the last thing" after a question, "no, I meant the earlier one", "the task I just
added should say …" after two questions); a question left waiting while another topic is
taken up ("ok yes go ahead with the cancel", "ok, 11am for the haircut" after two
questions, two questions answered out of order); a topic resumed after small talk; a list
read back and an item picked by position or attribute three turns later; and questions
about the conversation itself ("what did I book today?", "what did you change so far?",
"did I ask you to cancel anything?"). Every turn checks the whole CRM: both seeded visits,
how many of each service are booked, the four seeded tasks and the new ones.

FIRST RUN, on the code as it was: 6/21 sessions (102/150 turns), with 5 WRONG WRITES:
- "and the one with no due date, give it a due date of friday", after the second task of
  the list was completed, set the COMPLETED car insurance task due Friday; the eye exam
  task (the one with no due date) was meant.
- "the one on thursday, can you make it 1pm instead?", after booking a consultation on
  Thursday, physical therapy on Friday and asking the balance, moved the PHYSICAL THERAPY
  to Thursday at 1pm.
- "ok, the first one you mentioned, move it to thursday same time", after the visits were
  listed, the balance asked and a task added, set the GROCERIES task due Thursday; the
  dental cleaning (the first visit mentioned) was meant.
- "and the other booking, push it a day", after booking a checkup and an eye exam and
  moving the checkup, moved the CHECKUP again.
- "make the car insurance task due friday too", after adding "Bring my insurance card on
  friday", set that new task due Friday again (the car insurance task stayed on the 21st).

Wrong words: "what did I book today?" was read as a booking ("What would you like to
book?"); "did I ask you to cancel anything?" was read as a cancel ("Which appointment
should I cancel…?"); "what did I just move?" after a move and a new task answered "It's on
your list as Get cash for the tip"; "it's been a crazy week honestly", "how's your day
going?", "what did I ask you to do so far?" and "no, I meant the earlier one" met "I can't
help with that"; "undo the last thing" after a question met "I didn't catch…".

Misses: "thursday at 3pm for the exam", said while a haircut's cancel waited and the exam's
day was asked, let the cancel go and booked nothing; "ok, 11am for the haircut" after two
questions read out the haircut already booked; "and the other one, where's that?" read out
both visits; "ok, and the same for the haircut" after a move and a question listed the
visits; "actually make the haircut 4 not 2:30" and "oh, the task I just added should say
buy printer paper, not ink" (after other turns) listed instead of changing; "make the
glasses task due the day of the eye exam" listed the tasks.

Fixed (general rules, see CHANGELOG):
- A message that describes its own item ("the one with no due date", "the one on
  thursday", "the car insurance task", "the landlord one") is read as it stands when that
  description fits another item the conversation knows and not the one the conversation
  offers (in view, last changed): models/embedded/described.py.
- "The first one you mentioned, move it to thursday same time": a time said is of a visit,
  so it counts in the visits heard, not a to-do listing (references.py).
- "And the other booking": the other of the two booked in the conversation (pinning.py).
- "What did I just move?", "what did I book today?", "did I ask you to cancel anything?",
  "what did I cancel?", "what did I ask you to do so far?": told from the changes of the
  kind named (last_write.py, language/scope.py).
- "It's been a crazy week honestly" is a remark, "how's your day going?" asks how we are
  (language/smalltalk.py). "Undo the last thing" undoes the last change.
- "And the same for the haircut" after a move to another day at the same hour moves it to
  that day at its own hour (same_again.py).
- A correction naming the visit ("actually make the haircut 4 not 2:30", "the physio I
  booked should be 11 not 10") corrects that visit a turn or more after another change;
  "the task I just added should say …" renames it; "no, I meant the earlier one" gives the
  change to the task added before (its due date; the CRM takes none off the other one)
  (corrections.py).
- A time for a booking asked before two questions of the customer's own ("ok, 11am for the
  haircut"), or before a yes asked for since ("thursday at 3pm for the exam") completes
  that booking (followup.py).
- "…due the day of the eye exam" is counted from that visit (anchored.py); not when a move
  comes before it in the same message. "And the other one, where's that?" asks where the
  other one is (language/as_meant.py); "where is the friday one?" says where.

Two checks were corrected, saying why: "no, I meant the earlier one" cannot take the wrong
due date off the other task (the CRM's update has no way to clear one), so that task's day
is no longer checked; "and yes, cancel the haircut", after a booking was written since the
cancel was asked, may ask again (the thread set's rule: a confirmation moved on from is
asked again when something was written since), so a "yes" turn follows it. Now 21/21.

Kept phrasings read the same (`bench.decisions --dump` before and after, and again after
merging main): two decisions changed, both meant: "how's your day going" (with an empty
and with a full dialogue) is answered "I'm doing well…" instead of "I can't help with
that".

Seven sessions (ids th2b-, 43 turns) were then written after those fixes and not tuned on.
FIRST RUN: 1/7 sessions (31/43 turns), with 1 WRONG WRITE:
- "and the landlord one, make it due friday", after the dentist was asked about and moved,
  MOVED THE DENTIST to Friday; the landlord task was meant.
Misses: "what did I cancel?" met "I can't help with that"; "hmm, the physio I booked should
be 11 not 10" listed the visits; "and when's the eye exam one due?" looked for an eye exam
visit; "actually what's it due?" while a delete waited let it go unanswered; "alright, 1pm
for the haircut then" after two questions (to "I need a haircut on friday") booked nothing.

Fixed: a description of the other kind (a task while a visit is in view) is read as it
stands too; "what did I cancel?" is told from the conversation; a visit said by another of
its names ("the physio") and "should be 11 not 10" is a correction of it; "the X one due"
asks of a task; the visit named again with the time of a booking asked ("ok, 1pm for the
haircut") is the one asked about ("I need a haircut on friday … the haircut" was read as a
question about the haircut booked). Now 27/28 (KNOWN_OPEN says what is left: a question
left unanswered, no write); 28/28 since the twenty-fifth unseen set ("actually what's it
due?" while the delete waits is answered, the delete let go as before).

Played said at once (test_said_at_once.py), the set showed one more WRONG WRITE, now
fixed: "and the other booking, push it a day. Make the glasses task due the day of the eye
exam" made the task due the day the eye exam LEFT. A day is not counted from a visit the
same message moves first; the due day is then not set (open there, no write). The older
sets caught a reading too wide, fixed before merging: "actually cancel the haircut" with
two haircuts booked cancelled the new one (a visit named as "it" in a correction is so only
when an hour is said and no other of its service is known).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

THREAD2: Path = DATA / "conversations_thread2.jsonl"

# ("actually what's it due?" while the car insurance task's delete waits for its yes was
# left unanswered; it is answered since the twenty-fifth unseen set: "what's it due" asks
# the due day of the to-do in focus.)
KNOWN_OPEN: list[str] = []


async def test_the_thread_is_kept_over_long_conversations(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session but the known open passes: what is said leans on turns well back,
    and nothing is written unasked, twice or wrong."""
    assert len(read_cases(THREAD2)) == 28
    _, failed = await score(make_assistant, crm_admin, THREAD2, capsys)
    assert failed == KNOWN_OPEN
