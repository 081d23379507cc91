"""A to-do whose words name another action is added as a to-do, titled as said.

tests/data/todo_titles.jsonl: 15 requests to add a task whose title holds a verb the
grammar also reads as an action ("add a task to cancel my gym membership", "remind me to
book a dentist appointment", "make a task to update my address with the DMV"), written
before the rules were read for them. First run 13/15: the DMV one was answered with
"I can't change your postal address" (the limit was read before the to-do), and "add to
my list, call the bank about the missing payment" read the tasks and the invoices. Now
14/15, pinned; the second is still missed (a title said after the comma). None wrote
anything other than the task.
"""

from __future__ import annotations

import json
from pathlib import Path

from assistant.fakes.world import play
from assistant.tools.catalog import load_catalog

DATA = Path(__file__).parents[1] / "data" / "todo_titles.jsonl"
CATALOG = load_catalog(Path(__file__).parents[2] / "config" / "tools.yaml")
WRITES = frozenset(tool.name for tool in CATALOG.tools if tool.writes)
LINES = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
# Pinned at the last measured score: a regression fails the build.
REQUIRED = 14


async def test_a_todo_naming_another_action_is_added_with_its_title() -> None:
    """At least the pinned number are added as one task with the title said; none of
    them writes anything else or holds a write for a yes."""
    added = 0
    for line in LINES:
        turn = await play(line["text"])
        calls = [call for calls in turn.rounds for call in calls if call.tool_name in WRITES]
        assert turn.held is None, line["text"]
        assert all(call.tool_name == "crm.addTask" for call in calls), (line["text"], calls)
        titles = [str(call.arguments.get("title", "")).lower() for call in calls]
        added += titles == [line["title"].lower()]
    assert added >= REQUIRED
