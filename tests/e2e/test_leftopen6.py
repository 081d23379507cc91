"""The cases the fourteenth session left open, played through the websocket and the real CRM stub.

tests/data/conversations_leftopen6.jsonl (ids lo6a-, 31 sessions, 50 turns), two to six
sessions for each kind, in words other than those the cases were reported in (one in those
words), several said as speech-to-text writes them: when the last haircut was and what it
cost, asked at once; the calendar asked by part of a day ("anything before noon on
wednesday", "anything on friday afternoon") or by count ("what's my busiest day this
week"); a thing said short after a to-do was added ("and eggs", "also butter"); an
apology before the answer to "morning or evening?" ("oh sorry 8pm"); a phone number with
an extension; "yes" to "would you like me to book a checkup for yourself?" when no time
was said; a visit "for two" with its day and hour; a to-do named by a service and "one"
("the eye exam one can wait till the end of the month"); "which is earlier?" asked back to
"which appointment should I move?". ID_CASES (4 sessions, 5 turns) are played through a
proxy that lists every task under an id the CRM does not know (ids changed between the
listing and the write, as tests/integrity/test_crm_attacks7.py does).

Two sessions were first written with "friday at 8" and "thursday at 9" for the hour asked
"morning or evening?": those hours are read as the morning at once (the hours set asks
about 7), so the haircut was booked at 8 AM and the massage at 9 AM, which is fair; they
were corrected to 7 before any rule changed (the reply then is what is tested).

FIRST RUN, on the code as it was: 5/31 sessions (17/50 turns; 19/50 with the two hours
corrected); ID_CASES 0/4 (1/5 turns). WRONG WRITE: "which ones first" asked back to
"which appointment should I move?" MOVED THE DENTAL CLEANING (its "first" read as the
first one listed). No other write was wrong. Misses, nothing written: "when did I last get
a haircut and how much was it" (and two like it) read out every visit and every invoice;
"do I have anything before noon on wednesday", "anything on friday afternoon", "what's my
busiest day this week" were refused and "which day am I most booked next week" read out
every visit ahead; "and eggs", "also butter", "and dad too" after a to-do was added were
not understood; "oh sorry 8pm", "ah sorry 7 in the morning" to "morning or evening?" were
asked again ("sorry" cut the request away); "change my phone to 555 0134 ext 4", "…415
555 0199 extension 12", "…x3" asked about the number with the extension dropped unsaid;
"book a checkup for my son" → "yes" found nothing waiting (twice), and "for my daughter"
→ "sure" was thanks; "book a massage for two on friday at 3", "a facial for 2 thursday at
4" asked the time again (and the yes, the time "today"); "the eye exam one can wait till
the end of the month", "the eye exam thing can wait until next week" read out the visits;
"which one is earlier", "which one is sooner" were refused; a task whose id changed was
told "it doesn't seem to exist anymore" (it is on her list).

Fixed as rules for their kinds (see CHANGELOG): a question asked back to "which one?"
("which is earlier", "which ones first", "which is later?") is answered from the visits
offered and the question stays open; "that one" then is the one told of
(models/embedded/which_asked_back.py, which_answered.py, dialogue.py); the day of the last
visit of a service and what it cost, asked together, is one question (questions.py,
answers.py); the calendar asked by part of a day or by how busy it is is read out of the
part asked, the week asked is the one told (language/lookups.py,
models/embedded/appointments.py); a thing said short after a to-do was added is one more
like it, its verb, and so is a short sentence joined on ("… buy milk. And eggs")
(corrections.py, references.py); an apology before the answer to a time question is no
part of it (followup.py); an extension said with a phone number is said to be left out,
and the full number given after "it seems to be missing some digits" replaces the digits
said first (confirmation.py, language/slots.py, replies.py, followup.py); a visit for
someone else with no time said asks the time once she says it is hers, and a bare count
of people with the hour said apart ("for two … at 3") is no hour (language/grammar.py,
others.py, followup.py); a to-do named by a service and "one"/"thing", said put off, is a
move that is the to-do's due day when no such visit is booked (language/task_rules.py,
references.py, planner.py); a change refused as not found is listed afresh, and an item
still listed is told so, not that it no longer exists (planner.py, failures.py,
engine.py). After: 31/31 sessions (50/50 turns), ID_CASES 4/4. Every kept phrasing
(bench.decisions --dump, 3,854 decisions) decides as before: the dumps before the first
rule change and after do not differ.
Four checks of mine were unfair and corrected after the first run, each because the
answer was as good: "anything before noon on wednesday" read the upcoming visits, not
every visit (the check asked for crm.listAppointments); "anything on friday afternoon"
and "which day am I most booked next week" are told "nothing" then, with the next visit
after it (the checks said no visit may be named); "the eye exam one can be pushed back"
is asked "When would you like to move it to?" without naming it (its answer moves the
to-do: lo6b-eye-exam-one-put-off-then-25th).

Then fourteen sessions (ids lo6b-, 26 turns) and three ID_CASES (lo6b-ids-, 4 turns) were
written in new words for the same kinds, not tuned on. FIRST RUN: 14/14 sessions (26/26
turns), ID_CASES 3/3; no wrong write. The sets that rework every written session
(test_said_at_once.py, test_said_otherwise.py) then found, in these sessions said another
way: "add a task to email the accountant. Plus the bank" WROTE ONE TASK TITLED "Email the
accountant. Plus the bank"; "put call mom on my to do list. And dad too" dropped the
second; "which one is earlier. cheers!" was refused. Fixed as above (a short sentence
joined on, a thanks after the question). Left open, in none of these sessions: "the
haircut one can wait until saturday" with a haircut booked changes nothing, but reads the
visits and the tasks out instead of asking about the move.
"""

from __future__ import annotations

import json
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from crm_stub.app import create_app
from tests.e2e.conversations import NOW, play_case, read_cases
from tests.e2e.test_conversations import CATALOG, DATA, score
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.test_crm_attacks3 import CrmProxy

LEFT_OPEN: Path = DATA / "conversations_leftopen6.jsonl"
# Does less than asked; writes nothing that was not asked.
KNOWN_OPEN: list[str] = []
# Played in two halves side by side (every other session), to keep each test short.
_HALVES = 2


@pytest.fixture
def crm_app(crm_token: str) -> web.Application:
    """The CRM stub seeded for, and living at, the pinned moment the sessions are played at."""
    return create_app(token=crm_token, today=NOW.astimezone(UTC).date(), clock=lambda: NOW)


@pytest.mark.parametrize("half", range(_HALVES))
async def test_the_sixth_cases_left_open_are_answered_as_asked(
    half: int, make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any, tmp_path: Path
) -> None:
    """Each case: what was said is done, nothing near is done instead."""
    cases = read_cases(LEFT_OPEN)
    assert len(cases) == 45
    mine = tmp_path / LEFT_OPEN.name
    mine.write_text("".join(json.dumps(case) + "\n" for case in cases[half::_HALVES]))
    _, failed = await score(make_assistant, crm_admin, mine, capsys)
    assert failed == [case["id"] for case in cases[half::_HALVES] if case["id"] in KNOWN_OPEN]


_GONE = ["exist anymore", "doesn't exist", "does not exist", "no longer", "been removed", "deleted"]
_NOT_DONE = [["couldn't", "could not", "wasn't able", "didn't go through"]]
_AS_SEEDED = [
    {"task": "Buy groceries", "status": "pending", "due": "+1", "priority": "normal"},
    {"task": "Renew car insurance", "status": "pending", "due": "+7", "priority": "high"},
    {"task": "Schedule eye exam", "status": "pending", "due": "none", "priority": "low"},
    {"task_like": "", "count": 0},
]
# Every task listed under an id the CRM no longer knows: the write fails (404), and the
# customer, whose list still shows the task, is not told it does not exist.
ID_CASES: list[dict[str, Any]] = [
    {
        "id": "lo6a-ids-mark-groceries-done",
        "turns": [
            {
                "say": "mark buy groceries as done",
                "has": _NOT_DONE,
                "not": _GONE,
                "confirm": "*",
                "crm": _AS_SEEDED,
            }
        ],
    },
    {
        "id": "lo6a-ids-groceries-to-friday",
        "turns": [
            {
                "say": "move the groceries task to friday",
                "has": _NOT_DONE,
                "not": _GONE,
                "confirm": "*",
                "crm": _AS_SEEDED,
            }
        ],
    },
    {
        "id": "lo6a-ids-delete-insurance-yes",
        "turns": [
            {"say": "delete the car insurance task", "confirm": "crm.deleteTask"},
            {"say": "yes", "has": _NOT_DONE, "not": _GONE, "crm": _AS_SEEDED},
        ],
    },
    {
        "id": "lo6a-ids-eye-exam-high-priority-unpunct",
        "turns": [
            {
                "say": "make the eye exam task high priority",
                "has": _NOT_DONE,
                "not": _GONE,
                "confirm": "*",
                "crm": _AS_SEEDED,
            }
        ],
    },
]
# Written after the fixes, not tuned on (ids lo6b-).
ID_CASES += [
    {
        "id": "lo6b-ids-renewed-insurance-tick-it-off-unpunct",
        "turns": [
            {
                "say": "i renewed my car insurance you can tick it off",
                "not": _GONE,
                "confirm": "*",
                "crm": _AS_SEEDED,
            }
        ],
    },
    {
        "id": "lo6b-ids-groceries-low-priority",
        "turns": [
            {
                "say": "the groceries aren't urgent, set them to low",
                "has": _NOT_DONE,
                "not": _GONE,
                "confirm": "*",
                "crm": _AS_SEEDED,
            }
        ],
    },
    {
        "id": "lo6b-ids-remove-eye-exam-yes-please",
        "turns": [
            {"say": "please remove the eye exam task", "confirm": "crm.deleteTask"},
            {"say": "yes please", "has": _NOT_DONE, "not": _GONE, "crm": _AS_SEEDED},
        ],
    },
]
ID_KNOWN_OPEN: list[str] = []


async def test_a_task_whose_id_changed_is_not_told_gone(
    make_assistant: MakeAssistant, aiohttp_server: Any, crm_url: str, crm_admin: CrmAdmin
) -> None:
    """The listing gives every task an id the CRM no longer knows: the write fails, and the
    answer says it could not be done without saying the task is gone (her list shows it)."""
    proxy = CrmProxy(crm_url)
    proxy.rewrite(
        "GET",
        r"/v1/customers/[^/]+/tasks",
        lambda body: {"tasks": [{**t, "id": t["id"] + "_old"} for t in body["tasks"]]},
    )
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", proxy.handle)
    server: TestServer = await aiohttp_server(app)
    assistant = await make_assistant(
        crm_url=str(server.make_url("/")),
        customer_messages_per_minute=100_000,
        clock=lambda: NOW,
    )
    failed = []
    for case in ID_CASES:
        verdict = await play_case(assistant, crm_admin, case, CATALOG)
        if not verdict.passed:
            failed.append(case["id"])
            print(case["id"], verdict.problems)
    assert failed == ID_KNOWN_OPEN
