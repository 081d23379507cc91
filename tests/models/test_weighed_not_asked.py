"""Messages that name a change without asking for it write nothing, and the requests
beside them still write.

tests/data/weighed_not_asked.jsonl: 50 messages that mention an action but ask for none
(questions about a change, advice, hopes and doubts, reports of what someone else did,
plans for later, a statement said with a question mark), written before the rules were
read for them, and 15 controls that do ask (politely, in passing, told as done). First
run: 46/50 wrote nothing; "I wonder whether I should mark the insurance task done" and
"the groceries task is done? already?" completed the task, "I hope I don't have to
cancel Friday" and "I need to think about whether to cancel the haircut" held a
cancellation for a yes. Now 50/50, and every control still writes, but one: "i'm thinking
of booking a massage…" is offered ("Would you like me to book…?"), as every change leaned
to is ("I'm thinking about scheduling a massage…" booked one).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.fakes.world import play
from assistant.tools.catalog import load_catalog

DATA = Path(__file__).parents[1] / "data" / "weighed_not_asked.jsonl"
CATALOG = load_catalog(Path(__file__).parents[2] / "config" / "tools.yaml")
WRITES = frozenset(tool.name for tool in CATALOG.tools if tool.writes)
LINES = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("line", LINES, ids=[line["text"][:40] for line in LINES])
async def test_a_change_is_written_only_when_asked_for(line: dict[str, object]) -> None:
    """A message that only mentions a change writes nothing and holds nothing for a yes;
    one that asks for it writes it (or holds it, when it needs a yes)."""
    turn = await play(str(line["text"]))
    written = [tool for tool in turn.tools if tool in WRITES]
    held = turn.held.tool_name if turn.held else None
    if line["writes"] == "asks":
        # a change leaned to ("I'm thinking of booking…"): offered, a yes makes it
        assert not written and held is None, f"{written or held} for {line['text']!r}"
        assert "would you like me to" in turn.answer.lower(), turn.answer
    elif line["writes"]:
        assert written or held, f"nothing written for {line['text']!r}"
    else:
        assert not written and held is None, f"{written or held} for {line['text']!r}"
