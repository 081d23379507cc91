"""Where the calendar itself is the trap: sessions played at moments other than the pinned
Monday noon, each at its own (the case's `now`, on Maria's clock in Los Angeles; the
server's clocks say UTC). Through the websocket, the real engine and the real CRM stub,
seeded from that day.

tests/data/conversations_calendar.jsonl, written before the date rules were read: a
Saturday and a Sunday night at the end of December ("next week", "first thing monday",
"the 2nd", "early january", "this weekend"), Friday 31 January and February ("the end of
the month", "next month on the 30th", "the 31st" of a month without one), the weeks the
clocks change ("2:30 am sunday", "the same time next week" across the change), ten to
midnight ("tomorrow", "tonight at 11:55", "in 20 minutes"), twenty past midnight
("tomorrow": ask, or say the day meant), a leap day ("same day next year") and a week
where the weekday said and the date disagree ("tuesday the 17th", a Wednesday: ask).

Besides each turn's checks, every write that sets a day (a booking, a move, a due day)
must be read back with the weekday and the day of the month written (`read_back`).

FIRST RUN, on the code as it was (29 sessions, 61 turns): 23/29 sessions, 52/61 turns.
WRONG WRITES, 7 (two of them a title the set's first checks let through, seen in the read
backs; the checks now hold the whole title):
- "I mean thursday, today", said at 00:20 on Thursday 18 April after "book a haircut
  tomorrow at 3pm" (booked Friday the 19th, read back as such): the haircut was moved to
  Thursday the 25th, a week on; "today" was not heard beside the weekday.
- "the car insurance task should be due friday the 20th" on Friday 12 July (the 20th is a
  Saturday): due Saturday the 20th, unasked (a visit asks which; a due day did not).
- "book an annual checkup a year from today at 10am" on the leap day: "that time has
  already passed" (today at 10 was read), then "ok" booked Monday 1 March 2032 at 10.
- "remind me to file the quarterly taxes early january" (Sunday 29 December, 22:00) and
  "remind me to renew my membership same day next year" (the leap day): tasks titled
  "File the quarterly taxes early january", "Renew my membership same day next year",
  with no due day.
- "remind me tonight at 11:55 to lock the back door" at 23:50: titled "K the back door";
  "remind me tomorrow morning to take the bins out" at 00:20: "The bins out".
Not a write: "what day is that due" after a task was added got a shrug; "saturday the
20th then" after the due day was set was taken for a visit.
The rest held: "the 2nd", "next week", "the day after tomorrow" on a Saturday night at
the year's end; "the end of the month" on the 31st (today); "next month on the 30th" in
January (asked: no 30 February), "the 31st" in February (31 March); "2:30 am sunday" the
night the clocks go forward (asked); "the same time next week" and "back a week" across
both changes of clocks (10 AM stayed 10 AM); "tomorrow", "tonight at 11:55", "in 20
minutes" at ten to midnight; "tuesday the 17th" on a Wednesday 17th (asked); every write
read back with its weekday and date.

Fixed as rules (assistant/language): a weekday that disagrees with the date is asked
about for a task's due day too, new or changed (task_rules.py); spans of years ("a year
from today", "in a year", "the same day next year"; a leap day's is 28 February) and a
part of a month named ("early january", "mid-march", "late feb", "the end of april": its
first, 15th or last day, a stretch a booking asks about) are days (dates.py; each
pattern tried only on a text holding its words); a bare weekday that is today's, said
with "today" or "tonight", is today; and spans read twice over ("tomorrow" within
"tomorrow morning") are cut from a title once (slots.cut_spans). 28/29 sessions; the
kept phrasings' decisions (bench.decisions, 3,855) are the same before and after.

Then 7 sessions not tuned on (cal-b-: New Year's Eve at 23:45, "the end of next month"
and "late march" in January, "a week from today" across the clocks going back, a new
task on "monday the 17th" (a Wednesday), "in a year" and "the 1st" on the leap day,
"tonight" at 00:20, "next saturday" said on a Saturday night). FIRST RUN: 7/7 sessions,
14/14 turns, no wrong write.

"What day is that due" right after a task was added got a shrug ("when is it due" was
heard, not the day asked in other words): now asked of the task in focus (question_words
DUE_IT; the kept decisions unchanged; cal-what-day-is-that-due holds it). Left open
(KNOWN_OPEN), no write: its answer at ten to midnight, "Take my pills is due tomorrow.",
is true but names no date (a due day is told as "tomorrow" whatever the hour). Later: a
due day asked about from 11 PM to 1 AM is told with its date ("tomorrow, Thursday, April
18"), so that case passes too.

CALENDAR_SAY=1 prints every turn's words and the days it wrote.
"""

from __future__ import annotations

import dataclasses
import os
import re
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from crm_stub.app import create_app
from crm_stub.state import STATE
from tests.e2e.conversations import (
    CUSTOMER,
    ZONE,
    Verdict,
    check_crm,
    read_cases,
    snapshot,
    turn_problems,
)
from tests.e2e.test_conversations import CATALOG, DATA
from tests.fixtures.app import AssistantHarness, MakeAssistant
from tests.fixtures.crm import CrmAdmin

CALENDAR: Path = DATA / "conversations_calendar.jsonl"
KNOWN_OPEN: dict[str, str] = {}
_CASES = read_cases(CALENDAR, own_moments=True)
_DATED = {"crm.bookAppointment", "crm.rescheduleAppointment", "crm.addTask", "crm.updateTask"}


def _moment(said: str) -> datetime:
    return datetime.fromisoformat(said).replace(tzinfo=ZONE)


# The moment the session being played is at: the stub's clock and the engine's read it.
_NOW: dict[str, datetime] = {"now": _moment(_CASES[0]["now"])}


@pytest.fixture
def crm_app(crm_token: str) -> web.Application:
    """The stub living at the moment of the session played (its clock on UTC); each
    session re-seeds it from that day on her clock (`_at`)."""
    return create_app(
        token=crm_token, today=_NOW["now"].date(), clock=lambda: _NOW["now"].astimezone(UTC)
    )


def _at(app: web.Application, now: datetime) -> None:
    """The stub and the engine at `now`; the next reset seeds from its day."""
    _NOW["now"] = now
    state = app[STATE]
    state.config = dataclasses.replace(state.config, today=now.date())


def _days_written(calls: list[dict[str, Any]]) -> list[date]:
    """The days (on her clock) the turn's writes set: a visit's start, a task's due day."""
    days = []
    for call in calls:
        if call["status"] != "ok" or call["tool"] not in _DATED:
            continue
        arguments = call["arguments"]
        if starts := arguments.get("starts_at"):
            days.append(datetime.fromisoformat(starts).astimezone(ZONE).date())
        elif due := arguments.get("due_on"):
            days.append(date.fromisoformat(due))
    return days


def read_back(text: str, calls: list[dict[str, Any]]) -> list[str]:
    """A write of a day is read back with its weekday and its day of the month."""
    problems = []
    low = text.lower()
    for day in _days_written(calls):
        weekday = day.strftime("%A").lower()
        if weekday not in low or not re.search(rf"\b{day.day}(st|nd|rd|th)?\b", low):
            problems.append(f"wrote {day:%a %Y-%m-%d}, not read back as {weekday} the {day.day}")
    return problems


async def play_at(
    assistant: AssistantHarness, admin: CrmAdmin, case: dict[str, Any], now: datetime
) -> Verdict:
    """One session at its moment, every turn checked as conversations.play_case checks it,
    and its writes' days read back."""
    await admin.reset()
    world = await snapshot(admin, now)
    chat = await assistant.connect(CUSTOMER)
    verdict = Verdict(case["id"])
    written: set[str] = set()
    try:
        for number, turn in enumerate(case["turns"], start=1):
            events = await chat.say(turn["say"])
            calls = events[-1]["tool_calls"]
            problems = turn_problems(turn, events, CATALOG, written)
            text = next((e["text"] for e in reversed(events) if e["type"] == "answer.done"), "")
            problems += read_back(text, calls)
            if os.environ.get("CALENDAR_SAY"):
                print(case["id"], number, turn["say"], "->", text, _days_written(calls))
            written |= {c["tool"] for c in calls if c["status"] == "ok" and c["tool"] in _DATED}
            problems += await check_crm(admin, turn.get("crm", []), world)
            if problems and not any(p.startswith("answer was") for p in problems):
                problems.append(f"answer was: {text!r}")
            verdict.turns += 1
            verdict.turns_failed += bool(problems)
            verdict.problems += [f"turn {number} {turn['say']!r}: {p}" for p in problems]
    finally:
        await chat.close()
    return verdict


def test_the_set_is_as_written() -> None:
    assert len(_CASES) == 37
    assert all(case["id"].startswith("cal-") for case in _CASES)


async def test_the_calendar_at_each_moment(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, crm_app: web.Application
) -> None:
    """Each session played at its moment writes the day and hour meant, and says them."""
    assistant = await make_assistant(
        customer_messages_per_minute=100_000, clock=lambda: _NOW["now"].astimezone(UTC)
    )
    failed = []
    for case in _CASES:
        now = _moment(case["now"])
        _at(crm_app, now)
        verdict = await play_at(assistant, crm_admin, case, now)
        if not verdict.passed:
            failed.append(case["id"])
            print(case["now"], case["id"], verdict.turns_failed, "/", verdict.turns)
            for problem in verdict.problems:
                print("   ", problem)
    assert [f for f in failed if f not in KNOWN_OPEN] == []
