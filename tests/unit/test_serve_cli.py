"""`assistant serve`'s own messages: a port in use, the banner, and --help."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ASSISTANT = [sys.executable, "-m", "assistant"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield int(holder.getsockname()[1])


def serve(*args: str) -> list[str]:
    return [*ASSISTANT, "serve", "--demo", "--crm-port", str(free_port()), *args]


def test_port_in_use_is_one_line_without_traceback(busy_port: int, tmp_path: Path) -> None:
    """A busy port stops `serve` with one line naming the port and --port; no banner."""
    env = {**os.environ, "ASSISTANT_CRM_DB": str(tmp_path / "crm.db")}
    done = subprocess.run(
        serve("--port", str(busy_port)),
        capture_output=True,
        text=True,
        timeout=30,
        cwd=ROOT,
        env=env,
    )
    assert done.returncode == 2
    errors = [line for line in done.stderr.splitlines() if not line.startswith("{")]
    assert errors == [
        f"error: port {busy_port} on 127.0.0.1 is already in use (another assistant?); "
        "stop that process or pick another port with --port"
    ]
    assert "Assistant on" not in done.stdout


def test_banner_comes_once_the_port_is_bound(tmp_path: Path) -> None:
    """The banner names http:// and ws:// URLs, and the port answers when it is printed."""
    port = free_port()
    env = {**os.environ, "ASSISTANT_CRM_DB": str(tmp_path / "crm.db")}
    with subprocess.Popen(
        serve("--port", str(port)),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env=env,
    ) as process:
        try:
            assert process.stdout is not None
            banner = process.stdout.readline()
            assert banner.startswith(f"Assistant on http://127.0.0.1:{port}/ ")
            assert f"ws://127.0.0.1:{port}/v1/ws" in banner
            with socket.create_connection(("127.0.0.1", port), timeout=5):
                pass  # bound and listening before the banner
        finally:
            process.terminate()
            process.wait(timeout=15)


def test_serve_help_lists_every_option_the_readme_shows() -> None:
    """Every option of the README's `assistant serve` usage is in `serve --help`."""
    readme = (ROOT / "README.md").read_text()
    usage = readme.split("assistant serve [", 1)[1].split("\nassistant token", 1)[0]
    shown = set(re.findall(r"--[a-z][a-z-]*", usage))
    assert {"--config", "--port", "--crm-url"} <= shown
    done = subprocess.run(
        [*ASSISTANT, "serve", "--help"], capture_output=True, text=True, timeout=30, cwd=ROOT
    )
    listed = set(re.findall(r"--[a-z][a-z-]*", done.stdout))
    assert shown <= listed, shown - listed
