"""The one order in which listed items are spoken, and so counted ("the second one").

The narrator reads pending tasks most urgent first; the resolver and the dialogue state
count "the second task" or "task 2" in that same order, so that what the customer heard
is what is acted on. Appointments are spoken, and counted, in time order.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

Item = dict[str, Any]

_PRIORITY_RANK = {"high": 0, "normal": 1, "low": 2}


def _urgency(task: Item) -> tuple[str, int]:
    """Soonest due first (undated last), then the higher priority: the first few said matter."""
    due = str(task.get("due_on") or "9999-12-31")
    return due, _PRIORITY_RANK.get(str(task.get("priority")), 1)


def spoken_tasks(tasks: Iterable[Item]) -> list[Item]:
    """Tasks in the order the assistant reads them out (a stable sort)."""
    return sorted(tasks, key=_urgency)


def spoken_appointments(appointments: Iterable[Item]) -> list[Item]:
    """Appointments in the order the assistant reads them out: soonest first."""
    return sorted(appointments, key=lambda a: str(a.get("starts_at") or ""))
