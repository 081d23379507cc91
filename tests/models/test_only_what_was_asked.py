"""Messages near a change that ask for another thing, or for nothing, write only what was
asked: each line names the one write expected (made, or held for a yes), or none.

tests/data/contact_not_mine.jsonl: a phone number or email that is not the customer's
own as of now. The first 16 lines were written before the rules were read for them:
someone else's ("my wife's number is…"), an old one, one not to be used, one asked
about, a callback for a case, and four real changes. First run 13/16: "my wife's number
is 415 555 0123", "my old number was 415 555 0100" and "don't use my work number 415 555
0111" each asked to make it the customer's phone number. Now 16/16, and the four
corrections added after the fix ("my old number was wrong, it's…", "…the new one is…")
still change it.

tests/data/task_not_done.jsonl: the opposite of completing a task, and a detail of a
task removed, which no tool does, beside three real completions and deletions. First run
7/12: "mark groceries as not done" and "groceries is not finished" completed the task;
"remove the due date from groceries", "take the deadline off…" and "delete the priority
on groceries" held the task's deletion for a yes. Now 12/12: each says what it cannot
do instead.

tests/data/told_not_asked.jsonl: problems told as past or someone else's, questions about
cases and bookings, beside three real requests. First run 12/13: "do I need to file a
complaint to get a refund" opened a support case. Now 13/13, and two questions of the
same kind added after the fix ("do I have to cancel 24 hours ahead") write nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.fakes.world import play
from assistant.tools.catalog import load_catalog

DATA = Path(__file__).parents[1] / "data"
SETS = ("contact_not_mine.jsonl", "task_not_done.jsonl", "told_not_asked.jsonl")
CATALOG = load_catalog(Path(__file__).parents[2] / "config" / "tools.yaml")
WRITES = frozenset(tool.name for tool in CATALOG.tools if tool.writes)
LINES = [
    json.loads(line)
    for name in SETS
    for line in (DATA / name).read_text().splitlines()
    if line.strip()
]


@pytest.mark.parametrize("line", LINES, ids=[line["text"][:40] for line in LINES])
async def test_only_the_write_asked_for_is_made(line: dict[str, str]) -> None:
    """The write made or held for a yes is exactly the one expected (none when the
    message asks for no change)."""
    turn = await play(line["text"])
    acted = [call.tool_name for calls in turn.rounds for call in calls]
    acted = [tool for tool in acted if tool in WRITES]
    if turn.held is not None:
        acted.append(turn.held.tool_name)
    assert acted == ([line["writes"]] if line["writes"] else []), line["text"]
