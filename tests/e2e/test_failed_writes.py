"""A write that fails in the middle of a longer conversation, through the websocket, the
embedded models and the real CRM stub with its faults: the answer never says it happened,
"did that go through?" next turn says it did not (from a fresh look at the CRM), and
"try again" applies it exactly once."""

from __future__ import annotations

from datetime import UTC
from typing import Any

import pytest
from aiohttp import web

from crm_stub.app import create_app
from tests.e2e.conversations import NOW
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, appointments, tasks, writes_applied

TASKS = "/v1/customers/*/tasks"
APPOINTMENTS = "/v1/customers/*/appointments"
CANCEL = "/v1/customers/*/appointments/*/cancel"
ADD_TASK = "POST /v1/customers/{cid}/tasks"
BOOK = "POST /v1/customers/{cid}/appointments"


@pytest.fixture
def crm_app(crm_token: str) -> web.Application:
    """The CRM stub at the pinned Monday noon the written conversations are played at."""
    return create_app(token=crm_token, today=NOW.astimezone(UTC).date(), clock=lambda: NOW)


def said(events: list[dict[str, Any]]) -> str:
    return answer(events).lower()


def awaiting(events: list[dict[str, Any]]) -> list[str]:
    pending = events[-1]["awaiting_confirmation"]
    return [call["tool"] for call in pending["calls"]] if pending else []


async def test_a_task_refused_mid_conversation_is_not_claimed_and_added_once_on_retry(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Third turn's add is refused by the CRM: not called added; "did that go through?"
    says no; "try again" adds it, once; asked again, it says it went through."""
    chat = await (await make_assistant(clock=lambda: NOW)).connect()
    await chat.say("what's on my to do list")
    await chat.say("and when is my haircut")
    await crm_admin.add_fault(method="POST", path=TASKS, status=403)
    failed = said(await chat.say("add a task to call the plumber"))
    assert "couldn't" in failed and "added" not in failed
    checked = said(await chat.say("did that go through?"))
    assert "didn't go through" in checked
    assert not [title for title in await tasks(crm_admin) if "plumber" in title.lower()]
    await crm_admin.clear_faults()
    retried = said(await chat.say("try again"))
    assert "added" in retried
    assert [title for title in await tasks(crm_admin) if "plumber" in title.lower()] == [
        "Call the plumber"
    ]
    assert "went through" in said(await chat.say("did it work?"))
    assert await writes_applied(crm_admin) == {ADD_TASK: 1}


async def test_a_cancel_that_failed_after_the_yes_is_asked_again_and_applied_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The yes to a cancel meets a refusal: not called cancelled, "did it go through" says
    no and the haircut is still booked; "try again" asks again, and the yes cancels once."""
    chat = await (await make_assistant(clock=lambda: NOW)).connect()
    await chat.say("what appointments have i got")
    assert awaiting(await chat.say("cancel my haircut")) == ["crm.cancelAppointment"]
    await crm_admin.add_fault(method="POST", path=CANCEL, status=403)
    failed = said(await chat.say("yes"))
    assert "couldn't cancel" in failed and "is cancelled" not in failed
    assert "didn't go through" in said(await chat.say("did it go through"))
    assert any(a["service"] == "Haircut" for a in await appointments(crm_admin))
    await crm_admin.clear_faults()
    assert awaiting(await chat.say("try again")) == ["crm.cancelAppointment"]
    assert "cancelled" in said(await chat.say("yes"))
    assert not any(a["service"] == "Haircut" for a in await appointments(crm_admin))
    assert await writes_applied(crm_admin) == {
        "POST /v1/customers/{cid}/appointments/{aid}/cancel": 1
    }


async def test_a_booking_never_confirmed_is_checked_not_done_and_booked_once_on_retry(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The CRM answers every booking 503 until the turn's deadline (outcome unknown): no
    "booked"; the check looks and says it did not go through; the retry books it once."""
    assistant = await make_assistant(
        turn_deadline_s=1.5, breaker_failure_threshold=100, clock=lambda: NOW
    )
    chat = await assistant.connect()
    await chat.say("what's my balance")
    await crm_admin.add_fault(method="POST", path=APPOINTMENTS, status=503)
    failed = said(await chat.say("book a physical therapy session next tuesday at 10am"))
    assert "hasn't confirmed" in failed and "you're booked" not in failed
    await crm_admin.clear_faults()
    assert "didn't go through" in said(await chat.say("did that go through?"))
    assert "booked" in said(await chat.say("ok try again"))
    physio = [a for a in await appointments(crm_admin) if a["service"] == "Physical therapy"]
    assert len(physio) == 1
    assert await writes_applied(crm_admin) == {BOOK: 1}


async def test_a_booking_applied_with_its_reply_lost_is_found_and_not_sent_again(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The CRM books, then never answers until the deadline: the check finds it booked,
    and "try again" sends nothing more (one booking)."""
    assistant = await make_assistant(
        turn_deadline_s=1.5, breaker_failure_threshold=100, clock=lambda: NOW
    )
    chat = await assistant.connect()
    await chat.say("when's my next appointment")
    await crm_admin.add_fault(
        method="POST", path=APPOINTMENTS, apply_after=True, hang=True, times=1
    )
    await crm_admin.add_fault(method="POST", path=APPOINTMENTS, hang=True)
    failed = said(await chat.say("book a physical therapy session next tuesday at 10am"))
    assert "hasn't confirmed" in failed
    await crm_admin.clear_faults()
    assert "did go through" in said(await chat.say("did that go through?"))
    again = await chat.say("try again")
    assert "did go through" in said(again)
    assert not [c for c in again[-1]["tool_calls"] if c["tool"] == "crm.bookAppointment"]
    physio = [a for a in await appointments(crm_admin) if a["service"] == "Physical therapy"]
    assert len(physio) == 1
    assert await writes_applied(crm_admin) == {BOOK: 1}
