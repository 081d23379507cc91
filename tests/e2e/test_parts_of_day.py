"""A part of the day said with an hour, or in reply to a question about the time, through
the websocket and the real CRM stub (tests/data/conversations_parts_of_day.jsonl).

Found by probing before the rules were read: "book a massage friday afternoon at 11"
**booked 11 PM**, "friday morning at 3" **booked 3 AM** and "friday evening at 3"
3 PM (an hour the part of the day said cannot hold was read into it, or past it); and
after "What time on Friday works for you?", "afternoon" and "morning would be best" were
taken as a hello ("Hi Maria! How can I help you today?") and the booking was lost.

FIRST RUN of the 12 sessions, written before the fixes (most in words not probed), on
the code as it was: 4 of 12 passed (14 of 32 turns). Wrong writes: "book a massage friday
afternoon at 11" booked Friday 11 PM; "can you move my haircut to thursday morning at 3"
moved it to 3 AM; "book me a consultation tomorrow evening at 2" booked 2 PM without a
word; "11" after "What time on Friday afternoon works for you?" booked 11 AM, and "4"
after "in the morning" (not caught) 4 PM. Lost: "afternoon", "morning would be best"
after the time was asked (a hello: "Hi Maria! How can I help you today?"), "sometime in
the afternoon if possible" (asked again, as not caught); "sorry, 10 I meant" to the
question whether 4 was in the morning was not read. One session was the test's mistake
("move it to thursday" keeps the visit's hour, fairly: it now books a cleaning instead).

Now: an hour read into a part of the day said apart from it, which that part cannot hold
(language/dates.py `_fits`: morning 5–11, afternoon 12–6, evening 4–11…), asks "Is that
11 in the morning or 11 in the evening?" as an hour that may be either does ("two in
the morning", said together, is its "am"); a part of the day said in reply to "what
time?" narrows the question ("What time on Friday afternoon works for you?") and an hour
said after it is read in that part (followup.py); the question says "in the afternoon"
for 1 to 5. All 12 pass; `bench.decisions --dump` the same 3,854 decisions before and
after.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

PARTS: Path = DATA / "conversations_parts_of_day.jsonl"


async def test_an_hour_is_read_in_the_part_of_the_day_said(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: no booking or move at an hour outside the part of the day
    said, and a part of the day said in reply keeps the question open."""
    assert len(read_cases(PARTS)) == 12
    share, failed = await score(make_assistant, crm_admin, PARTS, capsys)
    assert share == 1.0, failed
