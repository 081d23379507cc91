"""`assistant serve --workers 2`: two processes on one port, one CRM stub for both,
stopped together by one signal. Run as a user would, as a real command."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from pathlib import Path

import aiohttp
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _answering(
    url: str, process: asyncio.subprocess.Process | None = None, timeout_s: float = 60.0
) -> None:
    """Until `url` answers 200; a generous bound, since two workers and a stub start on a
    machine that may be busy (a slow start is not what is tested)."""
    deadline = asyncio.get_running_loop().time() + timeout_s
    async with aiohttp.ClientSession() as http:
        while True:
            try:
                async with http.get(url) as response:
                    if response.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            if process is not None and process.returncode is not None:
                said = await process.stdout.read() if process.stdout else b""
                raise AssertionError(f"the server exited ({process.returncode}): {said!r}")
            assert asyncio.get_running_loop().time() < deadline, f"{url} never answered"
            await asyncio.sleep(0.1)


@pytest.mark.timeout(150)
async def test_two_workers_share_one_port_and_one_crm_stub(tmp_path: Path) -> None:
    """New connections land on both workers; the stub started once; SIGTERM stops all."""
    port, crm_port = _free_port(), _free_port()
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "assistant",
        "serve",
        "--demo",
        "--workers",
        "2",
        "--port",
        str(port),
        "--crm-port",
        str(crm_port),
        cwd=ROOT,
        env={**os.environ, "ASSISTANT_CRM_DB": str(tmp_path / "crm.db")},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        await _answering(f"http://127.0.0.1:{port}/healthz", process)
        pids = set()
        connector = aiohttp.TCPConnector(force_close=True)  # a new connection each time
        # The second worker may still be starting when the first answers: keep asking
        # (each request a new connection) until both have answered, within the timeout.
        deadline = asyncio.get_running_loop().time() + 45
        async with aiohttp.ClientSession(connector=connector) as http:
            while len(pids) < 2 and asyncio.get_running_loop().time() < deadline:
                async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                    pids.add((await response.json())["pid"])
                await asyncio.sleep(0.02)
        assert len(pids) == 2, f"every connection went to one worker: {pids}"
        assert process.pid not in pids  # the supervisor serves nothing itself
    finally:
        process.send_signal(signal.SIGTERM)
        output, _ = await asyncio.wait_for(process.communicate(), 30)
        print(output.decode())  # what the command said, shown when the test fails
    text = output.decode()
    assert process.returncode == 0, text
    assert text.count("CRM stub on") == 1, text
    assert "Assistant worker 1/2" in text and "Assistant worker 2/2" in text
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
