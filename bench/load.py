"""Load from outside: N websocket sessions from client processes against the service.

    python -m bench.load [--sessions 200] [--workers 1] [--crm-latency-ms 50]
                         [--duration-s 20] [--interval-s 5] [--clients 2]
                         [--target assistant|minimal|both] [--json]

A CRM stub runs in a process of its own at a set latency; the server under test is
`assistant serve --workers W` (embedded models) or `bench/minimal_server.py`, the
least server that does the same turn. Client processes open every session, wait (idle
memory is read then), then each session says "Show me my appointments and my billing"
about every `interval_s` seconds for `duration_s`. Printed, as JSON per target: p50/p99
time to the acknowledgement and to turn.done, turns per second, the server's CPU per
turn (its processes' user + system time over the run, from /proc) and KiB per idle
session; with `--target both` also the assistant/minimal CPU ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

from assistant.auth import mint_token

SECRET = "bench-secret-" + "x" * 32
CRM_TOKEN = "bench-crm-token"
TEXT = "Show me my appointments and my billing"
_TICKS = os.sysconf("SC_CLK_TCK")
_PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_port(port: int, timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port}")


def _tree(pid: int) -> list[int]:
    """`pid` and its descendants (the supervisor and its workers)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(parents.get(current, []))
    return found


def _cpu_s(pid: int) -> float:
    total = 0
    for member in _tree(pid):
        try:
            fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime + stime, in ticks
    return total / _TICKS


def _rss_kib(pid: int) -> int:
    total = 0
    for member in _tree(pid):
        try:
            total += int(Path(f"/proc/{member}/statm").read_text().split()[1]) * _PAGE_KIB
        except OSError:
            continue
    return total


# --- the clients (each a process of its own) -------------------------------------------


async def _session(
    url: str,
    customer: str,
    start: asyncio.Event,
    stop_at: list[float],
    out: dict[str, list[float]],
    interval_s: float,
    opened: asyncio.Queue[None],
) -> None:
    headers = {"Authorization": f"Bearer {mint_token(SECRET, customer, 3600)}"}
    async with aiohttp.ClientSession() as http:
        # A saturated server answers 503 with Retry-After: tried again, as a client would.
        for _ in range(5):
            try:
                ws = await http.ws_connect(url, headers=headers)
                break
            except aiohttp.WSServerHandshakeError as exc:
                retry_after = exc.headers.get("Retry-After", "1") if exc.headers else "1"
                await asyncio.sleep(min(1.0, float(retry_after)))
        else:
            out["refused_open"].append(1)
            opened.put_nowait(None)
            return
        async with ws:
            await _talk(ws, start, stop_at, out, interval_s, opened)


async def _talk(
    ws: aiohttp.ClientWebSocketResponse,
    start: asyncio.Event,
    stop_at: list[float],
    out: dict[str, list[float]],
    interval_s: float,
    opened: asyncio.Queue[None],
) -> None:
    """The session once open: messages every `interval_s` until the run ends."""
    await ws.receive_json()  # session.ready
    opened.put_nowait(None)
    await start.wait()
    rng = random.Random()
    await asyncio.sleep(rng.uniform(0, interval_s))
    while time.monotonic() < stop_at[0]:
        sent = time.monotonic()
        await ws.send_json({"type": "user.message", "text": TEXT})
        acked = None
        while True:
            # Only the frames timed are decoded: the load generator's own CPU per turn
            # limits the load a small machine can offer.
            frame = await ws.receive_str(timeout=60)
            kind = frame[:24]  # the type comes first, with or without a space after ':'
            if acked is None and '"ack.delta"' in kind:
                acked = time.monotonic() - sent
                continue
            if '"turn.done"' not in kind and '"error"' not in kind:
                continue
            event = json.loads(frame)
            if event["type"] == "error" and event.get("code") == "busy":
                out["refused"].append(1)
                break
            if event["type"] == "error" and not event.get("turn_id"):
                out["failed"].append(1)  # refused otherwise (a limit): no turn.done follows
                break
            if event["type"] == "turn.done":
                out["turn"].append(time.monotonic() - sent)
                out["ack"].append(acked if acked is not None else out["turn"][-1])
                if event["status"] not in ("ok", "partial"):
                    out["failed"].append(1)
                break
        await asyncio.sleep(
            max(0.0, interval_s * rng.uniform(0.8, 1.2) - (time.monotonic() - sent))
        )


def _client(
    url: str,
    customers: list[str],
    interval_s: float,
    duration_s: float,
    ready: Any,
    go: Any,
    results: Any,
    cpus: set[int] | None = None,
) -> None:
    if cpus:
        os.sched_setaffinity(0, cpus)

    async def run() -> None:
        start = asyncio.Event()
        stop_at = [0.0]
        out: dict[str, list[float]] = {
            "ack": [],
            "turn": [],
            "refused": [],
            "failed": [],
            "refused_open": [],
        }
        opened: asyncio.Queue[None] = asyncio.Queue()
        tasks = [
            asyncio.create_task(_session(url, c, start, stop_at, out, interval_s, opened))
            for c in customers
        ]
        for _ in customers:
            await opened.get()
        ready.release()
        await asyncio.get_running_loop().run_in_executor(None, go.wait)
        stop_at[0] = time.monotonic() + duration_s
        start.set()
        await asyncio.wait(tasks, timeout=duration_s + 90)
        results.put(out)

    asyncio.run(run())


# --- one run ---------------------------------------------------------------------------


def _split_cpus(server_processes: int, pin: bool) -> tuple[set[int] | None, set[int] | None]:
    """With `pin`, the server's processes get cores of their own and the load generator
    and the stub the rest (so that the server, not the machine, is what saturates);
    without it, or with too few cores, everything shares every core."""
    cpus = sorted(os.sched_getaffinity(0))
    if not pin or len(cpus) <= server_processes:
        return None, None
    return set(cpus[:server_processes]), set(cpus[server_processes:])


def _pinned(cpus: set[int] | None) -> Any:
    if not cpus:
        return None
    return lambda: os.sched_setaffinity(0, cpus)


def run(
    target: str,
    sessions: int,
    workers: int,
    crm_latency_ms: float,
    duration_s: float,
    interval_s: float,
    clients: int,
    *,
    pin: bool = False,
) -> dict[str, Any]:
    crm_port, port = _free_port(), _free_port()
    server_cpus, other_cpus = _split_cpus(workers if target == "assistant" else 1, pin)
    stub = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "crm_stub",
            "serve",
            "--port",
            str(crm_port),
            "--db",
            ":memory:",
            "--latency-ms",
            str(crm_latency_ms),
            "--token",
            CRM_TOKEN,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=_pinned(other_cpus),
    )
    crm_url = f"http://127.0.0.1:{crm_port}"
    if target == "minimal":
        command = [
            sys.executable,
            "-m",
            "bench.minimal_server",
            "--port",
            str(port),
            "--crm-url",
            crm_url,
            "--crm-token",
            CRM_TOKEN,
            "--secret",
            SECRET,
        ]
    else:
        command = [
            sys.executable,
            "-m",
            "assistant",
            "serve",
            "--port",
            str(port),
            "--crm-url",
            crm_url,
            "--workers",
            str(workers),
        ]
    env = {
        **os.environ,
        "ASSISTANT_SECRET": SECRET,
        "ASSISTANT_CRM_TOKEN": CRM_TOKEN,
        "ASSISTANT_LOG_LEVEL": "WARNING",
        "ASSISTANT_MAX_SESSIONS_PER_CUSTOMER": "100000",
        "ASSISTANT_MAX_CONNECTIONS_PER_ADDRESS": "100000",
        # Per worker; every session here is one connection (the default is 1,000).
        "ASSISTANT_MAX_CONNECTIONS": str(max(1000, sessions)),
        "ASSISTANT_CUSTOMER_MESSAGES_PER_MINUTE": "100000",
    }
    server = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, preexec_fn=_pinned(server_cpus)
    )
    try:
        _wait_port(crm_port)
        _wait_port(port)
        time.sleep(1.0)
        baseline_kib = _rss_kib(server.pid)
        ctx = mp.get_context("spawn")
        ready, go, results = ctx.Semaphore(0), ctx.Event(), ctx.Queue()
        customers = [f"cust_{(n % 20) + 1:03d}" for n in range(sessions)]
        shares = [customers[i::clients] for i in range(clients)]
        procs = [
            ctx.Process(
                target=_client,
                args=(
                    f"ws://127.0.0.1:{port}/v1/ws",
                    share,
                    interval_s,
                    duration_s,
                    ready,
                    go,
                    results,
                    other_cpus,
                ),
            )
            for share in shares
            if share
        ]
        for proc in procs:
            proc.start()
        for _ in procs:
            ready.acquire()
        time.sleep(1.0)
        idle_kib = _rss_kib(server.pid)
        # What every open session costs while nobody speaks (timers, heartbeats, watchers).
        idle_cpu, idle_started = _cpu_s(server.pid), time.monotonic()
        time.sleep(2.0)
        idle_cpu = (_cpu_s(server.pid) - idle_cpu) / (time.monotonic() - idle_started)
        cpu_before, started = _cpu_s(server.pid), time.monotonic()
        go.set()
        outs = [results.get(timeout=duration_s + 120) for _ in procs]
        elapsed, cpu = time.monotonic() - started, _cpu_s(server.pid) - cpu_before
        for proc in procs:
            proc.join(timeout=10)
    finally:
        server.terminate()
        server.wait(timeout=30)
        stub.terminate()
        stub.wait(timeout=10)
    acks = sorted(x for out in outs for x in out["ack"])
    turns = sorted(x for out in outs for x in out["turn"])

    def pct(values: list[float], p: float) -> float:
        return (
            round(values[min(len(values) - 1, int(p * len(values)))] * 1000, 1) if values else 0.0
        )

    return {
        "target": target,
        "workers": workers if target == "assistant" else 1,
        "sessions": sessions,
        "crm_latency_ms": crm_latency_ms,
        "turns": len(turns),
        "turns_per_s": round(len(turns) / elapsed, 1),
        "ack_p50_ms": pct(acks, 0.5),
        "ack_p99_ms": pct(acks, 0.99),
        "turn_p50_ms": round(statistics.median(turns) * 1000, 1) if turns else 0.0,
        "turn_p99_ms": pct(turns, 0.99),
        "refused_busy": sum(len(out["refused"]) for out in outs),
        "failed": sum(len(out["failed"]) for out in outs),
        "sessions_refused": sum(len(out["refused_open"]) for out in outs),
        "cpu_ms_per_turn": round(cpu / max(1, len(turns)) * 1000, 2),
        "kib_per_idle_session": round((idle_kib - baseline_kib) / sessions, 1),
        "idle_cpu_pct": round(100 * idle_cpu, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="Websocket load against the service.")
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--crm-latency-ms", type=float, default=50)
    parser.add_argument("--duration-s", type=float, default=20)
    parser.add_argument("--interval-s", type=float, default=5)
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--target", choices=["assistant", "minimal", "both"], default="both")
    parser.add_argument(
        "--pin",
        action="store_true",
        help="server processes on cores of their own, load generator and stub on the rest",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    targets = ["assistant", "minimal"] if args.target == "both" else [args.target]
    figures = {
        target: run(
            target,
            args.sessions,
            args.workers,
            args.crm_latency_ms,
            args.duration_s,
            args.interval_s,
            args.clients,
            pin=args.pin,
        )
        for target in targets
    }
    if len(figures) == 2:
        figures["cpu_ratio"] = round(
            figures["assistant"]["cpu_ms_per_turn"]
            / max(0.01, figures["minimal"]["cpu_ms_per_turn"]),
            2,
        )
    print(json.dumps(figures) if args.json else json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
