"""Readings of a text asked for more than once while one decision is made, worked out once.

Several readers of one decision ask the same pure question of the same words: the
message is put plain (transcript.py) by `as_meant` and again by `normalize`; "is it a
yes?" is asked by the readers of an offer, of a place not heard and of a time not said;
each clause's negation by the grammar and again by the readers after it. A function
marked `@read_once` answers each text once per decision: its answers are kept from the
start of `EmbeddedPlanner.plan` to its end (`one_decision`), and dropped then, so that no
decision is answered from another's readings. Outside a decision (the narrator, the
engine) each call works its answer out as before. Only functions of the text alone, whose
answers are never changed in place (str, bool), are marked.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

Answer = TypeVar("Answer")

# The answers kept by each marked function (emptied when a decision starts and ends).
_KEPT: list[dict[str, object]] = []
# Decisions under way (a decision may be asked for within one: planner retries).
_deciding = 0
# More texts than this within one decision: the oldest are dropped (a bound, never met).
_MOST = 256


def read_once(read: Callable[[str], Answer]) -> Callable[[str], Answer]:
    """`read`, answering each text once per decision."""
    kept: dict[str, Answer] = {}
    _KEPT.append(kept)  # type: ignore[arg-type]

    @functools.wraps(read)
    def once(text: str) -> Answer:
        if not _deciding:
            return read(text)
        if text in kept:
            return kept[text]
        if len(kept) >= _MOST:
            kept.clear()
        answer = kept[text] = read(text)
        return answer

    return once


def _forget() -> None:
    for kept in _KEPT:
        kept.clear()


class _OneDecision:
    """The readings of `read_once` functions kept while the block runs (a class, not a
    generator: it is entered on every decision)."""

    def __enter__(self) -> None:
        global _deciding
        if not _deciding:
            _forget()
        _deciding += 1

    def __exit__(self, *_exc: object) -> None:
        global _deciding
        _deciding -= 1
        if not _deciding:
            _forget()


one_decision = _OneDecision()


__all__ = ["one_decision", "read_once"]
