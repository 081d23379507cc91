"""The same words said another way, meaning the same: what a customer adds or leaves out
around a request without changing it.

Each rewrite keeps every word that carries meaning, so a written conversation's checks
(what the CRM holds, what the answer says) stand for it unchanged: a case that passes
as written and fails rewritten has a rule that read the wrapping, not the request.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_YES_OR_NO = re.compile(r"(?i)(?:yes|no|yeah|yep|nope|ok|okay|sure)\b")
_END = re.compile(r"[.?!]+$")
_POLITE_END = re.compile(r"(?i)\b(?:please|thanks|thank you)\W*$")
# Punctuation between words (not inside an email, a time or an amount).
_PAUSE = re.compile(r"[,.?!;:](?=\s|$)")


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def thanked(text: str) -> str:
    """ "move my haircut to 3, thanks", "and when? thanks"."""
    text = text.strip()
    end = _END.search(text)
    core = text[: end.start()] if end else text
    if _POLITE_END.search(core):
        return text
    return (
        f"{core}? thanks"
        if end and "?" in end.group(0)
        else f"{core}, thanks{end.group(0) if end else ''}"
    )


def with_filler(text: str) -> str:
    """ "um, cancel my haircut", "uh yes"."""
    return f"uh {text}" if _YES_OR_NO.match(text) else f"um, {_lower_first(text)}"


def opened(text: str) -> str:
    """ "okay so what do I owe" (said while a question waits too)."""
    return f"okay so {_lower_first(text)}"


def unpunctuated(text: str) -> str:
    """A recogniser's transcript: lower case, no pauses written."""
    return re.sub(r"\s+", " ", _PAUSE.sub("", text)).strip().lower()


def capitalised(text: str) -> str:
    """Typed with a capital first letter."""
    return text[:1].upper() + text[1:]


REWRITES: dict[str, Callable[[str], str]] = {
    "thanked": thanked,
    "with_filler": with_filler,
    "opened": opened,
    "unpunctuated": unpunctuated,
    "capitalised": capitalised,
}


# Written after the rules were fixed for the ways above, and not tuned on (their first run
# is in tests/e2e/test_said_otherwise.py).
def greeted(text: str) -> str:
    """ "hi there, cancel my haircut"."""
    return f"hi there, {_lower_first(text)}"


# Said back to an answer, not asked: nobody adds "please" ("great please"; corrected
# after the first run, see the test).
_REMARK = re.compile(
    r"(?i)(?:great|lovely|perfect|brilliant|fine|cool|nice one|ta|thanks|ok|okay|good"
    r"|awesome|cheers)\W*"
)


def pleaded(text: str) -> str:
    """ "cancel my haircut please"."""
    text = text.strip()
    if _POLITE_END.search(text) or _YES_OR_NO.fullmatch(text.strip(" .!?")):
        return text
    if _REMARK.fullmatch(text):
        return text
    end = _END.search(text)
    core = text[: end.start()] if end else text
    return f"{core} please{end.group(0) if end else ''}"


def hesitant(text: str) -> str:
    """ "hmm, right, what do I owe"."""
    return f"hmm, right, {_lower_first(text)}"


def cheered(text: str) -> str:
    """ "move it to friday. cheers!"."""
    text = text.strip()
    if _POLITE_END.search(text):
        return text
    return f"{text if _END.search(text) else text + '.'} cheers!"


# A greeting opens a conversation: said before a later turn ("hi there, yes") it is no
# longer the same words meaning the same (corrected after the first run, see the test).
FIRST_TURN_ONLY = frozenset({"greeted"})

WRITTEN_AFTER: dict[str, Callable[[str], str]] = {
    "greeted": greeted,
    "pleaded": pleaded,
    "hesitant": hesitant,
    "cheered": cheered,
}


# A third batch, written after the second's fixes and not tuned on.
_CONTRACTIONS = (
    (r"\bdon't\b", "do not"),
    (r"\bdoesn't\b", "does not"),
    (r"\bcan't\b", "cannot"),
    (r"\bwon't\b", "will not"),
    (r"\bI'm\b", "I am"),
    (r"\bi'm\b", "i am"),
    (r"\bI'd\b", "I would"),
    (r"\bi'd\b", "i would"),
    (r"\bit's\b", "it is"),
    (r"\bwhat's\b", "what is"),
    (r"\bWhat's\b", "What is"),
    (r"\bwhen's\b", "when is"),
    (r"\bthat's\b", "that is"),
    (r"\bI've\b", "I have"),
    (r"\bi've\b", "i have"),
)


def spelled_out(text: str) -> str:
    """ "I do not want…", "what is my balance": contractions written out."""
    for contracted, full in _CONTRACTIONS:
        text = re.sub(contracted, full, text)
    return text


def dotted_times(text: str) -> str:
    """ "at 3 p.m.", "10:30 a.m.": a time as a transcript or a letter writes it."""
    return re.sub(r"(?i)\b(\d{1,2}(?::\d\d)?)\s?([ap])m\b", r"\1 \2.m.", text)


def asked_politely(text: str) -> str:
    """ "could you…" for "can you…" and back."""
    swapped = re.sub(r"(?i)\bcan you\b", "could you", text)
    if swapped != text:
        return swapped
    return re.sub(r"(?i)\bcould you\b", "can you", text)


WRITTEN_LATER: dict[str, Callable[[str], str]] = {
    "spelled_out": spelled_out,
    "dotted_times": dotted_times,
    "asked_politely": asked_politely,
}
