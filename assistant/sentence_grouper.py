"""Streamed tokens regrouped into sentence-sized pieces fit to be spoken.

A voice provider speaks best with whole sentences, and a chat widget does not mind, so
the narrator's tokens are held until a sentence ends (or a long run without one is cut
at a space). Markdown a model slips in despite the prompt is dropped: a caller should
never hear "asterisk asterisk".
"""

from __future__ import annotations

import re

# A sentence ends at . ! ? or … (closing quotes/brackets kept with it) before a space,
# or at a line break. "$12.50" and "3.5" do not end one: no space follows the dot.
_BOUNDARY = re.compile(r"[.!?…]+[\"'”’)\]]*\s+|\n+")
_MARKUP = re.compile(r"\*\*|__|`+|^\s*#{1,6}\s+|^\s*(?:[-*•]|\d+[.)])\s+", re.MULTILINE)
_SPACES = re.compile(r"\s*\n\s*")


def spoken(text: str) -> str:
    """`text` without markdown markers, line breaks turned into spaces."""
    return _SPACES.sub(" ", _MARKUP.sub("", text))


class SentenceGrouper:
    """Push tokens, get whole sentences; `flush` returns what is left at the end."""

    def __init__(self, max_chars: int = 240) -> None:
        self._buffer = ""
        self._max_chars = max_chars
        self._started = False

    def push(self, text: str) -> list[str]:
        self._buffer += text
        pieces: list[str] = []
        while (match := _BOUNDARY.search(self._buffer)) is not None:
            pieces.append(self._buffer[: match.end()])
            self._buffer = self._buffer[match.end() :]
        if len(self._buffer) > self._max_chars:
            cut = self._buffer.rfind(" ", 0, self._max_chars) + 1 or self._max_chars
            pieces.append(self._buffer[:cut])
            self._buffer = self._buffer[cut:]
        return self._clean(pieces)

    def flush(self) -> list[str]:
        rest, self._buffer = self._buffer, ""
        pieces = self._clean([rest])
        if pieces:
            pieces[-1] = pieces[-1].rstrip()
        return [piece for piece in pieces if piece]

    def _clean(self, pieces: list[str]) -> list[str]:
        cleaned: list[str] = []
        for piece in pieces:
            text = spoken(piece)
            if not self._started:
                text = text.lstrip()
            if text.strip():
                self._started = True
                cleaned.append(text)
        return cleaned
