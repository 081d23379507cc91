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
KNOWN_OPEN: list[str] = []
# Played in two halves side by side (every other session), to keep each test short.
_HALVES = 2
# The moment the session being played is at (the stub's clock and the engine's read it).
_NOW: dict[str, datetime] = {"now": NOW}


@pytest.fixture
def crm_app(crm_token: str) -> web.Application:
    """The CRM stub living at the moment of the session played, the pinned one unless the
    session names its own."""
    _NOW["now"] = NOW
    return create_app(
        token=crm_token, today=NOW.astimezone(UTC).date(), clock=lambda: _NOW["now"]
    )


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
