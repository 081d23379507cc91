"""Long conversations that lean on turns two to five back, nobody tuned for.

Through the websocket and the real CRM stub.

tests/data/conversations_thread2.jsonl (21 sessions, 150 turns, 6-8 turns each) was
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
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

THREAD2: Path = DATA / "conversations_thread2.jsonl"

KNOWN_OPEN: list[str] = []


async def test_the_thread_is_kept_over_long_conversations(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session but the known open passes: what is said leans on turns well back,
    and nothing is written unasked, twice or wrong."""
    assert len(read_cases(THREAD2)) == 21
    _, failed = await score(make_assistant, crm_admin, THREAD2, capsys)
    assert failed == KNOWN_OPEN
