"""Inbound text must be valid UTF-8, whatever JSON allows.

A websocket text frame is UTF-8 on the wire, but a JSON escape can still spell a lone
surrogate (`"milk \\ud800 run"`): `json.loads` accepts it, and the string then fails
much later, when it is encoded to be sent or stored (a UnicodeEncodeError in the
middle of a turn). Frames are checked here on the way in instead, so the sender hears
a clear `invalid_message` naming the field, and the connection stays open.
"""

from __future__ import annotations

from typing import Any


def invalid_text_at(value: Any, where: str = "") -> str | None:
    """The path of the first string (or key) in `value` that is not valid UTF-8, or None."""
    if isinstance(value, str):
        return None if _encodes(value) else (where or "the frame")
    if isinstance(value, dict):
        for key, item in value.items():
            path = f"{where}.{key}" if where else str(key)
            if isinstance(key, str) and not _encodes(key):
                return where or "a field name"
            found = invalid_text_at(item, path)
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = invalid_text_at(item, f"{where}[{index}]")
            if found is not None:
                return found
    return None


def invalid_text_problem(value: Any) -> str | None:
    """What a sender is told when `value` holds text that is not UTF-8, or None. The
    offending text is not echoed: it could not be sent back either."""
    bad = invalid_text_at(value)
    if bad is None:
        return None
    printable = bad.encode("utf-8", "backslashreplace").decode("ascii", "backslashreplace")
    return f"'{printable}' is not valid UTF-8 (a lone surrogate?)"


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def without_lone_surrogates(value: Any) -> Any:
    """`value` with each lone surrogate in its strings (and keys) replaced by U+FFFD: for a
    platform's transcript, where a glitch of its speech recognition must not cost the
    caller their answer (a websocket client is told instead, `invalid_text_problem`)."""
    if isinstance(value, str):
        return value if _encodes(value) else _replaced(value)
    if isinstance(value, dict):
        return {without_lone_surrogates(k): without_lone_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [without_lone_surrogates(item) for item in value]
    return value


def _replaced(text: str) -> str:
    return "".join(ch if not 0xD800 <= ord(ch) <= 0xDFFF else "\ufffd" for ch in text)


__all__ = ["invalid_text_at", "invalid_text_problem", "without_lone_surrogates"]
