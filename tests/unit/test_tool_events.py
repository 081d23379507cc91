"""A round's tool events: passed straight to the sink, or held until the acknowledgement."""

from __future__ import annotations

from assistant.round_run import _ToolEvents
from assistant.schema import Event, ToolStarted


def _started(call_id: str) -> ToolStarted:
    return ToolStarted("t_1", 1, call_id, "crm.listTasks", {})


async def test_held_events_go_out_in_order_and_an_event_held_as_released_is_not_lost() -> None:
    """Sent at once when not held; while held, kept and sent in order on release; an
    event whose send was asked for while held but awaited after the release still goes
    out (after the held ones), so the fast path and the held path send the same."""
    sent: list[str] = []

    async def sink(event: Event) -> None:
        assert isinstance(event, ToolStarted)
        sent.append(event.call_id)

    events = _ToolEvents(sink)
    await events.send(_started("c_1"))
    events.held = []
    await events.send(_started("c_2"))
    late = events.send(_started("c_3"))  # asked for while held…
    assert sent == ["c_1"]
    await events.release()
    await late  # …awaited after the release
    await events.send(_started("c_4"))

    assert sent == ["c_1", "c_2", "c_3", "c_4"]
