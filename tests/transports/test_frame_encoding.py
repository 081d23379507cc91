"""Frames as the client reads them: compact UTF-8 JSON, whatever text a tool returned."""

from __future__ import annotations

import json

from assistant.transports.outbox import encode_frame, text_frame


def test_text_outside_ascii_goes_out_as_utf8_and_reads_back_the_same() -> None:
    """ "Café at 3 €" stays readable in the frame, not escaped, and decodes to the same."""
    frame = {"type": "answer.delta", "turn_id": "t_1", "text": "Café at 3 € ✓"}
    payload = encode_frame(frame)
    assert "Café at 3 € ✓".encode() in payload
    assert json.loads(payload) == frame


def test_a_lone_surrogate_from_a_tool_is_escaped_instead_of_failing_the_send() -> None:
    """A CRM string with a lone surrogate cannot be UTF-8: it goes out as a JSON escape."""
    frame = {"type": "tool.finished", "result": {"title": "milk \ud800 run"}}
    payload = encode_frame(frame)
    assert payload.isascii() and b"\\ud800" in payload
    assert json.loads(payload) == frame


def test_keys_that_are_not_strings_are_written_as_strings() -> None:
    """A result keyed by numbers (as a CRM's JSON could not be, but a Python one can)."""
    payload = encode_frame({"type": "x", "counts": {1: "one", 2: "two"}})
    assert json.loads(payload) == {"type": "x", "counts": {"1": "one", "2": "two"}}


def test_a_frame_is_one_unmasked_text_frame_of_its_length() -> None:
    """Short, medium and long payloads get the length encoding RFC 6455 gives them."""
    for size, header in ((10, b"\x81\x0a"), (300, b"\x81\x7e\x01\x2c")):
        assert text_frame(b"x" * size) == header + b"x" * size
    long = text_frame(b"x" * 70_000)
    assert long[:2] == b"\x81\x7f" and int.from_bytes(long[2:10], "big") == 70_000
