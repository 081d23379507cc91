"""Capacity and overload, from outside: the most turns per second a worker count sustains
with p99 within 2× the CRM's latency, and what happens when twice that is offered.

    python -m bench.capacity [--workers 1 2] [--crm-latency-ms 50] [--sessions 300]
                             [--duration-s 12] [--json]

For each worker count, `bench/load.py` runs the service at rising offered rates
(sessions × 1 / interval) until the turns' p99 passes 2× the CRM latency; the capacity
is the highest rate sustained within it. Then twice the capacity is offered: the turns
accepted should keep their p99 within 3× the CRM latency, the rest be refused `busy`,
and none fail. Printed as JSON, with the scaling of each worker count against one.

The load generator's processes and the CRM stub share the machine with the workers:
on a small machine they take cores too, which the figures include (the JSON says how
many cores there were).
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from bench import load

# Offered turns per second tried, in order; the search stops at the first rate past p99.
RATES = (50, 100, 150, 200, 250, 300, 350, 400, 500, 600, 800)


def _run(workers: int, rate: float, args: argparse.Namespace) -> dict[str, Any]:
    interval_s = args.sessions / rate
    figures = load.run(
        "assistant",
        args.sessions,
        workers,
        args.crm_latency_ms,
        args.duration_s,
        interval_s,
        args.clients,
    )
    figures["offered_per_s"] = rate
    return figures


def measure(workers: int, args: argparse.Namespace) -> dict[str, Any]:
    bound_ms = 2 * args.crm_latency_ms
    steps: list[dict[str, Any]] = []
    best: dict[str, Any] | None = None
    for rate in RATES:
        figures = _run(workers, rate, args)
        steps.append(
            {
                key: figures[key]
                for key in ("offered_per_s", "turns_per_s", "turn_p99_ms", "refused_busy")
            }
        )
        within = figures["turn_p99_ms"] <= bound_ms and figures["refused_busy"] == 0
        if not within:
            break
        best = figures
    capacity = best["turns_per_s"] if best else 0.0
    overload = _run(workers, 2 * capacity, args) if capacity else None
    return {
        "workers": workers,
        "capacity_turns_per_s": capacity,
        "steps": steps,
        "overload": None
        if overload is None
        else {
            key: overload[key]
            for key in (
                "offered_per_s",
                "turns",
                "turns_per_s",
                "turn_p50_ms",
                "turn_p99_ms",
                "refused_busy",
                "failed",
                "cpu_ms_per_turn",
            )
        }
        | {"p99_within_3x_crm": overload["turn_p99_ms"] <= 3 * args.crm_latency_ms},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--crm-latency-ms", type=float, default=50)
    parser.add_argument("--sessions", type=int, default=300)
    parser.add_argument("--duration-s", type=float, default=12)
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = [measure(workers, args) for workers in args.workers]
    one = results[0]["capacity_turns_per_s"] or 1.0
    report = {
        "cores": os.cpu_count(),
        "crm_latency_ms": args.crm_latency_ms,
        "results": results,
        "scaling": {
            str(result["workers"]): round(result["capacity_turns_per_s"] / one, 2)
            for result in results
        },
    }
    print(json.dumps(report) if args.json else json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
