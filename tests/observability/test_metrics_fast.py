"""The turn's quick observations and counts leave the series the library's own would."""

from __future__ import annotations

import math
import re

import pytest

from assistant.metrics import Metrics, count, observe


def _series(metrics: Metrics) -> list[bytes]:
    """The exposition without its `_created` times (two registries are made apart)."""
    return [line for line in metrics.render().splitlines() if b"_created" not in line]


AMOUNTS = (0.0, 0.004, 0.005, 0.0051, 0.1, 1, 3.9, 8, 16, 16.5, 1e9, math.inf, -0.5, math.nan)


def test_observations_fill_the_same_buckets_and_sums() -> None:
    """Every amount, on a bound or between two, past the last, negative or NaN, lands in
    the same bucket and sum as through Histogram.observe."""
    ours, theirs = Metrics(), Metrics()
    for amount in AMOUNTS:
        observe(ours.turn_s, amount)
        theirs.turn_s.observe(amount)
        observe(ours.labelled(ours.tool_call_s, "crm.listTasks"), amount)
        theirs.labelled(theirs.tool_call_s, "crm.listTasks").observe(amount)
        assert _series(ours) == _series(theirs)


def test_counts_add_up_the_same() -> None:
    """Counts by one and by more, labelled or not, read the same as Counter.inc's."""
    ours, theirs = Metrics(), Metrics()
    for amount in (1, 1, 3, 0, 2.5):
        count(ours.labelled(ours.turns, "ok"), amount)
        theirs.labelled(theirs.turns, "ok").inc(amount)
        count(ours.truncated, amount)
        theirs.truncated.inc(amount)
    assert _series(ours) == _series(theirs)


def test_what_the_library_refuses_is_refused_the_same() -> None:
    """A labelled parent or a negative count is refused with the library's own error."""
    metrics = Metrics()
    cases = (
        (lambda: observe(metrics.tool_call_s, 0.1), lambda: metrics.tool_call_s.observe(0.1)),
        (lambda: count(metrics.turns), lambda: metrics.turns.inc()),
        (lambda: count(metrics.truncated, -1), lambda: metrics.truncated.inc(-1)),
    )
    for ours, theirs in cases:
        try:
            theirs()
        except ValueError as refusal:
            said = str(refusal)
        with pytest.raises(ValueError, match=f"^{re.escape(said)}$"):
            ours()
    assert _series(metrics) == _series(Metrics())  # nothing was counted on the way
