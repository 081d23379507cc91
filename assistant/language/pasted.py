"""A visit copied from an email or a calendar, pasted into the chat with a request.

"Dental Cleaning — Wed, Jan 16, 10:00 AM — please reschedule", "Haircut / Sunday, January
20 · 2:30 – 3:15pm / Studio Nine, 48 Valencia St / cancel this one pls", a list of visits
pasted above "can you move the haircut one to monday same time": the pasted lines name a
visit (its service, day, hour, place), they ask for nothing. Read whole, the grammar took
their service and day for a booking ("book it anyway?" held for a yes, "What time on Sunday
works for you?") and their day for the day to move to. The request is read alone, and the
visit pasted (one service) is the one it is about: "please reschedule my dental cleaning".
"""

from __future__ import annotations

import re

from assistant.language.patterns import rx
from assistant.language.slots import services_named

# Where a pasted part ends: a new line, or a dash or bar written between parts.
_PARTS = re.compile(r"\s*\n+\s*|\s+[—|]\s+")
# A request's words: a part holding one is the customer's own.
_ASKS = rx(
    r"\b(?:cancel|move|reschedule|push|change|book|delete|remove|can|could|would|please|pls"
    r"|want|need|what|when|where|which|how|is|are|do|does|this|it|that)\b"
)
# What a calendar or an email writes of a visit: a month and its day, a day and a comma, an
# hour with its half of the day, a street, a heading ending with a colon.
_PASTED = rx(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}\b"
    r"|\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,"
    r"|\d{1,2}:\d\d ?(?:am|pm)?\b"
    r"|\b\d+ [a-z]+ (?:st|street|ave|avenue|rd|road|blvd)\b"
    r"|:$"
)
# The visit spoken of in the request: "this one", "this", "it", "that one".
_POINTER = rx(r"\b(?:this|that)(?: one| appointment| visit)?\b|\bit\b")
_VERB = rx(r"\b(?:cancel|move|reschedule|push|change|shift)\b")


# Where the request starts in a part that runs on from a pasted line ("sun jan 20 2:30 pm
# can you move the haircut one…", the lines run together).
_REQUEST_START = rx(
    r"\b(?:(?:can|could|would) (?:you|u)|please|pls|i need|i want|cancel|move|reschedule|push"
    r"|change|book)\b"
)


_BOOKING = rx(r"\b(?:book|schedule|make)\b")
_A_DATE = rx(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}\b"
    r"|\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,"
)
# "2:30 – 3:15pm": when it ends, no part of when it starts.
_UNTIL = re.compile(r"\s*[–-]\s*\d{1,2}(?::\d\d)?\s*(?:am|pm)?\b", re.IGNORECASE)


def _when_pasted(pasted: list[str]) -> str | None:
    """The day and hour a pasted visit is at, as written ("Thu, Jan 24, 9:00 AM")."""
    for part in pasted:
        if _A_DATE.search(part.lower()):
            return " ".join(_UNTIL.sub("", part.replace("·", " ")).replace(",", " ").split())
    return None


# What asks, in a part that also says a day or an hour ("Reminder: your Haircut is on Sun,
# Jan 20 at 2:30 PM" tells; "can you move it to 4", "when is it?" ask).
_ASKS_OF_ITS_OWN = rx(
    r"\b(?:cancel|move|reschedule|push|change|book|delete|remove|can|could|would|please|pls"
    r"|want|need|what|when|where|which|how)\b|\?"
)


def _is_pasted(part: str) -> bool:
    """A part that asks nothing: a heading, a service's name, a day, an hour, a place, a
    reminder's sentence of when a visit is."""
    lowered = part.lower()
    if _PASTED.search(lowered) is not None:
        return _ASKS_OF_ITS_OWN.search(lowered) is None
    return _ASKS.search(lowered) is None


def _asked(part: str) -> str:
    """The request of a part, without the pasted words run on before it."""
    lowered = part.lower()
    start = _REQUEST_START.search(lowered)
    if start is not None and start.start() > 0 and _PASTED.search(lowered[: start.start()]):
        return part[start.start() :].strip()
    return part.strip()


def as_pasted(message: str) -> str | None:
    """The request of a message that pastes a visit with it (see the module's docstring),
    the visit named in it when the paste names one service; None when nothing was pasted
    (or nothing but pasted lines was said)."""
    parts = [part for part in _PARTS.split(message.strip()) if part.strip()]
    if len(parts) < 2:
        return None
    pasted = [part for part in parts if _is_pasted(part)]
    asked: list[str] = []
    run_on: list[str] = []  # pasted words a request part began with ("…10:00 AM can i move…")
    for part in parts:
        if not _is_pasted(part):
            asked.append(_asked(part))
            run_on.append(part.strip()[: -len(asked[-1])] if asked[-1] else "")
    if not pasted or not asked or not _PASTED.search(" ".join([*pasted, *run_on]).lower()):
        return None  # (nothing a calendar or an email writes of a visit)
    pasted = [*pasted, *(words for words in run_on if words.strip())]
    request = ". ".join(asked)
    lowered = request.lower()
    services = services_named(" ".join(pasted).lower())
    if len(services) != 1 or services_named(lowered):
        return request
    named = f"my {next(iter(services)).lower()}"
    if _BOOKING.search(lowered) and (when := _when_pasted(pasted)) is not None:
        # "…— Thu, Jan 24, 9:00 AM — can u book this for me?": booked when the paste says
        # (a visit to move or cancel is where it is now: its day is no new one)
        named = f"{named} on {when}"
    if (pointer := _POINTER.search(lowered)) is not None:
        return f"{request[: pointer.start()]}{named}{request[pointer.end() :]}"
    if (verb := _VERB.search(lowered)) is not None:
        return f"{request[: verb.end()]} {named}{request[verb.end() :]}"
    return request


__all__ = ["as_pasted"]
