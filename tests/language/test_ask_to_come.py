"""An ask announced but not yet said ("I need to change something", "I need to sort a few
things out"): answered with what can be done, not "Sorry, I can't help with that".

Found by probing (first run: 0 of 3 were read; each was told it could not be helped)."""

from __future__ import annotations

import pytest

from assistant.language.smalltalk import classify_chat


@pytest.mark.parametrize(
    "said",
    [
        "I need to sort a few things out",
        "hi I need to check a few things",
    ],
)
def test_an_ask_to_come_is_met_with_what_can_be_done(said: str) -> None:
    assert classify_chat(said) == "capabilities"


@pytest.mark.parametrize(
    "said", ["I need to change something", "I want to make a change", "can i make a change"]
)
def test_a_change_to_come_is_asked_what_to_change(said: str) -> None:
    """A change announced is asked what to change, with what can be changed (it was told
    what can be done in general; "I want to make a change" was asked when to move a visit)."""
    assert classify_chat(said) == "what_to_change"


@pytest.mark.parametrize("said", ["I need to change my email", "I need to sort out my bill"])
def test_an_ask_said_is_no_announcement(said: str) -> None:
    assert classify_chat(said) != "capabilities"
