"""Changes asked for every item a filter names (tests/data/conversations_filtered_bulk.jsonl):
"everything that's due this week", "all the high priority ones", "my afternoon appointments":
only those are changed.

Found by probing ("mark everything done that's due this week" completed all three
to-dos). The ten first sessions were written before the rules were read. FIRST RUN: 7 of
10 sessions, 3 WRONG WRITES: "mark everything done that's due this week" and "mark all the
high priority tasks done" completed EVERY pending to-do; "get rid of all my low priority
tasks" → "yes" DELETED ALL THREE. Reading every answer found two more misses the loose
first checks let pass (tightened after): "delete all tasks that don't have a due date"
answered "I haven't changed anything" and "cancel all my appointments before the weekend"
said "You don't have any appointments then" (the Wednesday cleaning is before it).

Fixed as rules: "every one" of a listing keeps only those the target's level, day, span
and "no due date" allow (assistant/resolve.py `_filtered_tasks`, as one item's target
already did); a filter said after "done" narrows "everything"/"all" (task_rules.py
`_FILTER_AFTER`); "mark … done that are high priority" is no level set (it set a finished
task to high); "that don't have a due date" is "no due date" (targets.py `_UNDATED`);
"before the weekend/the week" is from today until it (targets.py). The due-date limit's
own words read as a promise to the truthfulness guard and were replaced by "I haven't
changed anything" (limits.py; tests/models/test_limits_spoken.py checks every limit's
words). `bench.decisions --dump`: no decision changed. Five written after the fixes
(fb-b-), first run 5 of 5 (one check of mine corrected: the yes to "delete every high
priority task" was expected to write nothing). Found by probing after (fb-c-): "cancel
every appointment after wednesday" said "You don't have any appointments on Wednesday,
January 16" beside the Wednesday cleaning it listed: "after/before <day>" is now the days
on from it, or from today until it (targets.py `DAY_EDGE`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

FILTERED_BULK: Path = DATA / "conversations_filtered_bulk.jsonl"


async def test_every_one_that_a_filter_names_and_no_other(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Only the items the filter names are changed (or it is asked first)."""
    assert len(read_cases(FILTERED_BULK)) == 17
    share, failed = await score(make_assistant, crm_admin, FILTERED_BULK, capsys)
    assert share == 1.0, failed
