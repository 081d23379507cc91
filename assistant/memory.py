"""The garbage collector, tuned for a long-running server.

Reference counting frees nearly everything a turn makes the moment it is dropped (turns
leave no reference cycles: tests/engine/test_turn.py proves it); the cycle collector
has almost nothing to find. By default it still runs a young collection every 700 new
container objects, and, as old objects accumulate, full collections that walk every
object alive: on a worker holding a thousand sessions (their histories, ~600 tracked
objects each) one full collection paused every turn in flight for 60–180 ms, which was
the turns' p99 (bench/load.py --sessions 1000). So, once the server has started:

- what start-up made (modules, the catalog, the grammar's tables, the app) is frozen
  out of every collection: it lives as long as the process;
- young collections wait for `YOUNG_THRESHOLD` new objects instead of 700: cycles are
  found a little later. A pause grows with the threshold (~1 µs per object) while the
  total time spent falls, so it is a trade between CPU and the turns' tail. With 1,000
  sessions (`bench.load --sessions 1000 --interval-s 5`): at 20,000, young pauses of
  ~20 ms and middle ones of ~110 ms lifted the p99 to 198 ms; at 10,000 it was 153 ms
  and at 5,000 136 ms, the CPU per turn within the runs' noise at 1,000 sessions but
  ~10% higher at 5,000 with 300 busier sessions;
- what survives a full collection is frozen too, so the next one walks only what was
  made since, not every session's history again. Frozen objects are still freed by
  reference counting the moment they are dropped; only a cycle among them would wait.
  So every `WHOLE_SCAN_EVERY_S` the frozen objects are handed back to the collector,
  whose next full collection walks everything once (one long pause, not one every few
  seconds) and frees whatever cycles there are.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

YOUNG_THRESHOLD = 10_000
WHOLE_SCAN_EVERY_S = 600.0


class FreezeAfterFullCollections:
    """A `gc.callbacks` hook: survivors of a full collection are frozen, and every
    `every_s` seconds a full collection is let walk them all once."""

    def __init__(self, every_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._every_s = every_s
        self._clock = clock
        self._last_whole = clock()
        self._whole_next = False  # the frozen objects were handed back: this one saw all

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop" or info.get("generation") != 2:
            return
        now = self._clock()
        if self._whole_next:
            self._whole_next = False
            self._last_whole = now
        elif now - self._last_whole >= self._every_s:
            gc.unfreeze()  # the next full collection walks every object, cycles are freed
            self._whole_next = True
            return
        gc.freeze()


def settle_after_start(*, whole_scan_every_s: float = WHOLE_SCAN_EVERY_S) -> None:
    """Collect what start-up left, freeze the rest, collect young objects less often, and
    freeze what each full collection leaves."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, older, oldest)
    if not any(isinstance(hook, FreezeAfterFullCollections) for hook in gc.callbacks):
        gc.callbacks.append(FreezeAfterFullCollections(whole_scan_every_s))


__all__ = [
    "WHOLE_SCAN_EVERY_S",
    "YOUNG_THRESHOLD",
    "FreezeAfterFullCollections",
    "settle_after_start",
]
