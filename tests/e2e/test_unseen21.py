"""Conversations nobody tuned for: a twenty-first set, typed into a chat widget.

Through the websocket and the real CRM stub.

tests/data/conversations_unseen21.jsonl (42 sessions, 146 turns, 3-5 turns each). The first
29 (105 turns) were written before the rules were read: typos ("cancle", "tmrw", "appt",
"wendsday", "consultaion", "priorty"), emojis and "lol", corrections typed as a new message
("*friday", "sorry I meant thursday", "not 3, 4", "lol no the haircut", "*0198 sorry"), a
request split over two messages ("can you move my" / "haircut to saturday", "i need to
cancel" / "the cleaning on wed"), a message that only adds a detail ("at 10", "at 2pm"),
"same for the cleaning", "and the other one too", text pasted from an email or a calendar
("Dental Cleaning — Wed, Jan 16, 10:00 AM — please reschedule", a calendar entry with its
place, a list of visits above the request), questions about what was just said ("wait which
day did you say?"), and a thumbs up as the yes. Every turn checks every service's visits
ahead and cancelled, every task, the tasks added, the cases opened, every invoice, the phone
and the email.

FIRST RUN, on the code as it was: 12/29 sessions (68/105 turns). WRONG WRITES:
- "and the other one too" just after "done with groceries ✅", two to-dos left, completed
  BOTH of them (Renew car insurance and Schedule eye exam);
- "can u remind me the address" (of the haircut just told) added a to-do "The address";
- a list of visits pasted above "can you move the haircut one to monday same time" BOOKED a
  haircut on Sunday at 10:00 (the pasted days and hours read as a booking; nothing moved);
- "sorry I meant thursday" just after a checkup was booked "wendsday the 23rd" moved it to
  Thursday the 17th, a week before any day said (the 24th was meant).
Held for a yes though never asked: "Dental Cleaning — Wed, Jan 16, 10:00 AM — please
reschedule" held a second cleaning at that very hour ("book it anyway?").
Misses: "*friday" and "not 3, 4" were not understood or let go; "wait which day did you
say?" and "wait what time did u say?" met "I can't help with that" (four sessions); "👍"
to "Are you sure…?" let the cancel go, and after a booking met "I didn't quite catch that";
"and the other one too" after a visit was cancelled read the visits out; "to fri same
time" after the pasted line asked which visit; "lol no the haircut" and "no, the haircut"
while a cancel of the cleaning waited let it go; "no wait keep the cleaning actually" asked
about the cancel again; "*0198 sorry" let the new number go (and the yes then asked about
0199 again); "at 10" after "can you move my" / "haircut to saturday" asked instead of moving.

Fixed with general rules (see CHANGELOG), wrong writes first: "the other one"/"the other
task" is one, and with two or more left which is asked (the answer then done the same);
"remind me (of) the address / time / day …" asks for it; visits pasted from an email or a
calendar are read apart from the request (the request alone, the one visit pasted named in
it, its day and hour only for a booking); "I meant <weekday>" puts the day right in the week
of the day it corrects. Then: a typed "*word" and "not X, Y" are "sorry, I meant …"; "which
day / what time did you say" repeats the last answer; a thumbs up, an OK hand or a tick is
"ok"; "and the other one too", "the cleaning as well" after a visit was cancelled or moved
do the same to it; a laugh typed first is an opener; "no, the haircut" while a cancel waits
asks about the haircut instead; "keep the cleaning" is a no; an hour alone after a move cut
over two messages gives the move its hour. 29/29 (105/105 turns).

Written after the fixes (u21b, 7 sessions, 22 turns), FIRST RUN 5/7 (17/22 turns). ONE
WRONG WRITE: "can you push my" / "cleaning to friday pls" / "11am" BOOKED a second cleaning
on Friday at 11 (the cut-off "push my" was read as a move of nothing, asked when; "cleaning
to friday" was then read as a new booking). The same booking followed "can you push it" or
"i want to reschedule" → "When would you like to move it to?" → "cleaning to friday".
Miss: "Annual Checkup — Thu, Jan 24, 9:00 AM — can u book this for me?" asked when.
Fixed: an ask cut off after its verb ("can you push my") is asked about before the grammar
reads it; a reply naming a visit and a day to "When would you like to move it to?" is the
move of that visit (a booking only when one is said); a booking asked of a pasted visit is
at the day and hour pasted. 36/36 (127/127 turns).

Found by probing after that (u21c, 6 sessions): a WRONG WRITE, "Reminder: your Haircut is on
Sun, Jan 20 at 2:30 PM" pasted above "need to cancel it sorry" added a to-do "Your haircut
is need to cancel it sorry" due Sunday (a reminder's sentence of when a visit is, "is" and
all, was taken for an ask). A part that says a day or an hour and asks nothing of its own
is pasted: the cancel of the haircut is asked. And a miss: "add task call dentist" then
"tmrw" asked what was wanted on Tuesday; a day said alone right after a to-do was added with
no day is the day it is due; "oops wrong one, the eye exam" just after the insurance was
marked done read out the appointments: it is "sorry, I meant the eye exam" (done, and the
insurance said to stay done, as none is reopened here). 39/39 (136/136 turns).
Two more found by probing (each failing on the code before this set): a WRONG WRITE on the
yes, "can u cancel the cleaning and the haircut, actually just the cleaning" held both
cancels and "yes" CANCELLED THE HAIRCUT too (now the one kept is asked: "X and Y, actually /
no wait / jk just X" is "X"); "the 2nd one is done lol" after the to-dos were read met
"I can't help with that" (a place typed "2nd" before "one", and a laugh after the request,
are read as "second" and left out). And a WRONG WRITE: "and the other 2 too" just after one
of four to-dos was marked done COMPLETED ALL THREE left ("2" was no count: "the other" was
read as every one); it is asked about now, and "and the other one too" after a to-do was
deleted asks which, as after one was done. 42/42 (146/146 turns).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN21: Path = DATA / "conversations_unseen21.jsonl"

KNOWN_OPEN: list[str] = []


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the twenty-first unseen set passes: nothing is written unasked, on a
    wrong day, to the wrong visit or to-do, lost or doubled."""
    assert len(read_cases(UNSEEN21)) == 42
    _, failed = await score(make_assistant, crm_admin, UNSEEN21, capsys)
    assert failed == KNOWN_OPEN
