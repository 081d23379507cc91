"""The cases the last sessions left open, played through the websocket and the real CRM stub.

tests/data/conversations_leftopen15.jsonl: sessions written before the rules they exercise
were read (first run recorded below), each of a kind an earlier session left open.

(lo15a-) A day said relative to one just told ("when's the car insurance due" → "set the
eye exam task for the day before that"; "when is my haircut" → "move my cleaning to the day
before that at 10am"; "… two days after that", "the day after that", "that day too"): the
kind of unseen16's "put the call on the day before that", unseen18's "the day after that
then" and unseen23's "make it due the day before" (FAILS_AS_WRITTEN).

FIRST RUN of lo15a (on 2fca569): 4/5 (9/10 turns), no wrong write: "make the car
insurance due two days after that" was "I didn't catch what you meant".
(lo15b-) Five more, written after that run and before any fix for them: two to-dos sharing
a word ("email the insurance broker" added, then "when's the car insurance renewal due",
"set the broker one for the day after that"), "when do the groceries need doing" → "make it
due the day after" ("that" left unsaid), "three days before that", "a week after that" and
"the day after that at 4pm then" answering a booking's question. FIRST RUN (41839c6): 1/5;
no wrong write. One check of mine put right first: "book me a massage at 4pm" booked today
at 4 PM (a time today is booked, the house's way); it became "book me a massage".

Fixed: a to-do asked after by name is in focus though another title shares one of its
words ("insurance": dialogue._named); "N days / a week / two weeks after that" and "the
day before" said last of "it" count from the day just told (task_anchored._THAT_DAY); "when
do the groceries need doing" asks its due day (as_meant._NEEDS_DOING). A "the day before"
with no "that" in "remind me to pay it the day before" counted from the visit in focus at
first (a WRONG WRITE caught by unseen16 before commit): only "make/move/put it…" take it.
After: 10/10 (22/22 turns); unseen16's "put the call on the day before that" and
unseen23's "make it due the day before" pass as written (out of FAILS_AS_WRITTEN).

(lo15c-) Six sessions written after every fix above, of the same kinds ("ugh i wish i
hadn't ticked off…" then "what i'd like is for you to cross off…", "move the salon one to
saturday at 11am", "push it to two days after that", "when did i last get a haircut and
when's my next one?", "all i need is for you to cancel the dentist one" and its yes, "cancel
my thing at the spa" with none there): FIRST RUN 6/6 (10/10 turns). The set: 16/16.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

LEFT_OPEN: Path = DATA / "conversations_leftopen15.jsonl"
KNOWN_OPEN: list[str] = []


async def test_the_fifteenth_cases_left_open_are_answered_as_asked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Each case: what was said is done, nothing near is done instead."""
    cases = read_cases(LEFT_OPEN)
    assert len(cases) == 16
    _, failed = await score(make_assistant, crm_admin, LEFT_OPEN, capsys)
    assert failed == KNOWN_OPEN
