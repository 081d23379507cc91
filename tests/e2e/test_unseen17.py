"""Conversations nobody tuned for: a seventeenth set, keeping the thread and writing nothing
not asked.

Through the websocket and the real CRM stub.

tests/data/conversations_unseen17.jsonl (34 sessions, 125 turns, 3-5 turns each) was written
before the rules were read: confirmations answered in new ways ("yeah go for it", "hmm ok
fine", "wait which one is that?", "yes but at 11 instead" to an overlap, "no, the other one",
"yes and also move my haircut to saturday", "uh" and "hold on" while a delete waits), minds
changed twice ("friday … actually no, thursday … friday was better after all") and a date
said back corrected ("no I said the 25th"), references across turns ("the one you mentioned
first", "that day", "at the same time", "do the same for the haircut", "the day after that"),
a question while a change waits ("wait, what's my balance?") then "ok, yes, go ahead" or
"actually no, keep the task", and picks by attribute ("the high priority one", "the low
priority one", "the earliest one", "the one on sunday", "the one without a due date", "the
one due tomorrow"). Every turn checks every service's visits ahead and cancelled, their
times, every task's status, day and priority, the tasks added, the cases opened, every
invoice, the phone and the email.

FIRST RUN, on the code as it was (the first 28 sessions, 101 turns): 18/28 sessions (83/101
turns). NO WRONG WRITE. Changes lost: "uh" while a delete waited let it go (and "hold on",
"ok yes" after it found nothing held); "wait, what's my balance?" while a cancel waited was
taken as a no, the balance not told, and "ok, yes, go ahead" met "nothing waiting for a
yes"; "ugh sorry, friday was better after all" was not understood (the cleaning left on the
Thursday); "and the second one to the day after that" met "I can't help with that".
Misses: "what's the address of the one you mentioned first?", "what times are they at now?"
(two visits just moved), "so when is it now?", "and the email stays as it was?", "and
that's the same day as the cleaning, right?", "actually no, keep the task" after a question
let the delete go met "I can't help with that"; "when's the groceries thing due, and the
insurance one?" told the groceries only.

One check was put right by the house's rule (CHANGELOG, Session.dropped: a bare yes never
runs a change a question moved on from): "ok, yes, go ahead" after "wait, what's my
balance?" now has the cancel asked again (it waits), and a "yes" turn after it cancels,
checked once.

Fixed (general rules, see CHANGELOG): a sound said alone ("uh", "umm") is a pause, the
question still waiting; a question after "wait" / "hang on" is answered, the change let go
as for any question; a bare yes the turn after a question let a change go asks that change
again (it ran nothing before and runs nothing now), a bare no declines it; "X was better",
"X works better" is a change of mind to X; "the day after that" of a to-do's change is
counted from the day just set; "the one you mentioned first" is "the first one"; "when's X
due, and the Y one?" asks both; "so when is it now?", "what times are they at now?" after
two visits changed, "and the email stays as it was?", "that's the same day as …, right?",
"and you only cancelled the haircut, yeah?" (no yes to anything held) are read. 28/28.

Six sessions (ids u17b-, 24 turns) were then written after those fixes and not tuned on.
FIRST RUN: 5/6 sessions (23/24 turns), no wrong write: "hmm when was that due again?" while
a delete waited let it go without telling the day. Fixed ("when was that due" is read as
"when is that due" is): 34/34 (125/125 turns).

Merged with main's later rules, one session met a WRONG WRITE none of this set's rules made:
"and the one due tomorrow, I've done that" (the groceries), just after "the one without a due
date, give it wednesday", moved the eye exam's day to tomorrow. A to-do described by its due
day that fits another than the one in view now keeps the conversation's reading from it; the
one described is not yet found by its day, so which task is asked (KNOWN_OPEN). Mended in
the lead's merge: the tenth left-open set's "the groceries, that's done already" rule had
read "and the one due tomorrow, I've done that" as "the one due tomorrow is done", which
set the one in view due tomorrow; a thing described by its day or level is no longer read
so (language/intents.py `_DESCRIBED_BY`), and the groceries are marked done as before.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN17: Path = DATA / "conversations_unseen17.jsonl"

KNOWN_OPEN: list[str] = []


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the seventeenth unseen set passes: nothing is written unasked, on a
    wrong day, lost or doubled."""
    assert len(read_cases(UNSEEN17)) == 34
    _, failed = await score(make_assistant, crm_admin, UNSEEN17, capsys)
    assert failed == KNOWN_OPEN
