"""Time zones by name, each read from the zone database once per process.

`ZoneInfo(name)` keeps only a few zones strongly cached; with customers in more zones
than that, every turn read the zone file again (a tenth of the planner's CPU).
"""

from __future__ import annotations

from datetime import UTC, datetime
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
