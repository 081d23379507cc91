"""A transcript with no pause written in it is read with the pauses a typist would have put
in (language/transcript.py): each rule tried only on a text holding one of its words.

The words are the rule's own gate, written by hand because its pattern ignores case (the
grammar's `rx` reads no words from such a pattern): a word left out would let a restart,
a correction or a take-back said without a pause go unread, the change first said being
written. Held here over every kept phrasing said as a recogniser writes it (no pause, no
capitals), and over each rule's own examples.
"""

from __future__ import annotations

import re

import pytest

from assistant.language.transcript import PAUSE_RULES, plain
from tests.fixtures.phrasings import kept_phrasings

_PAUSE = re.compile(r"[,.;!?]")

# One way each rule is said, so that each is seen to put its pause in where it should.
SAID = {
    0: "move my haircut to friday actually forget it just cancel it",
    1: "book a haircut friday at 9 no wait 11",
    2: "move my haircut to saturday actually undo that",
    3: "cancel my haircut sorry for the short notice",
    4: "is my haircut still on if it is could i also get a facial",
    5: "i'd rather not come in on wednesday would thursday at 9 work",
    6: "forget the reminder just move the haircut to friday",
    7: "i was charged twice for my cleaning can you open a ticket",
    8: "book an eye exam monday at eleven remind me to bring my glasses",
    9: "whats my balance i think i was charged twice",
}


def _unpunctuated() -> list[str]:
    return sorted({_PAUSE.sub("", text).lower() for text in kept_phrasings()} | set(SAID.values()))


def test_each_rule_puts_its_pause_in_where_it_is_said() -> None:
    for number, text in SAID.items():
        pattern, _, _ = PAUSE_RULES[number]
        assert pattern.search(text) is not None, (number, text)
        assert _PAUSE.search(plain(text)), (number, text, plain(text))


@pytest.mark.parametrize("number", range(len(PAUSE_RULES)))
def test_no_text_a_rule_would_change_lacks_all_of_its_words(number: int) -> None:
    pattern, _, words = PAUSE_RULES[number]
    matched = [text for text in _unpunctuated() if pattern.search(text) is not None]
    assert matched, "the rule is seen at work at least once"
    assert [text for text in matched if not any(word in text for word in words)] == []
