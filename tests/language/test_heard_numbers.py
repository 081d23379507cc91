"""Hours and numbers as a phone recogniser writes them, read as said (or asked)."""

from __future__ import annotations

from datetime import datetime, time
from zoneinfo import ZoneInfo

import pytest

from assistant.language import find_when
from assistant.language.text import normalize
from assistant.language.transcript import plain

NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo("America/Los_Angeles"))  # a Monday noon


@pytest.mark.parametrize(
    ("said", "hour"),
    [
        ("move my dental cleaning to thursday ten a m", time(10, 0)),
        ("book a haircut on friday at four fifteen p m", time(16, 15)),
        ("next tuesday at eleven thirty a m", time(11, 30)),
        ("thursday eleven thirty p m", time(23, 30)),
        ("move the dental cleaning to ate thirty on friday", time(8, 30)),
        ("book a consultation on thursday at won thirty", time(13, 30)),
        ("book me a haircut on friday at to thirty", time(14, 30)),
        ("book an eye exam on friday at nine oh five", time(9, 5)),
        ("friday at two ten", time(14, 10)),
        ("book a consultation for four on saturday", time(16, 0)),
    ],
)
def test_a_spoken_hour_is_the_hour_said(said: str, hour: time) -> None:
    """The hour a voice said, homophones and spaced "a m" included, is the one read."""
    when = find_when(normalize(said).text, NOW)
    assert when is not None and when.clock == hour and not when.time_unread


@pytest.mark.parametrize(
    "said",
    ["book a haircut on friday at ten fifty two", "move it to friday at nine fifty one"],
)
def test_an_hour_read_only_in_part_is_marked_unread(said: str) -> None:
    """Minutes left over after the hour read mark the time as not read whole (asked)."""
    when = find_when(normalize(said).text, NOW)
    assert when is not None and when.time_unread


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("i ate at noon", "i ate at noon"),
        ("look at to do list", "look at to do list"),
        ("book four haircuts on friday", "book four haircuts on friday"),
        # an hour, written as a typist writes it (language/said_numbers.py), not "for"
        ("at four friday works", "at 4 friday works"),
        ("book two thirty minute sessions", "book two thirty minute sessions"),
    ],
)
def test_words_that_are_not_hours_are_left_as_said(said: str, kept: str) -> None:
    """A homophone is only rewritten where the word it sounds like could not stand."""
    assert plain(said) == kept


@pytest.mark.parametrize(
    ("said", "phone"),
    [
        ("my new phone number is four one five five five five o one nine nine", "4155550199"),
        ("update my number to four fifteen five five five oh one two three", "4155550123"),
        ("call me on four one five five five five oh one twenty three", "4155550123"),
    ],
)
def test_a_phone_number_read_with_o_or_in_groups_is_one_number(said: str, phone: str) -> None:
    """ "o" for zero and groups ("four fifteen", "twenty three") give the number's digits."""
    assert normalize(said).phones == (phone,)


def test_a_day_taken_back_with_no_is_replaced_whatever_its_first_letter() -> None:
    """ "friday no saturday" is Saturday (a day starting with s was not seen as a day)."""
    when = find_when(normalize("book a haircut for friday no saturday at eleven").text, NOW)
    assert when is not None and when.day is not None and when.day.weekday() == 5
