"""Normalisation: what may vary between runs is ignored; what users see is compared."""

from __future__ import annotations

from typing import Any

from assistant.recording.compare import diff_events, normalise


def round_events(order: list[str], ids: dict[str, str], latency: int) -> list[dict[str, Any]]:
    """One round of two lookups, finishing in `order`, with model-chosen call ids."""
    started = [
        {
            "type": "tool.started",
            "turn_id": "t_7",
            "round": 1,
            "call_id": ids[tool],
            "tool": tool,
            "arguments": {},
        }
        for tool in ("crm.listTasks", "crm.getOpenInvoices")
    ]
    finished = [
        {
            "type": "tool.finished",
            "turn_id": "t_7",
            "round": 1,
            "call_id": ids[tool],
            "tool": tool,
            "status": "ok",
            "error": None,
            "latency_ms": latency,
            "attempts": 1,
        }
        for tool in order
    ]
    calls = [
        {
            "call_id": ids[tool],
            "round": 1,
            "tool": tool,
            "arguments": {},
            "status": "ok",
            "error": None,
            "latency_ms": latency,
            "attempts": 1,
        }
        for tool in order
    ]
    done = {
        "type": "turn.done",
        "turn_id": "t_7",
        "status": "ok",
        "tool_calls": calls,
        "truncated_calls": 0,
        "awaiting_confirmation": None,
        "timings_ms": {"decision": latency, "total": latency * 2},
    }
    return [*started, *finished, done]


def test_ids_timings_and_finishing_order_do_not_count() -> None:
    """Other call ids, latencies and completion order compare equal."""
    first = round_events(
        ["crm.listTasks", "crm.getOpenInvoices"],
        {"crm.listTasks": "c_1", "crm.getOpenInvoices": "c_2"},
        latency=41,
    )
    second = round_events(
        ["crm.getOpenInvoices", "crm.listTasks"],
        {"crm.listTasks": "call_b", "crm.getOpenInvoices": "call_a"},
        latency=7,
    )
    assert normalise(first) == normalise(second)
    assert diff_events(normalise(first), normalise(second)) == []


def test_a_changed_status_is_named_with_both_versions() -> None:
    """A call that failed where it succeeded: the diff names the event and its fields."""
    ids = {"crm.listTasks": "c_1", "crm.getOpenInvoices": "c_2"}
    recorded = round_events(["crm.listTasks", "crm.getOpenInvoices"], ids, latency=5)
    replayed = round_events(["crm.listTasks", "crm.getOpenInvoices"], ids, latency=5)
    replayed[3] = {**replayed[3], "status": "error", "error": {"code": "timeout", "message": "x"}}
    lines = diff_events(normalise(recorded), normalise(replayed))
    assert lines[0] == "event 3 (tool.finished): error, status differ"
    assert lines[1].startswith('  - recorded: {"type": "tool.finished"')
    assert '"status": "error"' in lines[2]


def test_a_missing_event_is_reported_as_recorded_but_not_sent() -> None:
    """An acknowledgement the engine no longer sends is named as missing."""
    recorded = [
        {"type": "turn.started", "turn_id": "t_1", "message_id": None},
        {"type": "ack.done", "turn_id": "t_1", "round": 1, "text": "Sure."},
        {
            "type": "turn.done",
            "turn_id": "t_1",
            "status": "ok",
            "tool_calls": [],
            "truncated_calls": 0,
            "awaiting_confirmation": None,
            "timings_ms": {},
        },
    ]
    replayed = [recorded[0], recorded[2]]
    lines = diff_events(normalise(recorded), normalise(replayed))
    assert lines[0] == "event 2 (ack.done): recorded, not sent"
