"""One more thing said beside a yes or a booking, through the websocket and the real CRM
stub (tests/data/conversations_one_more_said.jsonl): "yes but use maria@example.net" to
an email read back, "ok but make that 415 555 0177" to a number, "a haircut friday at 3
and a massage right after", "…and then a facial", "…and a massage on saturday".

FIRST RUN of the 6 sessions (three probed sentences, three in words not tried), on the
code as it was: 1 of 6 passed (4 of 14 turns). WRONG WRITE: "yes but use
maria@example.net" WROTE maria@example.org, the one read back, and said so. The three
second bookings were dropped without a word ("You're booked for a haircut…" only), and
the next reply's hour was then offered as a move of the haircut. Two checks of the first
run were the test's own mistakes (a question asked again was not allowed for; 0102 is
another customer's number in the seed), corrected. Now a yes that carries another email
or number than the one read back is no plain yes: the one read back is let go and the
one said is asked about (language/confirm.py); a service named after a booking with no
time of its own is booked the same day, its time asked (language/intents.py
_a_service_after); and an ask still lacking its time is asked about even when another
call of its tool was made (models/embedded/narrator.py: the massage's time went unasked
after the haircut was booked). All 6 pass; `bench.decisions --dump` gives the same 3,854
decisions. Since tests/e2e/test_leftopen10.py a massage "right after" a haircut booked in
the same message is booked when the haircut ends (3:45 PM), not asked: the session checks
that instead of the hour asked and then said.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

ONE_MORE: Path = DATA / "conversations_one_more_said.jsonl"


async def test_what_is_said_beside_a_yes_or_a_booking_is_done_or_asked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: the value said last is the one written, and the second
    booking is asked about, never dropped."""
    assert len(read_cases(ONE_MORE)) == 6
    share, failed = await score(make_assistant, crm_admin, ONE_MORE, capsys)
    assert share == 1.0, failed
