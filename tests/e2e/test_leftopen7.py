"""The cases the fifteenth session left open, played through the websocket and the real CRM stub.

tests/data/conversations_leftopen7.jsonl (ids lo7a-, 35 sessions, 53 turns), two to four
sessions for each kind, in words other than those the cases were reported in (one in those
words), several said as speech-to-text writes them: one more service asked with a booking
("book a massage thursday at 4. can you do the facial too", or a turn later); a change
asked with nothing named ("I want to make a change"); a detail said just after a support
case was opened ("and it was for the cleaning"); two visits swapped ("swap my haircut and
my cleaning"); a shift each, relative to its own time ("an hour earlier for the cleaning and
an hour later for the haircut"); two days and no time ("book physio monday and
wednesday"); a to-do's day, then a reminder's day said a turn later; a visit named by who
gives it ("push the barber to 4 same day") and a to-do named as a visit ("reschedule the
groceries appointment", "book my groceries for wednesday", "complete my haircut
appointment"); a visit booked "right before my haircut", or before "my appointment" with
"the first one" said to "which appointment?"; a pause ("hold on a sec", "hang on a
second", "one moment please") while a change waits for its yes.

FIRST RUN, on the code as it was: 4/35 sessions (17/53 turns). WRONG WRITES: "move the
cleaning an hour earlier and the haircut an hour later" MOVED THE HAIRCUT AN HOUR EARLIER
(to 1:30); "push my haircut back 30 minutes and bring my cleaning forward an hour" MOVED
THE CLEANING HALF AN HOUR LATER (to 10:30): the first shift said was made of both visits;
"add a task to return the library books by thursday" then "and remind me wednesday" (and
the same with the water bill, Friday and Thursday) MADE THE TO-DO DUE ON THE REMINDER'S
DAY. No other write was wrong. Misses, nothing written: "…can you do the facial too" booked
the massage and read out the visits, the facial unsaid; "I want to make a change", "hi can
i make a change please" were asked "When would you like to move it to?", and "i need to
change something" was told what the assistant can do; "and it was for the cleaning", "it's
the one for the dental cleaning" after a case was opened read out the visits, and "oh and
its on my iphone" was refused; "swap my haircut and my cleaning", "trade … around" read
out the visits and "switch the times of …" asked "When would you like to move it to?";
"can I come in an hour earlier for the cleaning and an hour later for the haircut" read
out the visits; "book physio monday and wednesday" (and two like it) asked the time of one
day, and "10am for both" was asked which of the two days was meant; "push the barber to 4
same day" was asked the day and "move the barber to 5pm same day" was not understood;
"reschedule the groceries appointment" was asked "When would you like to move it to?"
without naming the groceries, "reschedule my car insurance appointment to friday" found
no such visit, "book my groceries for wednesday" was told groceries are no service;
"book a massage right before my haircut" was asked "What time on Sunday works for you?"
without the haircut's time, and "the first one" (and "the second one") to "which
appointment?" were told a day cannot be worked out from another visit; "hold on a sec",
"hang on a second", "one moment please" let the held change go, so the yes after it found
nothing waiting.

One check of mine was unfair and corrected after the first run: "the first one", in reply
to "Which appointment should I count from…?" about "a massage right before my
appointment", is asked the hour on the cleaning's day (the massage's length is not known,
so when it must start is not either), as "right before my haircut" is; I had asked for a
booking.

Fixed as rules for their kinds (see CHANGELOG): a shift said for each visit is that
visit's, read in the part of the sentence naming it (language/shifts.py,
models/embedded/references.py), and "an hour earlier for the cleaning" is a move
(language/appointment_rules.py); a reminder's day said a turn after a to-do was added due a
later day goes in its note, the day it is due kept (references.py, tasks.py); one rule for
pauses and hesitations: said alone they are no answer, so a change waiting for its yes
keeps waiting and is asked again, saying nothing was done (language/hesitation.py,
confirmation.py, engine.py; the two pinned sets that expected a bare pause to let the
change go were corrected, their tests say so); a change asked with nothing named is asked
what to change, and "a change" is no service (language/smalltalk.py, slots.py,
models/embedded/replies.py); a detail told just after a case was opened is told the case
is open and cannot be added to here (models/embedded/cases.py, planner.py); two visits
swapped are two moves, each told by the other visit (language/swaps.py, intents.py,
models/embedded/anchored.py); "barber" names the haircut, "to 4 same day" is on the
visit's day; a to-do named as a visit is its due day when no visit is so named
(references.py), asked back by its words when no day is said (replies.py); "right
before/after my appointment" asks which when there are more, and "the first one", "the
later one" answer it (anchored.py); "can you do the facial too" after a booking is one
more booking that day, its hour asked, as "and a massage right after" is (intents.py).
After: 27/35 sessions; KNOWN_OPEN says what is left
(no write). Every kept phrasing (bench.decisions --dump, 3,855 decisions) decides as
before: the dumps before the first rule change and after do not differ.

Then eleven sessions (ids lo7b-, 18 turns) were written in new words for the same kinds,
not tuned on. FIRST RUN: 9/11 sessions (16/18 turns), no wrong write: "open a support case
please, I was never refunded for a cancelled visit" was answered "I opened a support case:
I was never refunded for a cancelled visit.", which the claims check reads as a refund and
a cancel said done (a case's words that say a change are now told quoted,
models/embedded/account.py); and a check of mine was unfair: "can you move my eye exam
appointment to next monday", with no eye exam booked, makes the to-do "Schedule eye exam"
due Monday, a write I allowed, while my check of the CRM asked for the to-do unchanged
(corrected to the to-do due Monday). Now 11/11.

Later (the ninth set's rules, tests/e2e/test_leftopen9.py): "book my groceries for
wednesday", "book in groceries thursday" make the to-do due that day, and "a massage right
before my haircut" asks the hour before the haircut's own, naming the service: 31/35.
"""

from __future__ import annotations

import json
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from crm_stub.app import create_app
from tests.e2e.conversations import NOW, read_cases
from tests.e2e.test_conversations import DATA, score
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

LEFT_OPEN: Path = DATA / "conversations_leftopen7.jsonl"
# Does less than asked; writes nothing that was not asked.
KNOWN_OPEN: list[str] = [
    # Two days and no hour: both hours are now asked in one question and "10am for both"
    # books both (test_leftopen8.py), but Wednesday at 10 overlaps the cleaning and is
    # asked about (fair: DESIGN.md asks about an overlapping booking); and "i need physio
    # on tuesday and thursday" is asked "What time tomorrow and on Thursday…?", where this
    # check wants "tuesday" (tomorrow is Tuesday)
    "lo7a-physio-monday-and-wednesday",
    "lo7a-physio-tuesday-thursday-unpunct",
]
# Played in two halves side by side (every other session), to keep each test short.
_HALVES = 2


@pytest.fixture
def crm_app(crm_token: str) -> web.Application:
    """The CRM stub seeded for, and living at, the pinned moment the sessions are played at."""
    return create_app(token=crm_token, today=NOW.astimezone(UTC).date(), clock=lambda: NOW)


@pytest.mark.parametrize("half", range(_HALVES))
async def test_the_seventh_cases_left_open_are_answered_as_asked(
    half: int, make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any, tmp_path: Path
) -> None:
    """Each case: what was said is done, nothing near is done instead."""
    cases = read_cases(LEFT_OPEN)
    assert len(cases) == 46
    mine = tmp_path / LEFT_OPEN.name
    mine.write_text("".join(json.dumps(case) + "\n" for case in cases[half::_HALVES]))
    _, failed = await score(make_assistant, crm_admin, mine, capsys)
    assert failed == [case["id"] for case in cases[half::_HALVES] if case["id"] in KNOWN_OPEN]
