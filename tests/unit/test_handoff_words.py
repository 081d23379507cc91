"""Which words ask for a person (the call is handed over) and which only sound like it."""

from __future__ import annotations

import pytest

from assistant.transports.relay_handoff import wants_person


@pytest.mark.parametrize(
    "text",
    [
        "put me through to an operator",
        "can you put me through please",
        "put me on to a real person",
        "transfer me",
        "connect me to a representative",
        "I want to talk to a person",
    ],
)
def test_asking_for_a_person_is_a_handoff(text: str) -> None:
    """Said to a platform, these end the call with a transfer to a person."""
    assert wants_person(text)


@pytest.mark.parametrize(
    "text",
    [
        "could you put me down for a haircut on saturday at quarter past ten",
        "um put me in for a haircut on saturday half nine",
        "put me on the waitlist for a sooner dentist appointment",
        "sorry, what time did you put me down for?",
    ],
)
def test_put_me_down_for_a_visit_is_a_booking_not_a_handoff(text: str) -> None:
    """ "put me down for", "put me in for": a booking, which was handed to a person
    instead (nothing booked) on every platform and the phone bridge."""
    assert not wants_person(text)
