"""A booking asked with a detail the CRM cannot keep (who the customer sees, how long it
lasts, which branch): asked about first, never booked as if the detail held
(tests/data/conversations_unkept.jsonl).

Found by probing. FIRST RUN: 2 of 7 passed (the two controls). "book a haircut with Sam
on friday at 3", "can I see dr lee for a checkup on thursday at 10", "book a massage for
90 minutes on friday at 3" and "book a massage friday at 3 at the downtown location" were
each BOOKED AND TOLD "You're booked…", the person, the length or the branch dropped without
a word; "book a 60 minute massage" was told "a minute massage" is not offered.

Now such a booking is asked about first ("I can't ask for "with sam" here: a booking holds
only the service and the time. Would you like me to book a haircut on Friday at 3 PM
anyway?"), after any time it lacks; a yes books it, anything else books nothing
(language/unkept.py, read in language/grammar.py; the question in replies.py). A length
is no part of the service's name; "in 2 hours", "an hour later" are a time and a shift,
not a length (a first version took "an hour later" for one, and the suite caught it).
All pass; `bench.decisions --dump` gives the same decisions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNKEPT: Path = DATA / "conversations_unkept.jsonl"


async def test_a_detail_that_cannot_be_kept_is_said_before_booking(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: the customer hears the detail cannot be kept before anything
    is booked; a yes books the visit as it can be, a no books nothing."""
    assert len(read_cases(UNKEPT)) == 7
    share, failed = await score(make_assistant, crm_admin, UNKEPT, capsys)
    assert share == 1.0, failed
