"""What is booked after or before a day, and what is on one's plate
(tests/data/conversations_edges.jsonl). Found by probing: "what do I have after wednesday"
was refused, then (with the read) answered with the Wednesday cleaning; "anything before
sunday?" and "what's on my plate this week" were refused. On the code before: 0 of 4.
Now 4/4 (models/embedded/appointments.py _from_the_edge, language/lookups.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

EDGES: Path = DATA / "conversations_edges.jsonl"


async def test_the_days_before_or_after_a_day_are_read(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """What is booked after or before a day is told, not what is booked that day."""
    assert len(read_cases(EDGES)) == 4
    share, failed = await score(make_assistant, crm_admin, EDGES, capsys)
    assert share == 1.0, failed
