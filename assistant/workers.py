"""`assistant serve --workers N`: N processes, each its own event loop, on one port.

The supervisor (this module, in the process the command started) does three things:

1. When no CRM URL is configured, it starts the CRM stub once, as a process of its own
   (`crm-stub serve`), with a service token made for this run, so every worker talks to
   the same CRM and the same data;
2. it starts N workers: `assistant serve` again, each listening on the same port with
   SO_REUSEPORT, so the kernel spreads new connections over them. They start beside the
   stub, not after it listens: its URL and token are known before it runs, and a worker
   (which imports the whole app, about a second) listens well after the stub (a third of
   that). Should the stub not listen, the workers are stopped and the command fails;
3. it forwards SIGINT/SIGTERM to them (each winds its sessions down as a single server
   does) and exits when they have; when one worker dies, the others go on serving.

Shared state (message budgets, sessions) needs `ASSISTANT_REDIS_URL`: without it each
worker keeps its own, which the banner says.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from types import FrameType

from assistant.settings import Settings

# How long the stub may take to answer its health check at start.
_STUB_START_S = 15.0


def worker_count(value: str) -> int:
    """`--workers`: a positive number, or `auto` for one per core."""
    if value == "auto":
        return max(1, os.cpu_count() or 1)
    try:
        count = int(value)
    except ValueError:
        raise ValueError(f"--workers: expected a number or 'auto', got {value!r}") from None
    if count < 1:
        raise ValueError(f"--workers: expected at least 1, got {count}")
    return count


def _wait_for_port(
    host: str, port: int, process: subprocess.Popen[bytes], timeout_s: float
) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the CRM stub exited with status {process.returncode}")
        try:
            with socket.create_connection((host, port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"the CRM stub did not listen on {host}:{port} in {timeout_s:.0f} s")


def _start_stub(settings: Settings) -> tuple[subprocess.Popen[bytes], str, str]:
    """(process, url, token) of a CRM stub for every worker, started (it may not be
    listening yet: `_wait_for_port`)."""
    token = (
        secrets.token_urlsafe(24) if not settings.demo else settings.crm_token.get_secret_value()
    )
    db = settings.resolve(settings.crm_db)
    db.parent.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable,
        "-m",
        "crm_stub",
        "serve",
        "--host",
        settings.host,
        "--port",
        str(settings.crm_port),
        "--db",
        str(db),
        "--token",
        token,
    ]
    process = subprocess.Popen(command)
    return process, f"http://{settings.host}:{settings.crm_port}", token


def _stop(processes: Sequence[subprocess.Popen[bytes]], sig: int) -> None:
    for process in processes:
        if process.poll() is None:
            process.send_signal(sig)


def serve_workers(settings: Settings, count: int, argv: Sequence[str]) -> int:
    """Run `count` workers of `assistant serve` (with `argv`) until they all exit."""
    env = dict(os.environ)
    stub: subprocess.Popen[bytes] | None = None
    if not settings.crm_url:
        stub, url, token = _start_stub(settings)
        env["ASSISTANT_CRM_URL"] = url
        env["ASSISTANT_CRM_TOKEN"] = token
    if not settings.redis_url:
        print(
            f"note: {count} workers without ASSISTANT_REDIS_URL keep their own sessions and "
            "message budgets; set it to share them",
            file=sys.stderr,
        )
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "assistant", *argv, "--reuse-port"],
            env={**env, "ASSISTANT_WORKER": f"{index}/{count}"},
        )
        for index in range(1, count + 1)
    ]
    if stub is not None:
        try:
            _wait_for_port(settings.host, settings.crm_port, stub, _STUB_START_S)
        except BaseException:
            for process in (*workers, stub):
                if process.poll() is None:
                    process.terminate()
                process.wait(timeout=10)
            raise

    def forward(sig: int, _frame: FrameType | None) -> None:
        _stop(workers, sig)

    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        statuses = [worker.wait() for worker in workers]
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        _stop(workers, signal.SIGTERM)
        if stub is not None:
            stub.terminate()
            stub.wait(timeout=10)
    # A worker stopped by the forwarded signal exits cleanly; report any other failure.
    return max((status for status in statuses if status > 0), default=0)
