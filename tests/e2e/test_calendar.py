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

FIRST RUN: (to be recorded)
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from crm_stub.app import create_app
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
_BY_MOMENT: dict[str, list[dict[str, Any]]] = defaultdict(list)
for _case in _CASES:
    _BY_MOMENT[_case["now"]].append(_case)
_DATED = {"crm.bookAppointment", "crm.rescheduleAppointment", "crm.addTask", "crm.updateTask"}


def _moment(said: str) -> datetime:
    return datetime.fromisoformat(said).replace(tzinfo=ZONE)


@pytest.fixture
def crm_app(crm_token: str, request: pytest.FixtureRequest) -> web.Application:
    """The stub seeded from the moment's day on her clock, living at the moment."""
    now = _moment(request.node.callspec.params["moment"])
    server_now = now.astimezone(UTC)
    return create_app(token=crm_token, today=now.date(), clock=lambda: server_now)


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
    assert len(_CASES) == 29
    assert all(case["id"].startswith("cal-") for case in _CASES)


@pytest.mark.parametrize("moment", sorted(_BY_MOMENT))
async def test_the_calendar_at_its_moment(
    moment: str, make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Each session played at its moment writes the day and hour meant, and says them."""
    now = _moment(moment)
    server_now = now.astimezone(UTC)
    assistant = await make_assistant(customer_messages_per_minute=100_000, clock=lambda: server_now)
    failed = []
    for case in _BY_MOMENT[moment]:
        verdict = await play_at(assistant, crm_admin, case, now)
        if not verdict.passed:
            failed.append(case["id"])
            print(moment, case["id"], verdict.turns_failed, "/", verdict.turns)
            for problem in verdict.problems:
                print("   ", problem)
    assert [f for f in failed if f not in KNOWN_OPEN] == []
