"""What a voice platform waits for: time to the first content (the acknowledgement) and
to the end of the answer, over streamed chat completions with the real `openai` client.

    python -m bench.platforms [--calls 10] [--turns 4] [--crm-latency-ms 150] [--json]

The app (embedded models) and a CRM stub answering after `--crm-latency-ms` are served
in this process; `--calls` conversations (Vapi-style bodies: call.id, the caller's
number) run `--turns` turns each, concurrently. The first content should not wait for
the CRM; the end of the answer should.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from aiohttp import web
from openai import AsyncOpenAI

from assistant.app import create_app
from assistant.settings import load_settings
from crm_stub.app import create_app as create_crm_app

KEY = "bench-platform-key-0123456789abcdef"
UTTERANCES = (
    "what's my next appointment",
    "show me my tasks and my balance",
    "what do I owe, my upcoming appointments and my open tasks",
)
PHONES = ("+14155550101", "+14155550102", "+14155550103")


async def _call(client: AsyncOpenAI, call_id: int, turns: int) -> list[tuple[float, float]]:
    timings = []
    for turn in range(turns):
        started = time.perf_counter()
        first = None
        stream = await client.chat.completions.create(
            model="assistant",
            messages=[{"role": "user", "content": UTTERANCES[turn % len(UTTERANCES)]}],
            stream=True,
            extra_body={
                "call": {"id": f"bench-{call_id}", "customer": {"number": PHONES[call_id % 3]}}
            },
        )
        async for chunk in stream:
            if first is None and chunk.choices and chunk.choices[0].delta.content:
                first = time.perf_counter() - started
        timings.append((first or 0.0, time.perf_counter() - started))
    return timings


async def _serve(app: web.Application) -> tuple[web.AppRunner, int]:
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, int(runner.addresses[0][1])


async def run(calls: int, turns: int, crm_latency_ms: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        crm, crm_port = await _serve(
            create_crm_app(
                db_path=str(Path(tmp) / "crm.db"), token="bench", latency_ms=crm_latency_ms
            )
        )
        settings = load_settings(
            secret="b" * 32,
            crm_url=f"http://127.0.0.1:{crm_port}",
            crm_token="bench",
            platform_keys=KEY,
            session_messages_per_minute=10_000,
            customer_messages_per_minute=10_000,
        )
        app, port = await _serve(create_app(settings))
        try:
            client = AsyncOpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key=KEY)
            results = await asyncio.gather(*(_call(client, i, turns) for i in range(calls)))
            await client.close()
        finally:
            await app.cleanup()
            await crm.cleanup()
    # A conversation's first request also finds the caller (by-phone) and reads the
    # profile before its turn: reported apart from the turns after it.
    opening = [timings[0] for timings in results]
    later = [timing for timings in results for timing in timings[1:]]
    summary: dict[str, Any] = {"requests": calls * turns, "crm_latency_ms": crm_latency_ms}
    for name, timings in (("first_turn", opening), ("later_turns", later)):
        if timings:
            summary[f"{name}_first_content_ms_p50"] = _ms(t[0] for t in timings)
            summary[f"{name}_answer_done_ms_p50"] = _ms(t[1] for t in timings)
    return summary


def _ms(values: Any) -> float:
    return round(statistics.median(values) * 1000, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--turns", type=int, default=4)
    parser.add_argument("--crm-latency-ms", type=float, default=150.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(run(args.calls, args.turns, args.crm_latency_ms))
    if args.json:
        print(json.dumps(result))
    else:
        for name, value in result.items():
            print(f"{name:24} {value}")


if __name__ == "__main__":
    main()
