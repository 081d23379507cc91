"""Prometheus metrics of turns, tool calls, retries and the circuit breakers.

Each app owns its own registry, so several apps (tests) never collide.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any, TypeVar

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.metrics import MetricWrapperBase
from prometheus_client.values import MutexValue

_LATENCY_BUCKETS_S = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16)

M = TypeVar("M", bound=MetricWrapperBase)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.turns = Counter("turn_count", "Turns by final status.", ["status"], registry=r)
        self.tool_calls = Counter(
            "tool_call_count", "Tool calls by tool and outcome.", ["tool", "outcome"], registry=r
        )
        self.tool_errors = Counter(
            "tool_call_error_count",
            "Tool call errors by tool and code.",
            ["tool", "code"],
            registry=r,
        )
        self.truncated = Counter(
            "tool_call_truncated", "Tool calls cut by the per-round cap.", registry=r
        )
        self.retries = Counter(
            "tool_call_retry_count",
            "Retried tool call attempts by tool and reason.",
            ["tool", "reason"],
            registry=r,
        )
        self.circuit_state = Gauge(
            "circuit_state",
            "Circuit breaker per tool: 0 closed, 1 half-open, 2 open.",
            ["tool"],
            registry=r,
        )
        self.model_errors = Counter(
            "model_error_count", "Planner or narrator failures by stage.", ["stage"], registry=r
        )
        self.rate_limited = Counter(
            "message_rate_limited_count",
            "Incoming messages refused by a rate limit.",
            ["scope"],
            registry=r,
        )
        # Counted, not logged one by one: under abuse a line per refusal floods the log.
        self.connections_refused = Counter(
            "connection_refused_count",
            "Connections refused before the upgrade (or at session.start) by reason.",
            ["reason"],
            registry=r,
        )
        self.turns_refused = Counter(
            "turn_refused_count",
            "Messages answered `busy` because the worker was saturated.",
            registry=r,
        )
        self.slow_clients = Counter(
            "slow_client_count", "Sockets closed because their client stopped reading.", registry=r
        )
        self.sessions = Gauge(
            "active_sessions", "Open sessions by transport.", ["transport"], registry=r
        )

        def histogram(name: str, doc: str, labels: tuple[str, ...] = ()) -> Histogram:
            return Histogram(name, doc, labels, buckets=_LATENCY_BUCKETS_S, registry=r)

        self.decision_s = histogram("decision_seconds", "Planner decision latency.")
        self.ack_s = histogram("ack_seconds", "Turn start to the first acknowledgement.")
        self.tools_s = histogram("tools_seconds", "A round's tool phase.")
        self.tool_call_s = histogram("tool_call_seconds", "One tool call.", ("tool",))
        self.turn_s = histogram("turn_seconds", "A whole turn.")

        # The labelled children asked for on every turn and tool call (`labelled`).
        self._children: dict[tuple[MetricWrapperBase, tuple[str, ...]], MetricWrapperBase] = {}

    def labelled(self, metric: M, *values: str) -> M:
        """`metric.labels(*values)`, kept: `labels` takes a lock and checks its values on
        every call, and a turn asks for five. The same child, so the same series. The
        values are few (statuses, tool names, error codes), and no series is removed."""
        key = (metric, values)
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = metric.labels(*values)
        return child  # type: ignore[return-value]  # labels() of an M is an M

    def render(self) -> bytes:
        return generate_latest(self.registry)


# The turn's own observations and counts (six and three a turn) go through these: the
# library's `observe` and `inc` check that the metric takes observations and walk the
# buckets through three more calls each (1.1 and 0.65 µs); these add to the same values
# under the same locks. A metric that is not a plain in-process one (a labelled parent,
# a multiprocess value), NaN or a negative count is handed to the library, which treats
# it as it always did. tests/observability/test_metrics_fast.py holds the two equal.


def observe(histogram: Histogram, amount: float) -> None:
    """`histogram.observe(amount)`, for an unlabelled histogram or a labelled child."""
    total: Any = getattr(histogram, "_sum", None)
    if type(total) is not MutexValue or amount != amount:
        histogram.observe(amount)
        return
    internals: Any = histogram
    bounds: list[float] = internals._upper_bounds
    with total._lock:
        total._value += amount
    index = bisect_left(bounds, amount)  # the first bucket whose bound is >= amount
    if index < len(bounds):
        bucket = internals._buckets[index]
        with bucket._lock:
            bucket._value += 1


def count(counter: Counter, amount: float = 1) -> None:
    """`counter.inc(amount)`, for an unlabelled counter or a labelled child."""
    value: Any = getattr(counter, "_value", None)
    if type(value) is not MutexValue or not amount >= 0:
        counter.inc(amount)
        return
    with value._lock:
        value._value += amount
