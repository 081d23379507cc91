"""A visit at an hour nobody keeps (10 PM to 6 AM, the customer's time) is asked about before it
is booked or moved (tests/data/conversations_night_hours.jsonl): "3am" misheard for "3pm",
"midnight tomorrow" read as the night before, or a model's hour in another zone would be a
write no one wanted (assistant/guard.py `_hour_nobody_keeps`). Found by probing: "move my
haircut to 3am on friday" moved it to 3 AM at once. On the code before: 2 of 4 (the two
night hours written at once). Now 4/4.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

NIGHT_HOURS: Path = DATA / "conversations_night_hours.jsonl"


async def test_a_visit_at_night_is_asked_first(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """A visit between 10 PM and 6 AM is booked or moved only after a yes; the rest at once."""
    assert len(read_cases(NIGHT_HOURS)) == 4
    share, failed = await score(make_assistant, crm_admin, NIGHT_HOURS, capsys)
    assert share == 1.0, failed
