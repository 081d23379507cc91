"""The cases the thirteenth session left open, played through the websocket and the real CRM stub.

tests/data/conversations_leftopen5.jsonl (ids lo5a-, 24 sessions, 33 turns), two to five
sessions for each kind, in words other than those the cases were reported in (one or two
in those words), many said as speech-to-text writes them: what the last visit cost ("what
did my last visit cost me", "what was i charged for my most recent appointment?"); a
to-do's due day said as a state ("groceries can wait till saturday", "leave the groceries
for the weekend they can wait", "the eye exam reminder can wait till next month"); a visit
named first and its change after, with a trailing ", same time" ("The dental cleaning, can
it be Thursday instead, same time please."); a remark after the to-do with no pause and no
day ("…to call the vet my dog has been sneezing all week"); "next tuesday" said on a Monday;
a no followed by the value meant ("no sry, maria.garcia@example.net", "no sorry 415 555
0145"); "yes, thank you" to a support case offered. LATE_CASES (3 sessions, 6 turns) are
played at half past eleven at night on her clock: an hour of today given in reply to a
question, once it has passed. (The busy frame and the cut answer are
tests/transports/test_ws_busy_question.py and tests/models_openai/test_cut_answer.py.)

"next tuesday" said on a Monday: the service reads the coming Tuesday, tomorrow, as the
sets already pin it (tests/data/conversations_leftopen.jsonl: four sessions check
"January 15"; the others accept either Tuesday), and
its answer says the date it chose ("tomorrow, Tuesday, January 15") so that the customer
can put it right. The three sessions were first written for the Tuesday of next week (the
22nd); they were corrected to that reading before any rule changed.

FIRST RUN, on the code as it was (the "next tuesday" checks as corrected): 9/24 sessions
(16/33 turns); LATE_CASES 1/3 (4/6 turns). WRONG WRITES: titles holding a remark after
the to-do ("Call the vet my dog has been sneezing all week", "Ring the landlord the heating
is broken again", "Buy batteries the smoke alarm keeps beeping", "Book a plumber the
kitchen sink is leaking"). No other write was wrong. Misses, nothing written: "what did my
last visit cost me", "how much did my last appointment cost" and "…my most recent
appointment?" listed the visits (no invoice read, no amount); "groceries can wait till
saturday" was not understood, "leave the groceries for the weekend they can wait" refused,
"the eye exam reminder can wait till next month" and "My eye exam task can wait until the
weekend." listed the tasks; "The dental cleaning, can it be Thursday instead, same time
please." asked which appointment; "no sry, maria.garcia@example.net" and "nope its
maria@garcia.co actually" to "change your email to …?" were a plain no ("I'll leave your
contact details as they are") and the next yes found nothing waiting; "my invoice never
arrived by email" read the balance (no case offered), so "yes, thank you" was thanks. At
23:30, "how about 3pm today then" to "When would you like your consultation?" and "today
at 5 pm" to "When would you like to move it to?" were met with "What would you like on
Monday, January 14 at 3:00 PM?", not told that the hour has passed.

Fixed as rules for their kinds (see CHANGELOG): a sentence told after the to-do, its
subject a thing or a person of the customer's and a state said of it, is no words of the
title, unless the verb takes a sentence ("make sure the door is locked", "tell the
landlord the heating is broken") or a word joins it ("because…") (language/task_rules.py);
the cost of the last visit reads the visits and the invoices and says what the latest
visit's bill came to and whether it is paid (models/embedded/questions.py, answers.py);
"X can wait till DAY" without "the", said of a task that names a service ("the eye exam
reminder"), and "leave X for DAY" set its due day; a move of something that names no
service to a stretch ("to the weekend", "next month") is a task's due day, its first day,
when a task is so named, and asked about for a visit (models/embedded/planner.py,
references.py); words added after "X, can it be DAY instead" keep the X it named
(language/intents.py); a no that carries an email address or digits is the value put
right, not a bare no (confirmation.py); something the business sends that did not come
("my invoice never arrived", "I never got my receipt") is a problem told: a case is
offered (language/account_rules.py); a reply to "when?" whose time has passed is read as
the answer and told so (models/embedded/followup.py). After: 24/24 sessions (33/33 turns),
LATE_CASES 3/3. Every kept phrasing (bench.decisions --dump, 3,854 decisions) decides as
before: the dumps before the first rule change and after do not differ.

Then thirteen sessions (ids lo5b-, 16 turns) and two more played late (lo5b-late-, 4
turns) were written in new words for the same kinds, not tuned on. FIRST RUN: 9/13
sessions (12/16 turns), late 2/2; no wrong write. One check of my own was unfair: "book a
haircut next tuesday" asked "What time tomorrow works for you?", which says the day it
read as plainly as a date would (the check now takes "tomorrow" too). "set the groceries
to be due next tuesday" was not understood (now a due change: "set X to be due DAY",
language/task_rules.py); "whats the bill for my last visit" named a bill and a visit and
was read as two listings (now one question: the last visit's cost,
models/embedded/planner.py); "the eye exam one can wait till the end of the month" listed
the visits (left open, below). After: 12/13. Every kept phrasing still decides as before
(bench.decisions --dump: no difference).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from crm_stub.app import create_app
from tests.e2e.conversations import NOW, ZONE, play_case, read_cases
from tests.e2e.test_conversations import CATALOG, DATA, score
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

LEFT_OPEN: Path = DATA / "conversations_leftopen5.jsonl"
# Does less than asked; writes nothing that was not asked.
# ("the eye exam one can wait till the end of the month", left open here, is now read as
# a move that is the to-do's due day when no eye exam is booked: tests/e2e/test_leftopen6.py)
KNOWN_OPEN: list[str] = []
# Played in two halves side by side (every other session), to keep each test short.
_HALVES = 2
# Half past eleven at night on the pinned Monday, her clock: 4 PM today has passed.
LATE = datetime(2030, 1, 14, 23, 30, tzinfo=ZONE)
_MOMENTS = {"noon": NOW, "late": LATE}


@pytest.fixture
def crm_app(crm_token: str, request: pytest.FixtureRequest) -> web.Application:
    """The CRM stub seeded for her day and living at the moment the test plays at (the
    server's clock on UTC)."""
    params = getattr(request.node, "callspec", None)
    now = _MOMENTS[params.params.get("moment", "noon")] if params else NOW
    server_now = now.astimezone(UTC)
    return create_app(token=crm_token, today=now.date(), clock=lambda: server_now)


@pytest.mark.parametrize("half", range(_HALVES))
async def test_the_fifth_cases_left_open_are_answered_as_asked(
    half: int, make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any, tmp_path: Path
) -> None:
    """Each case: what was said is done, nothing near is done instead."""
    cases = read_cases(LEFT_OPEN)
    assert len(cases) == 37
    mine = tmp_path / LEFT_OPEN.name
    mine.write_text("".join(json.dumps(case) + "\n" for case in cases[half::_HALVES]))
    _, failed = await score(make_assistant, crm_admin, mine, capsys)
    assert failed == [case["id"] for case in cases[half::_HALVES] if case["id"] in KNOWN_OPEN]


_NOTHING_BOOKED = [
    {"appt": "Haircut", "count": 1},
    {"appt": "Consultation", "count": 0},
    {"appt": "Dental cleaning", "at": "seed+0h", "status": "scheduled"},
]
_PASSED = [["passed", "already", "too late", "gone"]]
# Said at half past eleven at night: an hour of today said after a question has passed,
# and the customer is told so (nothing is written).
LATE_CASES: list[dict[str, Any]] = [
    {
        "id": "lo5a-late-haircut-ok-fine-4pm-today",
        "turns": [
            {"say": "book me a haircut today at 10am", "confirm": "*", "has": _PASSED},
            {"say": "ok fine, 4pm today", "confirm": "*", "has": _PASSED, "crm": _NOTHING_BOOKED},
        ],
    },
    {
        "id": "lo5a-late-consultation-3pm-today-then",
        "turns": [
            {"say": "i want to book a consultation", "confirm": "*"},
            {
                "say": "how about 3pm today then",
                "confirm": "*",
                "has": _PASSED,
                "crm": _NOTHING_BOOKED,
            },
        ],
    },
    {
        "id": "lo5a-late-move-cleaning-today-at-5",
        "turns": [
            {"say": "move my dental cleaning", "confirm": "*"},
            {"say": "today at 5 pm", "confirm": "*", "has": _PASSED, "crm": _NOTHING_BOOKED},
        ],
    },
]
# Written after the fixes, not tuned on (ids lo5b-).
LATE_CASES += [
    {
        "id": "lo5b-late-checkup-10pm-tonight",
        "turns": [
            {"say": "i'd like to book a checkup", "confirm": "*"},
            {"say": "10 pm tonight", "confirm": "*", "has": _PASSED, "crm": _NOTHING_BOOKED},
        ],
    },
    {
        "id": "lo5b-late-move-haircut-today-at-6",
        "turns": [
            {"say": "can you move my haircut", "confirm": "*"},
            {
                "say": "how about today at 6",
                "confirm": "*",
                "has": _PASSED,
                "crm": [{"appt": "Haircut", "at": "seed+0h", "status": "scheduled"}],
            },
        ],
    },
]
LATE_KNOWN_OPEN: list[str] = []


@pytest.mark.parametrize("moment", ["late"])
async def test_an_hour_of_today_said_late_at_night_is_told_it_has_passed(
    moment: str, make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """At 23:30 on her clock, an hour of today given in reply to a question is told it has
    passed, not refused."""
    now = _MOMENTS[moment]
    server_now = now.astimezone(UTC)
    assistant = await make_assistant(customer_messages_per_minute=100_000, clock=lambda: server_now)
    failed = []
    for case in LATE_CASES:
        verdict = await play_case(assistant, crm_admin, case, CATALOG, now)
        if not verdict.passed:
            failed.append(case["id"])
            print(case["id"], verdict.problems)
    assert failed == LATE_KNOWN_OPEN
