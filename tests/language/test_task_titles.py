"""A new task's title holds what was asked to be done, and nothing said about it: a
remark on its priority after it ("…, it's urgent") is its priority, and words quoted in
the title are the title's, whatever they say (found by hand: "add a task to call the
plumber on monday, it's urgent" was titled "Call the plumber it's")."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.language import detect_intents

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))  # a Monday noon


def _added(text: str) -> dict[str, object]:
    (intent,) = detect_intents(text, NOW, TZ)
    assert intent.kind == "add_task"
    return dict(intent.arguments)


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        (
            "add a task to call the plumber on monday, it's urgent",
            {"title": "Call the plumber", "priority": "high", "due_on": "2030-01-21"},
        ),
        (
            "remind me to email the landlord, it's really important",
            {"title": "Email the landlord", "priority": "high"},
        ),
        (
            "add a task to fix the sink, it's not urgent",
            {"title": "Fix the sink", "priority": "low"},
        ),
    ],
)
def test_a_remark_on_priority_after_the_title_is_its_priority(
    text: str, arguments: dict[str, object]
) -> None:
    """ "…, it's urgent" sets the priority and leaves the title whole."""
    assert _added(text) == arguments


def test_words_quoted_in_a_title_stay_in_it() -> None:
    """ "read 'it's urgent' memo": the quoted words are the memo's name, not a priority."""
    assert _added("add a task: read 'it's urgent' memo") == {"title": "Read 'it's urgent' memo"}


def test_a_day_read_twice_over_leaves_the_title_whole() -> None:
    """ "tomorrow" is read as the day and again within "tomorrow morning": cut once, the
    words after it stay ("to take the bins out" lost "to take"; "tonight at 11:55 to lock
    the back door" left "K the back door")."""
    from assistant.language.slots import cut_spans

    text = "remind me tomorrow morning to take the bins out"
    assert cut_spans(text, [(10, 18), (10, 26)]) == "remind me to take the bins out"


@pytest.mark.parametrize(
    ("text", "title"),
    [
        # a word in -ing before one bare noun names a thing: kept as said
        ("add a task for wrapping paper", "Wrapping paper"),
        ("add a task for running shoes", "Running shoes"),
        # before what a verb takes, it is the thing to do
        ("add a task for picking up the dry cleaning", "Pick up the dry cleaning"),
        ("remind me about calling mom", "Call mom"),
    ],
)
def test_a_word_in_ing_is_a_verb_only_where_it_does_something(text: str, title: str) -> None:
    assert _added(text)["title"] == title
