"""Time zones by name, each read from the zone database once per process.

`ZoneInfo(name)` keeps only a few zones strongly cached; with customers in more zones
than that, every turn read the zone file again (a tenth of the planner's CPU).
"""

from __future__ import annotations

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
