"""Every kind of question the assistant asks, answered in every way customers answer.

Through the websocket and the real CRM stub.

tests/data/conversations_replies.jsonl (41 sessions, 100 turns, ids rp-): the questions the
assistant asks, found by asking it things (not by reading the rules): which appointment
(several match), which task, when would you like it, what time on <day>, what time in
that part of the day, morning or evening, are you sure (cancel, delete), the new email or
phone read back for a yes, what's the new number, what should the task say, a date not on
the calendar, a time already passed, a support case offered, what's the problem (a case),
"that overlaps, book it anyway?", and when to move it to. Each answered in a way the
earlier sets did not: a correction inside the answer ("the cleaning, no wait, the other
one", "3pm, oh sorry 5pm", "evening, no sorry, morning", "oh sorry, it's maria@newmail.com",
"call the dentist, no wait, call the vet"), the answer plus another ask ("10am, and what do
I owe?", "6 in the morning, and add a task to bring my ID", "yes, and my email to ... too"),
a question back ("which is earlier?", "what times do you have?", "which do you have?",
"will I be charged for cancelling?", "how late are you open on friday?"), a partial answer
("the afternoon"), the answer said by position or description ("the second one", "the one
on sunday", "the later one", "the first one", "the one with no date", "the insurance one"),
an answer that changes the request ("actually make it a massage instead, at 2pm", "yes,
well actually can you move it to saturday at 4 instead", "no, just mark it done", "no,
make it 4:30 instead", "yes but make it 4"), a hesitation then the answer over two turns
("hmm let me think" -> "ok, eleven thirty in the morning"; "hmm, well, it's hard to
explain" -> the problem), a no with a reason ("no, I still need to buy them", "no thanks,
I'll call them myself"), other formats ("half two", "quarter to four", "four one five, five
five five, zero one nine nine", "the first of march then", "tomorrow same time", "the day
before, same time"), and an unrelated ask while a question is open. The aside is expected
to leave the question waiting when it only reads ("hold on, when's my haircut?", "wait
what's the email you have for me?", "will I be charged for cancelling?"), and to let a
held yes go when the customer turns to something else ("actually, what's on my to-do
list?" then books a haircut: the cleaning stays). Every turn checks the CRM: both seeded
visits and how many of each service are booked, the four tasks, new tasks and their days
and words; the tickets, the phone and the email after the turns that write or may ask to
write them and after each session's last turn (any other turn that wrote one would fail
its exact `writes`; reading them every turn made the file slower than the others).

FIRST RUN, on the code as it was: 24/41 sessions (74/100 turns), with 4 WRONG WRITES and a
lost change. "hmm, let me think", said to "What should the task say?", ADDED a task "Let me
think"; "hmm, well, it's hard to explain", said to "What's the problem you'd like me to
report?", OPENED a support case "It's hard to explain"; "how late are you open on friday?",
said to "When would you like to move it to?", MOVED the dental cleaning to Friday at 10 AM;
"yes but make it 4", said to "That overlaps your haircut at the same time. Do you want me to
book it anyway?", BOOKED the overlapping haircut at 2:30 and then moved it to 4:00 (two
writes, the first not asked for). "yes, and my email to maria@new.com too" (to the phone
read back) changed the phone and LOST the email, and the next "yes" was told nothing waited.
Two checks of mine were unfair and corrected after that run: three turns wanted "2:00",
"4:00", "9:00" where "2 PM" was said, and two sessions were written to answer "morning or
evening?" after "at 8" and "at 9", which the assistant reads as morning without asking (a
fair reading), so they were said "at 6" and "at 7": 27/41 (80/100). That run showed one
more lost change: "6 in the morning, and add a task to bring my ID" added the task and
dropped the booking it answered.

Misses in that run: answers by position or description to "which appointment?" ("the
later one", "the cleaning, no wait, the other one") and a question back ("which is
earlier?") met "I can't help with that"; a read-only aside ("hold on, when's my
haircut?", "wait what's the email you have for me?") dropped the open question, so "ok,
the insurance one" and "morning" were not understood after it; "10am, and what do I owe?"
booked and left the balance unsaid; "actually make it a massage instead, at 2pm" was read
as moving a massage; "the day before, same time" was not understood as a time.

Fixed (general rules; see CHANGELOG). Wrong writes: a reply that only puts its answer off
("hmm, let me think", "it's hard to explain", "I'm not sure yet") fills no title, problem
or time, and the question is asked again ("Sure, take your time"); the answer said next
answers it (models/embedded/followup.py only_hesitates). A reply to a question about a
time that asks a question back with a question word ("how late…", "which…") fills no time.
"yes but make it 4" (or "ok but move it to…") is no plain yes: the held booking is made at
the new time only (language/confirm.py, followup.held_booking_retimed). Lost: after a yes,
the other contact detail named with its value ("and my email to … too") is asked about
(confirmation.request_after_yes, said_before.new_contact); an answer joined by "and" to
another ask ("10am, and what do I owe?", "6 in the morning, and add a task…") fills the
question with the words before "and" and asks the rest too (followup._answer_then_more).
Lost thread: a question that only looks something up, said while a question is open and
answered, leaves that question waiting for the next reply (followup._past_an_aside; never
for a yes). Misses: "the later one", "the earlier one" name a visit by its time; a reply
to "which one?" put right inside itself is read from its last part, and "the other one"
is the other than the one said first (which_answered.named_in_answer); a reply to "what
time?" that swaps the service ("actually make it a massage instead, at 2pm") books that
service, and one that says the time as a change ("make it 3pm instead") books at it
(followup._swapped). Kept phrasings read the same: `bench.decisions --dump` before the
first rule change and after each, no decision changed. Then "the day before, same time"
(and "a day earlier", "an hour later") said to "when would you like to move it to?" moves
the visit by that much from its own time, as when said with the move (followup._fill).
Now 40/41 (99/100 turns).

Nine sessions (ids rp-b-, 23 turns) were written after those fixes and not tuned on:
an hour naming the visit ("the 10am one"), "eleven o'clock", a title with a question after
it, a no with a change of mind, an email put right by one word ("gmail not gmial"), "in
the evening please, and remind me to bring cash", a hesitation after "that time has
passed", "the last one" for a task, and a look-up between "when?" and its answer. FIRST
RUN: 9/9 sessions (23/23 turns), no wrong write.

Played through the sets that rework every written session (tests/e2e/test_said_in_two.py,
test_said_aloud.py, test_another_day.py), two reworkings of these sessions are left open
there, none a wrong write (see their KNOWN_OPEN), and the session left open here is not
played on other days (conversations.FAILS_AS_WRITTEN).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

REPLIES: Path = DATA / "conversations_replies.jsonl"

# ("which is earlier?" asked back to "which appointment should I move?" is answered, the
# question kept open, and "ok that one then" moves the one told of: tests/e2e/test_leftopen6.py)
KNOWN_OPEN: list[str] = []


async def test_replies_to_every_question(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the replies set passes: nothing is written unasked or wrong."""
    assert len(read_cases(REPLIES)) == 50
    _, failed = await score(make_assistant, crm_admin, REPLIES, capsys)
    assert failed == KNOWN_OPEN
