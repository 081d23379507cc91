"""The hour of a visit is read in the customer's zone before it is judged a night hour:
a model's "15:00Z" is 7 AM in Los Angeles (kept), "06:00Z" is 10 PM there (asked)."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from assistant import guard
from assistant.schema import ToolCall

LA = ZoneInfo("America/Los_Angeles")


def _booking(starts_at: str) -> ToolCall:
    arguments = {"service": "Haircut", "starts_at": starts_at}
    return ToolCall(call_id="c1", tool_name="crm.bookAppointment", arguments=arguments)


def _held(starts_at: str) -> list[guard.Doubt]:
    return guard.doubts([_booking(starts_at)], [], [], now=0.0, window_s=60.0, zone=LA)


def test_a_night_hour_in_the_customers_zone_is_asked() -> None:
    (doubt,) = _held("2030-01-18T06:00:00Z")
    assert doubt.first_time and "10 PM on Thursday" in doubt.question
    assert "book it for then" in guard.question([doubt])
    assert "haven't changed anything" in guard.doubt_wording([doubt]).declined


def test_a_day_hour_in_the_customers_zone_is_kept() -> None:
    assert _held("2030-01-18T15:00:00Z") == []
    assert _held("2030-01-18T21:59:00-08:00") == []
    assert _held("2030-01-18T06:00:00-08:00") == []
