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
  found a little later. A pause grows with the threshold (~1 µs per object) while the
  total time spent falls, so it is a trade between CPU and the turns' tail. With 1,000
  sessions (`bench.load --sessions 1000 --interval-s 5`): at 20,000, young pauses of
  ~20 ms and middle ones of ~110 ms lifted the p99 to 198 ms; at 10,000 it was 153 ms
  and at 5,000 136 ms, the CPU per turn within the runs' noise at 1,000 sessions but
  ~10% higher at 5,000 with 300 busier sessions.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 10_000


def settle_after_start() -> None:
    """Collect what start-up left, freeze the rest, and collect young objects less often."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, older, oldest)


__all__ = ["YOUNG_THRESHOLD", "settle_after_start"]
