"""The answer tells the truth about what happened: questions about the past are answered
from what was written.

Through the websocket and the real CRM stub. tests/data/conversations_honest27.jsonl
(written before the rules were read): recaps ("what did you just change?", "what have
you done so far?", "so what's booked now?", "did you cancel it or not?", "which one did
you mark done?") after one write, two writes in one turn, a write held for a yes, a no
to a question, and nothing written at all; a question after a write in other words ("is
that all set?", "we're good?", "so it's gone?", "all good then?"); what the CRM holds
said back (a phone it keeps in its own form); no follow-up the service cannot do ("call
me back", "email me a confirmation", "remind me the day before") and no time it did not
write. Every turn checks every service's visits ahead and cancelled, every to-do, the
to-dos added, the cases opened, every invoice, the phone and the email; and no sentence
may claim a change no write made (conversations.py `unbacked_claims`).

The mixed turns under CRM faults are tests/integrity/test_honest27_faults.py.

FIRST RUN, on the code as it was (31 sessions, 67 turns): 17/31 (51/67 turns). One of the
checks was mine, put right before counting ("physical therapy on tuesday" said on a
Monday is tomorrow, not the Tuesday after): 18/31 (54/67 turns). WRONG WRITE:
- "did you mark it done?" after "mark call the pharmacy as done" (already done) SENT THE
  COMPLETION AGAIN (the question read as "mark it done", "it" the to-do in view).
Asked again for a yes, nothing written: "did you delete it?" after the groceries were
ticked off ("Are you sure you want to delete the task 'Buy groceries'?"); "did you cancel
it or not?" after a no to that cancel (the cancel asked again).
Untrue or not answered: "what did you just add?" after two to-dos added told only the
second; "did you cancel them or not?" after two cancels told only the haircut; "what did
you just do?" after a to-do added high priority left the priority out; "did you cancel my
appointment?" with nothing changed read the visits out with no "no"; "is that all set?",
"we're good?", "so it's gone?" (twice), "so it's still on?" met "I can't help with that";
"all good then?" after a change met "You're welcome. Have a great day!".
Held: "did you cancel it?" and "what did you just change?" while a cancel or delete waits
(not yet, still asked), "is that done?" while an email change waits, "what have you done
so far?" with nothing done, after two changes, and after a cancel let go for an add; an
undo, then "what's booked now" at the time it went back to; the phone said back as the
CRM keeps it; no "I'll call you back" or "I'll email you", no time not written.

Fixed (general rules, see CHANGELOG), the wrong write first: 31/31 (67/67 turns). No
decision of the dump (bench.decisions) changed.

Written after the fixes (h27b, 7 sessions, 14 turns), FIRST RUN 6/7 (13/14 turns), no
wrong write: "it's done right?" after the eye exam was ticked off met "I can't help with
that". Fixed (a "right" said after it asks as the mark does): 7/7; the set 38/38 (81/81).
bench.said_around on this set then found "it's done right, thanks", "It's done right."
and "um, it's done right?" ticking the done to-do off again (a second completion sent,
nothing changed in the CRM): read as asked since.

Left open: none of this set (KNOWN_OPEN is empty).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

HONEST27: Path = DATA / "conversations_honest27.jsonl"

KNOWN_OPEN: list[str] = []


async def test_answers_about_what_happened_are_true(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the set passes: each recap names what was written, and only that."""
    assert len(read_cases(HONEST27)) == 38
    _, failed = await score(make_assistant, crm_admin, HONEST27, capsys)
    assert failed == KNOWN_OPEN
