"""A write's outcome is known before it is narrated (write integrity, guarantee 3): slow,
lost or in-progress replies are reconciled with the same idempotency key, through the
websocket with the real CRM stub and its faults."""

from __future__ import annotations

import pytest

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, tasks, writes_applied

TASKS = "/v1/customers/*/tasks"
APPOINTMENTS = "/v1/customers/*/appointments"
NEVER_SAID = ("couldn't", "try again", "please retry")


def error_of(events: list[dict[str, object]], tool: str) -> dict[str, object] | None:
    done = events[-1]
    calls = [c for c in done["tool_calls"] if c["tool"] == tool]  # type: ignore[index]
    assert len(calls) == 1, calls
    return calls[0]["error"]  # type: ignore[no-any-return]


async def test_a_booking_answered_after_its_timeout_is_booked_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The CRM answers after 2.5 s (timeout 2 s; the resend gets 409 in progress): the
    customer hears it is booked, and exactly one appointment exists."""
    await crm_admin.add_fault(method="POST", path=APPOINTMENTS, latency_ms=2500, times=1)
    chat = await (await make_assistant()).connect()
    events = await chat.say("book a haircut next wednesday at 11am")
    assert error_of(events, "crm.bookAppointment") is None
    assert answer(events).startswith("You're booked")
    assert await writes_applied(crm_admin) == {"POST /v1/customers/{cid}/appointments": 1}


@pytest.mark.parametrize("lost", [{"status": 503}, {"reset": True}])
async def test_a_task_applied_before_its_reply_was_lost_is_reported_added(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, lost: dict[str, object]
) -> None:
    """The CRM applies the add, then the reply is lost (503 or a reset): the resend with
    the same key brings back the stored reply, so 'added', once (was: "I couldn't add")."""
    await crm_admin.add_fault(method="POST", path=TASKS, apply_after=True, times=1, **lost)
    chat = await (await make_assistant()).connect()
    events = await chat.say("remind me to water the plants")
    assert error_of(events, "crm.addTask") is None
    assert "added" in answer(events).lower()
    assert not any(word in answer(events).lower() for word in NEVER_SAID)
    titles = [title for title in await tasks(crm_admin) if "plants" in title.lower()]
    assert len(titles) == 1
    assert await writes_applied(crm_admin) == {"POST /v1/customers/{cid}/tasks": 1}


async def test_a_write_still_unknown_at_the_deadline_is_not_confirmed_yet(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The CRM never answers the add before the turn's deadline: the answer says it is not
    confirmed yet (it may be done), never "couldn't" and never "try again"."""
    await crm_admin.add_fault(method="POST", path=TASKS, hang=True)
    chat = await (await make_assistant(turn_deadline_s=2.5)).connect()
    events = await chat.say("remind me to water the plants")
    error = error_of(events, "crm.addTask")
    assert error is not None and error["unconfirmed"] is True
    said = answer(events).lower()
    assert "hasn't confirmed" in said
    assert not any(word in said for word in NEVER_SAID)


async def test_a_write_too_late_to_start_is_neither_started_nor_announced(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """A lookup eats the turn's time; the add that follows is not begun, not acknowledged,
    and the answer says nothing was changed."""
    await crm_admin.add_fault(method="GET", path=TASKS, latency_ms=1800, times=1)
    chat = await (await make_assistant(turn_deadline_s=2.5)).connect()
    events = await chat.say("complete the grocery task")
    acks = " ".join(e["text"] for e in events if e["type"] == "ack.done")
    assert "marking" not in acks and "mark" not in acks
    error = error_of(events, "crm.completeTask")
    assert error is not None and error["code"] == "timeout"
    assert "nothing was changed" in answer(events)
    assert await writes_applied(crm_admin) == {}
    assert (await tasks(crm_admin))["Buy groceries"]["status"] == "pending"
