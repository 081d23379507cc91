"""Conversations nobody tuned for: a fifth set written from what customers of a salon or
clinic say, before the language rules were read. Through the websocket and the real CRM stub.

tests/data/conversations_unseen5.jsonl (35 sessions, 71 turns, and 8 written after the fixes,
below): conditional and hedged
destructive asks ("if my dentist appointment is before 10, please cancel it", "I might have
to cancel my haircut, I need to check with work first"), dates said every way ("a week from
tuesday at half past two", "the 3rd at noon", "the end of next month", "this friday at
quarter to eleven", "the 1st of next month"), contact changes said in part ("my number ends
in 42 now", "use my work email instead"), two asks in one message, changes of mind, and
questions about what was just done. Every turn states what the CRM must hold after it.

First run, on the code as it was: 15/35 sessions (49/71 turns), with 5 WRONG WRITES: a task
titled "Pay it" ("remind me to pay it on friday" after "do I owe anything?"); a task titled
"Send the signed consent form, could you note that down"; "make it the end of next month"
made a task due the 1st of February; "could I just move it to the same time next week
instead?" during a pending cancel of the dentist moved the HAIRCUT; and "could I also get a
haircut that same day at 2?" after asking about Wednesday's cleaning booked it today.
One check of the set's own was then corrected before any rule changed: "is that before or
after my cleaning?" answered by a listing that shows both times (9:00 and 10:00) is a true
answer, not only one that says "before". On the code as it was: 16/35 (50/71 turns).

The causes then fixed (general rules, see CHANGELOG). Wrong writes: an ordinal in a saying
("on second thought", "wait a second", "first thing", "last week") counted a position;
"that same day", "the same day", "that day" were today when no day was read into them (now
the day said before in the message, else asked); "the end of next month" was the 1st; an
ask to write a to-do down ("…, could you note that down") stayed in its title, and "…, can
you put it on my list" added a second task titled "Can you"; "pay it" after a billing read
was titled "Pay it"; a condition said as a clause of its own ("if I do, remind me…", "if
it is, could I also get…") was dropped, so the ask after it was made without asking; a
clause with a verb of its own took the action of the clause before ("the groceries are
done, and could you move the car insurance one to friday" was read as completing both).
Wrong words and misses: "what day of the week is that?", "which day is that on?", "what
date is that now?" and "how long is the session?" after a change; "so it's definitely
cancelled?" (now read again from the CRM); "what time should I get there?"; "ok, I'll let
you know" was refused; "so I've got two haircuts on sunday now?" asked the time of a new
booking; a conditional change was asked about without reading out the visit it was about
(now it is, so "if my dentist is before 10" shows it is at 10:00); "delete the eye exam
task, oh wait, …, keep it" asked to delete; "I sorted the insurance yesterday", "could I
come in for my cleaning a bit earlier that day, say 8:30", "put my annual checkup in for
the 1st of next month at 11" were not understood; "if my haircut falls on the weekend, move
it to the friday before" asked instead of moving the weekend's haircut to the Friday before
it (a condition that only names the visit is its target, as "if it's on wednesday" already
was); a yes naming the change ("ok yes, add the reminder") one question after a conditional
change was asked about met "nothing waiting for a yes".
Two sessions' own checks were corrected against the house's documented rule that a change
said on a condition the customer has not seen settled is asked about (tests/e2e/
test_conditions.py): "do I owe anything? if I do, remind me…" and "is my cleaning on
wednesday still on? if it is, could I also get a haircut…" now expect that question, and a
yes turn was added to each so that the write (its title, its day) is still checked.
After the fixes: 35/35 (73/73 turns).

Eight sessions (ids u5b-, 18 turns) were then written after those fixes and not tuned on.
First run: 6/8 sessions (15/18 turns) by their own checks, no wrong write caught by them;
but reading the answers showed one WRONG WRITE the checks let through ("can I book an eye
exam for thursday at noon, and remind me the day before to find my old glasses" added a
task titled "The day before to find my old glasses", undated) and one poor answer ("no,
actually leave it, I'll keep it" after a conditional cancel was asked about met "Sorry, I
didn't catch that" and the question again). Those two checks were then tightened (a
title check that allows the task to be asked about instead; the answer must not say
"didn't catch") before any rule changed. Failing: "would you mind adding a reminder to
drop off the library books by thursday?" (read as a change of a task that does not
exist) and "and my dentist is still wednesday at 10?" after moving the haircut (read as a
new dental booking, held only because it overlapped the cleaning).
The causes then fixed: a relative day said before the to-do ("remind me the day before
to…") is cut from the title and asked, as one said after it was; "adding a reminder"
adds one; "leave it, I'll keep it" is a no; "my dentist" names an existing visit, as "my
cleaning" did, so no booking is read into a question about it. Now 43/43 (91/91 turns).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN5: Path = DATA / "conversations_unseen5.jsonl"

KNOWN_OPEN: list[str] = []


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the fifth unseen set passes: nothing is written unasked or wrong."""
    assert len(read_cases(UNSEEN5)) == 43
    _, failed = await score(make_assistant, crm_admin, UNSEEN5, capsys)
    assert failed == KNOWN_OPEN
