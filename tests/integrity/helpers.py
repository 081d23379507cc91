"""Reading the CRM and the events of a turn, for the write-integrity tests."""

from __future__ import annotations

from typing import Any

from tests.fixtures.crm import CrmAdmin

CUSTOMER = "cust_001"


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
