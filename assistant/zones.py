"""Time zones by name, each read from the zone database once per process.

`ZoneInfo(name)` keeps only a few zones strongly cached; with customers in more zones
than that, every turn read the zone file again (a tenth of the planner's CPU).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

UTC_ZONE = ZoneInfo("UTC")


@lru_cache(maxsize=256)
def zone_named(name: str | None) -> ZoneInfo:
    """The zone called `name`, or UTC when it is empty or not a zone we know."""
    try:
        return ZoneInfo(name or "UTC")
    except (KeyError, ValueError):
        return UTC_ZONE


# Arguments that name a moment: one moment may be written with any offset ("11:00-08:00"
# and "19:00Z" are one booking), so two calls are compared by the moment, not the text.
_MOMENTS = frozenset({"starts_at"})


def same_moment_value(name: str, value: object) -> object:
    """`value` as compared between two calls: a moment argument as its UTC instant (when
    it reads as one with an offset), any other as it is."""
    if name not in _MOMENTS or not isinstance(value, str):
        return value
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return value
    if moment.tzinfo is None:
        return value  # no offset: not one moment (the checks refuse it)
    return moment.astimezone(UTC).isoformat()


def zone_of_offsets(documents: Iterable[object]) -> str | None:
    """A zone that speaks the CRM's times at the hours it wrote them (`Etc/GMT+8` for
    times at -08:00), for a customer whose own zone is unknown (their profile could not
    be read); None when the answers hold no time, or times at more than one offset (a
    change of daylight saving time between them: no one fixed zone tells them all),
    or at an offset that is not a whole number of hours."""
    offsets = {
        offset
        for document in documents
        for stamp in _stamps(document)
        if (offset := _offset_of(stamp)) is not None
    }
    if len(offsets) != 1:
        return None
    (offset,) = offsets
    hours, rest = divmod(int(offset.total_seconds()), 3600)
    if rest:
        return None
    if hours == 0:
        return "UTC"
    # The Etc zones' signs are POSIX's, the other way round: Etc/GMT+8 is UTC-08:00.
    return f"Etc/GMT{-hours:+d}"


def _stamps(document: object) -> Iterator[object]:
    """The `starts_at` of an answer: of the record itself, of `appointment`, and of the
    items of its listings."""
    if not isinstance(document, dict):
        return
    yield document.get("starts_at")
    inner = document.get("appointment")
    if isinstance(inner, dict):
        yield inner.get("starts_at")
    for value in document.values():
        if isinstance(value, list):
            yield from (item.get("starts_at") for item in value if isinstance(item, dict))


def _offset_of(stamp: object) -> timedelta | None:
    if not isinstance(stamp, str):
        return None
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return None
    return moment.utcoffset()
