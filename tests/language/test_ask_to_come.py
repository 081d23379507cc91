"""An ask announced but not yet said ("I need to change something", "I need to sort a few
things out"): answered with what can be done, not "Sorry, I can't help with that".

Found by probing (first run: 0 of 3 were read; each was told it could not be helped)."""

from __future__ import annotations

import pytest

from assistant.language.smalltalk import classify_chat


@pytest.mark.parametrize(
    "said",
    [
        "I need to change something",
        "I need to sort a few things out",
        "hi I need to check a few things",
    ],
)
def test_an_ask_to_come_is_met_with_what_can_be_done(said: str) -> None:
    assert classify_chat(said) == "capabilities"


@pytest.mark.parametrize("said", ["I need to change my email", "I need to sort out my bill"])
def test_an_ask_said_is_no_announcement(said: str) -> None:
    assert classify_chat(said) != "capabilities"
