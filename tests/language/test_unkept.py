"""What a booking cannot hold, read from the words (language/unkept.py)."""

from __future__ import annotations

import pytest

from assistant.language.unkept import unkept_detail, without_length


@pytest.mark.parametrize(
    ("said", "detail"),
    [
        ("book a haircut with sam on friday at 3", "with sam"),
        ("can i see dr lee for a checkup on thursday", "see dr lee"),
        ("book a massage at 3 with my usual therapist", "with my usual therapist"),
        ("a 45-minute massage tomorrow at 2", "45-minute"),
        ("book a massage for two hours on friday", "two hours"),
        ("book a facial at the downtown location", "at the downtown location"),
        ("a quick haircut friday at 3", "quick haircut"),
    ],
)
def test_what_a_booking_cannot_hold_is_named_as_said(said: str, detail: str) -> None:
    assert unkept_detail(said) == detail


@pytest.mark.parametrize(
    "said",
    [
        "book a massage in 2 hours",
        "make my haircut an hour later",
        "can you move the cleaning 30 minutes earlier",
        "book a haircut for me on friday at 3",
        "book a haircut friday at 3 with the same details",  # no one named
        "book a checkup within an hour",
        "book a haircut friday at 3",
    ],
)
def test_a_time_or_a_shift_is_no_detail_left_out(said: str) -> None:
    assert unkept_detail(said) is None


def test_a_length_said_is_no_part_of_the_service() -> None:
    assert without_length("book a 60 minute massage friday").split() == [
        "book",
        "a",
        "massage",
        "friday",
    ]
