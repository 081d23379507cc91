"""Conversations nobody tuned for: a twentieth set, confirmations and answers to questions.

Through the websocket and the real CRM stub.

tests/data/conversations_unseen20.jsonl: 27 sessions (88 turns, 3-4 turns each) written
before the rules were read, on how people answer "Are you sure…?" and the assistant's other
questions: yes and no in odd words ("go for it", "yeah nah", "sure why not", "hmm I guess",
"do it", "nope leave it", "yes please and also…", "yes but make it 4", "ok", "wait what will
that do?", "not sure", "maybe later"), a yes given a turn late after a question ("is it the
one on wednesday?" → "ok yes cancel it"), two changes asked at once and answered in parts
("yes to the first", "just the task", "both", "neither", "the haircut yes, the task no",
"yeah but only the haircut"), "which one?" and "what time?" answered in another form ("the
later one", "the 2:30 one", "whichever's first", "after lunch sometime", "same as before"),
and a new request instead of an answer, then a stray yes ("actually just tell me what I
owe" → "yes"; "actually never mind, what's my next appointment" → "yes"). Every turn checks
every service's visits ahead and cancelled, every task, the tasks added, the cases opened,
every invoice, the phone and the email.

FIRST RUN, on the code as it was: 18/27 sessions (72/88 turns), no wrong write. Misses:
"sure why not" was a no ("not"); "hmm I guess" let the delete go; "wait what will that do?"
let the cancel go, and the "oh ok yes go ahead" after it was asked again; "both" (to two
deletes) asked about the groceries alone; "the haircut yes, the task no" asked about the
haircut again; "just the task" asked again, and the "and is my haircut still on" after it
was read as "delete the is haircut still on task"; "same as before" (the hour asked) met "I
didn't catch that"; after "actually never mind, what's my next appointment" a bare "yes"
asked the phone change again, and after "actually just tell me what I owe" the cancel.

Two checks were unfair and have been corrected: a bare yes after a question moved on to
("actually just tell me what I owe" → "yes") asks the change again by design ("a bare yes
never runs a change moved on from"), so either answer is fair there (confirm "*"); and "just
the task", a pick said with no yes, asks again about the one picked, as the house's design
says and tests/e2e/test_some_of_them.py pins ("only the first two" asks again): the session
says "yes" to that question before its last turn.

Fixed with general rules (see CHANGELOG): "why not" ending a reply, and "I guess (so)" / "I
suppose (so)" said alone, are yes; "both", "all of them" to a question naming two or more
changes is a yes to all; "the haircut yes, the task no" (a yes or no said after the name, with
or without commas) picks; "what will that do?", "what happens if…", "what does that mean"
are told what the change does, and the question still waits; a change taken back before the
next ask ("never mind, …", "forget it, …") is not asked again by a later yes; "and is my
haircut still on" while a delete waits is a question, not one more to delete.

Written after the fixes (u20b-, 7 sessions, 22 turns), FIRST RUN: 4/7 (15/22 turns), with
TWO WRONG WRITES, both there before this set: "hmm what does that mean exactly" to "Are you
sure you want to change your email…?" CHANGED THE EMAIL ("exactly" read as a yes); "forget
it, when's my haircut" while a cleaning's cancel waited asked to cancel THE HAIRCUT, and the
next "yes" CANCELLED IT. Misses: "the task yes the haircut no" (no commas) asked about the
haircut. Fixed: a question opened ("what…", "how…") before a word a yes is made of is no
yes; a question after "forget it", "never mind", "actually", "no" names no target for the
change held; a yes or no said after a name, unpunctuated, is the name's. Found by probing
on the way, fixed, and not in the set: "and a cleaning saturday" → "What time on
Saturday…?" → "same time as the haircut" booked (after an overlap question) the cleaning on
the HAIRCUT'S DAY, Friday; "same time as my sunday one" asked "What time on Sunday…?", and
the hour said next booked it on Sunday (the hour of another visit, answering the hour of a
day said before, keeps that day); both are sessions now (u20c-). `bench.decisions --dump`:
no decision changed by any of these rules.

36 sessions, 118 turns: 35/36 (116/118 turns); KNOWN_OPEN below writes nothing wrong.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN20: Path = DATA / "conversations_unseen20.jsonl"

# "same as before", the answer to "What time on Saturday works for you?" for another
# haircut: "before" may be the last haircut (at 11:00) or the Sunday one (at 2:30), so the
# visits are looked up and the hour asked again naming both (as decided in
# tests/e2e/test_leftopen13.py; the case first expected a booking at 2:30, and met "Sorry, I
# didn't catch that").
KNOWN_OPEN: list[str] = []


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the twentieth unseen set passes: a held change is made only on a
    clear yes, once, and only the part said yes to."""
    assert len(read_cases(UNSEEN20)) == 36
    _, failed = await score(make_assistant, crm_admin, UNSEEN20, capsys)
    assert failed == KNOWN_OPEN
