"""Server CPU per turn: many websocket sessions against the whole app and its CRM stub.

    python -m bench.sessions [--sessions 30] [--turns 20] [--json]

The app (embedded models, the in-process CRM stub over SQLite) is served on its own
thread's event loop; the clients run on another. CPU time is the server thread's own
(`time.thread_time`), so the clients' work is not counted: what is printed is the
server's CPU per turn (the planner, the engine, the CRM calls and the stub answering
them, the frames), the number a change in the house should move.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from assistant.app import create_app
from assistant.auth import mint_token
from assistant.settings import load_settings

SECRET = "b" * 32
# Reads only, so every run sees the same data: one, two and three lookups per turn.
UTTERANCES = (
    "what's my next appointment",
    "show me my tasks and my balance",
    "what do I owe, my upcoming appointments and my open tasks",
    "when is my next appointment and do I have any open invoices",
)


async def _client(url: str, token: str, turns: int) -> list[str]:
    statuses = []
    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(url, headers={"Authorization": f"Bearer {token}"}) as ws,
    ):
        ready = await ws.receive_json()
        assert ready["type"] == "session.ready", ready
        for i in range(turns):
            await ws.send_json({"type": "user.message", "text": UTTERANCES[i % len(UTTERANCES)]})
            while True:
                event = await ws.receive_json(timeout=30)
                if event["type"] == "turn.done":
                    statuses.append(event["status"])
                    break
    return statuses


async def _load(url: str, secret: str, sessions: int, turns: int) -> list[str]:
    tokens = [mint_token(secret, f"cust_{i % 20 + 1:03d}") for i in range(sessions)]
    runs = await asyncio.gather(*(_client(url, token, turns) for token in tokens))
    return [status for statuses in runs for status in statuses]


def run(sessions: int, turns: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        settings = load_settings(
            demo=True,
            secret=SECRET,
            crm_port=0,
            crm_db=str(Path(tmp) / "crm.db"),
            session_messages_per_minute=10_000,
            customer_messages_per_minute=10_000,
            max_connections_per_address=10_000,
            max_sessions_per_customer=10_000,
        )
        loop = asyncio.new_event_loop()
        runner = web.AppRunner(create_app(settings), access_log=None)
        loop.run_until_complete(runner.setup())
        site = web.TCPSite(runner, "127.0.0.1", 0)
        loop.run_until_complete(site.start())
        port = runner.addresses[0][1]
        url = f"http://127.0.0.1:{port}/v1/ws"
        secret = settings.signing_secret(for_server=True)
        result: dict[str, Any] = {}

        def clients() -> None:
            result["warm"] = asyncio.run(_load(url, secret, 2, 2))
            started = time.perf_counter()
            cpu_before = result["cpu_before"]()
            result["turns"] = asyncio.run(_load(url, secret, sessions, turns))
            result["cpu_s"] = result["cpu_before"]() - cpu_before
            result["wall_s"] = time.perf_counter() - started
            loop.call_soon_threadsafe(loop.stop)

        # The server thread's CPU clock, read from the client thread through the loop.
        server_cpu: list[float] = [0.0]

        def read_server_cpu() -> float:
            event = threading.Event()

            def sample() -> None:
                server_cpu[0] = time.thread_time()
                event.set()

            loop.call_soon_threadsafe(sample)
            event.wait()
            return server_cpu[0]

        result["cpu_before"] = read_server_cpu
        thread = threading.Thread(target=clients)
        thread.start()
        loop.run_forever()
        thread.join()
        loop.run_until_complete(runner.cleanup())
        loop.close()
    statuses: list[str] = result["turns"]
    turns_done = len(statuses)
    return {
        "sessions": sessions,
        "turns": turns_done,
        "statuses": dict(Counter(statuses)),
        "server_cpu_s": round(result["cpu_s"], 3),
        "server_cpu_ms_per_turn": round(1000 * result["cpu_s"] / max(1, turns_done), 2),
        "wall_s": round(result["wall_s"], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = run(args.sessions, args.turns)
    if args.json:
        print(json.dumps(report))
        return
    print(
        f"{report['turns']} turns over {report['sessions']} websocket sessions in "
        f"{report['wall_s']} s: server CPU {report['server_cpu_ms_per_turn']} ms per turn "
        f"(turns by status: {report['statuses']})"
    )


if __name__ == "__main__":
    main()
