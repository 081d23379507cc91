"""The cases the nineteenth session left open, played through the websocket and the real CRM stub.

tests/data/conversations_leftopen11.jsonl: for each of ten kinds the case as it was
reported (ids lo11a-), then two sessions in other words (ids lo11b-), written before the
rules they exercise were read: a bare "cancel" or "move it" after "Would you like me to
cancel it, or move it to another day?"; what's due read and "the first one" marked done in
one message; a to-do for "after my haircut"; "add it to my list again" after a done to-do
could not be reopened; to-dos told done by their place in a list never read; a to-do's day
counted from a visit's day said the turn before; "the call" put on a day counted from one
said; a to-do's day and level said in two sentences; "move the one I have instead" after a
second booking of a service; a to-do's due day put back or forward by days.

Ten kinds, as decided: (1) "cancel" and "move it" alone answer the question as "cancel it"
and "reschedule it" do (the visit by its service and day, so that "friday at 10" a turn
later completes the move); (2) "the first one" counts in the list the same message reads
out; (3) a to-do "after my haircut" is due on the haircut's day; (4) "add it to my list
again" adds the to-do the limit was told of, by its title; (5) a place in a list the
conversation never read out is never written by: the list is read, the ones at those places
named, and only a yes marks them ("…Would you like me to mark Buy groceries and Schedule eye
exam as done?"); the CRM's order is not one the customer heard; (6, 7) a to-do named after a
visit's day was told ("the eye exam the day after that", "put the call on the day before
that") is due on the day counted from that visit, the visit left where it is; (8) a day and
a level said in two sentences are both set; (9) "move the one I have instead" cancels the
visit just booked and moves the one had before into its time, both under one question; (10)
"put groceries back a day", "move groceries a day earlier" shift the due day.

FIRST RUN, on the code as it was: 3/34 sessions (21/62 turns). WRONG WRITES: "mark the first
and third tasks done", no list heard, COMPLETED BUY GROCERIES AND SCHEDULE EYE EXAM (counted in
the CRM's order; two sessions); "The second task on my list is done." COMPLETED RENEW CAR
INSURANCE; "when is my haircut?" → "put the call on the day before that" MOVED THE HAIRCUT TO
SATURDAY; "when is my cleaning" → "move the pharmacy call to the day after that" MOVED THE
DENTAL CLEANING TO THURSDAY; "reopen the call the pharmacy task" → "then just put it back on
the list" ADDED A TASK "Just". A garbled title: "remind me to pick up the dry cleaning after
my haircut" added "Pick up the dry cleaning after my haircut" with no day. Misses: "cancel",
"just cancel", "Cancel, please.", "move it", "Move it, please." after the question were not
understood ("wednesday is out for me now", "Turns out I can't do Wednesday." were not read
as a day let go); "what's due this week and mark the first one done" (and two more) asked
which; "the eye exam the day after that" (and two more) read the visits again; "ok add it to
my list again" asked what the task should say, "Fine, add it as a new one then." (after
"Can you undo the pharmacy task being marked done?", which listed the done to-dos) was "I
can't help with that"; "move the eye exam to January 20. And make it high priority" set the
day and asked which visit to move, "set the groceries for january 18. also make it high
priority" was not understood; "no, move the one I have instead" asked when; "put groceries
back a day", "Can you move groceries a day earlier?" were not understood and "push the
insurance renewal back two days" looked for a visit ("two" kept as a word of the name).
One check of mine was unfair and put right after the first run: "pick up the dry cleaning"
holds the word "cleaning" (the title check now leaves out the words of the to-do itself).

Found on the way, a wrong write: "when is my haircut?" → "put the groceries on the day
before that" MOVED THE HAIRCUT too (same cause as the call). After: 34/34.
`bench.decisions --dump` (3,855 decisions): two changed, both from a write to a question —
"complete the second task" and "complete the first and the third" with no list heard (the
empty dialogue) completed task_2, and task_1 and task_3, by the CRM's order; now they read
the list and ask. Changed in other sets by the same decision: heldout12's "mark the second
task on my list done" and leftopen9's "mark the last two tasks on my list done", "the last 2
things on my to do list are finished" now ask first (a yes marks them).
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

LEFT_OPEN: Path = DATA / "conversations_leftopen11.jsonl"
# Does less than asked; writes nothing that was not asked.
KNOWN_OPEN: list[str] = []
# Played in two halves side by side (every other session), to keep each test short.
_HALVES = 2


@pytest.mark.parametrize("half", range(_HALVES))
async def test_the_eleventh_cases_left_open_are_answered_as_asked(
    half: int, make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any, tmp_path: Path
) -> None:
    """Each case: what was said is done, nothing near is done instead."""
    cases = read_cases(LEFT_OPEN)
    assert len(cases) == 34
    mine = tmp_path / LEFT_OPEN.name
    mine.write_text("".join(json.dumps(case) + "\n" for case in cases[half::_HALVES]))
    _, failed = await score(make_assistant, crm_admin, mine, capsys)
    assert failed == [case["id"] for case in cases[half::_HALVES] if case["id"] in KNOWN_OPEN]
