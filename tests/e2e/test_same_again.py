""" "Do the same for my other appointment" after a move: the same shift when the move was
said relative to the visit's own time, nothing on a guess when it was a time said outright.
Through the websocket and the real CRM stub."""

from __future__ import annotations

from datetime import datetime, timedelta

from tests.e2e.test_chaining import appointments_of
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin


async def _starts(crm_admin: CrmAdmin) -> dict[str, datetime]:
    return {
        a["service"]: datetime.fromisoformat(a["starts_at"])
        for a in await appointments_of(crm_admin, "upcoming")
    }


async def test_the_same_shift_moves_the_other_visit_by_as_much(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Two days later for the haircut, then "same for the dentist": two days later too."""
    before = await _starts(crm_admin)
    chat = await (await make_assistant()).connect()
    await chat.say("push my haircut back two days")
    await chat.say("same for the dentist")
    after = await _starts(crm_admin)
    assert after["Haircut"] - before["Haircut"] == timedelta(days=2)
    assert after["Dental cleaning"] - before["Dental cleaning"] == timedelta(days=2)


async def test_a_move_to_a_time_said_outright_is_not_repeated_onto_another(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Haircut to Saturday at 11am, then "do the same for the dentist": the dentist is not
    moved (neither onto the haircut's new hour nor by the haircut's shift)."""
    before = await _starts(crm_admin)
    chat = await (await make_assistant()).connect()
    await chat.say("move my haircut to saturday at 11am")
    events = await chat.say("do the same for the dentist")
    assert "crm.rescheduleAppointment" not in [c["tool"] for c in events[-1]["tool_calls"]]
    assert (await _starts(crm_admin))["Dental cleaning"] == before["Dental cleaning"]
