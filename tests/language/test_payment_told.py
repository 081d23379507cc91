"""A payment told ("I paid the 150 yesterday", "i sent the money on friday") is a question
for the bills, never a to-do done; "can you check" after it names nothing; "what's left"
after it is what is left of the bill (tests/e2e/test_paid.py plays whole sessions).
To-dos told done with the same verbs ("I paid the plumber", "I sent the forms") are
still to-dos done."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.language.intents import detect_intents

ZONE = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, tzinfo=ZoneInfo(ZONE))


def _kinds(text: str) -> list[str]:
    return [intent.kind for intent in detect_intents(text, NOW, ZONE)]


@pytest.mark.parametrize(
    "text",
    [
        "I paid the 150 yesterday, can you check",
        "i sent the money on friday, has it arrived",
        "I paid online this morning so my balance should be zero now right",
        "I paid $80 last week",
        "we sent the payment over on monday",
        "I already paid for my haircut",
        "has my bank transfer cleared yet",
        "did the money arrive",
        "I wired 200 dollars to you on friday, did you get it?",
        "I paid 75 of it last week, what's left",
    ],
)
def test_a_payment_told_reads_the_bills(text: str) -> None:
    assert _kinds(text) == ["billing"], text


@pytest.mark.parametrize(
    ("text", "title_word"),
    [
        ("I paid the plumber", "plumber"),
        ("i sent the forms", "forms"),
        ("i sent 3 emails to the landlord", "emails"),
        ("I bought the groceries, can you check", "groceries"),
    ],
)
def test_a_todo_told_done_is_still_one_and_can_you_check_names_nothing(
    text: str, title_word: str
) -> None:
    intents = detect_intents(text, NOW, ZONE)
    assert [i.kind for i in intents] == ["complete_task"], intents
    target = intents[0].target
    assert target is not None and title_word.rstrip("s") in " ".join(target.words), target
    assert "check" not in target.words, target


def test_can_you_check_it_off_still_ticks_the_one_told() -> None:
    intents = detect_intents("I bought the groceries, can you check it off", NOW, ZONE)
    assert [i.kind for i in intents] == ["complete_task"]
