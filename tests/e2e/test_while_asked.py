"""What is said instead of the yes the assistant waits for: another thing named, one more
added, a question, another change (tests/data/conversations_while_asked.jsonl).

Written from probes, before the rules were read. FIRST RUN of the first 8 sessions: 3
passed, and 2 more once two checks were corrected (an answer that says "I didn't delete
'Buy groceries'" before asking about the one now named is honest, not a fault). Lost:
"actually make it the cleaning" after "Are you sure you want to cancel your haircut…?"
dropped the question and listed the visits, and the yes that followed found nothing
waiting; "and the insurance one too" after a task delete was asked said "I didn't
delete…" and asked nothing; "the cleaning as well please" after a cancel was asked asked
about the cleaning alone, so THE YES CANCELLED ONLY THE CLEANING, the haircut dropped.

Now one more named with "too", "as well", "also", "and", "plus" while one cancel or
delete waits asks again about both (models/embedded/corrections.py held_and_another), the
question re-aimed by "make it/that the …" or "… instead" is about the one named
(retarget), and an answer whose question holds again all that was left says no "I
didn't…" before it (answering._held_again). Four sessions written after (ids wa-b-), run
once: 2/4 ("plus the groceries one" re-aimed the question where it added to it; "make
that the haircut instead" was not read); both fixed. Two more (wa-c-), from a probe: "hmm
not sure" to "Are you sure you want to delete…?" LET THE QUESTION GO ("I didn't delete…"),
so "ok fine do it" found nothing waiting; a hesitation now asks again ("No rush. Are you
sure…?", engine.py, language/hesitation.py). Four more (wa-d-), from probes, first run 1/4:
"never mind", "actually no" to "What's the problem you'd like me to report?" OPENED CASES
TITLED "Never mind", "Actually no" ("forget it": "Get it"), and "nevermind" to "What should
the task say?" ADDED A TASK "Nevermind"; a reply that lets the ask go is now no title
(models/embedded/followup.py _LETS_GO). All 18 pass.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

WHILE_ASKED: Path = DATA / "conversations_while_asked.jsonl"


async def test_what_is_said_while_a_yes_is_awaited_changes_the_question(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: the question asked again is about what the customer now
    names, and the yes to it does exactly that."""
    assert len(read_cases(WHILE_ASKED)) == 18
    share, failed = await score(make_assistant, crm_admin, WHILE_ASKED, capsys)
    assert share == 1.0, failed
