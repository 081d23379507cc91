"""Outside demo mode the CRM's development token is never used: the service refuses to
start with it, and the in-process CRM stub gets a random token of its own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import aiohttp
from aiohttp.test_utils import unused_port

from assistant.schema import FinalDecision
from tests.fakes import EchoNarrator, ScriptedPlanner
from tests.fixtures.app import MakeAssistant

SECRET = "s" * 32


def test_serve_refuses_the_development_crm_token_outside_demo_mode() -> None:
    """`assistant serve` with an external CRM and 'dev-crm-token' exits naming the setting."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("ASSISTANT_")}
    env["ASSISTANT_SECRET"] = SECRET
    finished = subprocess.run(
        [sys.executable, "-m", "assistant", "serve", "--crm-url", "http://127.0.0.1:9"],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert finished.returncode == 2, finished.stderr
    assert "ASSISTANT_CRM_TOKEN" in finished.stderr
    assert "Assistant on" not in finished.stdout  # it never started listening


async def test_the_in_process_stub_refuses_the_development_token(
    make_assistant: MakeAssistant, tmp_path: Path
) -> None:
    """Without a CRM URL outside demo mode, the stub works for the service but not for dev."""
    crm_port = unused_port()
    planner = ScriptedPlanner(FinalDecision(text="Hi."))
    assistant = await make_assistant(
        planner=planner,
        narrator=EchoNarrator(),
        demo=False,
        crm_url="",
        crm_port=crm_port,
        crm_db=str(tmp_path / "crm.db"),
    )
    chat = await assistant.connect("cust_001")
    await chat.say("hi")
    customer = planner.requests[0].customer
    assert customer is not None and customer.timezone_known  # the service's token works
    async with (
        aiohttp.ClientSession() as http,
        http.get(
            f"http://127.0.0.1:{crm_port}/v1/customers/cust_001",
            headers={"Authorization": "Bearer dev-crm-token"},
        ) as response,
    ):
        assert response.status == 401
