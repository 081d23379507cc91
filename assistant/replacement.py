"""A visit replaced by another service, after the yes: the cancel first, then the booking.

"swap the cleaning for a checkup" waits as a cancel and a booking under one question
(assistant/integrity.py, confirmation.py). The yes runs the cancel alone; the booking
runs only when the CRM says the visit is cancelled, so that a refused cancel never leaves
two visits booked, and the booking never lands before the cancel it replaces. The reply
to the question may give the time the booking is wanted at: with a yes ("yes, thursday at
9") that answers it, and the booking is made then; a time alone ("friday at 3pm") holds the
replacement again at that time and asks again, naming the cancel and the new booking (it
cancelled the visit with no yes).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from datetime import datetime

from assistant.language.dates import find_when
from assistant.language.text import normalize
from assistant.schema import ToolCall, ToolResult
from assistant.session import PendingConfirmation
from assistant.speech import article

_CANCEL = "crm.cancelAppointment"
_BOOK = "crm.bookAppointment"
# How the question names the booking that replaces the visit (confirmation._replacement).
_IN_ITS_PLACE = " in its place"


_NOT_SO = re.compile(
    r"\b(?:no|nope|nah|not|don'?t|do not|never|keep|leave|stop|wait|hold on|instead of)\b"
)


# "yes, thursday at 9": a yes said first, before the time (not "ok then friday at 3pm",
# which picks the time and leaves the cancel to be agreed to).
_YES_FIRST = re.compile(
    r"^\W*(?:(?:um+|uh+|so|oh|well|ok|okay|hmm+)\W+)*(?:yes|yeah|yep|yup|sure|go ahead|please do"
    r"|do it)\b"
)


def agreed_first(text: str) -> bool:
    """Whether a reply giving the replacement's time opens with a yes."""
    return _YES_FIRST.match(text.lower()) is not None


def _parts(pending: PendingConfirmation) -> tuple[ToolCall, ToolCall] | None:
    """The cancel and the booking of a replacement waiting for its yes, else None."""
    if len(pending.calls) != 2 or not any(_IN_ITS_PLACE in said for _, said in pending.named):
        return None
    cancel = next((call for call in pending.calls if call.tool_name == _CANCEL), None)
    book = next((call for call in pending.calls if call.tool_name == _BOOK), None)
    return (cancel, book) if cancel is not None and book is not None else None


def retimed(pending: PendingConfirmation, text: str, now: datetime) -> PendingConfirmation | None:
    """The replacement waiting, its booking at the day and time the reply gives ("saturday
    at 11", "yes, at 4pm"); None when it is no replacement or the reply gives no time
    plainly (`now`: on the customer's clock)."""
    parts = _parts(pending)
    if parts is None or _NOT_SO.search(text.lower()):
        # (nearly every reply: a replacement rarely waits) "no, keep my haircut at 2:30":
        # a time said with a no is not the booking's, and nothing is written on it.
        return None
    _, book = parts
    when = find_when(normalize(text).text, now)
    if when is None or when.clock is None or when.vague_time or when.hour_unsure:
        return None
    try:
        start = datetime.fromisoformat(str(book.arguments.get("starts_at")))
    except ValueError:
        return None
    start = start.astimezone(now.tzinfo)
    day = when.day if when.day is not None and not when.day_implied else start.date()
    moment = datetime.combine(day, when.clock, tzinfo=now.tzinfo)
    if moment <= now:
        return None
    arguments = {**book.arguments, "starts_at": moment.isoformat()}
    moved = book.model_copy(update={"arguments": arguments})
    calls = tuple(moved if call is book else call for call in pending.calls)
    # The question said again about the booking at its new time (asked when no yes came
    # with the time): "Are you sure you want to cancel your haircut on … and book a
    # massage in its place on Friday, January 18 at 3:00 PM?"
    cancel = parts[0]
    cancelled = next((said for call_id, said in pending.named if call_id == cancel.call_id), "")
    if not cancelled:
        return dataclasses.replace(pending, calls=calls)
    service = article(str(book.arguments.get("service") or "appointment").lower())
    hour = moment.strftime("%I:%M %p").lstrip("0")
    booked = f"book {service}{_IN_ITS_PLACE} on {moment:%A}, {moment:%B} {moment.day} at {hour}"
    named = tuple(
        (call_id, booked if call_id == book.call_id else said) for call_id, said in pending.named
    )
    prompt = f"Are you sure you want to {cancelled} and {booked}?"
    return dataclasses.replace(pending, calls=calls, prompt=prompt, named=named)


def in_order(calls: Sequence[ToolCall]) -> tuple[list[ToolCall], list[ToolCall]]:
    """The calls a yes runs first, and the bookings that wait for the cancels among them
    (a replacement); every call first when there is no cancel with a booking."""
    if not any(call.tool_name == _CANCEL for call in calls):
        return list(calls), []
    after = [call for call in calls if call.tool_name == _BOOK]
    return [call for call in calls if call.tool_name != _BOOK], after


def cancels_went_through(first: Sequence[ToolCall], results: Sequence[ToolResult]) -> bool:
    """Whether the CRM said every cancel of `first` was made."""
    ids = {call.call_id for call in first if call.tool_name == _CANCEL}
    done = {result.call.call_id for result in results if result.ok}
    return ids <= done


def booked(book: Sequence[ToolCall], results: Sequence[ToolResult]) -> bool:
    """Whether the CRM said every booking of `book` was made."""
    done = {result.call.call_id for result in results if result.ok}
    return {call.call_id for call in book} <= done


def cancelled_only(book: Sequence[ToolCall]) -> str:
    """Said when the cancel went through and the booking in its place did not."""
    return f"So the visit is cancelled, and no {_services(book)} is booked in its place."


def _services(book: Sequence[ToolCall]) -> str:
    return " or ".join(
        sorted({str(call.arguments.get("service") or "appointment").lower() for call in book})
    )


def not_booked(book: Sequence[ToolCall]) -> str:
    """Said when the cancel a booking waited for did not go through."""
    services = sorted(
        {str(call.arguments.get("service") or "appointment").lower() for call in book}
    )
    named = " or ".join(services)
    return f"So I haven't booked the {named} in its place either; nothing was changed."
