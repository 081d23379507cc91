"""Text as it is spoken: split into sentence-sized pieces for streaming."""

from __future__ import annotations

import re

# A sentence ends at . ! or ? followed by space, unless the dot ends a common abbreviation
# or sits inside a number or an amount ("$150.00", "Dr. Lee", "e.g.").
# The stop is matched first, as a character: the search then skips ahead to the next
# stop in one step (a pattern that begins with a look-behind is tried at every position,
# twice as slow), and the abbreviations are looked at only after a stop.
_BOUNDARY = re.compile(
    r"[.!?](?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\be\.g\.)(?<!\bi\.e\.)\s+"
)


def split_sentences(text: str) -> list[str]:
    """'A. B? C' → ['A. ', 'B? ', 'C']: joined again they give the text back."""
    text = text.strip()
    if not text:
        return []
    pieces = []
    start = 0
    for boundary in _BOUNDARY.finditer(text):
        pieces.append(text[start : boundary.start() + 1] + " ")
        start = boundary.end()
    pieces.append(text[start:])
    return pieces
