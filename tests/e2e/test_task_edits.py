"""Changes to a to-do said as people say them (tests/data/conversations_task_edits.jsonl):
a title narrowed or taken back, a due day and a priority in one breath, a title said
with "so it says" or "call it", a due day counted from another to-do's.

Found by probing ("actually make it just milk" after a rename). The twelve first sessions
were written before the rules were read. FIRST RUN: 5 of 12 sessions (7/15 turns), with
WRONG WRITES: "actually make it just milk" after "Buy milk and bread" renamed it "Buy just
milk and bread"; "bump groceries to friday and make it high" set the priority and LOST the
day (read as one level for two to-dos, "groceries to friday" and "make it"); "push the
insurance one to next monday, and it's not urgent anymore" moved it and LOST the level,
untold. Misses: "… so it says book eye exam for june" asked when to book an eye exam;
"put a note on the groceries task saying get oat milk" said an oat milk is no service;
"call the groceries task weekly shop instead" listed the tasks; "and bump it up to high"
after a change asked which task; "the groceries don't need a due date" answered "I can't
help with that".

Fixed as rules: a day and a level said for one to-do are one change of it
(language/intents.py `_moved_to_a_day`, grammar.py `_level_told`; "bump/shift X to
<day>" moves as "move" does; the "one level for two to-dos" rule no longer reads "X to
friday and make it"); "just/only …" keeps that part of the title
(models/embedded/corrections.py); a title told with "so it says", "should read", "call
the … task …" is the new title and its words are masked as quoted (language/quoted.py,
task_rules.py); "put/stick a note on" is a note; "bump it up to high" after a change is of
that to-do (pinning.py); no due date wanted is told plainly (limits.py). A claim "I
added that note" is backed by the to-do's change (claims.py: a model narrator saying it
was replaced by "nothing changed"). `bench.decisions --dump`: no decision changed.
Five written after the fixes (te-b-), first run 4 of 5: "push groceries to saturday, oh
and it's urgent" moved it and lost the level ("it's urgent" was read as another thing to
move): fixed (grammar.py `_level_told`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

TASK_EDITS: Path = DATA / "conversations_task_edits.jsonl"


async def test_a_todo_changed_as_said_and_nothing_else(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session changes the to-do as said (or asks), and no other."""
    assert len(read_cases(TASK_EDITS)) == 17
    share, failed = await score(make_assistant, crm_admin, TASK_EDITS, capsys)
    assert share == 1.0, failed
