"""Comparing a turn's events: normalisation, then a readable diff naming each event.

What legitimately varies between two runs of the same conversation is taken out
before comparing: turn, call, session and trace ids; latencies and timings; and the
order in which the tools of one round started and finished (they run concurrently),
so tool events of one round are compared sorted by tool name and arguments.
"""

from __future__ import annotations

import copy
import difflib
import json
from collections.abc import Sequence
from typing import Any

Wire = dict[str, Any]
_TOOL_EVENTS = ("tool.started", "tool.finished")
_IDS = ("session_id",)


def canonical(value: Any) -> str:
    """A stable text for JSON values (arguments), to sort and to look up by."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def normalise(events: Sequence[Wire]) -> list[Wire]:
    """The events of one turn with ids, timings and concurrent order taken out."""
    events = [copy.deepcopy(event) for event in events]
    arguments = _call_arguments(events)
    labels = _call_labels(arguments)
    for event in events:
        if "turn_id" in event:
            event["turn_id"] = "<turn>"
        for key in _IDS:
            if key in event:
                event[key] = f"<{key}>"
        # Recordings made before turn.done and error events carried a trace id still match.
        event.pop("trace_id", None)
        if event.get("type") in _TOOL_EVENTS:
            event["call_id"] = labels.get((event.get("round"), event.get("call_id")), "<call>")
            if "latency_ms" in event:
                event["latency_ms"] = 0
        if event.get("type") == "turn.done":
            calls = [dict(call) for call in event.get("tool_calls") or []]
            for call in calls:
                call["call_id"] = labels.get((call.get("round"), call.get("call_id")), "<call>")
                call["latency_ms"] = 0
            calls.sort(key=lambda c: (c.get("round", 0), c.get("tool", ""), canonical(c)))
            event["tool_calls"] = calls
            event["timings_ms"] = dict.fromkeys(event.get("timings_ms") or {}, 0)
    return _sort_tool_runs(events)


def _call_arguments(events: Sequence[Wire]) -> dict[tuple[Any, Any], tuple[str, str]]:
    """(round, call id) → (tool, canonical arguments), from tool.started and turn.done."""
    found: dict[tuple[Any, Any], tuple[str, str]] = {}
    for event in events:
        if event.get("type") == "tool.started":
            key = (event.get("round"), event.get("call_id"))
            found[key] = (str(event.get("tool")), canonical(event.get("arguments")))
        elif event.get("type") == "turn.done":
            for call in event.get("tool_calls") or []:
                key = (call.get("round"), call.get("call_id"))
                found.setdefault(key, (str(call.get("tool")), canonical(call.get("arguments"))))
    return found


def _call_labels(arguments: dict[tuple[Any, Any], tuple[str, str]]) -> dict[tuple[Any, Any], str]:
    """Each call's stable label ("c1", "c2", …) in order of round, tool and arguments."""
    ordered = sorted(arguments, key=lambda key: (key[0] or 0, *arguments[key]))
    return {key: f"c{index}" for index, key in enumerate(ordered, 1)}


def _sort_tool_runs(events: list[Wire]) -> list[Wire]:
    """Sort each run of consecutive tool events of one round: started first, then by call."""
    out: list[Wire] = []
    run: list[Wire] = []

    def flush() -> None:
        run.sort(key=lambda e: (e["type"] != "tool.started", e.get("call_id", "")))
        out.extend(run)
        run.clear()

    for event in events:
        if event.get("type") in _TOOL_EVENTS:
            if run and run[0].get("round") != event.get("round"):
                flush()
            run.append(event)
        else:
            flush()
            out.append(event)
    flush()
    return out


def dump_event(event: Wire) -> str:
    """One event as one JSON line, its type first, other keys sorted."""
    rest = {key: value for key, value in event.items() if key != "type"}
    body = json.dumps(rest, sort_keys=True, ensure_ascii=False)
    head = f'{{"type": {json.dumps(event.get("type"))}'
    return head + (", " + body[1:] if rest else "}")


def diff_events(expected: Sequence[Wire], got: Sequence[Wire]) -> list[str]:
    """Readable lines naming each differing event (index from 1, type), empty when equal."""
    left = [dump_event(event) for event in expected]
    right = [dump_event(event) for event in got]
    lines: list[str] = []
    matcher = difflib.SequenceMatcher(None, left, right, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        pairs = min(i2 - i1, j2 - j1) if tag == "replace" else 0
        for offset in range(pairs):
            i, j = i1 + offset, j1 + offset
            lines.append(
                f"event {i + 1} ({_kind(expected[i], got[j])}){_fields(expected[i], got[j])}"
            )
            lines.append(f"  - recorded: {left[i]}")
            lines.append(f"  + replayed: {right[j]}")
        for i in range(i1 + pairs, i2):
            lines.append(f"event {i + 1} ({expected[i].get('type')}): recorded, not sent")
            lines.append(f"  - recorded: {left[i]}")
        for j in range(j1 + pairs, j2):
            lines.append(f"event {i1 + pairs + 1} ({got[j].get('type')}): sent, not recorded")
            lines.append(f"  + replayed: {right[j]}")
    return lines


def _kind(expected: Wire, got: Wire) -> str:
    left, right = expected.get("type"), got.get("type")
    return str(left) if left == right else f"{left} → {right}"


def _fields(expected: Wire, got: Wire) -> str:
    if expected.get("type") != got.get("type"):
        return ""
    names = sorted(key for key in {*expected, *got} if expected.get(key) != got.get(key))
    return f": {', '.join(names)} differ" if names else ""
