"""Conversations nobody tuned for: a ninth set, written before the language rules were read.

Through the websocket and the real CRM stub.

tests/data/conversations_unseen9.jsonl (43 sessions, 105 turns), leaning
on what the earlier sets said less: several asks in one message, each with its own object
and change ("cancel the haircut, move the cleaning to friday and tell me what I owe"),
and asks that refer to each other ("an eye exam the day after my cleaning", "the haircut
to the same day as the eye exam, an hour later", "a task … due the same day as the car
insurance"); a thing just made, then named ("add a task to call the bank" then "make it
high priority", "actually it's due friday", "delete that"; "open a case about my bill"
then "what's its number?", "add a note to it"); questions about the past and about this
conversation ("what did I have last month?", "did that go through?", "what have you
changed so far?"); the customer's own details changed, read back and changed again, the
old value said by mistake; asks to refuse or ask about (a spray tan, not offered; a task for
an assistant; "the 31st of february"; "last friday"; a new postal address; paying now) and
push back ("no, I said thursday"); voice transcripts and terse, cross customers. Each
turn carries the CRM it must hold: both seeded visits and how many of each service are
booked, the four tasks and any new one (and how many new tasks in all); the tickets,
phone and email after the turns that write or ask to write them and after each session's
last turn (any other turn that wrote one would fail its exact `writes`).

FIRST RUN, on the code as it was: 20/33 sessions (62/83 turns), with 4 writes the checks
called wrong, 3 WRONG WRITES once an unfair check was put right: "can I book a facial for
thursday at 2" booked a Facial (written as a service not offered; it is offered here, see
below); "hmm, change maria.garcia@example.com to
maria.g@proton.me instead" (the email on file was by then maria.g@gmail.com) asked
"change your email to maria.garcia@example.com?" and "yep" wrote the old address back,
the new one lost; "add a task to renew my passport, due the same day as the car
insurance" added "Renew my passport, due the same day as the car insurance" with no due
date; "book me another haircut for saturday at that same time", after "when was my last
haircut?" (November 15, at 11), booked Saturday at 2:30 PM, the hour of the haircut ahead.
Reading every answer then showed wrong words the checks let through (tightened before
any fix): "book an eye exam the day after my cleaning, 3pm if you can" booked 3 PM and
then said "I didn't catch what you meant by '3pm', so I haven't done anything about it";
booking an eye exam and moving the cleaning in one message read out "You have two
upcoming appointments" twice, the second time after the third was booked; "open a case
about my bill please, …" opened "My bill please, I think …"; "add a note to it" (the
case) answered "I can't add notes to a booking"; "give my assistant jenna a task …" read
the task list out and said nothing of Jenna; "what time is the cleaning again?" after
the haircut was moved to the day before it said "You have one more after it" (there was
none); "what do I owe and can I pay it now?" said the balance and nothing of paying. Two
checks were unfair: "book a haircut for last friday at 10" answered "That time has
already passed. When would you like it instead?" (the check wanted "haircut"; now
"passed"); and a facial IS offered here (the lexicon's services, booked by earlier sets),
so booking it was right: that session now asks for a spray tan, which is not offered
(refused at once, as it should be). After that: 17/33 sessions (56/83 turns).

Misses in that run: "what's its number?" after a case was opened, "what did I have last
month?", "what do you offer then?", "it's 415 555 0132, not 0123" (after "I gave you the
wrong one"), and "what have I got left then?" met "Sorry, I can't help with that";
"cleaning. thursday. same time." asked what time; "and move the haircut to the same day
as the eye exam, an hour later" asked which visit and then held a move to the eye exam's
own hour as an overlap; "what have you changed so far?" told the last change only; "book
a haircut straight after it" and "rebook it, same time" (the cancelled consultation)
asked when.

Fixed (general rules, see CHANGELOG). Wrong writes: a detail followed by "to" and another
of its kind ("change X to Y", "swap X for Y") is the one changed from, even when no longer
on file; a task due "the same day as / the day before / the day after <a task>" is
counted from that task's due date (the tasks looked up first), and the words leave the
title; a visit named with "last" ("when was my last haircut?") is the one gone by, so
"that same time" is its hour. Wrong words: the answer reads a day counted from a visit as
the planner did (the message was read a second way, as a question, by the narrator); a
visit in two listings of a turn is counted once; "please" is no part of a case's subject;
"add a note to it" just after a case was opened says a case cannot take notes; a task
for someone else ("give my assistant jenna a task", "assign it to my husband") says only
the customer's own list is kept; paying asked beside a question is said not to be taken.
Misses: what is offered is told; "what did I have last month / in november" tells the
visits of that span; "what have I got left then"; "it's X, not Y" and "I gave you the
wrong one. it's X" change the detail (asked first, as every contact change); "what have
you changed so far?" tells every change of the conversation; "what's its number?" tells
the case's number; a visit, a day and "same time" said with no verb move that visit;
"the same day as <visit>, an hour later" counts the hour from that visit; "straight after
it" is when that visit ends; "rebook it, same time" books the cancelled visit when it
was. Now 33/33 (83/83 turns).

Ten sessions (ids u9b-, 20 turns) were then written after those fixes and not tuned on.
FIRST RUN: 4/10 sessions (13/20 turns), with 1 WRONG WRITE: "uh add two things to my list
um call the plumber and uh pick up the kids shoes on friday" added one task, "Two things",
due Friday (the two named lost). Played with two turns said as one message
(tests/e2e/test_said_at_once.py), one more WRONG WRITE showed: "add a task to water the
plants. Actually make that due tomorrow and high priority" added nothing and made "Buy
groceries" (the task due tomorrow) high priority. Misses: "what did I just change it to?"
after an email change said "Your contact details are up to date"; "cancel my eye exam and
move my haircut to 4" (no eye exam booked) said "I couldn't find an appointment like that"
and offered the haircut at its old hour (a wrong word: it had just moved); "no no, I meant
the haircut. put the cleaning back" read the visits out; "what did I just report?" and
"what's the number on that one?" met "I can't help with that"; "book the same thing this
saturday at 11" (after the November haircut was told) asked what to book.

Fixed after that run (general rules): "add two things / a few things to my list, A and B"
adds each as its own task, as "add two tasks" did; "<add a task>. Actually make that due
tomorrow and high priority" puts each detail right in the task added; the change made to
a contact detail is told back with its value; a visit named that is not booked is said
so by name, and the others offered as this turn's writes left them; "I meant the
haircut" just after the cleaning was moved puts the cleaning back and moves the haircut
to that time (the overlap check knows the cleaning leaves it); "what did I just report?"
is what was done; "the number on that one" is asked of the case; "book the same thing"
is the service of the visit talked about. Now 43/43 (105/105 turns).

Played every way the variant tests know, all at once (402 variants: two turns said as one
message or one said in two, and each rewording of tests/e2e/test_said_otherwise.py), four
failed and no write was wrong: "book an eye exam the day after my cleaning, 3pm if you can.
And move the haircut to the same day as the eye exam, an hour later" moved the haircut at
its own hour, "an hour later" said not understood (a second day counted from a visit the
same message books is now counted too). Open (misses, said in the test files that play
them where they do): "… And book a haircut straight after it" asks the haircut's time
(the cleaning's new end is not known before the message moves it); unpunctuated, "cancel
the haircut move the cleaning to friday and tell me what i owe" and "groceries done delete
the eye exam one" do the rest and leave the first ask unsaid.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN9: Path = DATA / "conversations_unseen9.jsonl"

KNOWN_OPEN: list[str] = []


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the ninth unseen set passes: nothing is written unasked or wrong."""
    assert len(read_cases(UNSEEN9)) == 43
    _, failed = await score(make_assistant, crm_admin, UNSEEN9, capsys)
    assert failed == KNOWN_OPEN
