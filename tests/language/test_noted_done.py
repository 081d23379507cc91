"""A to-do said done as a note ("car insurance renewed", "renewed the car insurance"):
a thing of a few words and its own verb in the past, with no one said to have done it.

"mom called", "the dentist emailed", "my husband paid": news of someone, never a to-do
("Call mom") ticked off; "mark the groceries bought" is a request the asks read."""

from __future__ import annotations

import pytest

from assistant.fakes.world import NOW, TIMEZONE
from assistant.language import detect_intents


def _completes(text: str) -> bool:
    return any(i.kind == "complete_task" for i in detect_intents(text, NOW, TIMEZONE))


@pytest.mark.parametrize(
    "text",
    [
        "car insurance renewed",
        "groceries bought",
        "the rent paid",
        "prescription picked up",
        "renewed the car insurance",
        "bought the groceries already",
    ],
)
def test_a_to_do_noted_done_is_completed(text: str) -> None:
    assert _completes(text), text


@pytest.mark.parametrize(
    "text",
    [
        "mom called",
        "the dentist called",
        "my husband paid",
        "my sister picked up",
        "the clinic emailed",
        "the office confirmed",
        "i renewed",
        "mark the groceries bought",
    ],
)
def test_someone_s_news_is_no_to_do_done(text: str) -> None:
    assert not _completes(text), text
