"""Several asks in one breath, reads and writes mixed (the product's own job): each write
made exactly as asked or held for its yes, each read answered. Through the websocket and
the real CRM stub.

tests/data/conversations_mixed.jsonl, written before the rules were read. First run:
11/15; one failure was the set's own (two deletes held under one question, which the
format spells "*"), corrected: 12/15. All three left were wrong or lost writes: "add tasks
to call mom and to pay rent" added one task titled "S to call mom and to pay rent"; "make
the eye exam high priority and due friday" set the priority and dropped the due day, and
"move the dentist to thursday at 9am and the haircut to friday at 4pm" moved the dentist
only, each answer telling only what was done.

The cause of the last two was one: a clause without a verb took the one before's verb and
its arguments too, so the haircut was to go to Thursday at 9 AM and "due friday" was a task
to be given high priority (neither was found, or both would have been wrong writes). A
clause carried over now reads its own time, or is a further change of the same task; tasks
asked for in the plural are each their own. 15/15. Six written after, not tuned for: 5/6
first run; the miss was a wrong write ("create reminders to book the vet and to renew my
passport, and what's my balance" added a task "What's my balance"), fixed: 21/21.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

MIXED: Path = DATA / "conversations_mixed.jsonl"

KNOWN_OPEN: list[str] = []


async def test_several_asks_at_once_are_each_done_as_asked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: every write asked is made (or held for a yes) with what was
    said, none is dropped or merged into another, and the reads beside them are answered."""
    assert len(read_cases(MIXED)) == 21
    _, failed = await score(make_assistant, crm_admin, MIXED, capsys)
    assert failed == KNOWN_OPEN
