"""The first free time asked for, as a question or as the booking (language/earliest.py):
read as the booking it leads to, its time asked (no tool says which times are free).

Found by probing: "book the earliest haircut you have" was told "I don't see an earliest
haircut among the services offered here" (first run of these: 1 of 4, the question form).
"""

from __future__ import annotations

import pytest

from assistant.language.earliest import as_booking


@pytest.mark.parametrize(
    ("said", "booking"),
    [
        (
            "what's the earliest you have for a consultation",
            "book a consultation, the earliest you have",
        ),
        ("book the earliest haircut you have", "book haircut, the earliest you have"),
        ("can you get me the next available massage", "book massage, the next you have"),
        ("book me in for the first free facial please", "book facial, the first you have"),
    ],
)
def test_the_first_free_time_is_the_booking_it_leads_to(said: str, booking: str) -> None:
    assert as_booking(said) == booking


@pytest.mark.parametrize(
    "said",
    [
        "book the first appointment on friday",  # which is not said: no service
        "cancel the earliest haircut",
        "book a haircut friday at 10",
    ],
)
def test_other_words_are_left_as_they_are(said: str) -> None:
    assert as_booking(said) == said
