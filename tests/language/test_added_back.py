"""A to-do asked for again is read as its add, and "back" said of a visit is not
(assistant/language/added_back.py)."""

from __future__ import annotations

import pytest

from assistant.language.added_back import as_added


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("put call the pharmacy back on my list", "add call the pharmacy to my list"),
        ("stick buy stamps back onto my to-do list", "add buy stamps to my list"),
        ("add 'call the pharmacy' again", "add 'call the pharmacy'"),
        ("add call the pharmacy again for friday", "add call the pharmacy for friday"),
        (
            "could you put 'pay rent' back as high priority",
            "could you add 'pay rent' as high priority",
        ),
        ("bring 'call mom' back", "add 'call mom'"),
        ("re-add buy stamps", "add buy stamps"),
    ],
)
def test_a_todo_asked_for_again_is_its_add(said: str, meant: str) -> None:
    assert as_added(said) == meant


@pytest.mark.parametrize(
    "said",
    [
        "put my haircut back an hour",
        "push it back to friday",
        "move it back to 3",
        "can you call me back",
        "put the cleaning back to how it was",
    ],
)
def test_back_said_of_anything_else_is_left_as_said(said: str) -> None:
    assert as_added(said) == said
