"""A day named in words the service does not read ("on thanksgiving at 10am", "on my
birthday", "my day off", "the morning of my wedding"): the day is asked, never replaced
by today or tomorrow (a booking) or by the visit's own day (a move). Controls: a day read
("the 17th", "on the same day") is booked or moved at once, and "I'll be on time" names
no day. Through the websocket and the real CRM stub.

Found by hand, on the live service: "book a manicure on thanksgiving at 10am" booked one
for tomorrow at 10, as did "on christmas eve", "on my birthday" and "on the holiday";
"move my haircut to thanksgiving at 10am" moved it to 10am on its own day. A time with no
day read is today's if still ahead, else tomorrow's (assistant/language/dates.py), and
nothing noticed that a day had been named. Now `When.day_unread` marks it and a booking
or a move asks when. tests/data/conversations_named_days.jsonl was written after that
fix, with new phrasings: first run 10/12, two wrong writes ("move my dental cleaning to
my day off at 9am", "book a haircut the morning of my wedding at 10am"); a day of one's
own is now read as unread too. 12/12 (one expectation of the set corrected: the seeded
haircut counts among upcoming haircuts).

Later, a holiday on a fixed date came to be read as its date ("on new year's eve" is
December 31; "the day after christmas", "over christmas" and the movable ones stay
unread): "book a massage for new year's eve at 3pm" may now book December 31 at 3 PM, as
asked, and nothing else (its check allows that booking, at that time only, or the
question).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

NAMED_DAYS: Path = DATA / "conversations_named_days.jsonl"

KNOWN_OPEN: list[str] = []


async def test_a_day_named_but_not_read_is_asked_never_guessed(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: nothing is booked or moved to a day the customer did not
    name, and a day read is booked or moved at once."""
    assert len(read_cases(NAMED_DAYS)) == 12
    _, failed = await score(make_assistant, crm_admin, NAMED_DAYS, capsys)
    assert failed == KNOWN_OPEN
