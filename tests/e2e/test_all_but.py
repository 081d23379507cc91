"""All but one, said with "but", "besides", "each", or two left out with "and"
(tests/data/conversations_all_but.jsonl).

Found by probing ("mark all my tasks done except the insurance one" was right; "but" was
not). FIRST RUN, on the code before: 1 of 14 (the control "mark the groceries task done
but leave the rest"; 6 sessions were probes, 8 written after them before any rule was
read). WRONG WRITES: "mark all done but the eye exam one", "mark all my tasks done but the
insurance one", "ok so tick everything off but the groceries", "mark all my tasks as done
but the groceries and the eye exam" MARKED THE ONE KEPT DONE too (every task); "delete all
my tasks but the eye exam" asked "Are you sure you want to delete the task 'Schedule eye
exam'?" (the one kept, alone: a yes deleted it); "mark all my tasks as done except the
groceries and the eye exam" MARKED THE EYE EXAM DONE (the "and" split off a second ask);
"mark all my tasks done and add a task to call mom" ADDED "Call mom" AND MARKED IT DONE,
then said "That was your last pending task". "delete every task…", "complete each task"
were told "I couldn't find a task matching "every"".

Now "but" after "all", "every", "everything" or "my tasks/appointments" leaves out what
follows as "except" does (intents._ALL_BUT_KEPT); several left out stay together
(intents._left_out_together, targets.EXCEPT_JOINER, each resolved apart:
resolve._left_in) unless the piece after "and" asks something; "every", "each" say
nothing of which; "all" never takes in a task added in the same message, and the count
left says it. `bench.decisions --dump`: the same decisions.

Met probing after: "mark the groceries done and delete the laundry task" said "Your pending
tasks are Buy groceries, …" just after marking it done (the list read before it); the
to-dos offered are now those this turn left pending (replies._still_pending). And "cancel
all except the haircut and the cleaning", with only those two booked, was told "I don't see
an upcoming haircut on your account" (first run failed); now that none is left.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

ALL_BUT: Path = DATA / "conversations_all_but.jsonl"


async def test_all_but_one_leaves_that_one(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: what is left out is never changed or asked about, and
    nothing else is left out."""
    assert len(read_cases(ALL_BUT)) == 16
    share, failed = await score(make_assistant, crm_admin, ALL_BUT, capsys)
    assert share == 1.0, failed
