"""Conversations nobody tuned for: a twenty-sixth set, keeping the thread of a long talk.

Through the websocket and the real CRM stub.

tests/data/conversations_thread26.jsonl (26 sessions, 162 turns, 6-8 turns each), written
before the rules were read: a listing, then an ordinal or a description turns later, after
a bill, a case or the profile came between ("the second one", "the later one", "the one on
sunday", "the dentist thing", "the insurance one", "the wednesday one"); "do the same for
the haircut but at 4", "a facial at the same time on tuesday", "and the other one too",
"that day works for a massage as well", "move both a week later", "actually only the first
one", "and the first one to thursday same time", "the cleaning the same day at 10"; a
booking asked, a question between, its day and hour after it; "back to the list. …",
"back to the appointments. …"; two dental cleanings, two haircuts or two insurance to-dos
(rows added through the stub's API: the case's `seed`), where "it" must be asked about; a
mind changed twice in one breath ("move it to friday at 2:30. no, thursday. actually just
leave it where it is"; "…friday at 11, no, thursday at 11") or over turns. Every turn checks
its writes exactly, every service's visits ahead and cancelled, every to-do and the to-dos
added; the last turn also the cases opened, every invoice, the phone and the email (a
write of those unasked stays: seen there, and each turn's writes are checked; checked
every turn, they cost the module about 40 % more time).

FIRST RUN, on the code as it was: 16/26 sessions (132/162 turns). WRONG WRITES:
- "move it to friday at 2:30. no, thursday. actually just leave it where it is" MOVED THE
  HAIRCUT to Thursday (nothing was asked in the end);
- "ok and the cleaning, move it to friday at 11, no, thursday at 11" MOVED THE CLEANING to
  FRIDAY (the day taken back);
- two dental cleanings, "when is my dental cleaning" answered with both, then "move it to
  friday at 10" MOVED THE FIRST ONE without asking which (so "the one next week" after it
  was refused, and "cancel the other cleaning" asked again);
- "and the first one to thursday same time", just after "the second appointment" was
  moved (the to-dos read out before it), made the FIRST TO-DO due Thursday;
- "and the groceries one is done", said to "which task did you mean?" (asked of "the
  insurance one, make it due on friday"), made the GROCERIES DUE FRIDAY, not done.
Misses (nothing written wrong): "back to the list. the insurance one, make it due on
friday" looked for a task "back insurance"; "and the wednesday one at 11", "do the same for
the haircut but at 4", "and the other one too, saturday at 10", "and the cleaning the same
day at 10" each read the visits out; "when are they now", "when are they both due" met
"Sorry, I can't help with that"; "what's left" just after a visit was cancelled read out
the to-dos.

Fixed with general rules (see CHANGELOG): 26/26 (162/162 turns). No decision of
`bench.decisions --dump` changed with any of them.

Written after the fixes (t26b, 6 sessions, 37 turns), FIRST RUN 5/6 (33/37 turns). WRONG
WRITE: two haircuts ahead, "when's my haircut" → "what's my phone number" → "can you push
it to 4" asked which of every visit (the cleaning first), and "the first one" MOVED THE
DENTAL CLEANING to 4; "and cancel the other haircut" then asked which. Fixed: the visits
of the one service heard are those offered, and a count answering "which?" is of those
offered. 6/6; the set 32/32 (199/199 turns).

`python -m bench.said_around --sets tests/data/conversations_thread26.jsonl` (every turn
with words around it, 416 variants): no wrong write; one ask lost ("Move both a week later,
same times." as a sentence), read now; 0 more, 0 less. With `--answers` (155): 0 and 0.

Nothing is left open.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

THREAD26: Path = DATA / "conversations_thread26.jsonl"

# Nothing is left open (see the docstring).
KNOWN_OPEN: list[str] = []


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the twenty-sixth unseen set passes: an ordinal, a description or
    "the same" said turns later reaches what was said, not what was touched last; "it"
    among two of a kind is asked about; a mind changed twice does the last thing asked."""
    assert len(read_cases(THREAD26, own_moments=True)) == 32  # with the sessions that add rows
    _, failed = await score(make_assistant, crm_admin, THREAD26, capsys, own_moments=True)
    assert failed == KNOWN_OPEN
