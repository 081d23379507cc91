"""A chat's shorthand read as meant, and only where it is meant (heldout21).

"tues 10a" and "at 7:30p" are hours, "3 of afternoon" is 3 in the afternoon, "remember me
to" is "remind me to", "bal", "nvm", "cxl", "resched", "wk" are words; "go to gate 4a",
"check form 2a" and "print 3 of the morning reports" keep their words (an hour read there
made a to-do "Go to gate" due at 4 AM, found after the first rule)."""

from __future__ import annotations

import pytest

from assistant.language.text import normalize


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("book haircut tues 10a", "10 am"),
        ("move it to friday at 7:30p", "7:30 pm"),
        ("tomorrow 9a please", "9 am"),
        ("massage on thursday 3 of afternoon", "3 in the afternoon"),
        ("at 4 of the evening on friday", "4 in the evening"),
        ("remember me to call my sister", "remind me to call my sister"),
        ("bal?", "balance"),
        ("nvm", "never mind"),
        ("cxl haircut", "cancel haircut"),
        ("resched cleaning next wk", "reschedule cleaning next week"),
    ],
)
def test_shorthand_is_read_as_meant(said: str, read: str) -> None:
    assert read in normalize(said).text, normalize(said).text


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("add a task to go to gate 4a on friday", "gate 4a"),
        ("remind me to check form 2a", "form 2a"),
        ("my flat is apt 10a", "10a"),
        ("print 3 of the morning reports", "3 of the morning reports"),
        ("book 2 of the evening classes", "2 of the evening classes"),
    ],
)
def test_words_that_only_look_like_it_are_kept(said: str, kept: str) -> None:
    assert kept in normalize(said).text, normalize(said).text
