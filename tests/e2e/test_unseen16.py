"""Conversations nobody tuned for: a sixteenth set, keeping the thread.

Through the websocket and the real CRM stub.

tests/data/conversations_unseen16.jsonl (27 sessions, 117 turns, 3-6 turns each) was written
from crm_stub/seed.py before the rules were read: each session one caller whose later turns
lean on what was said before: "the second one" of a listing and "the last one you said",
"the first one" / "the other one" of a visit and a to-do told in one answer, "do the same for",
"give that one friday", "it" of a to-do after a visit was talked of, a topic dropped and taken
up two turns later, the assistant's own question answered late or in parts, a change put
back, "did that go through?", "what have you changed?", a change held for a yes with a
question asked in between, asks needing two or three lookups at once. Every turn checks
every service's visits ahead (and those cancelled), their times, every task's status, day
and priority, the tasks added and the cases opened; a call about bills or contact details
checks every invoice, the phone and the email on every turn, and every call does on its last
turn, so a write not asked for, a wrong item, a wrong day, a lost or doubled change fails.
Days are written from the day played ("+3@10:00"), so the set replays on other days.

FIRST RUN, on the code as it was (the first 21 sessions, 94 turns): 5/21 sessions (55/94
turns). Reading every answer, two checks were put right before any fix: the case opened for
"open another ticket asking for an itemised copy of it" must say which bill (it was "Asking
for an itemised copy of it", as a case about "it" was counted wrong in the fifteenth set);
"has the cleaning bill been paid?" may read the bills with listInvoices (it asked for
getOpenInvoices by name): 4/21 (54/94 turns).

WRONG WRITES in that run:
- "move the first one to saturday" after "Your haircut is on Sunday … Buy groceries is due
  tomorrow" MOVED THE GROCERIES' DUE DAY to Saturday (counted in the to-do list looked up,
  not in what was told); "and the other one to wednesday" then asked which task.
- "bring it forward to friday", just after "the high priority one, when's that due again?"
  (answered, wrongly, with the groceries), MOVED THE DENTAL CLEANING to Friday.
- "give that one friday", after "which of them still has no date on it?" met "I can't help
  with that", gave the CAR INSURANCE (the to-do last changed) Friday, not the eye exam.
- "and the first one, anything I should know before I go?", after "can you push it back an
  hour" (of the haircut just asked about) had asked when, MOVED THE CLEANING an hour later.
- "actually cancel the second one, I'll see how the first goes", after two physical therapy
  sessions were booked, asked to cancel the DENTAL CLEANING, and "yes please" CANCELLED it
  (counted in the visits looked up to check the bookings' times, which were never read out).

Wrong words: "the second one - what time was that again?" read out every visit; "so what have
you changed today, all told?" said "your dental cleaning was moved and your dental cleaning
was moved"; "yes, friday, same time" after the move said "your consultation was moved"
without where; "is that at the same place as my cleaning?" told only the cleaning's place.

Misses: "and whereabouts is it?", "what's the address for those?", "how many are left on
there now?", "which of them still has no date on it?", "and the one before that?" (a bill)
met "I can't help with that"; "and my phone number is still the same one, yeah?" asked for
a new number; "ok, go ahead with the email" after a question had let the change go met "I
can't help with that"; "hang on, remind me when my cleaning is first" to "When would you like
your eye exam?" was taken as no time, and "the eye exam the day after that, at 3" read out
the visits; "late morning, say 11" after a move to Saturday, "yes, same time as it was" to
"When would you like your haircut?", "put the call on the day before that", "I want to change
the groceries one" were not understood; "ok, back to the groceries, yes delete it" asked the
held delete again; "whatever's due this week" beside two other asks was not read.

Fixed (general rules, see CHANGELOG): the items of two kinds an answer told one each of are
kept in the dialogue state in the order spoken (Dialogue.told), and "the first one", "the
second one", "the other one" count in them (ordinals.py, read before anything else reads the
message, by planner and narrator alike); whether a listing was read out is kept
(Dialogue.listed_heard), and "the second one" just after two were booked or added, or one of
them changed, counts in those made when no list was heard; a clause of the customer's own
("I'll see how the first goes") asks nothing of the one it counts (references.py); "it"
after a to-do was talked of is that to-do before a visit talked of earlier (references.py),
and the one item a one-sentence answer spoke of is in focus (dialogue.py); "the high
priority one, when's that due?" names that to-do; "the second one, what time was that?" is
asked once, of it by name; "and the X, anything I should know before I go?" is of the visit
named (questions.py); "and the groceries task to wednesday" after a visit was moved (and
"and the haircut to saturday" after a to-do's day) is the same move (same_again.py);
"whereabouts", "the address for those", "how many are left on there", "which of them has no
date" (only those told), "is my phone still the same", "what did I say the email was" are
read (question_words.py, topic.py, tasks.py); "go ahead with the email" takes up the change
let go, only if it is the email's (language/confirm.py, engine.py); a case whose words end
on "it" with one bill in view names the bill (references.py); what was changed is told with
where a visit went, a yes with nothing held says where, "did that save?" of a to-do tells
its new day (retries.py, write_memory.py, last_write.py). Kept phrasings decide the same
(`bench.decisions --dump` before and after): one decision changed, "the first one, what
time is it again" with the visits listed is answered with that visit's time at once (it
read the visits out again). 12/21 sessions (76/94 turns).

Six sessions (ids u16b-, 23 turns) were then written after those fixes and not tuned on.
FIRST RUN: 3/6 sessions (18/23 turns). WRONG WRITE: "and the first one high priority", after
"make the second one due friday" of the two to-dos just added, made BUY GROCERIES high
priority (counted in the whole list, the change of one of those made not counted as
keeping them in view). Misses: "which one is on the weekend?" to "Which appointment should I
cancel" met "I can't help with that", and "that one then" too; "did that save?" after a
to-do's day was moved said "Renew car insurance was changed" without the day. Fixed: the
count in those made holds after one of them is changed (ordinals.py), and "did that save?"
tells the day: 5/6 (20/23). Now 17/27 sessions (96/117 turns); KNOWN_OPEN says what is
left (no write wrong: what is left writes nothing or asks). Said at once, "book … thursday at
4pm. And another one the week after, same time" books the first only (test_said_at_once.py).

Taken from KNOWN_OPEN with the seventeenth set (tests/e2e/test_unseen17.py): "ok, back to the
groceries, yes delete it" runs the delete a question let go (the thing gone back to must be
the one the question named); "and the one before that?" just after a bill was told is the
bill before it; "which one is on the weekend?" to "Which appointment should I cancel?" tells
the haircut and asks again, and "that one then" holds its cancel; "yes, same time as it
was" to "When would you like your haircut?" just after it was cancelled books it at the time
it had, and "so it's on again?" is answered; "late morning, say 11" just after "When would
you like to move it to?" → "saturday" moved the haircut there at its own hour is that hour,
and "so where does that leave it?" is answered; "…, what I owe and whatever's due this
week" reads the to-dos too; "is that at the same place as my cleaning?" tells where each
of the two is. Now 24/27 sessions (108/117 turns).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN16: Path = DATA / "conversations_unseen16.jsonl"

KNOWN_OPEN: list[str] = [
    # "hang on, remind me when my cleaning is first" to "When would you like your eye
    # exam?" is taken as no time given, and "the eye exam the day after that, at 3" (the day
    # after the cleaning just asked about) reads out the visits; nothing is written
    "u16-eye-exam-when-answered-late",
    # (u16-call-task-day-before-renewal passes since leftopen15: the renewal asked after is
    # in focus, though "Call the insurance company" shares a word of its title)
    # "I want to change the groceries one", "the date", "thursday" asked in parts, and "bump
    # the priority up on it" are not understood; nothing is written
    "u16-groceries-changed-in-parts",
]


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the sixteenth unseen set passes: nothing is written unasked, on a
    wrong day, lost or doubled."""
    assert len(read_cases(UNSEEN16)) == 27
    _, failed = await score(make_assistant, crm_admin, UNSEEN16, capsys)
    assert failed == KNOWN_OPEN
