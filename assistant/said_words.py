"""A message as its words: what two sayings of the same thing have in common.

A platform's retry of the same conversation and a client's resend of the same message are
told apart from a new one by their words, whatever the case, spacing and punctuation
around them ("Cancel it." and "cancel it" are one message said again).
"""

from __future__ import annotations

import re

# A word with what joins its parts ("maria.new@example.com", "o'brien", "555-0123" stay
# whole); the stops, commas and case around words are the recogniser's, not the caller's.
_SAID_WORD = re.compile(r"[^\W_]+(?:[.@'’_+\-/:][^\W_]+)*")


def said_words(text: str) -> str:
    """`text` as its words, lower case, without the punctuation around them."""
    return " ".join(_SAID_WORD.findall(text.casefold()))


__all__ = ["said_words"]
