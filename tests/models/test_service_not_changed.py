"""A visit asked to become another service in reply to "When would you like to move it
to?" ("to a massage"): told that a booking's service is not changed here, the question
asked again (it was "Sorry, I didn't catch that"). Found by probing (first run 0 of 2)."""

from __future__ import annotations

import pytest

from assistant.language import Intent
from assistant.models.embedded.replies import asked_again

MOVE = Intent("reschedule_appointment", missing=("when",))
QUESTION = "Sure. When would you like to move it to?"


@pytest.mark.parametrize("reply", ["to a massage", "um, into a facial"])
def test_another_service_is_said_not_to_be_changed(reply: str) -> None:
    said = asked_again(MOVE, QUESTION, reply)
    assert said.startswith("I can't change which service a booking is for.")
    assert said.endswith("When would you like to move it to?")


def test_words_not_understood_are_said_so() -> None:
    assert asked_again(MOVE, QUESTION, "blue").startswith("Sorry, I didn't catch that.")
