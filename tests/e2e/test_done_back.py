"""A done to-do asked back, and a change said beside what the assistant cannot do
(tests/data/conversations_done_back.jsonl).

Found by probing: "put call the pharmacy back on my list" (Call the pharmacy is done)
added a task titled "Call the pharmacy back"; "mark the pharmacy one as not done" is
answered "just ask me to add it to your list again", and "ok add it to my list again" then
asked what the task should say; "the haircut on sunday, make it an hour earlier and add a
note that I want a trim only" said only that notes can't be added, and the move was lost.
The seventeen sessions were written before the rules were read. FIRST RUN: 3 of 17
sessions (5/20 turns), with WRONG WRITES: to-dos titled "Call the pharmacy back", "Call
the pharmacy again", "It back" ("I need to call the pharmacy again, can you put it back on
my tasks") and "Buy groceries back" (a second groceries task beside the pending one); "could
you put 'call the pharmacy' back as high priority" made the done task high priority
instead of adding it back. LOST CHANGES: a move, a to-do done and a phone number said
beside a note, a text or an opt-out the assistant cannot do were dropped for the limit
alone. Misses: "add 'call the pharmacy' again", "re-add the pharmacy task", "bring back
the pharmacy task please", "add the pharmacy one back" were not understood.

Fixed as rules: a to-do asked for again is said as its add (language/added_back.py: "put X
back on my list", "add X again/back", "put 'X' back", "re-add X", "bring back X"; "back" and
"again" are no words of the title, and a title still pending is asked about as any
duplicate); a done to-do named by some of its words ("re-add the pharmacy task", "add the
pharmacy one back") is looked up and added again under its title (task_rules.py
`added_again`, an add_task with a target, resolved as a to-do's change is); "add 'X'" adds
a to-do titled X (task_rules.py); "I need to X again, put it on
my list" is titled X (indirect.py). A change said before what no tool does is made as if
said alone, and the limit is told beside it, without a case offered (limits.py
`change_beside`, read alike by the planner and the narrator's scene); "tell them / let them
know that…" is a note passed on. One check of mine was too strict: "put buy groceries
back on my list" asks whether to add it again (DESIGN.md: a duplicate to-do is asked
about), so it may wait for a yes. `bench.decisions --dump`: no decision changed. Now 16 of
17; KNOWN_OPEN says what is left (nothing written wrongly). 17 of 17 since the eleventh
left-open set (tests/e2e/test_leftopen11.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

DONE_BACK: Path = DATA / "conversations_done_back.jsonl"

KNOWN_OPEN: list[str] = [
    # ("ok add it to my list again" after "mark the pharmacy one as not done" met the limit
    # adds the pharmacy to-do again since the eleventh left-open set: added_again.py)
]


async def test_a_done_todo_asked_back_and_changes_beside_a_limit(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session adds back the to-do asked for (or makes the change said beside what
    can't be done), and nothing else."""
    assert len(read_cases(DONE_BACK)) == 17
    _, failed = await score(make_assistant, crm_admin, DONE_BACK, capsys)
    assert failed == KNOWN_OPEN
