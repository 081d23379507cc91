"""Conversations nobody tuned for: a twenty-sixth set, the values written.

Through the websocket and the real CRM stub.

tests/data/conversations_values26.jsonl (62 sessions, 92 turns, 1-4 turns each; written by
a script of the helper's, each case's checks made from the rows it may write), the first 39
written before the date, hour and contact rules were read: every write's day, hour, phone,
email, title, due date and priority must be the one meant, or asked about. Times counted
from one said before ("the day after that", "a week later than that", "same day but at 4",
"an hour earlier", "push it back two days", "bring it forward by a day"), vague ones
("first thing in the morning", "after lunch": asked, or a sane hour), "end of the month",
"the last friday of the month", "the 3rd", "a fortnight on tuesday", "wednesday the 22nd"
(a Tuesday: asked); hours as said ("half four", "quarter to five", "five-ish", "at noon",
"twelve thirty", "7 in the evening", "19:00", "4 o'clock", "4pm tomorrow no wait 5"); phones
with an extension, "+1", "double five", "oh", in two replies, one group corrected, too few
digits (asked, never written); emails spelled with "underscore", "dash", a domain corrected
mid-address; to-dos due "by friday", "in three days", "next monday", with no due date, said
"urgent", "whenever", "not a big deal", titles holding numbers and days ("pay the 3
invoices", "call mum on the 5th"). Each turn checks the rows of what its session writes
(visits ahead, to-dos and the tasks added, or the phone and email); any other write fails
its exact "writes".

FIRST RUN, on the code as it was (39 sessions, 57 turns): 34/39 sessions (50/57 turns).
WRONG WRITES:
- "book physical therapy for wednesday the 22nd at 3pm" was asked ("January 22 is a
  Tuesday, not a Wednesday. Did you mean Tuesday, January 22, or Wednesday, January 23?"),
  and "oh, the tuesday then" BOOKED IT FOR TUESDAY JANUARY 15, tomorrow, not the 22nd.
- "move the cleaning to friday, five-ish" MOVED IT TO FRIDAY AT 10 AM (its own hour),
  saying it had not caught "five-ish".
- "put return the library books on my list for next monday, it's not a big deal" added it
  at NORMAL priority.
Misses, nothing written: "I need to update my phone number" → "it's 415 555" → "0172" (the
first part asked again, the second not understood); "my new email is j dash lopez at
outlook dot com, no sorry, at hotmail dot com" (the whole address asked again).
The asks were fair: "friday, first thing in the morning" and "thursday after lunch" asked
the hour; "the 3rd" booked February 3, "a fortnight on tuesday" January 29; an extension
is read back "without the extension 23" before a yes; "415 555 012" asks for the full
number. Fixed with general rules (see CHANGELOG): 39/39 (57/57 turns).

Written after the fixes (v26b, 10 sessions, 13 turns: "an hour later than that" after a
week back, "half nine", "quarter past three, no, half past three", "plus one … double oh",
"underscore … dash 22 at yahoo dot co dot uk", "pay the rent on the 1st, urgent", "book 2
concert tickets …, whenever", "in a fortnight", "the last day of the month at 9am", "bring
my haircut forward an hour"), FIRST RUN 10/10 (13/13 turns).

Found probing after the fixes (v26c, 13 sessions, 22 turns), 0/13 on the code before this
set (2fca569). WRONG WRITES there, each on the "yes" or at once: "wednesday", to the same
question, BOOKED WEDNESDAY JANUARY 16; "thursday", to it for "call the vet on friday the
24th", made the to-do DUE JANUARY 17; "mary dash jones 99 at outlook dot com" WROTE
99@outlook.com; "mary jones at gmail dot com" WROTE jones@gmail.com; "mary at gmail dot com
no hotmail" WROTE mary@gmail.com; "maria at gmail dot com sorry at yahoo dot com" WROTE
maria@gmail.com; "move my haircut to friday at noonish", "… at teatime", "… after work" each
MOVED IT TO FRIDAY AT ITS OWN 2:30. Misses: "same day but at 4" just after a booking and
"same time but on saturday" just after a move ("I can't help with that"), "bring the car
insurance forward two days" (not understood), "fix the gate, it can wait" (titled "Fix the
gate, it can wait", normal priority). Fixed: 13/13; the set 62/62 (92/92 turns).
(tests/e2e/test_said_at_once.py, playing the move and "same time but on saturday" as one
message, then found it moved to Friday: "…. Same time but on saturday" is put right in the
message now, as "…. Actually make it saturday" was.)

Nothing is left open.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

VALUES26: Path = DATA / "conversations_values26.jsonl"

# Nothing is left open (see the docstring).
KNOWN_OPEN: list[str] = []


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the twenty-sixth unseen set passes: each value written is the one
    said, or asked about."""
    assert len(read_cases(VALUES26)) == 62
    _, failed = await score(make_assistant, crm_admin, VALUES26, capsys)
    assert failed == KNOWN_OPEN
