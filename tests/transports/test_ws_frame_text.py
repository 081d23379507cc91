"""Inbound frames: text that is not UTF-8 is refused; JSON is read as the stdlib reads it."""

from __future__ import annotations

import json

import pytest

from assistant.transports.ws_frames import FrameError, UserMessage, parse_frame


@pytest.mark.parametrize(
    "data",
    [
        '{"type":"user.message","text":"milk \\ud800 run"}',  # a JSON escape
        '{"type":"user.message","text":"caf\\u00e9 \\uDC00"}',  # upper-case, after a valid one
        '{"type":"user.message","text":"café \ud800"}',  # the surrogate itself, not ASCII
        '{"type":"user.message","text":"ok","id":"\\udfff"}',  # in another field
    ],
)
def test_a_lone_surrogate_is_refused_wherever_it_comes_from(data: str) -> None:
    """Escaped or literal, in any field: invalid_message naming it as not UTF-8."""
    with pytest.raises(FrameError, match="not valid UTF-8") as refused:
        parse_frame(data)
    assert refused.value.code == "invalid_message"


@pytest.mark.parametrize(
    ("data", "text"),
    [
        ('{"type":"user.message","text":"my tasks"}', "my tasks"),
        ('{"type":"user.message","text":"café crème"}', "café crème"),
        ('{"type":"user.message","text":"caf\\u00e9 \\ud83d\\ude00"}', "café 😀"),
        ('{"type":"user.message","text":"a \\\\ud800 b"}', "a \\ud800 b"),  # an escaped "\"
    ],
)
def test_text_that_is_utf8_goes_through_as_sent(data: str, text: str) -> None:
    """Plain ASCII, literal accents, escaped pairs and an escaped backslash are all fine."""
    frame = parse_frame(data)
    assert isinstance(frame, UserMessage)
    assert frame.text == text


def test_json_the_standard_library_reads_is_read_and_refused_as_it_reads_it() -> None:
    """NaN (not strict JSON) is read; broken and too deep JSON get the library's message."""
    with pytest.raises(FrameError, match=r"'x' is not a field of user\.message"):
        parse_frame('{"type":"user.message","text":"hi","x":NaN}')
    for data in ("{not json", "[" * 100_000 + "]" * 100_000):
        try:
            json.loads(data)
        except (ValueError, RecursionError) as exc:
            expected = f"the frame is not valid JSON: {exc}"
        with pytest.raises(FrameError) as refused:
            parse_frame(data)
        assert refused.value.message == expected
