"""How much of a wider set of phrasings (tests/data/phrasings.jsonl) the planner understands.

Casual speech, typos, paraphrases, several requests at once, dates. Each line lists
the tools the turn must call, round after round (as ../shared/utterances/dev.jsonl
does), `alt_tools` other right answers, and `confirm` a destructive call that must
end up awaiting confirmation. The planner returns every call it finds (the engine
caps a round), so five lookups asked are five tools here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.models.world import play

PHRASINGS = Path(__file__).parents[1] / "data" / "phrasings.jsonl"
REQUIRED_SHARE = 0.95


async def understood(line: dict[str, Any]) -> bool:
    turn = await play(line["text"])
    tools_right = turn.tools == line["tools"] or turn.tools in line.get("alt_tools", [])
    held = turn.held.tool_name if turn.held else None
    return tools_right and held == line.get("confirm")


async def test_the_planner_understands_at_least_95_percent_of_the_phrasings(
    capsys: Any,
) -> None:
    """At least 95 % of the phrasings make exactly the calls they ask for (share reported)."""
    lines = [json.loads(line) for line in PHRASINGS.read_text().splitlines() if line.strip()]
    assert len(lines) >= 80
    missed = [line["text"] for line in lines if not await understood(line)]
    share = 1 - len(missed) / len(lines)
    with capsys.disabled():
        print(f"\nphrasings understood: {len(lines) - len(missed)}/{len(lines)} = {share:.1%}")
        for text in missed:
            print(f"  not understood: {text}")
    assert share >= REQUIRED_SHARE, missed
