"""The deployment files describe a runnable system: the commands they run are commands
this package accepts, and the assistant shares state through the compose file's Redis."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from assistant.__main__ import _parser

ROOT = Path(__file__).resolve().parents[2]


def test_the_image_runs_serve_with_workers_on_every_address() -> None:
    """The Dockerfile's CMD is a serve command the CLI accepts, on 0.0.0.0, one worker per core."""
    cmd = re.search(r"^CMD (\[.*\])$", (ROOT / "Dockerfile").read_text(), re.M)
    assert cmd is not None
    argv = json.loads(cmd.group(1))
    assert argv[0] == "assistant"
    args = _parser().parse_args(argv[1:])
    assert (args.command, args.host, args.workers) == ("serve", "0.0.0.0", "auto")


def test_compose_runs_the_assistant_with_workers_redis_and_the_crm() -> None:
    """`docker compose up`: the assistant's workers share Redis and talk to the crm service."""
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    assistant = services["assistant"]
    env = assistant["environment"]
    assert env["ASSISTANT_REDIS_URL"].startswith("redis://redis:")
    assert env["ASSISTANT_CRM_URL"] == "http://crm:8081"
    assert set(assistant["depends_on"]) == {"redis", "crm"}
    args = _parser().parse_args(assistant["command"][1:])
    assert args.command == "serve" and args.workers == "${WORKERS:-2}"
    assert services["crm"]["command"][:2] == ["crm-stub", "serve"]
    assert "redis-server" in services["redis"]["command"]
