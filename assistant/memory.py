"""The garbage collector, tuned for a long-running server.

Reference counting frees nearly everything a turn makes the moment it is dropped; the
cycle collector only has to find the few dozen objects a turn leaves in cycles (tasks
and their contexts, a round's bookkeeping). By default it runs a young
collection every 700 new container objects, and every tenth of those also walks the
older generation; on a worker holding hundreds of sessions that was about a sixth of
its CPU per turn (bench/load.py). So, once the server has started:

- what start-up made (modules, the catalog, the grammar's tables, the app) is frozen
  out of every collection: it lives as long as the process;
- young collections wait for `YOUNG_THRESHOLD` new objects instead of 700: cycles are
  found a little later. A collection's pause grows with it (~1 µs per object): at
  20,000 the young collections took ~20 ms and the middle ones ~110 ms, which showed
  in the turns' p99 with 1,000 sessions (198 ms); at 5,000 the p99 was 136 ms for the
  same CPU (`bench.load --sessions 1000 --interval-s 5`).
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 5_000


def settle_after_start() -> None:
    """Collect what start-up left, freeze the rest, and collect young objects less often."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, older, oldest)


__all__ = ["YOUNG_THRESHOLD", "settle_after_start"]
