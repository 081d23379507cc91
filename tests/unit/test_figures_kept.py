"""The figures each result holds are read once and kept by the result's identity
(assistant/figures.py): what is kept must never stand for another zone, another result
or a listing a later write made stale."""

from __future__ import annotations

import gc
import weakref

from assistant import figures
from assistant.schema import ToolCall, ToolResult

WRITES = frozenset({"crm.completeTask"})


def _listed(tool: str, key: str, items: list[dict[str, object]]) -> ToolResult:
    call = ToolCall(call_id=f"c-{tool}", tool_name=tool, arguments={})
    return ToolResult(call=call, status="ok", result={key: items})


def _visit(starts_at: str) -> ToolResult:
    item = {"id": "appt_1", "service": "Haircut", "starts_at": starts_at}
    return _listed("crm.listUpcomingAppointments", "appointments", [item])


def test_one_result_read_in_two_zones_gives_each_zones_hour() -> None:
    visit = _visit("2030-01-18T18:00:00+00:00")
    assert figures.facts_of([visit], (), "America/Los_Angeles").clocks == {(10, 0)}
    assert figures.facts_of([visit], (), "Europe/London").clocks == {(18, 0)}
    assert figures.facts_of([visit], (), "America/Los_Angeles").clocks == {(10, 0)}


def test_a_listing_is_stale_after_a_write_and_fresh_when_listed_again() -> None:
    tasks = _listed("crm.listTasks", "tasks", [{"id": "t1", "status": "pending"}] * 3)
    done = ToolResult(
        call=ToolCall(call_id="w", tool_name="crm.completeTask", arguments={"task_id": "t1"}),
        status="ok",
        result={"id": "t1", "status": "completed"},
    )
    again = _listed("crm.listTasks", "tasks", [{"id": "t2", "status": "pending"}] * 2)
    assert len(figures.facts_of([tasks], (), "UTC", WRITES).listings["tasks"]) == 3
    assert "tasks" not in figures.facts_of([tasks, done], (), "UTC", WRITES).listings
    assert len(figures.facts_of([tasks, done, again], (), "UTC", WRITES).listings["tasks"]) == 2
    # The same results read as not written: the listing stands.
    assert len(figures.facts_of([tasks, done], (), "UTC").listings["tasks"]) == 3


def test_a_new_result_is_read_afresh_even_where_an_old_one_lived() -> None:
    """A result that is gone takes what was kept of it along: one made after it, at
    whatever address, is read for its own figures."""
    for hour in range(8, 20):
        visit = _visit(f"2030-01-18T{hour:02d}:30:00+00:00")
        assert figures.facts_of([visit], (), "UTC").clocks == {(hour, 30)}
        gone = weakref.ref(visit)
        del visit
        if gone() is not None:
            gc.collect()  # (only if a cycle held it: a whole collection costs most of a second)
        assert gone() is None


def test_the_balance_is_the_last_result_that_says_one() -> None:
    first = ToolResult(
        call=ToolCall(call_id="a", tool_name="crm.getOpenInvoices", arguments={}),
        status="ok",
        result={"balance_cents": 15000, "invoices": []},
    )
    later = ToolResult(
        call=ToolCall(call_id="b", tool_name="crm.getOpenInvoices", arguments={}),
        status="ok",
        result={"balance_cents": 9500, "invoices": []},
    )
    assert figures.facts_of([first, later], (), "UTC").balance == 9500
    assert figures.facts_of([later, first], (), "UTC").balance == 15000
    assert figures.facts_of([first, later], (), "UTC").amounts == {15000, 9500}
