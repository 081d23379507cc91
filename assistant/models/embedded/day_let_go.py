"""A day that no longer suits, said of no visit ("I can't make friday anymore",
"wednesday doesn't work for me"): the visit that day is read out (language/indirect.py),
and what to do with it is asked, since neither a move nor a cancel was said."""

from __future__ import annotations

from datetime import datetime

from assistant.language.dates import find_when
from assistant.language.indirect import day_let_go
from assistant.models.embedded.move_or_cancel import MOVE_OR_CANCEL
from assistant.models.embedded.scene import Scene
from assistant.zones import zone_named


def move_or_cancel_asked(scene: Scene) -> str | None:
    """The question, when the day let go holds exactly one visit read this turn."""
    day_said = day_let_go(scene.original)
    if day_said is None or (when := find_when(day_said, scene.now)) is None or when.day is None:
        return None
    zone = zone_named(scene.timezone)
    that_day = []
    for result in scene.results:
        if not result.ok or result.call.tool_name != "crm.listUpcomingAppointments":
            continue
        for visit in (result.result or {}).get("appointments") or []:
            starts = visit.get("starts_at") if isinstance(visit, dict) else None
            if not isinstance(starts, str) or visit.get("status") == "cancelled":
                continue
            if datetime.fromisoformat(starts).astimezone(zone).date() == when.day:
                that_day.append(visit)
    return MOVE_OR_CANCEL if len(that_day) == 1 else None
