"""The part of a message no rule read is kept with its asks; what is said around an ask is not."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.language import detect_intents

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))  # a Monday


def unheard(text: str) -> list[str]:
    return sorted({words for intent in detect_intents(text, NOW, TZ) for words in intent.unheard})


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("move my haircut to friday at 3pm and also sort out the thing with my card", "sort out"),
        ("sort out the thing with my card and move my haircut to friday at 3pm", "sort out"),
        ("what's my balance and the other thing", "the other thing"),
        ("cancel my haircut and tell the manager I'm unhappy", "tell the manager"),
        ("when's my next haircut and can you do my taxes too", "do my taxes"),
        ("what tasks do I have and blorf the zamble", "blorf the zamble"),
        ("cancel the dental cleaning and also change my card on file", "change my card"),
    ],
)
def test_an_ask_no_rule_reads_is_kept_as_said(text: str, words: str) -> None:
    """ "…and sort out the thing with my card": kept, without "also" or "can you", to be said."""
    kept = unheard(text)
    assert len(kept) == 1 and kept[0].startswith(words), kept


@pytest.mark.parametrize(
    "text",
    [
        "move my haircut to friday at 3pm, I'm running late today",
        "cancel my dentist appointment because I'm sick",
        "thanks so much! what's my balance",
        "hi there, when's my haircut?",
        "book a haircut for friday at 11am, that's the 18th",
        "add a task to buy shampoo, it's for my mum",
        "um okay so uh can you move my haircut to saturday at 11 am uh if that's alright",
        "don't open a ticket, just tell me when my next appointment is",
        "leave my tasks alone, what's my balance?",
        "first, what do i owe",
        "let me think about it. what's on my list?",
        "yes and another thing, what's my balance",
        "if my haircut falls on the weekend, could you move it to the friday before, same time?",
    ],
)
def test_what_is_said_around_an_ask_is_not_kept(text: str) -> None:
    """Remarks, reasons, thanks, refusals and a day said apart are no ask not understood."""
    assert unheard(text) == []


def test_the_reason_after_a_visit_is_no_words_of_it() -> None:
    """ "cancel my dentist appointment because I'm sick": the dentist, found by its words."""
    (intent,) = detect_intents("cancel my dentist appointment because I'm sick", NOW, TZ)
    assert intent.kind == "cancel_appointment" and intent.target is not None
    assert intent.target.words == ("dentist",)


@pytest.mark.parametrize(
    "text",
    [
        "could the 10 o'clock on wednesday be on thursday instead, keeping the time",
        "move my haircut to sunday, say 1",
    ],
)
def test_how_an_ask_is_to_be_done_is_not_kept(text: str) -> None:
    """A time offered ("say 1") or a participle ("keeping the time") says how, asks nothing."""
    assert unheard(text) == []
