"""A change told as made elsewhere is told, not asked; an ask beside it stays an ask."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.language.intents import detect_intents
from assistant.language.told_elsewhere import told_elsewhere

NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo("America/Los_Angeles"))


@pytest.mark.parametrize(
    ("said", "told"),
    [
        ("i already cancelled my haircut online", "cancel"),
        ("the dentist called and moved my cleaning to friday at 2", "move"),
        ("my husband booked me in for a haircut on friday at 10", "book"),
        ("i was told my number got changed to 415 555 0100", "contact"),
        ("i marked the eye exam done in the app already", "done"),
        ("i think i already added a task to call the plumber", "add"),
        ("the receptionist told me my cleaning is at 11 now", "move"),
    ],
)
def test_a_change_told_as_made_elsewhere_is_read_as_told(said: str, told: str) -> None:
    assert told_elsewhere(said) == told
    assert not any(intent.writes for intent in detect_intents(said, NOW, "America/Los_Angeles"))


@pytest.mark.parametrize(
    "said",
    [
        "cancel my haircut",
        "i was told to cancel my haircut",
        "can you move the haircut i booked yesterday to friday",
        "did you cancel my haircut",
        "i need my haircut moved",
        "I finished the groceries yesterday",
        "wait, the task I added before should be due tuesday, not monday",
        "move my haircut to saturday at 10am and show me everything i've got booked",
        "I want my number changed to 415 555 0100",
    ],
)
def test_an_ask_is_never_taken_for_a_report(said: str) -> None:
    assert told_elsewhere(said.lower()) is None
