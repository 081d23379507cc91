"""A day or time told by another appointment, for a booking or a move, through the
websocket and the real CRM stub (tests/data/conversations_anchored.jsonl).

FIRST RUN of the 12 sessions (written from what customers say, before the rules were
read), on the code as it was: 7 of 12 passed (8 of 14 turns). No wrong write. Misses: "at
the same time as my haircut" and "two days before my haircut at 9am" were asked for a day
("I can't work out a day from another appointment yet"); "cancel my haircut and book a
massage at the same time instead" cancelled the haircut on the yes and booked nothing;
a visit not found ("…as my physio") or not one ("…as my appointment", two ahead) was
not named back, and "the haircut" said after found nothing to book.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

ANCHORED: Path = DATA / "conversations_anchored.jsonl"


async def test_a_day_told_by_another_appointment_is_that_appointment_s_day(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: the visit named is read, its day and time in the customer's
    zone give the new one's, and a visit not found or not one is asked about by name."""
    assert len(read_cases(ANCHORED)) == 12
    share, failed = await score(make_assistant, crm_admin, ANCHORED, capsys)
    assert share == 1.0, failed
