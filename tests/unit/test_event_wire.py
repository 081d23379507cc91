"""The engine's events as wire JSON: "type" first, then every field as declared."""

from __future__ import annotations

import dataclasses

from assistant.schema import (
    AckDelta,
    AckDone,
    AnswerDelta,
    AnswerDone,
    ToolFinished,
    ToolStarted,
    TurnDone,
    TurnStarted,
)

EVENTS = [
    TurnStarted("t_1", "m_1"),
    TurnStarted("t_2", None),
    AckDelta("t_1", 1, "Sure, I'll check your billing."),
    AckDone("t_1", 2, 'Now I\'ll "look" — é'),
    ToolStarted("t_1", 1, "c_1", "crm.listTasks", {"status": "open", "n": [1, 2]}),
    ToolFinished("t_1", 1, "c_1", "crm.listTasks", "error", {"code": "timeout"}, 12, 2),
    AnswerDelta("t_1", "You owe $12."),
    AnswerDone("t_1", "You owe $12."),
    TurnDone("t_1", "ok", [{"call_id": "c_1"}], 0, None, {"total": 5}, trace_id="ab"),
    TurnDone("t_1", "cancelled", [], 1, {"tool": "crm.deleteTask"}, {}),
]


def test_every_event_goes_on_the_wire_with_its_type_then_its_fields_in_order() -> None:
    """Each event's frame is {"type", then each declared field} with the values as given."""
    for event in EVENTS:
        expected = {"type": event.type}
        expected.update((f.name, getattr(event, f.name)) for f in dataclasses.fields(event))
        wire = event.to_wire()
        assert wire == expected
        assert list(wire) == list(expected)  # the order of the keys too
        assert event.to_wire() == expected  # and again, from the function kept per class
