"""Soak at scale: hundreds of sessions against the CRM stub with random faults.

    python -m bench.soak [--sessions 300] [--turns 10] [--fault-rate 0.1] [--json]

The same run as the suite's bounded soak test (bench/soak_run.py), larger:
every turn must end once, every call finish once, and no write be lost or doubled.
Exits 1 when any check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from aiohttp import web

from bench.soak_run import soak
from crm_stub.app import create_app

TOKEN = "bench-crm-token"


async def run(sessions: int, turns: int, fault_rate: float, latency_ms: float) -> dict[str, Any]:
    runner = web.AppRunner(create_app(token=TOKEN, latency_ms=latency_ms), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        report = await soak(
            f"http://127.0.0.1:{port}",
            TOKEN,
            sessions=sessions,
            turns=turns,
            fault_rate=fault_rate,
            seed=11,
        )
    finally:
        await runner.cleanup()
    figures = report.figures()
    figures["problem_samples"] = report.problems[:5]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description="Soak the engine against a faulty CRM.")
    parser.add_argument("--sessions", type=int, default=300)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--fault-rate", type=float, default=0.1)
    parser.add_argument("--latency-ms", type=float, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = asyncio.run(run(args.sessions, args.turns, args.fault_rate, args.latency_ms))
    print(json.dumps(figures) if args.json else json.dumps(figures, indent=2))
    sys.exit(1 if figures["problems"] else 0)


if __name__ == "__main__":
    main()
