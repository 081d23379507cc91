"""A support case's subject, cut short, ends on a word of its own."""

from __future__ import annotations

import pytest

from assistant.language.slots import ticket_text

SAID = (
    "i was told i'd get a receipt emailed after my checkup and i never got it",
    "the online booking has been spinning for two days and we can't get in at all",
    "my last two invoices were charged twice to my card and they never refunded it",
)


@pytest.mark.parametrize("said", SAID)
def test_a_subject_cut_short_ends_on_a_word_of_its_own(said: str) -> None:
    found = ticket_text(said, said)
    assert found is not None
    subject, body = found
    assert len(subject) <= 60
    last = subject.split()[-1].lower()
    assert last not in {"and", "but", "i", "we", "they", "the", "a", "to", "my"}, subject
    assert body.lower().startswith(subject.lower()[:20])
