"""One more visit like the first (language/another_visit.py), read against its day and hour."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.language.another_visit import another_visit

ZONE = ZoneInfo("America/Los_Angeles")
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZONE)  # a Monday
FIRST = datetime(2030, 1, 15, 15, 0, tzinfo=ZONE)  # the massage booked: Tuesday at 3


@pytest.mark.parametrize(
    ("said", "booked"),
    [
        ("and another on thursday at the same time", "book massage on january 17 2030 at 15:00"),
        ("same again on friday", "book massage on january 18 2030 at 15:00"),
        ("one more the week after", "book massage on january 22 2030 at 15:00"),
        (
            "book me one more for the following wednesday",
            "book massage on january 16 2030 at 15:00",
        ),
        ("and the same again the tuesday after", "book massage on january 22 2030 at 15:00"),
        ("another one on friday at 10am", "book massage on january 18 2030 at 10:00"),
        ("then another one friday", "book massage on january 18 2030"),  # its hour asked
    ],
)
def test_one_more_is_that_service_on_the_day_said(said: str, booked: str) -> None:
    assert another_visit(said, "Massage", FIRST, NOW) == booked


@pytest.mark.parametrize(
    "said",
    [
        "and another thing, what do I owe",  # no day: another ask
        "thanks, that's all",
        "move it to thursday too",  # a change of its own
        "and another on thursday, and cancel my haircut",
        "one more question about friday",
    ],
)
def test_words_of_another_ask_are_no_second_visit(said: str) -> None:
    assert another_visit(said, "Massage", FIRST, NOW) is None
