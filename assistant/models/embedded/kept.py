"""Readings kept per turn: a value worked out from an object that is neither hashable
nor weakly referable (a dialogue state) and asked for again within the same turn.

The planner's rounds and the narrator read the same message against the same state; the
objects are values that are never changed in place, so what was
worked out from them holds for as long as they live. Each kept object is held, so its id
cannot be reused by another while its reading is kept.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Held = TypeVar("Held")
Value = TypeVar("Value")


class KeptByIdentity(Generic[Held, Value]):
    """The last `size` values worked out, by the object's identity and a hashable rest."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._kept: OrderedDict[tuple[int, Hashable], tuple[Held, Value]] = OrderedDict()

    def get(self, held: Held, rest: Hashable, work_out: Callable[[], Value]) -> Value:
        key = (id(held), rest)
        kept = self._kept.get(key)
        if kept is not None and kept[0] is held:
            return kept[1]
        value = work_out()
        self._kept[key] = (held, value)
        if len(self._kept) > self._size:
            self._kept.popitem(last=False)
        return value
