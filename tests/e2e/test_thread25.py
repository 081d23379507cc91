"""Conversations nobody tuned for: a twenty-fifth set, a change talked about but not asked.

Through the websocket and the real CRM stub.

tests/data/conversations_thread25.jsonl (32 sessions, 122 turns, 3-5 turns each), written
before the rules were read: a change talked of in the middle of a conversation, pointing
back at what was said, and never asked. After a listing: "why did you move that one?",
"did I book that myself?", "my husband will cancel the haircut himself", "I already
cancelled the dentist on the phone", "the receptionist moved it yesterday", "I used to book
that haircut every month", "the second one, my husband will move that one himself"; after
a change: "who told you to do that?", "I never asked you to move it", "you weren't
supposed to book that", "why did you cancel that?", "that wasn't supposed to move", "I
never asked you to change that"; while a yes waits: "hang on, my wife said she'd cancel it
herself", "did you already cancel it?"; and then the ask said plainly ("fine, move it to
friday at 3", "undo it then", "put it back on sunday", "cancel it then", "actually just
delete that one"). Every turn checks every service's visits ahead and cancelled, every
task, the tasks added, the cases opened, every invoice, the phone and the email.

FIRST RUN, on the code as it was: 9/26 sessions (76/99 turns). WRONG WRITE:
- "I used to book a haircut every month" → "when's my next one" was answered with the
  dental cleaning (the next visit of any kind), so "ok book another one for the 3rd of
  february at 2:30" BOOKED A SECOND DENTAL CLEANING, not a haircut.
No change talked of was made or held. Misses: every remark pointing back with "it",
"that", "that one" ("why did you move that one?", "did I book that myself?", "the
receptionist moved it yesterday", "who told you to do that?", "I never asked you to move
it", "you weren't supposed to book that", "why did you cancel that?", "that wasn't supposed
to move", "I never asked you to change that", "the second one, my husband will move that
one himself") met "Sorry, I can't help with that"; so did "so is it still on?", "is it
still on there?" and "what's it due now".
Two checks were corrected, each wrong as written: "put it back" (after "who told you to do
that?") was allowed to move the cleaning back, but its crm check still wanted it moved (it
was moved back, once; the "yes" after it now writes nothing); "ok undo that" after the
groceries were ticked off wanted a reopen no CRM call makes (the answer says it can't be
reopened and offers to add it again; nothing is written).

Fixed with general rules (see CHANGELOG): 26/26 (99/99 turns).

Written after the fixes (t25b, 6 sessions, 23 turns), FIRST RUN 4/6 (20/23 turns), no
wrong write: "fine, thursday at 9 then" after the cleaning was moved to friday (and "who
said to move it to friday?") met "I can't help with that" (so it did without the question
between); "what's due this week" was checked for the car insurance, due next Monday (the
check was wrong: the answer, the groceries, is right; corrected). Fixed: 6/6; the set
32/32 (122/122 turns).

Nothing is left open.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

THREAD25: Path = DATA / "conversations_thread25.jsonl"

# Nothing is left open (see the docstring).
KNOWN_OPEN: list[str] = []


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the twenty-fifth unseen set passes: a change only talked about is
    never made, and one asked plainly after it is made once, to the right visit or to-do."""
    assert len(read_cases(THREAD25)) == 32
    _, failed = await score(make_assistant, crm_admin, THREAD25, capsys)
    assert failed == KNOWN_OPEN
