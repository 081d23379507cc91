"""Hours said with a dot or beside "tonight" ("at 9.30", "at 2.15pm", "friday at 10
tonight"), through the websocket and the real CRM stub.

Twenty-four bookings with an hour said in everyday ways were tried on the code as it
was, before the rules were read: THREE WRONG WRITES. "Book a haircut friday at 9.30" was
booked at 9:00 and "…at 2.15pm" at 2:00 PM (the minutes after a dot were dropped);
"…friday at 10 tonight" at 10 AM ("tonight" was read as a day only, and 10 alone is the
morning). The rest were read rightly ("half past 3", "quarter to 4", "twenty past two",
"ten to five", "half 3", "3ish", "midday") or asked ("1230", "fifteen hundred", "1400
hours", "noon thirty", "between 2 and 4", "after lunch").

Now the minutes after a dot are read where an hour stands ("at", "by", "from" before it,
or am/pm after it: "is it 9.30" of a bill is no hour), and "tonight" is a part of the
day as "in the evening" is. The first 7 sessions of tests/data/conversations_times_said.jsonl
hold those; the last 5 (ts2-) were written after the fix, not tuned on: first run 5/5
(the code before the fix fails 3 of them, each a wrong hour). Three checks said "only"
of a service the CRM had seeded at another time: corrected, as unfair. "…friday at 10
tonight" may now be asked before it is booked (a visit at 10 PM or later is asked first,
tests/e2e/test_night_hours.py): its check allows the question, never the 10 AM booking.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

TIMES: Path = DATA / "conversations_times_said.jsonl"


async def test_an_hour_said_with_a_dot_or_tonight_is_the_hour_written(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: the hour written is the one said, to the minute."""
    assert len(read_cases(TIMES)) == 12
    _, failed = await score(make_assistant, crm_admin, TIMES, capsys)
    assert failed == []
