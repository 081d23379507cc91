"""Reading the CRM and the events of a turn, for the write-integrity tests."""

from __future__ import annotations

import json
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from tests.fixtures.crm import CrmAdmin

CUSTOMER = "cust_001"
# cust_001's timezone (crm_stub/seed.py).
HOME = ZoneInfo("America/Los_Angeles")


def tomorrow_at(hour: int, zone: ZoneInfo = HOME) -> datetime:
    """Tomorrow for the customer, at `hour` in `zone`."""
    day = datetime.now(HOME).date() + timedelta(days=1)
    return datetime.combine(day, time(hour), zone)


def call(call_id: str, tool: str, **arguments: Any) -> tuple[str, str, str]:
    """A scripted model's tool call (its id, the tool's wire name, JSON arguments)."""
    return call_id, tool, json.dumps(arguments)


def answer(events: list[dict[str, Any]]) -> str:
    return next(e["text"] for e in events if e["type"] == "answer.done")


def called(events: list[dict[str, Any]]) -> list[str]:
    """The tools the turn ran, in order (turn.done's tool_calls)."""
    return [call["tool"] for call in events[-1]["tool_calls"]]


async def tasks(crm: CrmAdmin, status: str = "all") -> dict[str, dict[str, Any]]:
    _, body = await crm.get(f"/v1/customers/{CUSTOMER}/tasks?status={status}")
    return {task["title"]: task for task in body["tasks"]}


async def appointments(crm: CrmAdmin, status: str = "upcoming") -> list[dict[str, Any]]:
    _, body = await crm.get(f"/v1/customers/{CUSTOMER}/appointments?status={status}")
    return list(body["appointments"])


async def profile(crm: CrmAdmin) -> dict[str, Any]:
    _, body = await crm.get(f"/v1/customers/{CUSTOMER}")
    return dict(body)


async def writes_applied(crm: CrmAdmin) -> dict[str, int]:
    """Writes the CRM applied, per route pattern (GET /admin/stats)."""
    stats = await crm.stats()
    return {route: n for route, n in stats.get("writes_applied", {}).items() if n}


async def haircuts(crm: CrmAdmin) -> list[str]:
    """Start times of the customer's upcoming haircuts."""
    return [a["starts_at"] for a in await appointments(crm) if a["service"] == "Haircut"]


async def titles(crm: CrmAdmin, customer: str = CUSTOMER) -> list[str]:
    """Titles of every task of `customer`, repeats included."""
    _, body = await crm.get(f"/v1/customers/{customer}/tasks?status=all")
    return [task["title"] for task in body["tasks"]]
