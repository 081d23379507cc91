"""The collector's tuning for a long-running worker: full collections walk only what is
new, and a cycle left among frozen objects is still freed at the next whole scan."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from assistant.memory import FreezeAfterFullCollections


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def hook() -> Iterator[tuple[FreezeAfterFullCollections, list[float]]]:
    """The hook installed with a clock the test moves; the collector restored after (the
    suite's processes freeze what they collected: tests/fixtures/collector.py)."""
    now = [0.0]
    installed = FreezeAfterFullCollections(600.0, clock=lambda: now[0])
    was_frozen = gc.get_freeze_count() > 0
    gc.collect()
    gc.callbacks.append(installed)
    try:
        yield installed, now
    finally:
        gc.callbacks.remove(installed)
        gc.unfreeze()
        gc.collect()
        if was_frozen:
            gc.freeze()


def test_survivors_of_a_full_collection_are_left_out_of_the_next(
    hook: tuple[FreezeAfterFullCollections, list[float]],
) -> None:
    """After a full collection what is alive is frozen: the next one does not walk it."""
    gc.unfreeze()
    gc.collect()
    assert gc.get_freeze_count() > 0
    kept = [Node() for _ in range(1000)]
    frozen_before = gc.get_freeze_count()
    gc.collect()
    assert gc.get_freeze_count() >= frozen_before + len(kept)


def test_a_cycle_among_frozen_objects_is_freed_at_the_next_whole_scan(
    hook: tuple[FreezeAfterFullCollections, list[float]],
) -> None:
    """A cycle frozen while alive and dropped later waits, at most until the whole scan
    that comes every `every_s` seconds: memory stays bounded."""
    _, now = hook
    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    gc.collect()  # a and b are alive: frozen
    del a, b
    gc.collect()
    assert gone() is not None  # frozen: the collector does not look at them
    now[0] += 601
    gc.collect()  # time for a whole scan: the frozen objects are handed back
    assert gc.get_freeze_count() == 0
    gc.collect()  # the whole scan frees the cycle, and freezes the survivors again
    assert gone() is None
    assert gc.get_freeze_count() > 0
