"""What the customer says NOT to do, in the many ways it is said, through the websocket
and the real CRM stub (tests/data/conversations_said_not.jsonl).

Written from probes, before the rules were read. FIRST RUN of the first 14 sessions: 5
passed. WRONG WRITES: "I'd rather you didn't cancel my cleaning", "I'd rather not cancel
the haircut" and "can you not cancel my cleaning please" each asked "Are you sure you want
to cancel…?" and THE YES CANCELLED IT; "could you not move the haircut" asked when, and
"friday at 3" MOVED IT. Wrong words: "don't bother moving the haircut" was told "Sorry, I
can't help with that"; "cancel nothing" asked which to cancel; "cancel the haircut? no
wait, what time is it at" asked to cancel; "delete the task about the eye exam unless
it's already done" told of the completed "Call the pharmacy" and offered to delete "it";
"I'd rather cancel the haircut than move it" asked when to move it. Two sessions written
after, from probes, failed on their first run too: "cancel the haircut. no wait. keep
it" asked to cancel and THE YES CANCELLED IT; "book a massage friday at 3, hang on, what
else do I have this week" BOOKED THE MASSAGE.

Now "rather (you) not / didn't", "prefer (it if you) didn't", "can/could you not <verb>"
(not "…not just…", which asks), and "cancel nothing" are negations (language/clause.py
NEGATED, the verb inside it so an ask after it stays apart); what "rather X than Y" turns
down and an ask paused by "wait", "hang on", "hold on" for a question are left out of the
words read (language/intents.py ask_corrected, also read by the question reader and the
narrator's scene); "…, no wait, keep it" takes the ask back with no reason between
(language/confirm.py); a task list read only for a change on a condition tells the list,
not the tasks "done" names. All 16 pass; `bench.decisions --dump` gives the same 3,854
decisions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

SAID_NOT: Path = DATA / "conversations_said_not.jsonl"


async def test_what_is_said_not_to_be_done_is_neither_done_nor_offered(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: a change said not to be made is not asked about, so no yes
    can make it; the same words asking for the change still ask for it."""
    assert len(read_cases(SAID_NOT)) == 16
    share, failed = await score(make_assistant, crm_admin, SAID_NOT, capsys)
    assert share == 1.0, failed
