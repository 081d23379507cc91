"""Answers are spoken sentence by sentence: where a sentence ends, and where it does not."""

from __future__ import annotations

import pytest

from assistant.speaking import split_sentences


def test_sentences_are_split_after_their_end_and_join_back_to_the_text() -> None:
    """Each piece ends with its sentence's stop; joined, they give the answer back."""
    text = "You owe $150.00 on INV-1001. Anything else?  Bye!"
    pieces = split_sentences(text)
    assert pieces == ["You owe $150.00 on INV-1001. ", "Anything else? ", "Bye!"]


@pytest.mark.parametrize(
    "text",
    [
        "Your haircut is with Dr. Lee at 2:30 PM.",
        "Mr. Okafor called about the contract.",
        "Bring a document, e.g. your passport.",
        "Same as before, i.e. Tuesday at noon.",
        "Mrs. Patel and Ms. Ruiz are booked.",
    ],
)
def test_a_title_or_an_abbreviation_does_not_end_a_sentence(text: str) -> None:
    """A voice never pauses after "Dr." as if the sentence had ended."""
    assert split_sentences(text) == [text]
