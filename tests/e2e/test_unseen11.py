"""Conversations nobody tuned for: an eleventh set, long ones, written before the rules.

Through the websocket and the real CRM stub.

tests/data/conversations_unseen11.jsonl (32 sessions, 203 turns) is about keeping the
thread over long conversations (5-9 turns each). It has pronouns and short references
many turns after the thing was named ("so about that appointment…", "the mom one", "the
task from before", "the first one I booked", "same for the dentist", "what about thursday
then, same time?"). Topics switch and come back, and a read after writes ("what does my
week look like now") must show those writes. It has corrections of something said turns
earlier ("the task I added first should say buy conditioner not shampoo", "no, I meant
the 21st earlier, not the 20th"). Questions stay pending while the customer asks
something else ("what time?" → "what's my balance first?" → "ok, 3pm"; "which one?" →
"wait what time is my dentist at" → "ok the dentist one then"), and a yes comes late. There
are undos of one of several changes ("actually undo the plants one"), "one more like
that", a repeated ask, "what did you say?" to a question waiting for its yes, and
greetings, thanks and chit-chat between asks. Every turn checks the CRM: both seeded
visits and how many of each service are booked, the four seeded tasks, the new ones
(title words, day, count). The tickets, phone and email are checked after the turns that
may write them and after each session's last turn (any other turn writing them fails its
exact `writes`).

FIRST RUN, on the code as it was (26 sessions then): 9/26 sessions (110/163 turns).
Reading every answer showed wrong words the checks let through, so they were tightened
before any fix: no "didn't catch" on any turn, "Pay that" is no title, "It:" opens no
case, and "read me my list" must name what was added. That gave 5/26 (102/163). Two
checks were unfair and were corrected. "Pick up contacts after the eye exam" is a good
title (the check barred "after"). "You have nothing booked on Friday. Your next
appointment after that is a haircut on Sunday" answers "do I have anything else on
friday?" (the check barred "haircut").

WRONG WRITES in that run:
- "no, I meant the 21st earlier, not the 20th" set the new task's due date to the 21st.
  This came after booking a consultation on the 20th, adding a task for it and asking the
  balance; the consultation stayed on the 20th.
- "ok make that one due friday instead", after "when's the car insurance one due?", moved
  the passport task added before.
- "move the first one I booked to 11" moved the dental cleaning (the first visit listed),
  not the haircut booked first.
- "wait what time is my dentist at", said to "Which appointment should I move?", MOVED the
  dentist.
- "ok then make it 2pm so I can do both" moved the dentist instead of booking the
  consultation whose time was asked.
- "add a reminder to floss the night before" added "Floss the before", due today.
- "remind me to bring my glasses the day before" was due the day before the bill's due
  date: the eye exam had not been booked, because "ok, 3pm" after "what's my balance
  first?" met "I can't help with that".

Wrong words: "add a task to pay that" titled "Pay that". "I was overcharged on my last
bill, can you open a case about it" opened "It: i was overcharged…". "ha, busy week. how
much do I owe again?" and "ok back to the first thing I asked about, …" were told they
were not understood. "and when's my eye exam task due" read out every visit and task.
"what does my week look like now" after adding a task read the tasks, not the visits.

Misses: "actually the task I added first should say…" (the list read out); "and one to
water the plants on wednesday", "one more like that for the electrician"; "same for the
dentist"; "no, the other one" (to a cancel waiting for its yes) let the cancel go; "sorry,
what did you say?" let a cancel go and "yes do it" then found nothing waiting;
"actually undo the plants one"; "and do I have anything else that week?", "what does friday
look like now", "what's the address of the eye place", "and the plumber one, what day is
that?" met "I can't help with that".

Fixed (general rules, see CHANGELOG). A correction that denies the day a visit was booked
on, not the task's, changes the visit (models/embedded/corrections.py). "That one" after
asking about another item since the last change is that item. A title correction names
the task "I added first". "The task from before" is the one written before the task in
view. "The first one I booked/added" counts what was made in the conversation
(write_memory keeps what was made). A question while "which one?" is open answers nothing
and keeps the question open (models/embedded/which_answered.py, assistant/dialogue.py).
"Make it 2pm" while a booking's time is asked completes that booking
(models/embedded/followup.py). "The night before" is the day before (language/as_meant.py).
A time question stays open through a question of the customer's own. "What does my
week/friday look like" reads the calendar (language/lookups.py). "Pay that" names the bill.
A case "about it" takes the words said first. "And one to…" and "one more like that for
…" after an added task add another. "Same for the dentist" after a move to another hour
the same day moves that one to the same hour on its own day. "No, the other one" aims a
held cancel at the other. "Sorry, what did you say?" asks a held change again
(assistant/engine.py). "Undo the plants one" undoes that earlier change. Laughs and "back
to …" are remarks. "The eye place", "the hair place" are services. A task named after a
visit ("my eye exam task") is asked about as a task. Now 24/26 (161/163 turns).

Six sessions (ids u11b-, 40 turns) were then written after those fixes and not tuned on.
FIRST RUN: 3/6 sessions (29/40 turns), with 2 WRONG WRITES:
- "ok, push the second one to wednesday the 23rd" moved the HAIRCUT to the 23rd. This came
  after the task list, "when is the second one due?" and the balance; the second task was
  meant.
- "actually put the haircut back where it was" put the DENTIST back (it was the last
  move); the haircut had not been moved, because "and the haircut to the same day at 4" was
  not understood.

Misses: that elided move; "what does next week look like for me?"; "do i have anything
else that day?" while a time was asked.

Fixed: a position with no list of that kind in view counts in the list heard before it (a
task listing, not the visits); "put the X back" never puts back another visit; "and the X
to the same day at 4" after a move moves X to that day; "next week" looks like the
calendar. Now 29/32 sessions (200/203 turns); KNOWN_OPEN says what is left (questions,
no write).

Played by the variant tests, the set showed more WRONG WRITES, now fixed:
- "add a task to pick up the dry cleaning tomorrow. And one to water the plants on
  wednesday" added one task titled with both.
- "… on saturday. Oh wait, the cake is for sunday not saturday" and "… on thursday. One
  more like that for the electrician" garbled the title.
- "ok good." alone, to "I already added 'Buy dog food'… add it again anyway?", added it
  twice: glad of it is no yes to a duplicate.
- "oh wait, the cake is for sunday not saturday", after a message that completed the
  groceries and added the cake, looked for a task "wait" to complete: the one of the last
  turn's changes that the correction names is corrected.
- "move my cleaning to tuesday at 9. Hmm actually that's too early in the week. what about
  thursday then, same time?" moved it to Tuesday: a reason said between is skipped.

Kept phrasings decide the same: `bench.decisions --dump` before and after, no decision
changed. Merged with main (which reads "keep the X" as asking nothing), "ok never mind,
keep the haircut" was answered "Okay, no problem"; it now says the haircut is left as it
is.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN11: Path = DATA / "conversations_unseen11.jsonl"

KNOWN_OPEN: list[str] = [
    # "hold on, is that the one with no date?" while a delete waits for its yes: the delete
    # is let go (as anything but a yes lets it go) and the question is left unanswered;
    # "yes, delete it" next asks and deletes as usual
    "u11-delete-checked-then-one-more",
    # "is that the same day as my dentist?" while a booking's time is asked: read as "is
    # that on January 16?" (the dentist's day), which no rule answers; the time is asked
    # again with "I didn't catch that", and "ok then make it 2pm" books it
    "u11-same-day-as-my-dentist",
    # "do i have anything else that day?" while the checkup's time is asked: "that day" is
    # not read as the day asked about; the time is asked again, and then booked
    "u11b-checkup-time-asked-day-checked-then-fast",
]


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the eleventh unseen set passes: nothing is written unasked or wrong."""
    assert len(read_cases(UNSEEN11)) == 32
    _, failed = await score(make_assistant, crm_admin, UNSEEN11, capsys)
    assert failed == KNOWN_OPEN
