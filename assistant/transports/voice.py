"""Text fit for a text-to-speech voice: what a caller should hear, not what a screen shows.

The narrators already aim for spoken English, but a model may still slip in markdown,
links or symbols, and a TTS engine reads those out literally ("asterisk asterisk",
"h t t p s colon slash slash"). `speakable` removes or rewords them and breaks long
clauses into short sentences, piece by piece: leading and trailing spaces are kept so
that streamed pieces still join into one text.
"""

from __future__ import annotations

import re

_LINK = re.compile(r"\[([^\]]+)\]\((?:[^)\s]+)\)")
_URL = re.compile(r"\b(?:https?://|www\.)[^\s<>()\"']+", re.IGNORECASE)
_LINE_MARKER = re.compile(
    r"^[ \t]*(?:#{1,6}[ \t]+|>[ \t]*|[-*+•][ \t]+|\d+[.)][ \t]+)", re.MULTILINE
)
_EMPHASIS = re.compile(r"(\*{1,3}|_{2,3}|~~|`+)(?=\S)(.+?)(?<=\S)\1")
_LONE_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9])_([^_\s][^_]*?)_(?![A-Za-z0-9])")
_NUMBER_SIGN = re.compile(r"#\s?(?=\d)")
_PARENTHESES = re.compile(r"\s*\(([^()]*)\)")
_LINE_BREAKS = re.compile(r"\s*\n+\s*")
_SPACES = re.compile(r"[ \t]{2,}")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,.!?;:])")
_DOUBLE_PUNCT = re.compile(r"([.!?])[.,;:]+")
_CLAUSE_BREAK = re.compile(r"\s*(?:;|\s[—–]\s|\s-{1,2}\s)\s*")
_SENTENCE_START = re.compile(r"([.!?]\s+)([a-z])")

# Symbols a voice would read out, and what a person would say instead.
_WORDS = (
    (re.compile(r"\s*&\s*"), " and "),
    (re.compile(r"(?<=\d)\s*%"), " percent"),
    (re.compile(r"\s*(?:->|→|=>)\s*"), " to "),
    (re.compile(r"\be\.g\.,?", re.IGNORECASE), "for example"),
    (re.compile(r"\bi\.e\.,?", re.IGNORECASE), "that is"),
    (re.compile(r"\betc\.", re.IGNORECASE), "and so on."),
    (re.compile(r"\bw/o\b", re.IGNORECASE), "without"),
    (re.compile(r"\bw/(?=\s)", re.IGNORECASE), "with"),
)
# Left over after the rules above: never worth saying.
_SILENT = re.compile(r"[*_`~|<>{}\[\]\\^#=]+")


def short_url(url: str) -> str:
    """'https://www.example.com/pay?id=1' → 'example.com': a caller can remember that."""
    host = re.sub(r"^(?:https?://)?(?:www\.)?", "", url, flags=re.IGNORECASE)
    host = re.split(r"[/?#:]", host, maxsplit=1)[0]
    return host.rstrip(".,;:!?").lower()


def _aside(match: re.Match[str]) -> str:
    inner = match.group(1).strip()
    return f", {inner}," if inner else ""


def _sentence_case(match: re.Match[str]) -> str:
    return match.group(1) + match.group(2).upper()


def speakable(text: str) -> str:
    """`text` as a voice should say it: no markdown, no symbols, short sentences."""
    if not text.strip():
        return text
    lead = text[: len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()) :]
    body = text.strip()
    body = _LINK.sub(r"\1", body)
    body = _URL.sub(lambda m: short_url(m.group(0)), body)
    body = _LINE_MARKER.sub("", body)
    for _ in range(2):  # nested emphasis ("**_this_**") needs a second pass
        body = _EMPHASIS.sub(r"\2", body)
    body = _LONE_UNDERSCORE.sub(r"\1", body)
    body = _NUMBER_SIGN.sub("number ", body)
    for pattern, words in _WORDS:
        body = pattern.sub(words, body)
    # A parenthetical is said as an aside: "(due Friday)" → ", due Friday,".
    body = _PARENTHESES.sub(
        lambda m: f", {m.group(1).strip()}," if m.group(1).strip() else "", body
    )
    # Lines of a list become sentences of their own.
    body = _LINE_BREAKS.sub(lambda m: " ", _end_lines(body))
    body = _CLAUSE_BREAK.sub(". ", body)
    body = _SILENT.sub(" ", body)
    body = _SPACES.sub(" ", body)
    body = _SPACE_BEFORE_PUNCT.sub(r"\1", body)
    body = re.sub(r",\s*([.!?])", r"\1", body)
    body = re.sub(r",(?:\s*,)+", ",", body)
    body = _DOUBLE_PUNCT.sub(r"\1", body)
    body = _SENTENCE_START.sub(_sentence_case, body)
    body = body.strip(" ,")
    return f"{lead}{body}{trail}" if body else ""


def _end_lines(text: str) -> str:
    """Every line that does not end a sentence gets a full stop, so lines are not run on."""
    lines = text.split("\n")
    ended = []
    for index, line in enumerate(lines):
        stripped = line.rstrip()
        last = index == len(lines) - 1
        if stripped and not last and stripped[-1] not in ".!?:,;":
            stripped += "."
        ended.append(stripped)
    return "\n".join(ended)


__all__ = ["short_url", "speakable"]
