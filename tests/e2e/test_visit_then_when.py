"""A visit named bare, then when ("cleaning thursday 10am"), after it was read out.

Found by held-out set 21's shorthand: after "when's my cleaning?", "cleaning thursday
10am" BOOKED A SECOND CLEANING beside Wednesday's, and "haircut friday 5pm" after the
listing a second haircut. Typed so, with no verb and nothing saying it is one more, it is
as likely a move of the one visit of that kind just read out: the move is asked, a yes
makes it, a no leaves all as it was (models/embedded/visit_then_when.py). The controls
book: a visit of a kind not read out ("massage friday 5pm"), "another cleaning…", and a
booking's own verb. First run (before the rule): 4/8; each of the four moves BOOKED A
SECOND VISIT ("the cleaning: tuesday at 9" was read as a lookup, and the three controls
booked, as they should).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

VISIT_THEN_WHEN: Path = DATA / "conversations_visit_then_when.jsonl"


async def test_a_visit_read_out_then_when_is_its_move_asked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    assert len(read_cases(VISIT_THEN_WHEN)) == 8
    share, failed = await score(make_assistant, crm_admin, VISIT_THEN_WHEN, capsys)
    assert share == 1.0, failed
