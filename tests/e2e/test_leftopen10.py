"""The cases the eighteenth session left open, played through the websocket and the real CRM stub.

tests/data/conversations_leftopen10.jsonl: for each of eight kinds the case as it was
reported (ids lo10a-), then two sessions in other words (ids lo10b-), written before the
rules they exercise were read: an update on a case asked with an escalation beside it (no
tool escalates); a new phone with the same number; a day's visits and to-dos asked
together; a second booking of a service already booked; a visit "right after" another
booked with it; a visit some hours after another; a year from a leap day; a to-do said done
with nothing else said. Sessions with their own moment (`now`, the leap-day ones, on Monday
2032-02-16) are played at it.

A second booking of a service already booked (the dental cleaning on the 16th, another
asked on the 30th) is booked as asked, and the answer says the one there ("You also still
have a dental cleaning on Wednesday, January 16 at 10:00 AM."), unless the words say another
is meant ("another", "a second", "…too"). What a business wants: a second of the same
service is more often a slip (one meant to be moved, or forgotten) than a wish, so it must
be heard at once; but the words are a plain booking, asked of a service customers do book
again (recurring care, a follow-up), and 121 kept turns of the other sets book a haircut or
a cleaning while one is booked: a question before each would make routine bookings two
turns. Said in the answer, a slip costs one more word ("cancel the new one"); asking first
stays fair in the checks.

FIRST RUN, on the code as it was: 0/24 sessions (2/32 turns). WRONG WRITES: "remind me to
renew my membership a year from february 29" ADDED "Renew my membership a year" DUE
SUNDAY, FEBRUARY 29, 2032 (the count dropped into the title); "book a dental cleaning for
the 30th at 10", "can you schedule a haircut on february 3rd at 2:30", "put me down for a
dental cleaning jan 30 10am" booked a second without a word of the first. Misses: "my case
about the invoice, any update? if not please escalate it" (and "…escalate it to a
manager") said the limit and read nothing; "…If not, push it up to a supervisor please."
asked "When would you like to move it to?" (a move read); "I got a new phone, same number
though" (and "kept my number", "the number hasn't changed") asked for the new number; "on
thursday, what do I have and what tasks are due" read every task and no visit; "tomorrow:
…which tasks are due?", "What's on for Wednesday, appointments and to-dos both" read every
task; "book a massage friday at 3 and a facial right after" (and two more) asked the
facial's hour; "book a facial two hours after my cleaning" (and two more) asked "What time
on Wednesday works for you?"; "same day next year too" after a booking on February 29 asked
a time on February 16, 2033 (a year from today), "and another exactly one year later" met
"I can't help with that"; "the groceries, i did them already" added "I didn't catch what
you meant by 'the groceries'", "groceries - already done that" and "oh the grocery
shopping, that's done already" completed nothing. Checks put right after the first run:
"on thursday, what do I have…" may name the next visit after that day (it had "haircut"
among words not to say); the second-booking sessions were written as asked first (see
above; their second turns "yes, book it as well", "no, move the one I have instead" became
"ok, keep both" or were dropped).

Fixed as rules for their kinds (see CHANGELOG). Found on the way, a wrong write: "on friday,
book a haircut at 3" BOOKED A HAIRCUT TODAY AT 3 PM (the day said first was dropped); a day
said first, then questions or a booking naming none, is now the day of each. After: 24/24.
Every kept phrasing (bench.decisions --dump, 3,855 decisions) decides as before.
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

LEFT_OPEN: Path = DATA / "conversations_leftopen10.jsonl"
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
    return create_app(token=crm_token, today=NOW.astimezone(UTC).date(), clock=lambda: _NOW["now"])


@pytest.mark.parametrize("half", range(_HALVES))
async def test_the_tenth_cases_left_open_are_answered_as_asked(
    half: int, make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any, tmp_path: Path
) -> None:
    """Each case: what was said is done, nothing near is done instead."""
    cases = read_cases(LEFT_OPEN)
    assert len(cases) == 21
    mine = tmp_path / LEFT_OPEN.name
    mine.write_text("".join(json.dumps(case) + "\n" for case in cases[half::_HALVES]))
    _, failed = await score(make_assistant, crm_admin, mine, capsys)
    assert failed == [case["id"] for case in cases[half::_HALVES] if case["id"] in KNOWN_OPEN]


async def test_the_leap_day_cases_at_their_own_moment(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, crm_app: web.Application
) -> None:
    """A year from February 29 is asked about, not moved to the 28th unsaid."""
    assistant = await make_assistant(
        customer_messages_per_minute=100_000, clock=lambda: _NOW["now"].astimezone(UTC)
    )
    cases = [case for case in read_cases(LEFT_OPEN, own_moments=True) if "now" in case]
    assert len(cases) == 3
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
