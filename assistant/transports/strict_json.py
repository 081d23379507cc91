"""JSON as the protocols mean it, for everything a client or platform sends us.

Two things the JSON grammar allows are refused here, each with a message naming it:

- a key given twice in one object (`{"text": "what's on my list", "text": "delete …"}`).
  Parsers keep the last value, but a filter, proxy or log in front of us may keep the
  first: the same frame would say one thing to them and another to us.
- a number too long to read. No field of our protocols takes one, and the standard
  library's own refusal tells the sender to change the server's interpreter settings.

Every failure is a `ValueError` (a `JSONDecodeError`, or one of the two below), never a
`RecursionError` from deep nesting, so a transport's one `except ValueError` covers it.

orjson reads nearly every frame (0.2 µs instead of 1.2); it keeps the last of two equal
keys silently, but each key dropped that way takes its quotes with it, so a count of
the quotes tells whether the slower reader that sees every pair must look again.
"""

from __future__ import annotations

import json
from typing import Any, Final

import orjson

# Far past any id or timestamp a client sends; far below the interpreter's 4,300.
MAX_DIGITS: Final = 100


class DuplicateKey(ValueError):
    """An object gives one key twice."""

    def __init__(self, key: str) -> None:
        super().__init__(f"'{key}' is given twice; give each field once")
        self.key = key


class NumberTooLong(ValueError):
    """A number of more than MAX_DIGITS digits."""

    def __init__(self, digits: int) -> None:
        super().__init__(f"a number of {digits} digits is longer than any field takes")


def loads(data: str | bytes) -> Any:
    """`data` read as JSON; ValueError (DuplicateKey, NumberTooLong, JSONDecodeError, or a
    UnicodeDecodeError for bytes that are not UTF-8) naming what is wrong."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError:
        return _every_pair(data)  # NaN, a lone surrogate's escape, big numbers, or bad JSON
    quotes = data.count('"') if isinstance(data, str) else data.count(b'"')
    if quotes != _quotes_read(value):
        return _every_pair(data)
    return value


def _every_pair(data: str | bytes) -> Any:
    try:
        return json.loads(data, object_pairs_hook=_one_value_per_key, parse_int=_bounded_int)
    except RecursionError as exc:  # nested too deeply: the library's own words
        raise ValueError(str(exc)) from None


def _one_value_per_key(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKey(key)
            seen.add(key)
    return value


def _bounded_int(digits: str) -> int:
    length = len(digits.lstrip("-"))
    if length > MAX_DIGITS:
        raise NumberTooLong(length)
    return int(digits)


def _quotes_read(value: Any) -> int:
    """The quote characters `value` takes written as JSON with `\\"` escapes: two around
    each string and key, one for each quote inside them."""
    if type(value) is dict:
        # A flat object of strings (nearly every frame): one pass, no stack.
        count = 0
        for key, item in value.items():
            if type(item) is str:
                count += 4 + key.count('"') + item.count('"')
            elif item is None or type(item) in _SCALARS:
                count += 2 + key.count('"')
            else:
                return _quotes_nested(value)
        return count
    return _quotes_nested(value)


_SCALARS: Final = frozenset({int, float, bool})


def _quotes_nested(value: Any) -> int:
    count = 0
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            count += 2 + item.count('"')
        elif isinstance(item, dict):
            count += sum(2 + key.count('"') for key in item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return count


__all__ = ["MAX_DIGITS", "DuplicateKey", "NumberTooLong", "loads"]
