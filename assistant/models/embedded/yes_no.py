"""Answers that say the fact asked before anything else: whether a visit is still on, which
of two visits comes first, when the customer was last in.

Each is read from the CRM's lists (assistant.models.embedded.questions asks for them) and
names only the visits asked about: another visit's day is never given in its place.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from assistant.dialogue_state import Item
from assistant.models.embedded.answers import (
    _article,
    _day,
    _is_past,
    _matches,
    _on_when,
    _service,
    none_booked,
)
from assistant.ordering import spoken_appointments


def still_on(appointments: Sequence[Item], subject: str, now: datetime) -> str:
    """ "Is my cleaning still on?": yes with its day, or no and what became of it."""
    found = [a for a in spoken_appointments(appointments) if _matches(a, subject, "service")]
    if not found:
        return none_booked(appointments, subject, now)
    ahead = [a for a in found if not _is_past(a, now) and a.get("status") != "cancelled"]
    if ahead:
        return f"Yes, your {_service(ahead[0])} {_on_when(ahead[0], now)} is still on."
    cancelled = [a for a in found if a.get("status") == "cancelled" and not _is_past(a, now)]
    if cancelled:
        last = cancelled[-1]
        return f"No, your {_service(last)} {_on_when(last, now)} was cancelled."
    last = found[-1]
    return f"No, you have no {_service(last)} coming up. Your last one was on {_day(last, now)}."


def which_first(
    appointments: Sequence[Item], subjects: Sequence[str], now: datetime, *, later: bool = False
) -> str:
    """ "Which is earlier, the haircut or the cleaning?": the first one of each service
    still ahead, in order, the one asked for named first ("which is later": the later)."""
    ordered = [
        a
        for a in spoken_appointments(appointments)
        if a.get("status") != "cancelled" and not _is_past(a, now)
    ]
    firsts: list[Item] = []
    missing: list[str] = []
    for subject in subjects:
        one = next((a for a in ordered if _matches(a, subject, "service")), None)
        if one is None:
            missing.append(subject.lower())
        elif one not in firsts:
            firsts.append(one)
    if missing:
        lacking = " or ".join(f"{_article(m)} {m}" for m in missing)
        if not firsts:
            return f"You don't have {lacking} booked."
        one = firsts[0]
        return (
            f"You don't have {lacking} booked, so only your {_service(one)} is: "
            f"{_on_when(one, now)}."
        )
    if len(firsts) < 2:
        return f"That's the same visit: your {_service(firsts[0])} {_on_when(firsts[0], now)}."
    first, second = sorted(firsts[:2], key=lambda a: str(a.get("starts_at") or ""))
    if later:
        return (
            f"Your {_service(second)} is later, {_on_when(second, now)}. "
            f"Your {_service(first)} is before it, {_on_when(first, now)}."
        )
    return (
        f"Your {_service(first)} is first, {_on_when(first, now)}. "
        f"Your {_service(second)} is after it, {_on_when(second, now)}."
    )


def last_in(appointments: Sequence[Item], now: datetime) -> str:
    """ "When was I last in?": the latest visit had, and only it."""
    past = [a for a in appointments if a.get("status") != "cancelled" and _is_past(a, now)]
    if not past:
        return "I don't see a past visit on your account yet."
    last = max(past, key=lambda a: str(a.get("starts_at") or ""))
    return f"Your last visit was {_article(_service(last))} {_service(last)} on {_day(last, now)}."
