"""Conversations nobody tuned for: a sixth set written from what customers of a salon or
clinic say, before the language rules were read. Through the websocket and the real CRM stub.

tests/data/conversations_unseen6.jsonl (40 sessions, 88 turns as first written, and 8
written after the fixes, below): threads of 3 to 5 turns that refer back ("the second
one", "the first one", "same time but on friday", "that same day", "the earlier one", a
topic switch and a return); corrections ("no sorry, I meant thursday", "not that one, the
haircut", "sorry, 3 not 2", "…, actually forget the reminder, just move…"); contact
changes said in part ("the same as before but it ends in 77", "maria dot garcia at gmail
dot com", "update my phone" with no number, digits in words); voice transcripts (fillers,
"hair cut", "dentest", "tomorow", "canceled", "the twenty third at two thirty", "ten a
m"); questions that sound like commands and commands that sound like questions ("why
don't you just move…", "is it possible to change…", "should I move my haircut to
saturday?"); a read and a write, or a destructive ask and a read, in one breath; and
refusals and changes of mind right after a question ("hmm, no", "wait, let me think…").

FIRST RUN, on the code as it was: 29/40 sessions (71/88 turns), with 2 WRONG WRITES:
"can you set me a reminder for the day before my haircut, actually forget the reminder,
just move the haircut to saturday, same time" added a to-do titled "Actually forget the
reminder", due Saturday (the move itself was right); and "I need a reminder to pick up my
prescription on friday. oh and I had a question about my bill" added one undated to-do
titled "Pick up my prescription on fridayand i had a question about my bill".
Reading every answer then showed wrong words the checks let through: "can you move my
dentest appointment to tomorow at 11" read out the to-do list before the move; "I picked
up the groceries, what else do I need to do this week?" read out the list still holding
the groceries, then "Done"; "hang on, let me find it" and "hmm, no, let's leave it for
now" (to an open question) met "Sorry, I didn't catch that". Those checks were tightened
before any rule changed, and one check of the set's own was corrected: "the online portal
keeps logging me out, can someone look into it" is offered a support case before one is
opened (the house's documented behaviour, as in the first unseen set), so a "yes please"
turn was added and the case is counted after it. On the code as it was: 27/40 (70/89).

The causes then fixed (general rules, see CHANGELOG). Wrong writes: a take-back that
names the ask before it ("actually forget the reminder", "never mind the task", "forget
that") takes that ask back and is never words of its title; a new sentence said of
oneself with an ask of its own after a to-do ("…on friday. oh and I had a question about
my bill") is its own ask (the bill is read), and a joiner that opens a sentence keeps the
space before it ("fridayand"; it also made "that's fine. and the phone?" unreadable).
Wrong words: a one-slip service name ("dentest") is that service; a list read with a
completion, when what is left was asked, is not read out (the completion names what is
left); a pause ("hang on", "let me find it") keeps the open question kindly and a no
("no, let's leave it for now") lets it go. Misses: "…, same time but on friday" after a
booking takes that booking's hour; "physio on tuesday at 9 and on thursday at 9 as well"
is two bookings (it asked "what time tomorrow"); "cancel the earlier one" of the visits
just made is by their times; a to-do moved to "that same day" / "the same day" is due
the day last talked about (the visit's, or the to-do's just set); "yeah go on then, same
time" just after "should I move my haircut to saturday?" makes that move; "my current
one" is the service talked about; "what day's that?" asks the day of the one just moved.
After the fixes: 40/40 (89/89 turns).

Eight sessions (ids u6b-, 15 turns) were then written after those fixes and not tuned on.
First run: 7/8 sessions (14/15 turns), no wrong write, and reading the answers showed no
wrong words. Failing: "any chance you could move my haircut to the morning of the 19th,
like 10?" asked the time (an hour offered after a comma, "like 10", "say 10", was no
hour). Fixed: such an hour, the last thing said, is the time ("…, like 10 of them"
still counts things). Now 48/48 (104/104 turns).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN6: Path = DATA / "conversations_unseen6.jsonl"

KNOWN_OPEN: list[str] = []


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the sixth unseen set passes: nothing is written unasked or wrong."""
    assert len(read_cases(UNSEEN6)) == 48
    _, failed = await score(make_assistant, crm_admin, UNSEEN6, capsys)
    assert failed == KNOWN_OPEN
