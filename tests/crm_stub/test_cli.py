"""The `crm-stub serve` command starts a real server that answers /healthz."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from pathlib import Path

import aiohttp


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _start(db: Path) -> tuple[asyncio.subprocess.Process, int]:
    """`crm-stub serve` on a free port, once its /healthz answers. The port is free when it
    is picked, but another test's server may take it before the stub binds it (the suite's
    workers start many): a stub that says so is started again on another port."""
    crm_stub = Path(sys.executable).with_name("crm-stub")
    for _ in range(3):
        port = free_port()
        process = await asyncio.create_subprocess_exec(
            str(crm_stub), "serve", "--port", str(port), "--db", str(db), "--latency-ms", "1",
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
            env={**os.environ, "PYTHONWARNINGS": "error"},
        )  # fmt: skip
        async with aiohttp.ClientSession() as session:
            while process.returncode is None:
                try:
                    async with session.get(f"http://127.0.0.1:{port}/healthz") as response:
                        assert await response.json() == {"status": "ok"}
                        return process, port
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.05)
        assert process.stderr is not None
        said = (await process.stderr.read()).decode()
        assert "address already in use" in said, f"crm-stub exited before serving: {said}"
    raise AssertionError("every port picked was taken before the stub could bind it")


async def test_crm_stub_serve_answers_healthz_and_data(tmp_path: Path) -> None:
    """`crm-stub serve --port N --db FILE` serves the API, seeds the file, and stops on SIGTERM."""
    db = tmp_path / "var" / "crm.db"
    process, port = await _start(db)
    try:
        base = f"http://127.0.0.1:{port}"
        headers = {"Authorization": "Bearer dev-crm-token"}
        async with (
            aiohttp.ClientSession() as session,
            session.get(base + "/v1/customers/cust_001", headers=headers) as response,
        ):
            assert (await response.json())["name"] == "Maria Garcia"
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = await process.communicate()
    assert process.returncode == 0, stderr.decode()
    assert db.exists()
