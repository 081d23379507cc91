"""The calendar's edges, attacked on purpose where the calendar set (test_calendar.py)
and the midnight probes (test_midnight_attacks7.py) did not look: the nights the clocks
change in Los Angeles with a visit in the hour that is skipped or repeated, "a month
from today" on the 31st, "the 31st" in a month of 30 days, "february 29th" in a year
without one (and in one with it), "next tuesday" and "the 2nd" at the year's end, a
bare hour a minute before midnight. The service's clock and the CRM's are pinned and
moved together (the stub re-seeded from the moment's day); embedded models, the real
CRM stub, through the websocket.

The bar: every day written is the one said and is read back by its weekday and date;
an impossible date is asked about, never rounded to a neighbour silently; what is said
back names the hour the CRM holds, on her clock.

FIRST RUN (written before the rules they exercise were read): 13 probes, 11 held, 2
failed, one of them the probe's own.
- WRONG WRITE: "book a consultation a month from today at 2pm" on Friday 31 January
  2031 booked Friday 28 February at 2 PM unasked ("You're booked for a consultation on
  Friday, February 28 at 2:00 PM."): a month from the 31st was cut to February's last
  day by the calendar arithmetic and taken as said.
- the probe's: a visit in the repeated hour asked about was told "Your consultation is
  tomorrow at 1:30 AM", true; the probe wanted its weekday and date as a write's read
  back is, which a read need not; it now accepts "tomorrow".
- held: "sunday at 2:30" the day before the clocks go forward (2:30 PM, read back);
  "an hour later" across the skipped hour (3:30, told as 3:30) and in the repeated one;
  "in a month" for a task on the 31st (not due in March); "the 31st" in April (a 31st,
  read back); "february 29th" in 2030 (asked) and in December before a leap year (the
  29th of 2032); "next tuesday" on Monday 30 December and "the 2nd" on New Year's Eve
  (the right year, read back); "january 1st" at 23:58 and "tomorrow" at 00:01 on New
  Year's Day; a bare "at 9am" a minute before midnight.
Fixed as a rule (language/dates.py): a day counted in months ("in a month", "two months
from today", "a month from tomorrow") that lands past the end of a shorter month is the
date the count names, not on the calendar ("February 31 isn't a date on the calendar.
Which day did you mean?"), asked for a booking, a move or a due day alike; the reply
"the 28th" is read in the month the count named (models/embedded/followup.py). (A year
from a leap day stays 28 February, as tests/language/test_dates.py pins it.)
Found while fixing it, and fixed as a rule: WRONG WRITE, "book a consultation next
month at 2pm" asks which day, and "ok" booked it today at 2 PM (the hour said was
read back into a reply naming no day, and an hour alone is today's); the same after
"april 31st at 10am" asked about: booked today at 10. Now a reply naming no day to a
question of which day keeps the hour out of it, and a bare yes asks again.

Written after the fixes, first run: 4 probes, all held ("the 28th" after "a month from
today" books 28 February at the hour said; "ok" to which day next month, and to April
31, books nothing and asks again; "in two months" on 31 December is asked). The two
"ok" probes fail on the code before the fix (booked today).
"""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from aiohttp import web

from crm_stub.app import create_app
from crm_stub.state import STATE
from tests.fixtures.app import MakeAssistant, WsConversation
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, appointments

HOME = ZoneInfo("America/Los_Angeles")
NOW = [datetime(2030, 1, 14, 12, 0, tzinfo=HOME)]
_DATED = {"crm.bookAppointment", "crm.rescheduleAppointment", "crm.addTask", "crm.updateTask"}


@pytest.fixture
def crm_app(crm_token: str) -> web.Application:
    return create_app(token=crm_token, today=NOW[0].date(), clock=lambda: NOW[0].astimezone(UTC))


async def _at(
    moment: datetime, crm_app: web.Application, crm_admin: CrmAdmin, make_assistant: MakeAssistant
) -> WsConversation:
    """The stub and the service at `moment` (her clock), the stub re-seeded from its day."""
    NOW[0] = moment
    state = crm_app[STATE]
    state.config = dataclasses.replace(state.config, today=moment.date())
    await crm_admin.reset()
    assistant = await make_assistant(clock=lambda: NOW[0].astimezone(UTC))
    return await assistant.connect()


def _writes(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [c for c in events[-1]["tool_calls"] if c["status"] == "ok" and c["tool"] in _DATED]


def _local(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(HOME)


def _days(events: list[dict[str, Any]]) -> list[date]:
    days = []
    for call in _writes(events):
        arguments = call["arguments"]
        if starts := arguments.get("starts_at"):
            days.append(_local(starts).date())
        elif due := arguments.get("due_on"):
            days.append(date.fromisoformat(due))
    return days


def _read_back(said: str, day: date) -> bool:
    low = said.lower()
    return day.strftime("%A").lower() in low and bool(
        re.search(rf"\b{day.day}(st|nd|rd|th)?\b", low)
    )


def _asked_or_nothing_written(events: list[dict[str, Any]]) -> bool:
    return not _writes(events)


async def _add_visit(crm_admin: CrmAdmin, service: str, starts: datetime) -> str:
    status, body = await crm_admin.post(
        "/v1/customers/cust_001/appointments",
        {"service": service, "starts_at": starts.isoformat()},
    )
    assert status == 201, body
    return str(body["id"])


async def _visit(crm_admin: CrmAdmin, visit_id: str) -> dict[str, Any]:
    return next(a for a in await appointments(crm_admin, "all") if a["id"] == visit_id)


# -- the clocks change -------------------------------------------------------------------


async def test_sunday_at_230_on_the_night_the_clocks_go_forward_is_a_real_hour_said(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, crm_app: web.Application
) -> None:
    """Saturday 9 March 2030 at noon, 'book a haircut sunday at 2:30': 2:30 in the
    afternoon of Sunday the 10th (2:30 at night does not exist that day), read back as
    such; never 3:30 or 1:30 written for the 2:30 said."""
    chat = await _at(datetime(2030, 3, 9, 12, 0, tzinfo=HOME), crm_app, crm_admin, make_assistant)
    events = await chat.say("book a haircut sunday at 2:30")
    said = answer(events)
    for call in _writes(events):
        local = _local(call["arguments"]["starts_at"])
        assert (local.date(), local.hour, local.minute) == (date(2030, 3, 10), 14, 30), said
        assert _read_back(said, local.date()) and "2:30" in said, said
    if not _writes(events):
        assert events[-1]["awaiting_confirmation"] or "?" in said, said


async def test_an_hour_later_across_the_clocks_going_forward_is_told_at_the_hour_written(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, crm_app: web.Application
) -> None:
    """A consultation at 1:30 at night on Sunday 10 March 2030 (before the clocks go
    forward at 2); 'move my consultation an hour later' on Saturday evening: an hour on
    is 3:30 on her clock (2:30 does not exist); it is written there and told as 3:30, or
    asked about, never told as 2:30 nor written two hours on."""
    chat = await _at(datetime(2030, 3, 9, 20, 0, tzinfo=HOME), crm_app, crm_admin, make_assistant)
    visit = await _add_visit(crm_admin, "Consultation", datetime(2030, 3, 10, 1, 30, tzinfo=HOME))
    events = await chat.say("move my consultation an hour later")
    said = answer(events)
    now_at = _local((await _visit(crm_admin, visit))["starts_at"])
    if _writes(events):
        assert now_at.astimezone(UTC) == datetime(2030, 3, 10, 10, 30, tzinfo=UTC), (said, now_at)
        assert "3:30" in said and "2:30" not in said, said
    else:
        assert now_at.astimezone(UTC) == datetime(2030, 3, 10, 9, 30, tzinfo=UTC), said


async def test_an_hour_later_in_the_hour_the_clocks_repeat_is_told_at_the_hour_written(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, crm_app: web.Application
) -> None:
    """A consultation at 1:30 at night on Sunday 3 November 2030, the first time 1:30
    comes round (the clocks go back at 2); 'move my consultation an hour later': one hour
    on is 1:30 again on her clock; whatever is written, what she hears names the hour the
    CRM holds, and it is not the hour she already had, told as if it moved."""
    chat = await _at(datetime(2030, 11, 2, 20, 0, tzinfo=HOME), crm_app, crm_admin, make_assistant)
    first = datetime(2030, 11, 3, 8, 30, tzinfo=UTC)  # 1:30 PDT
    visit = await _add_visit(crm_admin, "Consultation", first)
    events = await chat.say("move my consultation an hour later")
    said = answer(events)
    now_at = _local((await _visit(crm_admin, visit))["starts_at"])
    if _writes(events):
        assert now_at.astimezone(UTC) in (
            datetime(2030, 11, 3, 9, 30, tzinfo=UTC),
            datetime(2030, 11, 3, 10, 30, tzinfo=UTC),
        ), (said, now_at)
        clock = f"{now_at.hour % 12 or 12}:{now_at.minute:02d}"
        assert clock in said, (said, now_at)
        if clock == "1:30":
            assert "standard" in said.lower() or "clocks" in said.lower(), said
    else:
        assert now_at.astimezone(UTC) == first, said


async def test_a_visit_in_the_repeated_hour_is_told_at_its_own_hour(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, crm_app: web.Application
) -> None:
    """A consultation at 1:30 at night on 3 November 2030, the second time 1:30 comes
    round (after the clocks went back): asked when it is, she hears 1:30 tomorrow (or
    Sunday the 3rd), not 2:30 nor 12:30."""
    chat = await _at(datetime(2030, 11, 2, 20, 0, tzinfo=HOME), crm_app, crm_admin, make_assistant)
    await _add_visit(crm_admin, "Consultation", datetime(2030, 11, 3, 9, 30, tzinfo=UTC))
    said = answer(await chat.say("when is my consultation?"))
    assert "1:30" in said and "2:30" not in said and "12:30" not in said, said
    assert "tomorrow" in said.lower() or _read_back(said, date(2030, 11, 3)), said


# -- the ends of months ------------------------------------------------------------------


async def test_a_month_from_the_31st_of_january_is_asked_not_rounded(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, crm_app: web.Application
) -> None:
    """Friday 31 January 2031, 'book a consultation a month from today at 2pm': there is
    no 31 February; nothing is booked on 28 February or 3 March unasked."""
    chat = await _at(datetime(2031, 1, 31, 10, 0, tzinfo=HOME), crm_app, crm_admin, make_assistant)
    events = await chat.say("book a consultation a month from today at 2pm")
    assert _asked_or_nothing_written(events), (answer(events), _days(events))


async def test_a_task_due_in_a_month_on_the_31st_is_not_due_in_march_unsaid(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, crm_app: web.Application
) -> None:
    """Friday 31 January 2031, 'remind me to pay the rent in a month': never due on the
    2nd or 3rd of March (February overflowed); a due day written is read back."""
    chat = await _at(datetime(2031, 1, 31, 10, 0, tzinfo=HOME), crm_app, crm_admin, make_assistant)
    events = await chat.say("remind me to pay the rent in a month")
    said = answer(events)
    for day in _days(events):
        assert day not in (date(2031, 3, 2), date(2031, 3, 3)), (said, day)
        assert _read_back(said, day), (said, day)


async def test_the_31st_in_a_month_of_30_days_is_a_31st_or_asked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, crm_app: web.Application
) -> None:
    """Wednesday 10 April 2030, 'book a haircut on the 31st at 11am': April has no 31st;
    booked on a 31st read back as such (31 May), or asked; never 30 April or 1 May."""
    chat = await _at(datetime(2030, 4, 10, 10, 0, tzinfo=HOME), crm_app, crm_admin, make_assistant)
    events = await chat.say("book a haircut on the 31st at 11am")
    said = answer(events)
    for day in _days(events):
        assert day.day == 31 and _read_back(said, day), (said, day)


async def test_february_29th_in_a_year_without_one_is_asked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, crm_app: web.Application
) -> None:
    """Thursday 10 January 2030, 'book a haircut on february 29th at 10am': 2030 has no
    29 February; nothing is booked on the 28th or on 1 March, and she is told why."""
    chat = await _at(datetime(2030, 1, 10, 10, 0, tzinfo=HOME), crm_app, crm_admin, make_assistant)
    events = await chat.say("book a haircut on february 29th at 10am")
    said = answer(events)
    assert _asked_or_nothing_written(events), (said, _days(events))
    assert "29" in said or "february" in said.lower(), said


async def test_the_29th_of_february_said_in_december_before_a_leap_year_is_that_day(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, crm_app: web.Application
) -> None:
    """Monday 15 December 2031, 'remind me to renew my passport on the 29th of february':
    29 February 2032 exists; the task is due that day and read back so (or asked), never
    1 March."""
    chat = await _at(datetime(2031, 12, 15, 10, 0, tzinfo=HOME), crm_app, crm_admin, make_assistant)
    events = await chat.say("remind me to renew my passport on the 29th of february")
    said = answer(events)
    for day in _days(events):
        assert day == date(2032, 2, 29) and _read_back(said, day), (said, day)
    if not _days(events):
        assert events[-1]["awaiting_confirmation"] or "?" in said, said


# -- the year's end -----------------------------------------------------------------------


async def test_next_tuesday_said_on_monday_the_30th_of_december_is_a_tuesday_ahead(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, crm_app: web.Application
) -> None:
    """Monday 30 December 2030, 'book a haircut next tuesday at 10am': a Tuesday ahead (the
    31st or 7 January 2031), read back by weekday and date; never a January of 2030."""
    chat = await _at(datetime(2030, 12, 30, 12, 0, tzinfo=HOME), crm_app, crm_admin, make_assistant)
    events = await chat.say("book a haircut next tuesday at 10am")
    said = answer(events)
    for day in _days(events):
        assert day in (date(2030, 12, 31), date(2031, 1, 7)) and _read_back(said, day), (said, day)
    if not _days(events):
        assert events[-1]["awaiting_confirmation"] or "?" in said, said


async def test_the_2nd_said_on_new_years_eve_is_the_2nd_of_january(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, crm_app: web.Application
) -> None:
    """Tuesday 31 December 2030, 'move my haircut to the 2nd at 3pm': Thursday 2 January
    2031 at 3 PM, read back so."""
    chat = await _at(datetime(2030, 12, 31, 12, 0, tzinfo=HOME), crm_app, crm_admin, make_assistant)
    events = await chat.say("move my haircut to the 2nd at 3pm")
    if events[-1]["awaiting_confirmation"]:
        events = await chat.say("yes")
    said = answer(events)
    haircuts = [
        _local(a["starts_at"]) for a in await appointments(crm_admin) if a["service"] == "Haircut"
    ]
    assert datetime(2031, 1, 2, 15, 0, tzinfo=HOME) in haircuts, (said, haircuts)
    assert _read_back(said, date(2031, 1, 2)), said


async def test_new_year_asked_before_midnight_and_tomorrow_after_it(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, crm_app: web.Application
) -> None:
    """At 23:58 on New Year's Eve 2030 'book a consultation on january 1st at 10am' is
    Wednesday 1 January 2031; at 00:01, 'remind me to call my mother tomorrow' is due
    Thursday the 2nd, both read back."""
    chat = await _at(
        datetime(2030, 12, 31, 23, 58, tzinfo=HOME), crm_app, crm_admin, make_assistant
    )
    booked = await chat.say("book a consultation on january 1st at 10am")
    if booked[-1]["awaiting_confirmation"]:
        booked = await chat.say("yes")
    assert _days(booked) == [date(2031, 1, 1)], (answer(booked), _days(booked))
    assert _read_back(answer(booked), date(2031, 1, 1)), answer(booked)
    NOW[0] = datetime(2031, 1, 1, 0, 1, tzinfo=HOME)
    due = await chat.say("remind me to call my mother tomorrow")
    assert _days(due) == [date(2031, 1, 2)], (answer(due), _days(due))
    assert _read_back(answer(due), date(2031, 1, 2)), answer(due)


async def test_a_bare_hour_a_minute_before_midnight_is_named_by_its_day(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, crm_app: web.Application
) -> None:
    """At 23:59 on Monday 14 January 2030, 'book a haircut at 9am' (no day said): today's
    9 AM is gone; a booking is on a day read back by weekday and date, or she is asked."""
    chat = await _at(datetime(2030, 1, 14, 23, 59, tzinfo=HOME), crm_app, crm_admin, make_assistant)
    events = await chat.say("book a haircut at 9am")
    said = answer(events)
    for day in _days(events):
        assert day > date(2030, 1, 14) and _read_back(said, day), (said, day)
    if not _days(events):
        assert events[-1]["awaiting_confirmation"] or "?" in said, said


# --- written after the fixes -------------------------------------------------------------


async def test_a_month_from_the_31st_answered_with_the_28th_books_february_28(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, crm_app: web.Application
) -> None:
    """Friday 31 January 2031, 'book a consultation a month from today at 2pm' is asked
    about; 'the 28th' books Friday 28 February at 2 PM (the month the count named, the
    hour said before), read back."""
    chat = await _at(datetime(2031, 1, 31, 10, 0, tzinfo=HOME), crm_app, crm_admin, make_assistant)
    await chat.say("book a consultation a month from today at 2pm")
    events = await chat.say("the 28th")
    said = answer(events)
    booked = [
        _local(a["starts_at"])
        for a in await appointments(crm_admin)
        if a["service"] == "Consultation"
    ]
    assert booked == [datetime(2031, 2, 28, 14, 0, tzinfo=HOME)], (said, booked)
    assert _read_back(said, date(2031, 2, 28)), said


async def test_ok_to_which_day_next_month_books_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, crm_app: web.Application
) -> None:
    """Friday 31 January 2031, 'book a consultation next month at 2pm' asks which day;
    'ok' names none: nothing is booked (not today at 2 PM), and the day is asked again."""
    chat = await _at(datetime(2031, 1, 31, 10, 0, tzinfo=HOME), crm_app, crm_admin, make_assistant)
    await chat.say("book a consultation next month at 2pm")
    events = await chat.say("ok")
    said = answer(events)
    assert not _writes(events), (said, _days(events))
    assert "?" in said, said


async def test_ok_to_a_date_not_on_the_calendar_books_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, crm_app: web.Application
) -> None:
    """Thursday 10 January 2030, 'book a haircut on april 31st at 10am' asks which day
    (April has 30); 'okay' books nothing and asks again."""
    chat = await _at(datetime(2030, 1, 10, 9, 0, tzinfo=HOME), crm_app, crm_admin, make_assistant)
    await chat.say("book a haircut on april 31st at 10am")
    events = await chat.say("okay")
    said = answer(events)
    assert not _writes(events), (said, _days(events))
    assert "?" in said, said


async def test_two_months_from_the_31st_of_december_is_asked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, crm_app: web.Application
) -> None:
    """Tuesday 31 December 2030, 'remind me in two months to service the boiler': there is
    no 31 February; it is asked, or due on a day read back, never 3 March unsaid."""
    chat = await _at(datetime(2030, 12, 31, 12, 0, tzinfo=HOME), crm_app, crm_admin, make_assistant)
    events = await chat.say("remind me in two months to service the boiler")
    said = answer(events)
    for day in _days(events):
        assert day not in (date(2031, 3, 1), date(2031, 3, 3)) and _read_back(said, day), said
