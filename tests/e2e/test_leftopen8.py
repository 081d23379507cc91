"""The cases the sixteenth session left open, played through the websocket and the real CRM stub.

tests/data/conversations_leftopen8.jsonl (ids lo8a-), two to four sessions for each kind,
in words other than those the cases were reported in (one in those words), several said as
speech-to-text writes them: a to-do added and "everything" marked done in one breath; "book
it again for saturday same time" after a booking; "delete each of them" with nothing in
view; a to-do named by a word that is also a service ("the eye exam is no longer needed");
a to-do's due day moved to "next month"; two days and no hour; a to-do named as a visit
("schedule my groceries for thursday"); a visit "right before my haircut"; a second service
asked with a booking; "the shopping" for "Buy groceries"; a day and hour said after one
visit was read out; a condition on what the CRM holds ("if the cleaning is before 11 push
it to the afternoon"); "tomorrow" for a due day near midnight; a question while a delete
waits for its yes. Sessions with their own moment (`now`) are played at it, their writes'
days read back (as tests/e2e/test_calendar.py plays them).

FIRST RUN, on the code as it was: 8/39 sessions (19/56 turns). WRONG WRITES: "add a task
to call mom and mark everything done" (and "put pick up the dry cleaning on my list, and
mark everything as complete", "add a to do to water the plants and check off everything")
MARKED THE NEW TASK DONE, the three that were there left pending; "perfect can you do the
same on friday at the same time" after a facial was booked Tuesday MOVED THE TUESDAY FACIAL
to Friday (a second one was asked); "9am thursday and 2pm saturday" to the hour asked of
"physio on thursday and saturday" BOOKED ONE, SATURDAY AT 9AM; "3pm both days" to the
hour asked of "a massage on Tuesday and another one on Thursday" booked Tuesday only (the
Thursday one lost). Held, not written: "delete each of them" and "Remove all of those" with
nothing in view were told no task matches "them" and asked to delete all three, "cancel both
of them" to cancel both visits; "2pm" after "if the cleaning is before 11 push it to the
afternoon" offered to move it to TODAY at 2 PM. Misses, nothing written: "ok book it again
for saturday same time", "can you book another one on friday, same time?" (after "when is
my haircut") were asked the hour; "the eye exam is no longer needed" read out the visits,
"i dont need the eye exam anymore", "The eye exam can go…" found no eye exam visit; "bump
the insurance task to next month" read out the tasks; two days and no hour asked the hour
of one day ("What time tomorrow works for you?"), "11am for both" asked which day; "schedule
my groceries for thursday" passed, "can you book in the car insurance for friday" asked what
to book; "a massage just before my haircut", "a facial right before the haircut" asked
"What time on Sunday works for you?", neither the service nor the haircut's hour said;
"book a massage saturday at 1 and a facial too" asked "What time on Saturday works for
you?" without naming the facial, and "…can you add a facial as well" after a haircut was
booked left it unsaid; "the shopping is done", "i did the shopping already tick it off",
"Move the food shopping to Friday." found no task; "could we do saturday at 10" after the
cleaning was read out was refused ("Sorry, I can't help with that"), "how about thursday at
9" after the haircut was asked what to do then; "If my haircut is in the morning, move it
to 4." passed, as did "if the cleaning is on wednesday … thursday same time"; "when is
that due" at 23:40 said "tomorrow" without the date; a question while a delete or a cancel
waited for its yes ("wait what else is on my list", "Hmm, when is my cleaning again?", "how
many tasks do i have") let it go, so the yes after found nothing waiting.

Two checks of mine were unfair and corrected after the first run: "What time tomorrow and
on Friday works for you?" asked on a Monday of "tuesday and friday" names Tuesday as
"tomorrow" (the check wanted "tuesday"); and "cancel both of them" with exactly two visits
booked is those two, held for a yes (tests/e2e/test_both.py pins that reading), not
"which?" (the check wanted a question).

Fixed as rules for their kinds (see CHANGELOG): "everything", "all my tasks" after a to-do
was added is every task that was there, not an "it" meaning the new one
(language/intents.py); "book it again…", "do the same on…", "and again on…" just after a
booking are one more at its hour when "same time" is said (language/another_visit.py), and
"book another one on friday, same time" after a visit was read out takes its hour
(references.py); two days said for a booking with no hour are two bookings, both hours
asked in one question, and "11am for both" or "9am thursday and 2pm saturday" books each
(intents.py, replies.py, followup.py); "them", "those" with nothing in view, in a few
words of their own, ask which (planner.py); "could we do saturday at 10", "how about
thursday at 9" just after one visit was read out move it (references.py); a short list
of words said for a to-do's title's ("the shopping" for "Buy groceries"), tried only when
the words said find none (resolve.py); "the eye exam is no longer needed" with no eye exam
booked asks to delete the to-do named so (appointment_rules.py, planner.py, narrator.py);
"bump the … task to next month" moves its due day (task_rules.py, to the 1st, said); a due
day asked about from 11 PM to 1 AM is told with its date (speech.py); a move asked about on
a condition, its hour said later, is asked about on the visit's own day, not today
(replies.py); the hour asked of a service booked beside another names it (replies.py).
Item 10 (a question while a delete waits) was fixed and then undone: PROTOCOL.md says any
other message drops what waits, and six pinned sessions hold that (KNOWN_OPEN says so).
After: 29/39 sessions; the moment sessions 3/3. Every kept phrasing (bench.decisions
--dump, 3,855 decisions) decides as before: the dumps before the first rule change and
after do not differ. Two of the seventh set's open cases pass now ("…can you do the facial
too", "physical therapy on friday and saturday").

Then nine sessions (ids lo8b-, 13 turns) were written in new words for the same kinds,
not tuned on. FIRST RUN: 6/9 sessions (10/13 turns), no wrong write: "and again on
saturday at the same time please" after a booking was not understood (now one more at its
hour, another_visit.py); "can the eye exam task wait till next month" read out the tasks,
and "Can you schedule the car insurance renewal for Friday?" asked what to book (both left
open, KNOWN_OPEN). Now 7/9. Played as people write (tests/e2e/test_as_people_write.py),
"perfect could you possibly do the same on friday at the same time?" still MOVED the
facial: the polite words left over kept it from reading as one more; now they are no
other ask (another_visit.py).
Later (the ninth set's rules): "a massage just before my haircut" asks the hour before the
haircut's own, naming the service; "book in the car insurance for friday" and "schedule the
car insurance renewal for Friday" make the to-do due Friday: 32/39, and the lo8b- set 8/9.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from crm_stub.app import create_app
from crm_stub.state import STATE
from tests.e2e.conversations import NOW, ZONE, read_cases
from tests.e2e.test_calendar import play_at
from tests.e2e.test_conversations import DATA, score
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

LEFT_OPEN: Path = DATA / "conversations_leftopen8.jsonl"
# Does less than asked; writes nothing that was not asked.
# ("i did the shopping already tick it off", said without a pause, asked which task: the
# groceries are done now, tests/e2e/test_leftopen14.py)
KNOWN_OPEN: list[str] = [
    # "if the cleaning is before 11 push it to the afternoon" → "2pm": the move is asked
    # about again ("…move it to 2 PM the same day?"), the condition not weighed against
    # the cleaning's hour (only a condition on a day or a part of the day is, if_named.py)
    "lo8a-if-cleaning-before-11-afternoon",
    # A question while a delete or a cancel waits for its yes lets it go, as PROTOCOL.md
    # says ("anything else drops them, and the answer … says that they were not done"),
    # which six pinned sessions hold (u-question-during-delete, u2-pending-cancel-then-owe,
    # u3-cancel-haircut-other-instead, and three of conversations_long): keeping it asks
    # for the contract to change first. The answer says it was not done; no write.
    "lo8a-cancel-haircut-when-cleaning-go-ahead",
    "lo8a-delete-eye-exam-what-else-on-list",
    "lo8a-remove-groceries-how-many-tasks-unpunct",
    # "The eye exam can go, I won't be needing it.": the second clause is read as a cancel
    # of its own, so the visits are read out with "I couldn't find an appointment like that"
    "lo8a-eye-exam-can-go",
    # "i want a haircut friday at 10am can you add a facial as well", without a pause: the
    # haircut is booked, the facial unread
    "lo8a-haircut-friday-10-facial-as-well-unpunct",
    # "can the eye exam task wait till next month": asked as a question, not read as a
    # change of its due day ("the eye exam can wait till…" is); the tasks are read out
    "lo8b-eye-exam-task-wait-till-next-month",
]
# Played in two halves side by side (every other session), to keep each test short.
_HALVES = 2
# The moment the session being played is at (the stub's clock and the engine's read it).
_NOW: dict[str, datetime] = {"now": NOW}


@pytest.fixture
def crm_app(crm_token: str) -> web.Application:
    """The CRM stub living at the moment of the session played, the pinned one unless the
    session names its own."""
    _NOW["now"] = NOW
    return create_app(token=crm_token, today=NOW.astimezone(UTC).date(), clock=lambda: _NOW["now"])


@pytest.mark.parametrize("half", range(_HALVES))
async def test_the_eighth_cases_left_open_are_answered_as_asked(
    half: int, make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any, tmp_path: Path
) -> None:
    """Each case: what was said is done, nothing near is done instead."""
    cases = read_cases(LEFT_OPEN)
    assert len(cases) == 44
    mine = tmp_path / LEFT_OPEN.name
    mine.write_text("".join(json.dumps(case) + "\n" for case in cases[half::_HALVES]))
    _, failed = await score(make_assistant, crm_admin, mine, capsys)
    assert failed == [case["id"] for case in cases[half::_HALVES] if case["id"] in KNOWN_OPEN]


async def test_the_cases_at_their_own_moments(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, crm_app: web.Application
) -> None:
    """A due day said near midnight is the one meant, and read back with its date."""
    assistant = await make_assistant(
        customer_messages_per_minute=100_000, clock=lambda: _NOW["now"].astimezone(UTC)
    )
    cases = [case for case in read_cases(LEFT_OPEN, own_moments=True) if "now" in case]
    assert len(cases) == 4
    failed = []
    for case in cases:
        now = datetime.fromisoformat(case["now"]).replace(tzinfo=ZONE)
        _NOW["now"] = now
        state = crm_app[STATE]
        state.config = dataclasses.replace(state.config, today=now.date())
        verdict = await play_at(assistant, crm_admin, case, now)
        if not verdict.passed:
            failed.append(case["id"])
            print(case["id"], verdict.turns_failed, "/", verdict.turns)
            for problem in verdict.problems:
                print("   ", problem)
    assert [f for f in failed if f not in KNOWN_OPEN] == []
