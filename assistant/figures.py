"""Figures in a model's answer, held against the CRM's results: amounts, hours, days,
counts.

A narrator model may say "$95" when the balance is $150, "at 4 PM" or "on Thursday"
for an appointment on Wednesday at 10, or "five pending tasks" when there are three.
`claims.py` judges the verbs of an answer (what was done); this judges its figures
(what is so). Each figure of a sentence is compared with every value of its kind in
the results the answer may speak from (this conversation's): one found there is left
as written; one not found is replaced by the true value when the results leave one
candidate (the balance, the start of the appointment the sentence names, the count of
the listing); otherwise the sentence is not said and a line saying so is said instead.

A figure of a kind the results hold nothing of (an amount, with no billing looked up)
cannot be judged and is left alone; an hour or a day is judged only in a sentence that
names an appointment looked up (or is about the only one), so "we open at 9 AM" is
not. Most sentences hold no figure: a digit search and a few substring tests decide
that before any result is read.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import partial
from typing import Any
from zoneinfo import ZoneInfo

from assistant.schema import ToolCall, ToolResult
from assistant.speech import number, short_clock
from assistant.zones import zone_named

_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six",
    "seven", "eight", "nine", "ten", "eleven", "twelve",
)  # fmt: skip
_DIGIT = re.compile(r"\d")
_MONEY = re.compile(r"\$\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{2}))?(?!\d)")
_CLOCK = re.compile(r"\b(1[0-2]|0?[1-9])(?::([0-5]\d))?\s*([ap])\.?\s?m\b\.?", re.IGNORECASE)
_STATUSES = {
    "pending": "pending",
    "open": None,  # open tasks are pending ones; open cases and invoices are "open"
    "upcoming": None,  # what the listing asked for, not a status
    "unpaid": "open",
    "outstanding": "open",
    "completed": "completed",
    "done": "completed",
    "cancelled": "cancelled",
    "paid": "paid",
    "closed": "closed",
}
_KINDS = {
    "task": "tasks",
    "to-do": "tasks",
    "todo": "tasks",
    "appointment": "appointments",
    "invoice": "invoices",
    "bill": "invoices",
    "case": "tickets",
    "ticket": "tickets",
}
_COUNT = re.compile(
    rf"\b(\d+|{'|'.join(_WORDS)})\s+(?:({'|'.join(_STATUSES)})\s+)?"
    rf"({'|'.join(re.escape(k) for k in _KINDS)})s?\b",
    re.IGNORECASE,
)
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS = (
    "january", "february", "march", "april", "may", "june", "july",
    "august", "september", "october", "november", "december",
)  # fmt: skip
_WEEKDAY = re.compile(rf"\b({'|'.join(_WEEKDAYS)})\b", re.IGNORECASE)
_MONTH_DAY = re.compile(
    rf"\b({'|'.join(_MONTHS)})\s+([12]?\d|3[01])(?:st|nd|rd|th)?\b", re.IGNORECASE
)
# The same patterns without IGNORECASE, for a sentence in ASCII read lower-cased: the
# same matches at the same places, in half the time (a caseless alternation of words
# is tried letter by letter in both cases). A sentence with other letters is read by
# the caseless ones: lower-casing may change its length.
_COUNT_LOWER = re.compile(_COUNT.pattern)
_WEEKDAY_LOWER = re.compile(_WEEKDAY.pattern)
_MONTH_DAY_LOWER = re.compile(_MONTH_DAY.pattern)
_LISTED = tuple(dict.fromkeys(_KINDS.values()))
# ("You're all set for Sunday at 3 PM" of the one visit booked this turn)
_ABOUT_APPOINTMENT = re.compile(
    r"\b(?:appointment|booked|scheduled|visit|all set|see you|booking|reserved)\b"
)
_OWED = re.compile(r"\b(?:balance|owe|owing|due|total)\b", re.IGNORECASE)

UNSURE = "Sorry, I can't give you that figure with certainty right now."


@dataclass(slots=True)
class _Facts:
    """What the results hold, by kind."""

    amounts: set[int] = field(default_factory=set)  # cents
    balance: int | None = None
    clocks: set[tuple[int, int]] = field(default_factory=set)
    days: set[date] = field(default_factory=set)
    # (name lower-cased, local start) of each listed item with a start time.
    starts: list[tuple[str, datetime]] = field(default_factory=list)
    # kind → the items of its latest listing.
    listings: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def _walk(value: Any, facts: _Facts, zone: ZoneInfo) -> None:
    if isinstance(value, dict):
        for key, inner in value.items():
            if key.endswith("_cents") and isinstance(inner, int):
                facts.amounts.add(inner)
                if key == "balance_cents":
                    facts.balance = inner
            elif key in ("balance", "amount") and (cents := _cents(inner)) is not None:
                # Another backend's shape: "42.50".
                facts.amounts.add(cents)
                if key == "balance":
                    facts.balance = cents
            elif isinstance(inner, str) and key.endswith("_on"):
                with suppress(ValueError):
                    facts.days.add(date.fromisoformat(inner))
            elif isinstance(inner, str) and key.endswith("_at"):
                moment = _moment(inner, zone)
                if moment is not None:
                    facts.clocks.add((moment.hour, moment.minute))
                    facts.days.add(moment.date())
                    if key == "starts_at":
                        name = str(value.get("service") or "").lower()  # sought in a sentence
                        facts.starts.append((name, moment))
            elif isinstance(inner, dict | list):
                if key in _KINDS.values() and isinstance(inner, list):
                    facts.listings[key] = [i for i in inner if isinstance(i, dict)]
                    priced = [i.get("amount_cents") for i in inner if isinstance(i, dict)]
                    owed = [c for c in priced if isinstance(c, int)]
                    if owed:  # "$195.50 in all"
                        facts.amounts.add(sum(owed))
                _walk(inner, facts, zone)
    elif isinstance(value, list):
        for inner in value:
            _walk(inner, facts, zone)


def _cents(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        return round(float(value) * 100)
    except ValueError:
        return None


def _moment(value: str, zone: ZoneInfo) -> datetime | None:
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment.astimezone(zone) if moment.tzinfo is not None else None


def facts_of(
    results: Iterable[ToolResult],
    calls: Iterable[ToolCall],
    timezone: str,
    writes: Collection[str] = frozenset(),
) -> _Facts:
    """Every figure the results (and the arguments of the calls made or held) hold.
    A listing is not counted from after a write of its kind changed it ("you have two
    tasks left" after one was completed)."""
    zone = zone_named(timezone)
    facts = _Facts()
    amounts, clocks, days, starts = facts.amounts, facts.clocks, facts.days, facts.starts
    listings = facts.listings
    held, key = _HELD.get, zone.key
    for result in results:
        write = result.call.tool_name in writes
        # `_held_by`, its kept answer looked up here: some thirty results a turn.
        kept = held(id(result))
        if kept is not None and kept[0]() is result and kept[1] == key and kept[2] == write:
            part, stale = kept[3], kept[4]
        else:
            part, stale = _held_by(result, zone, write)
        if part.amounts:
            amounts |= part.amounts
        if part.balance is not None:
            facts.balance = part.balance
        if part.clocks:
            clocks |= part.clocks
        if part.days:
            days |= part.days
        if part.starts:
            starts.extend(part.starts)
        if part.listings:
            listings.update(part.listings)
        for kind in stale:
            listings.pop(kind, None)
    for call in calls:
        _walk(call.arguments, facts, zone)
    return facts


# What each result holds, read once: a model's answer is judged sentence by sentence
# against every result of the conversation, and walking them all again for each
# sentence cost more than the rest of the turn (40 results of listings by the end of a
# call). Keyed by the result's identity, checked by a weak reference that also drops
# the entry when the result is gone (a session read again from Redis makes new ones).
_HELD: dict[int, tuple[weakref.ref[ToolResult], str, bool, _Facts, tuple[str, ...]]] = {}


def _held_by(result: ToolResult, zone: ZoneInfo, write: bool) -> tuple[_Facts, tuple[str, ...]]:
    """The figures `result` holds (its call's arguments too), and the listings its write
    made stale."""
    key = id(result)
    kept = _HELD.get(key)
    if kept is not None and kept[0]() is result and kept[1] == zone.key and kept[2] == write:
        return kept[3], kept[4]
    part = _Facts()
    _walk(result.call.arguments, part, zone)
    if result.ok:
        _walk(result.result, part, zone)
    name = result.call.tool_name.lower()
    stale = tuple(kind for kind in _LISTED if kind.removesuffix("s") in name) if write else ()
    _HELD[key] = (
        weakref.ref(result, lambda _gone: _HELD.pop(key, None)),
        zone.key,
        write,
        part,
        stale,
    )
    return part, stale


def has_figure(text: str) -> bool:
    """Whether `text` may state a figure: a digit, a count's noun ("five tasks") or a
    weekday. Cheap (under 1 µs; most sentences state none), unlike the patterns."""
    if _DIGIT.search(text) is not None:
        return True
    lowered = text.lower()
    return (
        "task" in lowered
        or "appointment" in lowered
        or "invoice" in lowered
        or "bill" in lowered
        or "case" in lowered
        or "ticket" in lowered
        or "to-do" in lowered
        or "todo" in lowered
        or "day" in lowered
    )


def _value(word: str) -> int:
    return int(word) if word.isdigit() else _WORDS.index(word.lower())


def corrected(text: str, facts: _Facts, said: Collection[str] | None = None) -> str | None:
    """`text` with the figures the facts contradict put right, UNSURE when one cannot
    be, or None when every figure stands. `said`: the numbers in the customer's words,
    which an amount they are said to owe may come from when no billing was read."""
    changed = False
    out = text
    for fix in (partial(_fix_money, said=said), _fix_when, _fix_counts):
        fixed = fix(out, facts)
        if fixed is None:
            continue
        if fixed == UNSURE:
            return UNSURE
        out, changed = fixed, True
    return out if changed else None


def _replace(text: str, spans: Sequence[tuple[int, int, str]]) -> str:
    for start, end, value in sorted(spans, reverse=True):
        text = f"{text[:start]}{value}{text[end:]}"
    return text


def _fix_money(text: str, facts: _Facts, said: Collection[str] | None = None) -> str | None:
    if "$" not in text:
        return None
    if not facts.amounts:
        return None if said is None else _unfounded_balance(text, said)
    spans: list[tuple[int, int, str]] = []
    for found in _MONEY.finditer(text):
        cents = int(found.group(1).replace(",", "")) * 100 + int(found.group(2) or 0)
        if cents in facts.amounts:
            continue
        truth = _one_amount(text, facts)
        if truth is None:
            return UNSURE
        spans.append((found.start(), found.end(), f"${truth // 100:,}.{truth % 100:02d}"))
    return _replace(text, spans) if spans else None


# "Your balance is $320", "you owe us $320": what the customer owes this business.
_THEIR_BALANCE = re.compile(
    r"\byour (?:\w+ )?(?:balance|bill|total)\b"
    r"|\byou (?:still )?owe(?! (?:the|a|an|your|him|her|them)\b)",
    re.IGNORECASE,
)


def _unfounded_balance(text: str, said: Collection[str]) -> str | None:
    """An amount the customer is said to owe, with no billing read in the conversation
    and no amount in what was asked (a task's "$320" is in its words): not said, since
    nothing it could come from was read. Any other amount is left alone."""
    if not _THEIR_BALANCE.search(text):
        return None
    for found in _MONEY.finditer(text):
        if found.group(1).replace(",", "") not in said:
            return UNSURE
    return None


def _one_amount(text: str, facts: _Facts) -> int | None:
    if facts.balance is not None and _OWED.search(text):
        return facts.balance
    return next(iter(facts.amounts)) if len(facts.amounts) == 1 else None


def _fix_when(text: str, facts: _Facts) -> str | None:
    """Hours, weekdays and dates said of an appointment the sentence names (or of the
    only one looked up, in a sentence about an appointment); any other hour ("we open
    at 9 AM") is not the results' to judge."""
    if not facts.starts:
        return None
    lowered = text.lower()
    named = {moment for name, moment in facts.starts if name and name in lowered}
    if not named:
        every = {moment for _, moment in facts.starts}
        if _ABOUT_APPOINTMENT.search(lowered) is None:
            return None
        # Several looked up, none named ("You're all set for Sunday at 3 PM" beside the
        # visits listed before a booking): a day or hour none of them has is not said.
        named = every
    truth = next(iter(named)) if len(named) == 1 else None
    spans: list[tuple[int, int, str]] = []
    for found in _CLOCK.finditer(text):
        hour = int(found.group(1)) % 12 + (12 if found.group(3).lower() == "p" else 0)
        if (hour, int(found.group(2) or 0)) in facts.clocks:
            continue
        if truth is None:
            return UNSURE
        spans.append((found.start(), found.end(), short_clock(truth)))
    ascii_ = text.isascii()
    read = lowered if ascii_ else text
    for found in (_WEEKDAY_LOWER if ascii_ else _WEEKDAY).finditer(read):
        weekday = _WEEKDAYS.index(found.group(1).lower())
        if weekday in {day.weekday() for day in facts.days}:
            continue  # the day of something the results hold ("due Monday")
        if truth is None:
            return UNSURE
        spans.append((found.start(1), found.end(1), f"{truth:%A}"))
    for found in (_MONTH_DAY_LOWER if ascii_ else _MONTH_DAY).finditer(read):
        said = (_MONTHS.index(found.group(1).lower()) + 1, int(found.group(2)))
        if said in {(day.month, day.day) for day in facts.days}:
            continue
        if truth is None:
            return UNSURE
        spans.append((found.start(), found.end(), f"{truth:%B} {truth.day}"))
    return _replace(text, spans) if spans else None


def _fix_counts(text: str, facts: _Facts) -> str | None:
    if not facts.listings:
        return None
    spans: list[tuple[int, int, str]] = []
    ascii_ = text.isascii()
    read = text.lower() if ascii_ else text
    for found in (_COUNT_LOWER if ascii_ else _COUNT).finditer(read):
        items = facts.listings.get(_KINDS[found.group(3).lower()])
        if items is None:
            continue  # not listed in this conversation: nothing to judge by
        said = _value(found.group(1))
        status = _status(found.group(2), _KINDS[found.group(3).lower()])
        if status is not None and any(i.get("status") == status for i in items):
            truths = {sum(1 for i in items if i.get("status") == status)}
        else:
            truths = {len(items)} | {
                sum(1 for i in items if i.get("status") == s) for s in _statuses(items)
            }
        if said in truths:
            continue
        if len(truths) != 1:
            return UNSURE
        truth = truths.pop()
        word = text[found.start(1) : found.end(1)]  # as written: "Two", "two"
        spoken = str(truth) if word.isdigit() else number(truth)
        if word[:1].isupper():
            spoken = spoken.capitalize()
        said_all, noun = text[found.start() : found.end()], text[found.start(3) : found.end(3)]
        spans.append((found.start(1), found.end(1), spoken))
        # "one appointment" → "two appointments", and back.
        plural = said_all.lower().endswith("s") and said_all[-1] != noun[-1]
        if truth != 1 and not plural:
            spans.append((found.end(3), found.end(3), "s"))
        elif truth == 1 and plural:
            spans.append((found.end(3), found.end(), ""))
    return _replace(text, spans) if spans else None


def _status(word: str | None, kind: str) -> str | None:
    if word is None:
        return None
    status = _STATUSES.get(word.lower())
    if word.lower() == "open":
        return "pending" if kind == "tasks" else "open"
    return status


def _statuses(items: Iterable[dict[str, Any]]) -> Iterator[str]:
    yield from {str(i.get("status")) for i in items if i.get("status") is not None}


__all__ = ["UNSURE", "corrected", "facts_of", "has_figure"]
