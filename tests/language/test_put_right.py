"""A change put right in the same message, applied to the words of the ask it corrects
(language/put_right.py); what each correction becomes, and what is left as said."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.language.put_right import put_right

NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo("America/Los_Angeles"))  # a Monday


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("book physio for wednesday at 11am. no wait, 1", "book physio for wednesday at 1pm"),
        (
            "book a massage for saturday at 4pm. sorry, 5 not 4",
            "book a massage for saturday at 5pm",
        ),
        (
            "move the dentist to thursday at 9am. sorry, friday at 10",
            "move the dentist to friday at 10am",
        ),
        (
            "book an eye exam on tuesday at 9am. actually the next day, same time",
            "book an eye exam on january 16 at 9am",
        ),
        (
            "remind me to email the landlord on friday. no sorry, tomorrow",
            "remind me to email the landlord tomorrow",
        ),
        (
            "add a task to call John on friday. Actually make it saturday",
            "add a task to call John on saturday",
        ),
        (
            "tick off the eye exam task. Sorry, i meant the groceries one",
            "tick off the groceries task",
        ),
        (
            "move my haircut to saturday at 10 a.m.. actually, quarter past 10",
            "move my haircut to saturday at 10:15am",
        ),
        (
            "what's my balance? and move my haircut to friday. actually forget that",
            "what's my balance?",
        ),
        ("book a massage on friday at 3pm. hmm, never mind that", "never mind"),
        # a day and an hour put right one after the other: the last said of each
        (
            "move my haircut to saturday at 2:30. no, sunday is fine. just make it 3",
            "move my haircut to sunday at 3pm",
        ),
        (
            "book a facial on tuesday at 10am, no, thursday works better, at 11 please",
            "book a facial on thursday at 11am",
        ),
        # an hour put right that would fall late at night is read as a bare hour is
        (
            "move the haircut to saturday at 1, actually no, monday, make it 11",
            "move the haircut to monday at 11am",
        ),
        ("book a facial at 8pm. no wait, 9", "book a facial at 9pm"),
        # a bare "no" before a day said over another, without a pause
        (
            "move my cleaning to thursday at 9 no friday actually make it 10",
            "move my cleaning to friday at 10am",
        ),
    ],
)
def test_a_correction_is_applied_to_the_ask_it_corrects(said: str, meant: str) -> None:
    assert put_right(said, NOW) == meant


@pytest.mark.parametrize(
    "said",
    [
        "book a haircut on friday at 10am. sorry to be a pain!",
        "move my haircut to friday at 11am. actually I have another question, what's my balance",
        "mark it done then. And the exam i booked earlier, can you make it 3 instead",
        "what's my next appointment? actually, make it quick",
        "actually make it 11",
        "book a haircut on friday at 10am, no rush, whenever works",
    ],
)
def test_words_that_correct_nothing_said_in_this_message_are_left_as_said(said: str) -> None:
    """An apology, another question, a change of something booked before, no ask before."""
    assert put_right(said, NOW) == said
