"""Tokens regrouped into spoken sentences."""

from __future__ import annotations

from assistant.sentence_grouper import SentenceGrouper


def group(*tokens: str) -> list[str]:
    grouper = SentenceGrouper(max_chars=40)
    pieces = [piece for token in tokens for piece in grouper.push(token)]
    return pieces + grouper.flush()


def test_sentences_come_out_whole() -> None:
    """Each piece is a finished sentence; the last one is flushed at the end."""
    assert group("Your balance is", " $42.50. Your next", " visit is Friday! Anything else") == [
        "Your balance is $42.50. ",
        "Your next visit is Friday! ",
        "Anything else",
    ]


def test_long_run_without_a_full_stop_is_cut_at_a_space() -> None:
    """A sentence longer than the limit is cut between words, never inside one."""
    pieces = group("one two three four five six seven eight nine ten eleven twelve")
    assert all(len(piece) <= 40 for piece in pieces)
    assert "".join(pieces) == "one two three four five six seven eight nine ten eleven twelve"
    assert pieces[0].endswith(" ")


def test_leading_whitespace_and_blank_lines_are_not_spoken() -> None:
    """A reply starting with new lines does not start with silence pieces."""
    assert group("\n\n", "Hello.\n\n", "Bye.") == ["Hello. ", "Bye."]
