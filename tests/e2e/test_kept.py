"""What the customer says to keep, beside what to change, through the websocket and the
real CRM stub (tests/data/conversations_kept.jsonl).

Found by probing: "cancel my haircut, but keep the cleaning" asked "Are you sure you want
to cancel your haircut … and your dental cleaning …?" (A YES WOULD HAVE CANCELLED THE ONE
TO KEEP); "cancel the haircut but keep the cleaning" answered "I don't see an upcoming
haircut on your account", then named it ("but keep the cleaning" read as more of its
name); "delete the groceries task but keep the insurance one" found no such task.

FIRST RUN of the 10 sessions (the probed sentences and six more in words not tried), on
the code as it was: 3 of 10 passed (5 of 18 turns; two sessions expected one call where
two were fairly made, corrected). WRONG WRITES: "cancel my haircut, but keep the
cleaning" then "yes please" CANCELLED BOTH; "mark everything on my list as done but keep
the eye exam one open" completed the eye exam too; "keep the cleaning, cancel the other
one" asked to cancel the cleaning; "cancel all my appointments but keep the cleaning"
asked to cancel only the cleaning, the opposite. Misses: "the haircut but keep the
cleaning" read as one name; "delete all my tasks but leave the groceries one" found no
task "but leave groceries".

After the first fixes, the session added last ("keep the cleaning, move the other one to
friday at 4") was written from a probe and failed once: it MOVED THE CLEANING ("the
other one" was named by the thing said before it). Now "but keep/leave <the thing>" is a
clause of its own that asks nothing (language/clause.py NEGATED, language/intents.py
_JOINER), and after "all", "every", "everything", "both" or "my appointments/tasks" it
is what is left out of them ("…except the cleaning", language/targets.py EXCEPT); "the
other one" said beside a thing kept is any other than it (which is asked when more than
one is left). All 11 pass; `bench.decisions --dump` gives the same 3,854 decisions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

KEPT: Path = DATA / "conversations_kept.jsonl"


async def test_what_is_kept_is_never_changed_nor_asked_about(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: the thing said to keep is in no question and no write."""
    assert len(read_cases(KEPT)) == 11
    share, failed = await score(make_assistant, crm_admin, KEPT, capsys)
    assert share == 1.0, failed
