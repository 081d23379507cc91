"""A time said alone right after a booking: the move is asked about, and made only on a yes."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

ZONE = ZoneInfo("America/Los_Angeles")


async def _eye_exams(crm_admin: CrmAdmin) -> list[str]:
    _, body = await crm_admin.get("/v1/customers/cust_001/appointments?status=upcoming")
    return [
        datetime.fromisoformat(a["starts_at"]).astimezone(ZONE).strftime("%H:%M")
        for a in body["appointments"]
        if a["service"] == "Eye exam"
    ]


def _answer(events: list[dict[str, Any]]) -> str:
    return next(e["text"] for e in events if e["type"] == "answer.done")


async def test_a_bare_time_after_a_booking_is_asked_about_then_moved_on_yes(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """ "uh five o clock" after booking at 4 asks to move it; "yeah" moves it to 5 PM."""
    chat = await (await make_assistant()).connect()
    await chat.say("book an eye exam next thursday at 4pm")
    asked = _answer(await chat.say("uh five o clock"))
    assert "move your eye exam" in asked and "5:00 PM" in asked
    assert await _eye_exams(crm_admin) == ["16:00"]
    await chat.say("yeah")
    assert await _eye_exams(crm_admin) == ["17:00"]


async def test_a_no_to_the_question_leaves_the_booking_as_it_was(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """A no (or anything else) after "should I move your eye exam…?" moves nothing."""
    chat = await (await make_assistant()).connect()
    await chat.say("book an eye exam next thursday at 4pm")
    await chat.say("five o clock")
    await chat.say("no leave it")
    assert await _eye_exams(crm_admin) == ["16:00"]


async def test_a_day_and_time_said_with_nothing_asked_asks_what_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """ "friday at 3pm" as the first thing said: what is wanted then is asked, nothing is
    called or written; "morning" alone still greets."""
    chat = await (await make_assistant()).connect()
    events = await chat.say("friday at 3pm")
    asked = _answer(events)
    assert asked.startswith("What would you like on Friday") and "3:00 PM" in asked
    assert events[-1]["tool_calls"] == []
    assert "What would you like" not in _answer(await chat.say("morning"))
    assert await _eye_exams(crm_admin) == []
