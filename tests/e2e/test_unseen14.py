"""Conversations nobody tuned for: a fourteenth set, whole calls to a small clinic and salon.

Through the websocket and the real CRM stub.

tests/data/conversations_unseen14.jsonl (22 sessions, 84 turns, 2-6 turns each) was written
from crm_stub/seed.py (Maria's cleaning on Wednesday at 10, her haircut on Sunday at 2:30,
her three pending tasks, her $150 open bill, her open case, her phone and email) before the
rules were read, each session one caller with a goal: a parent booking her son's eye exam
and moving her own haircut beside it, an elderly caller who asks the same thing again, an
angry caller about a charge, a rushed one who says three things in one breath, a trip that
moves several things, a mind changed twice, a caller who only wants to know and must get
no write, cancels and deletes that wait for their yes (and one taken back), asks needing
two to four lookups at once, a phone number corrected before its yes. Every turn checks
the CRM state it must hold: every service's visits ahead and their times, every task's
status, day and priority, how many tasks were added and their words; the cases opened
and the phone and email on every turn of a call that talks of them, every invoice on
every turn of a call about bills, and all of it on a call's last turn (every turn's
exact list of writes catches a write of any kind the turn it is made; no tool changes a
bill). The file plays in about 2.5 s of CPU, like the thirteenth set.

FIRST RUN, on the code as it was: 7/22 sessions (46/84 turns). Reading every answer
showed wrong words two checks let through, tightened before any fix: "can I get my
haircut done the same day as my cleaning, right after it?" read the visits out twice and
answered nothing (it must say a time or ask one); "Hello dear. When is my next
appointment?" said "I didn't catch what you meant by 'dear'". One check was unfair and was
corrected: "I didn't change your phone number to …0188. Are you sure you want … 0189?"
said the number put right (the check forbade "0188"). Still 7/22 (46/84).

WRONG WRITES in that run:
- "could I move it to saturday if I wanted to? don't do it, I'm just asking" MOVED the
  haircut to Saturday ("Done. Your haircut is now on Saturday…").
- "and mark it high priority" (a to-do just added) MARKED IT DONE.
- "good. also remind me to stop the mail before I go, put it for tomorrow" made the
  groceries task due tomorrow and added no task ("it" was read as the task in view).
- "no wait, her birthday's friday, so make it thursday" made the to-do due FRIDAY.
- "and remind me two days before to fast, no actually the day before, not to eat after
  midnight" added "Fast, no actually the day before, not to eat after" due two days before
  the checkup (Sunday), not the day before.
- "my son needs an eye exam, can you book it under my account for thursday at 4? and move
  my haircut to the same day at 5" moved the haircut and LOST the booking (nothing said of
  it); then "he only gets out of school at 3:15. can the eye exam be at 3:30 instead" MOVED
  THE HAIRCUT BACK to Sunday (read as "I meant the eye exam, not the haircut").
- "ok. remind me to pack his glasses case the night before" added "Pack his glasses case
  the before" due the wrong day.
And held for a yes, not written: "and don't you dare cancel my cleaning over this" asked
"Are you sure you want to cancel your dental cleaning…?"; "thanks. and cancel the eye
exam, I'll call back about it" held the cancel but said "I couldn't find an appointment
like that" (a second cancel, of "I'll call back about it").

Wrong words: "wait did all of that go through?" after three changes said only "Renew car
insurance was changed"; "why am I being charged a hundred and fifty dollars?" offered a
case without saying what the $150 was.

Misses: "I'm going to be out of town tuesday through friday this week. what do I have on
during that time?", "I'm sorry, could you say the time once more", "Is there anything I
should do before I come in?", "So that's Thursday at ten, yes? For the eyes?" met "I can't
help with that"; "And that's the dentist, is it? Where do I go for that?" read the visits
without the place; "and the groceries reminder, just put that on saturday" read the tasks;
"my cleaning on wednesday, can I do it in the afternoon instead? like 3?" asked what time,
and "and push the haircut an hour later too" asked it again; "the car insurance renewal, I
need to move that up to this friday" looked for a visit; "ok yes, go ahead and cancel the
haircut" (a turn after the cancel's question was left) asked again; "wednesday the 23rd,
same time" after "When would you like to move it to?" asked which visit.

Fixed (general rules, see CHANGELOG): a change asked about and said not to be made ("…
if I wanted to? don't do it, I'm just asking") writes nothing and says so
(language/scope.py, planner.py); "don't you dare cancel …", "don't even think of moving
…" say what not to do (language/clause.py); "mark it high priority", "mark it as urgent",
"mark it low" set its priority, never done (pinning.py); the day said after "make it" is
the one asked ("her birthday's friday, so make it thursday", corrections.py and
pinning.py); "it", said after a new to-do or visit asked for whole, is that one, not the
one in view (references.py); "<a visit named>, can you book it …" books that visit, and a
time said of another visit than the one just moved is read alone (language/intents.py,
corrections.py); "the night before" is the day before; "N days before …, no actually the
day before" takes the day said last; "I'll call back about it" after a cancel is told,
no second cancel; "in the afternoon … like 3" is 3 pm; "<the X reminder>, just put that
on saturday" moves that one; "what do I have on (during that time)?" reads the visits;
"why am I being charged …" reads the bill; "did all of that go through?" tells each
change; a move asked "when?" takes the day and time answered; "where do I go for that?",
"say the time once more", "so that's thursday at ten, yes?", "anything I should do
before I come in?" are of the visit in view; "hello dear" is a greeting. Kept phrasings
decide the same (`bench.decisions --dump` before and after: no decision changed). One
check was then made fair: "book a consultation on friday at 11 …" no longer needs "11:00"
in the answer (the CRM check holds the hour), as the same turn said with the correction
after it ("… Oops, the consultation should be 11:30 not 11", test_said_at_once.py)
rightly books 11:30. 18/22 sessions (76/84 turns).

Six sessions (ids u14b-, 19 turns) were then written after those fixes and not tuned on.
FIRST RUN: 4/6 sessions (17/19 turns); reading every answer, two checks were tightened
before any fix, giving 3/6 (16/19): "and remind me to bring my insurance card to it",
after a consultation was booked and the balance told in one answer, ADDED "Bring my
insurance card to the dental cleaning bill" (a wrong title: "it" read as the bill); "two
thirty is fine, same as before" said "I didn't catch what you meant". Misses: "where's
that one at?" met "I can't help with that"; "I don't want to change anything, just tell
me if the cleaning bill is paid" looked for a to-do to mark done (and asked "Would you
like me to mark it as done?"). Fixed: a thing brought to "it" is brought to the visit in
view (said_before.py); "tell me if … is paid" asks, never tells a to-do done
(task_rules.py); "where's that one at?" is of the visit in view. Now 23/28 sessions
(94/103 turns); KNOWN_OPEN says what is left (no write wrong: what is left writes nothing
or asks again). Later: "ok yes, go ahead and cancel the haircut" a turn after the cancel's
question was left for another question takes that question up (engine.py: a yes naming
the action and the thing it was asked of); 24/28.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN14: Path = DATA / "conversations_unseen14.jsonl"

KNOWN_OPEN: list[str] = [
    # "And that's the dentist, is it? Where do I go for that?": the first sentence is read as
    # a look at the visits, which are read out without the place; nothing is written
    "u14-elderly-asks-again",
    # "can I get my haircut done the same day as my cleaning, right after it?": the visits
    # are read out twice and no time is offered or asked; nothing is written
    "u14-haircut-right-after-cleaning",
    # "the car insurance renewal, I need to move that up to this friday": a to-do named
    # without "task" with a visit's verb is looked for among the visits, and which visit is
    # asked; nothing is written
    "u14-insurance-due-moved-up",
    # "two thirty is fine, same as before" after "move the haircut to monday" moved it at
    # its own 2:30: "I didn't catch what you meant"; nothing is written
    "u14b-move-haircut-monday-time-after",
]


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the fourteenth unseen set passes: nothing is written unasked, on a
    wrong day, lost or doubled."""
    assert len(read_cases(UNSEEN14)) == 28
    _, failed = await score(make_assistant, crm_admin, UNSEEN14, capsys)
    assert failed == KNOWN_OPEN
