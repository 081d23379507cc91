"""A day or time told by another appointment, for a booking or a move, through the
websocket and the real CRM stub (tests/data/conversations_anchored.jsonl).

FIRST RUN of the 12 sessions (written from what customers say, before the rules were
read), on the code as it was: 7 of 12 passed (8 of 14 turns). No wrong write. Misses: "at
the same time as my haircut" and "two days before my haircut at 9am" were asked for a day
("I can't work out a day from another appointment yet"); "cancel my haircut and book a
massage at the same time instead" cancelled the haircut on the yes and booked nothing;
a visit not found ("…as my physio") or not one ("…as my appointment", two ahead) was
not named back, and "the haircut" said after found nothing to book.

Two checks corrected, as unfair: a massage "at the same time as my haircut" overlaps the
haircut, and the write guard asks about every booking over another visit ("That overlaps
your haircut at the same time. Do you want me to book it anyway?"); that question, then
the yes booking it, is as good an outcome (the sessions now say the yes; the booking is
still checked at the haircut's day and hour).

Now the day (and hour) is counted from the visit named, read from the listing in the
first round (models/embedded/anchored.py): "the same time as my X" is its day and hour in
the customer's zone, "N days/weeks before/after my X" its day shifted, "right before my
X" its day with the hour asked (the new visit's length is not known), "right after" its
end when the listing gives one; "the same time" bare, beside "cancel my X" in the same
message, is X's time. A visit not found, or "my appointment" when more than one is
ahead, is asked about with the visits ahead named, and the one named in reply ("the
haircut") is counted from. `bench.decisions --dump`: the same 3,855 decisions.

FIRST RUN of the 5 sessions written after (an-b-): 4 of 5 passed (5 of 6 turns), no
wrong write. Miss: "book a haircut the week after my cleaning, same time" asked the hour
(only the day was counted). Fixed as a rule: a bare "same time" after a day counted from
a visit is that visit's hour, for a booking; for a move it is the hour of the visit moved
(as "move my haircut to the day after my cleaning, same time" already read).

Two more, written after from probes of a reminder told by a visit (a visit named by no
service now counts too): "remind me the day before my appointment to…" asks which visit,
and "the cleaning" adds the to-do due the day before it; "remind me two days before my
haircut to buy shampoo" is due two days before it (both were asked "Which day should it
be due?" before). Both passed at their first run.
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
    assert len(read_cases(ANCHORED)) == 19
    share, failed = await score(make_assistant, crm_admin, ANCHORED, capsys)
    assert share == 1.0, failed
