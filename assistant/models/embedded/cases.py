"""Support cases the customer agreed to: a "yes" to an offered case, or "open one about
…", and the case's subject and body from their own words.
"""

from __future__ import annotations

import re

from assistant.dialogue_state import Dialogue
from assistant.language.confirm import is_affirmative
from assistant.language.text import normalize

# "fine, open one about my bill being wrong": "one" is the case just offered.
_EXPLICIT_CASE = re.compile(
    r"^(?:(?:fine|ok|okay|yes|yeah|go on|please|then|so|just|alright|right)[ ,]+)*"
    r"(?:can you |could you |please )?open one (?:about|for|because|saying) (?P<about>.+)$"
)


def case_asked(message: str) -> str | None:
    """ "open one about my bill being wrong": what the case is about, when "one" is a case."""
    match = _EXPLICIT_CASE.search(normalize(message).text)
    return match.group("about") if match else None


def accepts_offer(state: Dialogue, message: str) -> bool:
    """A yes to the support case the last answer offered ("go on then", "please do")."""
    if state.question != "offer_case":
        return False
    text = normalize(message).text
    return is_affirmative(message) or bool(
        re.search(r"\b(?:go on|please do|open (?:one|it|a case)|look into it|do it)\b", text)
    )


_SUBJECTS = (
    (re.compile(r"\bname\b"), "Change the name on my account"),
    (re.compile(r"\b(?:pdf|document|copy|receipt|statement)\b"), "A problem with a document"),
    (re.compile(r"\brefund"), "A refund request"),
    (
        re.compile(
            r"\b(?:charg|bill|invoice|paid|pay|quoted|price|cost|\$|dollar|a lot|too much"
            r"|expensive|so much|so high)"
        ),
        "Question about a charge on my account",
    ),
)


def offered_case(state: Dialogue, said: str | None = None) -> dict[str, str]:
    """The support case asked for or agreed to: a subject, and the customer's own words."""
    about = (said or state.about).strip() or "A question about my account"
    subject = next(
        (text for pattern, text in _SUBJECTS if pattern.search(about.lower())),
        "Help with my account",
    )
    return {"subject": subject, "body": about[:1].upper() + about[1:]}


__all__ = ["accepts_offer", "case_asked", "offered_case"]
