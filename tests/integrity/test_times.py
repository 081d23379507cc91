"""Times are real, ahead and the customer's (write integrity, guarantee 2), through the
websocket with the real CRM stub: nothing is booked or moved to a day nobody said."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from assistant.fakes import ScriptedPlanner, calls
from assistant.guard import skipped_hour
from assistant.models.embedded import EmbeddedNarrator
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, appointments, called, writes_applied

PROFILE = "/v1/customers/*"


def _ahead(days: int) -> datetime:
    return (datetime.now(UTC) + timedelta(days=days)).replace(hour=17, minute=0, second=0)


def _spoken_date(day: datetime) -> str:
    return f"{day:%B} {day.day}"


async def test_a_date_beside_its_weekday_is_booked_on_that_date(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'book a consultation on Friday <the date>' books that date, not the next Friday."""
    day = _ahead(18)
    chat = await (await make_assistant()).connect()
    events = await chat.say(f"book a consultation on {day:%A} {_spoken_date(day)} at 9am")
    assert answer(events).startswith("You're booked")
    booked = [a for a in await appointments(crm_admin) if a["service"] == "Consultation"]
    assert [a["starts_at"][:10] for a in booked] == [day.date().isoformat()]


async def test_a_weekday_that_disagrees_with_the_date_is_asked_about(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'Thursday <a date that is a Friday>': nothing booked; the answer names both days."""
    day = _ahead(18)
    wrong = (day - timedelta(days=1)).strftime("%A")
    chat = await (await make_assistant()).connect()
    events = await chat.say(f"book a consultation on {wrong} {_spoken_date(day)} at 9am")
    assert called(events) == []
    said = answer(events)
    assert f"{_spoken_date(day)} is a {day:%A}, not a {wrong}" in said
    assert await writes_applied(crm_admin) == {}


async def test_a_move_to_a_date_beside_its_weekday_moves_it_there(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'move my dental cleaning to <weekday> <date> at 10am' moves it to that very date, and
    the answer says the time the CRM now holds."""
    day = _ahead(9)
    chat = await (await make_assistant()).connect()
    events = await chat.say(f"move my dental cleaning to {day:%A} {_spoken_date(day)} at 10am")
    cleaning = next(a for a in await appointments(crm_admin) if a["service"] == "Dental cleaning")
    assert cleaning["starts_at"][:10] == day.date().isoformat()
    assert f"{day:%A}, {_spoken_date(day)}" in answer(events)


@pytest.mark.parametrize(
    "when", ["on Feb 30 at 3pm", "on 13/45/2026 at 3pm", "yesterday at 3pm", "last tuesday at 2pm"]
)
async def test_an_impossible_or_past_time_books_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, when: str
) -> None:
    """A date not on the calendar, or gone, is refused with the reason (was: tomorrow)."""
    chat = await (await make_assistant()).connect()
    events = await chat.say(f"book a haircut {when}")
    assert called(events) == []
    said = answer(events)
    assert "isn't a date on the calendar" in said or "already passed" in said
    assert await writes_applied(crm_admin) == {}


async def test_a_move_to_yesterday_moves_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'move my dental cleaning to yesterday' leaves it where it is (was: tomorrow)."""
    chat = await (await make_assistant()).connect()
    events = await chat.say("move my dental cleaning to yesterday at 3pm")
    assert "crm.rescheduleAppointment" not in called(events)
    assert "already passed" in answer(events)
    assert await writes_applied(crm_admin) == {}


@pytest.mark.parametrize(
    ("starts_at", "reason"),
    [
        ((datetime.now(UTC) - timedelta(hours=3)).isoformat(), "already passed"),
        ((datetime.now(UTC) + timedelta(days=500)).isoformat(), "12 months ahead"),
    ],
    ids=["past", "far"],  # stable ids: the times differ at each collection
)
async def test_a_models_past_or_far_time_never_reaches_the_crm(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, starts_at: str, reason: str
) -> None:
    """Whatever the model decides: a time gone or past the booking horizon is refused by
    the engine, with a reason the customer hears; the CRM is never asked."""
    planner = ScriptedPlanner(
        calls(("crm.bookAppointment", {"service": "Haircut", "starts_at": starts_at}))
    )
    assistant = await make_assistant(planner=planner, narrator=EmbeddedNarrator())
    chat = await assistant.connect()
    events = await chat.say("book me a haircut")
    call = events[-1]["tool_calls"][0]
    assert call["status"] == "error" and call["error"]["code"] == "invalid_arguments"
    assert reason in answer(events)
    assert await writes_applied(crm_admin) == {}


def _next_skipped_hour(zone: ZoneInfo) -> datetime:
    """2:30 AM on the next night `zone`'s clocks go forward, with that night's first offset
    (as a wall time is given in her zone): an hour her clock never shows."""
    day = datetime.now(zone).date() + timedelta(days=1)
    while True:
        wall = datetime(day.year, day.month, day.day, 2, 30)
        if wall.replace(tzinfo=zone).astimezone(UTC).astimezone(zone).hour != 2:
            return wall.replace(tzinfo=zone)
        day += timedelta(days=1)


@pytest.mark.parametrize("tool", ["crm.bookAppointment", "crm.rescheduleAppointment"])
async def test_an_hour_the_clocks_skip_never_reaches_the_crm(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, tool: str
) -> None:
    """Whatever the model decides: 2:30 AM the night the customer's clocks go forward is no
    time on her clock. Refused, with the reason; it was booked (or moved) at 3:30 AM, an
    hour never said, once the CRM read the offset given."""
    starts_at = _next_skipped_hour(ZoneInfo("America/Los_Angeles")).isoformat()
    visit = next(a for a in await appointments(crm_admin) if a["service"] == "Haircut")
    arguments = (
        {"service": "Consultation", "starts_at": starts_at}
        if tool == "crm.bookAppointment"
        else {"appointment_id": visit["id"], "starts_at": starts_at}
    )
    planner = ScriptedPlanner(calls((tool, arguments)))
    assistant = await make_assistant(planner=planner, narrator=EmbeddedNarrator())
    chat = await assistant.connect()
    events = await chat.say("book me a consultation that sunday at 2:30 in the morning")
    call = events[-1]["tool_calls"][0]
    assert call["status"] == "error" and call["error"]["code"] == "invalid_arguments"
    assert "clocks go forward" in answer(events)
    assert await writes_applied(crm_admin) == {}


def test_an_hour_said_twice_or_an_instant_in_utc_is_not_a_skipped_one() -> None:
    """The night the clocks go back, 1:30 AM is twice on her clock (either is hers); a time
    given in UTC is an instant, taken as it is."""
    zone = ZoneInfo("America/Los_Angeles")
    assert not skipped_hour(datetime(2030, 11, 3, 1, 30, tzinfo=zone), zone)
    assert not skipped_hour(datetime(2030, 3, 10, 2, 30, tzinfo=UTC), zone)
    assert not skipped_hour(datetime(2030, 3, 10, 3, 30, tzinfo=zone), zone)
    assert skipped_hour(datetime(2030, 3, 10, 2, 30, tzinfo=zone), zone)
    howe = ZoneInfo("Australia/Lord_Howe")  # half an hour forward, at 2 AM
    assert skipped_hour(datetime(2030, 10, 6, 2, 15, tzinfo=howe), howe)
    assert not skipped_hour(datetime(2030, 10, 6, 2, 45, tzinfo=howe), howe)


async def test_without_the_profile_no_timed_write_is_made_until_it_is_read_again(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The profile is unreadable when the session opens: a booking is not guessed in UTC
    but refused (said so); once the CRM answers again, the next turn books in the
    customer's own timezone."""
    before = {a["id"] for a in await appointments(crm_admin)}
    await crm_admin.add_fault(method="GET", path=PROFILE, status=503)
    assistant = await make_assistant()
    chat = await assistant.connect()
    await crm_admin.clear_faults()
    # The fault is gone, but the session opened without it: the first turn reads it again.
    await crm_admin.add_fault(method="GET", path=PROFILE, status=503)
    events = await chat.say("book a haircut next wednesday at 3pm")
    assert "time zone" in answer(events)
    assert await writes_applied(crm_admin) == {}
    await crm_admin.clear_faults()
    events = await chat.say("book a haircut next wednesday at 3pm")
    assert answer(events).startswith("You're booked")
    _, profile = await crm_admin.get("/v1/customers/cust_001")
    zone = ZoneInfo(profile["timezone"])
    new: list[dict[str, Any]] = [a for a in await appointments(crm_admin) if a["id"] not in before]
    assert len(new) == 1
    local = datetime.fromisoformat(new[0]["starts_at"]).astimezone(zone)
    assert (local.hour, local.minute) == (15, 0)
