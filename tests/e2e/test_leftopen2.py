"""The cases the tenth session left open, played through the websocket and the real CRM stub.

tests/data/conversations_leftopen2.jsonl (ids lo2a-, 29 sessions, 42 turns), two or three
sessions for each of eleven kinds, in words other than those the cases were reported in:
an email change said unpunctuated after the email was read out, "help" with a word around
it, a service not offered but near one that is, "just tell me" after being asked which
number, a task moved to a day and an hour, the time of the one visit in view, a task "the
day before" that visit with an hour, a past visit named by its place, a visit named by its
hour and day, "the same as my last visit", and another day "same time".

First run, on the code as it was: 8/29 sessions (21/42 turns), with 3 WRONG WRITES: "book me
a beard trim for friday at 4pm" booked a haircut; "remind me the day before to pick up my
suit at 6pm" (the haircut in view) added the task due today; "set a reminder to phone the
insurance company at 9am the day before" added "Phone the insurance company the day
before". Misses: "i dont use that one anymore go with …" and "just read it out" / "just
say it" / "just tell me what it is" (after being asked which number) refused; "help? thank
you" answered as thanks; a task moved to "friday at 5pm" dropped the hour unsaid, and "set
the eye exam task for saturday at 3:30pm" listed the tasks; "what time is the one i have" /
"…my current one…" refused or read out the whole list; a past visit named by its place
("…at bayview clinic", "…at the third street clinic") read out the upcoming ones; "the 2:30
one on sunday, make it 4pm" read the visit out, "my 10am on wednesday could it be 11" and
"the 10 o'clock on wednesday … thursday, keeping the time" asked which; "move sunday's
2:30 to saturday at the same hour" refused; "the same thing i had last time" refused or
asked what to book.
One check was unfair and corrected: "I don't see a beard trim among the services offered
here. Did you mean a haircut?" says it is not offered as well as "we don't offer" does
("don't see" was added to its fair words). One session was added after the first run, for
the context item 4 was reported in (the assistant had asked for the new number): "no i
only wanted to know it, just read it to me" (lo2a-other-detail-asked-then-just-read).

Fixed as rules for their kinds (see CHANGELOG): a one-word service after a word of its own
kind ("beard trim", "deep cleaning") is not the offered one, and is asked about; a task
"the day before" with an hour is dated from the visit or bill in view (the hour alone no
longer makes it today's), and "the day before" is said with or without "it"; "that one /
it" pointed back at in "don't use that one anymore, go with …", and "that's an old one
use …" said without a pause, change the detail on file to the one said; "help" with
filler or thanks around it; "just tell me what it is / read it out" after a phone or
email was talked about reads it; a task moved to a day and an hour keeps the hour in its
note (its earlier note words kept) and says so; "set the … task for saturday"; "the one
I have / my current one" is the visit in view; a past visit asked after by its place; a
visit named by its day and hour then given a new time ("…could it be 11 instead", "…,
make it 4pm", "sunday's 2:30", "…go to thursday"); "the same as my last visit" is that
visit's service, looked up first. After the fixes: 30/30.

Twelve sessions (ids lo2b-, 18 turns) were then written in new words for the same kinds,
not tuned on. First run: 8/12 sessions (14/18 turns), no wrong write. Failing: "er, help
me out please" refused; "i don't want to change it i just want to hear it" (after being
asked the new phone number) refused; "can the renew car insurance task be moved to monday
at 8:30am" listed the tasks; "what day did i visit bayview clinic" read out the upcoming
visits. Fixed, as the same rules widened: "help me out"; "i just want to hear / know it";
a task move said in the passive; a place named as what was visited. Now 42/42 (64/64).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

LEFT_OPEN: Path = DATA / "conversations_leftopen2.jsonl"
# Nothing is left open: every session above passes.
KNOWN_OPEN: list[str] = []


async def test_the_second_cases_left_open_are_answered_as_asked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Each case: what was said is done, nothing near is done instead."""
    assert len(read_cases(LEFT_OPEN)) == 42
    _, failed = await score(make_assistant, crm_admin, LEFT_OPEN, capsys)
    assert failed == KNOWN_OPEN
