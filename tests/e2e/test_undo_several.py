""" "Undo that" after a turn that made several changes: all of them are made the other way,
or, when one cannot be, which to undo is asked and nothing is written. Through the
websocket and the real CRM stub."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_chaining import appointments_of, tasks_of
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin


def _answer(events: list[dict[str, Any]]) -> str:
    return next(e["text"] for e in events if e["type"] == "answer.done")


def _haircut_start(appointments: list[dict[str, Any]]) -> str:
    (haircut,) = [a for a in appointments if a["service"] == "Haircut"]
    return str(haircut["starts_at"])


async def test_undo_after_two_changes_undoes_both(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """A move and a priority change, then "undo that": the haircut is back at its hour and
    the task at its priority (before, only the priority went back)."""
    before = _haircut_start(await appointments_of(crm_admin, "upcoming"))
    chat = await (await make_assistant()).connect()
    await chat.say("move my haircut to saturday at 11am and make the eye exam task high priority")
    assert _haircut_start(await appointments_of(crm_admin, "upcoming")) != before
    assert (await tasks_of(crm_admin))["Schedule eye exam"]["priority"] == "high"
    events = await chat.say("undo that")
    assert _haircut_start(await appointments_of(crm_admin, "upcoming")) == before
    assert (await tasks_of(crm_admin))["Schedule eye exam"]["priority"] == "low"
    assert "haircut" in _answer(events) and "low priority" in _answer(events)


async def test_undo_after_changes_one_of_which_cannot_be_undone_asks_which(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """A task completed (which cannot be reopened here) beside a priority change, then
    "undo that": nothing is changed back on a guess, and which to undo is asked."""
    chat = await (await make_assistant()).connect()
    await chat.say("make the eye exam task high priority and mark the groceries task done")
    assert (await tasks_of(crm_admin))["Buy groceries"]["status"] == "completed"
    events = await chat.say("undo that")
    assert "Which one should I undo?" in _answer(events)
    assert [c for c in events[-1]["tool_calls"] if c["tool"] != "crm.listTasks"] == []
    assert (await tasks_of(crm_admin))["Schedule eye exam"]["priority"] == "high"
