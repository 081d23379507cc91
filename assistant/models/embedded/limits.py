"""What no tool can do, said plainly, with a support case offered where the team can help:
a name or address change, a broken document, a copy sent, a case chased up.
"""

from __future__ import annotations

import re

from assistant.language.text import normalize
from assistant.models.embedded.questions import OFFER

# What no tool can do, said plainly, with a support case offered where the team can help.
_CANNOT: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            r"\b(?:change|update|correct|fix) my (?:name|surname|last name|first name)\b"
            r"|\bthe name on my account\b"
            r"|\bmy name to\b|\bname is (?:spelt|spelled) wrong\b"
        ),
        "I can't change the name on your account myself, but the team can.",
    ),
    (
        re.compile(
            r"\b(?:change|update|correct|fix) (?:my|the) (?:home |postal |billing )?address\b"
            r"|\bmy address to\b|\bi(?:'ve| have) moved\b"
        ),
        "I can't change your postal address here, but the team can.",
    ),
    (
        re.compile(
            r"\b(?:pdf|document|statement|receipt|letter)s?\b.*\b(?:blank|empty|missing pages"
            r"|broken|won't open|doesn't open|corrupt|unreadable)\b"
        ),
        "I'm sorry about that. I can't fix documents from here, but the team can send you a "
        "correct one.",
    ),
    (
        re.compile(
            r"\bchase (?:it |that |this |them )?up\b|\bescalate\b|\bspeed (?:it|this|that) up\b"
        ),
        "I can't chase or escalate a case from here; it stays open with the team until they "
        "answer. If something new has come up, I can open another one.",
    ),
    (
        re.compile(
            r"\b(?:email|send|mail|post) me (?:a |the )?(?:copy|receipt|statement|pdf|invoice)"
            r"|\bcopy of my (?:invoice|bill|statement)\b"
        ),
        "I can't send copies of documents from here, but I can tell you what's on your bill, "
        "or the team can send you a copy.",
    ),
)


def cannot_do(text: str) -> str | None:
    """A plain answer, with a support case offered, for what no tool does; else None."""
    said = normalize(text).text
    for pattern, reply in _CANNOT:
        if pattern.search(said):
            return f"{reply} {OFFER}"
    return None


__all__ = ["cannot_do"]
