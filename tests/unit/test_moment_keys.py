"""One moment written with two offsets is one write, for the repeat checks (guard's
`write_key`, the turn's `call_key`): a model that books '11:00-08:00' and '19:00Z' in
one decision, or in two turns, books once (tests/integrity/test_model_attacks8.py)."""

from __future__ import annotations

from assistant.guard import write_key
from assistant.schema import ToolCall
from assistant.turn import call_key


def _booking(call_id: str, starts_at: str) -> ToolCall:
    arguments = {"service": "Massage", "starts_at": starts_at}
    return ToolCall(call_id=call_id, tool_name="crm.bookAppointment", arguments=arguments)


def test_one_moment_in_two_offsets_is_one_write() -> None:
    local = _booking("a", "2030-11-25T11:00:00-08:00")
    utc = _booking("b", "2030-11-25T19:00:00Z")
    assert write_key(local) == write_key(utc)
    assert call_key(local) == call_key(utc)


def test_two_moments_are_two_writes() -> None:
    local = _booking("a", "2030-11-25T11:00:00-08:00")
    later = _booking("b", "2030-11-25T11:00:00-05:00")
    assert write_key(local) != write_key(later)
    assert call_key(local) != call_key(later)


def test_a_time_without_offset_is_compared_as_written() -> None:
    naive = _booking("a", "2030-11-25T19:00:00")
    utc = _booking("b", "2030-11-25T19:00:00Z")
    assert write_key(naive) != write_key(utc)
