"""The change just made, told again: truthful, and never read as a change made now."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.claims import unbacked_claim
from assistant.dialogue_state import Action, Dialogue
from assistant.models.embedded import last_write

NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo("America/Los_Angeles"))
VISIT = {"id": "a1", "service": "Massage", "starts_at": "2030-01-15T15:00:00-08:00"}
TASK = {"id": "t1", "title": "Buy stamps", "due_on": "2030-01-18", "priority": "high"}
WRITES = frozenset(
    {
        "crm.bookAppointment",
        "crm.rescheduleAppointment",
        "crm.cancelAppointment",
        "crm.addTask",
        "crm.updateTask",
        "crm.completeTask",
        "crm.deleteTask",
        "crm.createTicket",
        "crm.updateContactInfo",
    }
)


@pytest.mark.parametrize(
    ("tool", "kind", "item", "said"),
    [
        ("crm.bookAppointment", "appointment", VISIT, "massage is booked for tomorrow at 3 PM"),
        ("crm.rescheduleAppointment", "appointment", VISIT, "massage is now on tomorrow at 3 PM"),
        ("crm.cancelAppointment", "appointment", VISIT, "massage on tomorrow at 3 PM is cancelled"),
        ("crm.addTask", "task", TASK, "on your list as Buy stamps, due Friday"),
        ("crm.updateTask", "task", TASK, "Buy stamps is due Friday and high priority"),
        ("crm.completeTask", "task", TASK, "Buy stamps is marked done"),
        ("crm.deleteTask", "task", TASK, "Buy stamps is off your list"),
    ],
)
def test_the_last_change_is_said_as_it_stands(
    tool: str, kind: str, item: dict[str, str], said: str
) -> None:
    """What the CRM answered is told (the day, the hour, the title), in words the check
    on claims of changes lets through: this turn changed nothing, the conversation did."""
    state = Dialogue(last_action=Action(tool, {}, kind, None, item))  # type: ignore[arg-type]
    text = last_write.told(state, NOW)
    assert said in text
    assert unbacked_claim(text, [], WRITES, earlier={tool}) is None


def test_nothing_done_is_said_so() -> None:
    """Asked before any change, the answer says none was made."""
    assert last_write.told(Dialogue(), NOW) == last_write.NOTHING_YET
    assert unbacked_claim(last_write.NOTHING_YET, [], WRITES) is None


@pytest.mark.parametrize(
    ("message", "asks"),
    [
        ("wait what time did you put it at?", True),
        ("what time did you book it for?", True),
        ("sorry what day did you move it to", True),
        ("what did you call it", True),
        ("when did you book me in for?", True),
        ("what did you just do?", True),
        ("book me in at the time you said", False),
        ("what time is my haircut", False),
        ("what did I book last week", False),
    ],
)
def test_what_asks_about_the_change_just_made(message: str, asks: bool) -> None:
    """Questions about what was just done are told from it; others are read as before."""
    assert last_write.asked(message) is asks
