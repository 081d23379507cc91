"""Server CPU per turn, to the microsecond: the whole app in this process, nothing else.

    python -m bench.sessions [--sessions 30] [--turns 20] [--crm-latency-ms 5]
                             [--redis-url URL] [--profile FILE] [--json]
                             [--models embedded|remembered]

The app (embedded models, the engine, the websocket, the CRM client) is served on this
process's event loop, tuned as `assistant serve` tunes its workers. The CRM stub runs in
a process of its own, and so do the websocket clients: the CPU this process spends
while they talk to it is the server's alone, the number a change in the house should
move. Quieter than `bench.load` (no scheduler between two servers), so it is the one
to compare two versions of the code with; `bench.load` is the one that says how the
service compares with a minimal server.

`--target both` also serves bench/minimal_server.py the same way, every session saying
the one turn it does, and prints the ratio of the two CPU figures.

`--models remembered` decides and narrates each distinct request once and replays the
answers after (bench/remembered.py): the house's own CPU per turn, without the embedded
models' (which a model endpoint spends elsewhere).

`--profile FILE` writes a cProfile of the timed turns (`python -m pstats FILE`);
`--redis-url` keeps the sessions and the budgets in that Redis, as a deployment does.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import multiprocessing
import os
import socket
import subprocess
import sys
import time
from collections import Counter
from multiprocessing.connection import Connection
from typing import Any

import aiohttp
from aiohttp import web

from assistant.app import create_app
from assistant.auth import mint_token
from assistant.memory import settle_after_start
from assistant.settings import load_settings
from bench import minimal_server
from bench.remembered import RememberedNarrator, RememberedPlanner

SECRET = "b" * 32
CRM_TOKEN = "bench-crm-token"
# Reads only, so every run sees the same data: one, two and three lookups per turn.
UTTERANCES = (
    "what's my next appointment",
    "show me my tasks and my balance",
    "what do I owe, my upcoming appointments and my open tasks",
    "when is my next appointment and do I have any open invoices",
)
# The turn bench/minimal_server.py does, for `--target both` (the same as bench/load.py's).
SAME_TURN = "Show me my appointments and my billing"


async def _client(url: str, token: str, turns: int, texts: tuple[str, ...]) -> list[str]:
    statuses = []
    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(url, headers={"Authorization": f"Bearer {token}"}) as ws,
    ):
        ready = await ws.receive_json()
        assert ready["type"] == "session.ready", ready
        for i in range(turns):
            while True:  # a worker with too many turns in flight answers `busy`: wait, again
                text = texts[i % len(texts)]
                await ws.send_json({"type": "user.message", "text": text})
                event = await ws.receive_json(timeout=30)
                while event["type"] not in ("turn.done", "error"):
                    event = await ws.receive_json(timeout=30)
                if event["type"] == "turn.done":
                    statuses.append(event["status"])
                    break
                if event.get("code") != "busy":
                    raise RuntimeError(f"the server answered an error: {event}")
                statuses.append("busy")
                await asyncio.sleep(float(event.get("retry_after_s") or 0.1))
    return statuses


async def _load(
    url: str, secret: str, sessions: int, turns: int, texts: tuple[str, ...]
) -> list[str]:
    tokens = [mint_token(secret, f"cust_{i % 20 + 1:03d}") for i in range(sessions)]
    runs = await asyncio.gather(*(_client(url, token, turns, texts) for token in tokens))
    return [status for statuses in runs for status in statuses]


def _clients(
    url: str, secret: str, sessions: int, turns: int, texts: tuple[str, ...], pipe: Connection
) -> None:
    """The client process: a warm-up, then the timed sessions, each told to the server."""
    try:
        asyncio.run(_load(url, secret, 2, 2, texts))
        pipe.send("start")
        pipe.recv()  # the server has read its clock
        pipe.send(asyncio.run(_load(url, secret, sessions, turns, texts)))
    except Exception as exc:  # told to the server, which would otherwise wait forever
        pipe.send(f"the clients failed: {exc!r}")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _start_stub(latency_ms: float) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    command = [sys.executable, "-m", "crm_stub", "serve", "--port", str(port), "--db", ":memory:"]
    command += ["--latency-ms", str(latency_ms), "--token", CRM_TOKEN]
    stub = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return stub, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.05)
    stub.kill()
    raise SystemExit(f"the CRM stub did not start on port {port}")


async def _serve_and_measure(
    settings: Any,
    sessions: int,
    turns: int,
    profile: str | None,
    minimal: bool,
    texts: tuple[str, ...],
    remembered: bool,
) -> dict[str, Any]:
    if minimal:
        app = minimal_server.create_app(SECRET, settings.crm_url, CRM_TOKEN)
    elif remembered:
        from assistant.models.embedded import EmbeddedNarrator, EmbeddedPlanner

        planner = RememberedPlanner(EmbeddedPlanner())
        app = create_app(settings, planner=planner, narrator=RememberedNarrator(EmbeddedNarrator()))
    else:
        app = create_app(settings)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    settle_after_start()  # as `assistant serve` does once its worker is up
    url = f"http://127.0.0.1:{runner.addresses[0][1]}/v1/ws"
    here, there = multiprocessing.Pipe()
    secret = settings.signing_secret(for_server=True)
    clients = multiprocessing.get_context("spawn").Process(
        target=_clients, args=(url, secret, sessions, turns, texts, there), daemon=True
    )
    clients.start()
    there.close()  # the child's end: if the child dies, reading here ends instead of waiting
    loop = asyncio.get_running_loop()

    def told() -> Any:
        try:
            return here.recv()
        except EOFError:
            clients.join(timeout=5)
            return f"the client process ended without a word (exit code {clients.exitcode})"

    try:
        started = await loop.run_in_executor(None, told)
        if started != "start":
            raise SystemExit(started)
        profiler = cProfile.Profile() if profile else None
        cpu, wall = time.process_time(), time.perf_counter()
        if profiler is not None:
            profiler.enable()
        here.send("go")
        statuses = await loop.run_in_executor(None, told)
        if isinstance(statuses, str):
            raise SystemExit(statuses)
        if profiler is not None and profile:
            profiler.disable()
            profiler.dump_stats(profile)
        # The executor thread only waited on the pipe: the CPU is the server's.
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    finally:
        clients.join(timeout=10)
        await runner.cleanup()
    done = sum(1 for status in statuses if status != "busy")
    return {
        "sessions": sessions,
        "turns": done,
        "statuses": dict(Counter(statuses)),
        "server_cpu_s": round(cpu, 3),
        "server_cpu_ms_per_turn": round(1000 * cpu / max(1, done), 3),
        "wall_s": round(wall, 2),
    }


def run(
    sessions: int,
    turns: int,
    *,
    crm_latency_ms: float = 5.0,
    redis_url: str | None = None,
    profile: str | None = None,
    minimal: bool = False,
    texts: tuple[str, ...] = UTTERANCES,
    remembered: bool = False,
) -> dict[str, Any]:
    stub, crm_url = _start_stub(crm_latency_ms)
    try:
        settings = load_settings(
            secret=SECRET,
            crm_url=crm_url,
            crm_token=CRM_TOKEN,
            redis_url=redis_url or "",
            log_level="WARNING",
            session_messages_per_minute=100_000,
            customer_messages_per_minute=100_000,
            max_connections_per_address=100_000,
            max_sessions_per_customer=100_000,
        )
        report = asyncio.run(
            _serve_and_measure(settings, sessions, turns, profile, minimal, texts, remembered)
        )
    finally:
        stub.terminate()
        stub.wait(timeout=10)
    return {
        "target": "minimal" if minimal else "assistant",
        "models": None if minimal else ("remembered" if remembered else "embedded"),
        "crm_latency_ms": crm_latency_ms,
        "redis": bool(redis_url),
        **report,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--crm-latency-ms", type=float, default=5.0)
    parser.add_argument("--redis-url", default=os.environ.get("ASSISTANT_REDIS_URL"))
    parser.add_argument("--profile", metavar="FILE", help="write a cProfile of the timed turns")
    parser.add_argument(
        "--target",
        choices=["assistant", "minimal", "both"],
        default="assistant",
        help="minimal: bench/minimal_server.py's turn served the same way, the yardstick",
    )
    parser.add_argument(
        "--models",
        choices=["embedded", "remembered"],
        default="embedded",
        help="remembered: each distinct request decided and narrated once, then replayed",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    targets = ["assistant", "minimal"] if args.target == "both" else [args.target]
    # Beside the minimal server, every turn is the one it does (appointments and billing).
    texts = UTTERANCES if args.target == "assistant" else (SAME_TURN,)
    reports = [
        run(
            args.sessions,
            args.turns,
            crm_latency_ms=args.crm_latency_ms,
            redis_url=args.redis_url,
            profile=args.profile,
            minimal=target == "minimal",
            texts=texts,
            remembered=args.models == "remembered",
        )
        for target in targets
    ]
    if args.json:
        print(json.dumps(reports[0] if len(reports) == 1 else reports))
        return
    for report in reports:
        print(
            f"{report['target']}: {report['turns']} turns over {report['sessions']} websocket "
            f"sessions in {report['wall_s']} s: server CPU {report['server_cpu_ms_per_turn']} ms "
            f"per turn (turns by status: {report['statuses']}; CRM at "
            f"{report['crm_latency_ms']} ms{', sessions in Redis' if report['redis'] else ''})"
        )
    if len(reports) == 2:
        ratio = reports[0]["server_cpu_ms_per_turn"] / reports[1]["server_cpu_ms_per_turn"]
        print(f"CPU ratio (assistant / minimal): {ratio:.2f}")


if __name__ == "__main__":
    main()
