"""Make the shipped recordings: real conversations through the websocket.

Each scenario starts a fresh CRM stub (in memory, seeded for today) and the real
assistant app (embedded models, the CRM over HTTP) with recording on, both on free
ports in this process; injects the scenario's CRM faults; talks to the assistant
through `/v1/ws` like any client; and keeps the session's recording as
tests/recordings/<scenario>.jsonl. Replay fixes the clock to the recorded one, so
these files replay the same on any later day.

    .venv/bin/python tests/recordings/make_recordings.py            # every scenario
    .venv/bin/python tests/recordings/make_recordings.py seed_example cancelled_turn
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from assistant.app import create_app
from assistant.auth import mint_token
from assistant.settings import load_settings
from crm_stub.app import create_app as create_crm_app

HERE = Path(__file__).resolve().parent
SECRET = "recordings-secret-0123456789abcdef"
# A token of its own: the assistant refuses the development default for a CRM it is given.
CRM_TOKEN = "recordings-crm-token"
EVENT_TIMEOUT_S = 15.0


@dataclass(frozen=True, slots=True)
class Scenario:
    name: str
    messages: list[str]
    # Bodies for the stub's POST /admin/faults, injected before the session opens.
    faults: list[dict[str, Any]] = field(default_factory=list)
    # Indexes of messages whose turn is cancelled (turn.cancel) once a tool started.
    cancel: frozenset[int] = frozenset()
    customer: str = "cust_001"


BILLING = "/v1/customers/*/invoices"
TASKS = "/v1/customers/*/tasks"

SCENARIOS = [
    Scenario("seed_example", ["Show me my appointments and my billing"]),
    Scenario("two_intents", ["What's my next appointment and do I have any open tickets?"]),
    Scenario("two_intents_tasks_balance", ["Show my tasks and my balance"]),
    Scenario("three_intents", ["Show me my appointments, my tasks and my open tickets"]),
    Scenario(
        "four_intents_at_cap",
        ["Give me everything: appointments, invoices, tasks and tickets"],
    ),
    Scenario(
        "five_intents_past_cap",
        ["Give me everything: my profile, appointments, invoices, tasks and tickets"],
    ),
    Scenario(
        "partial_failure_billing_down",
        ["Show me my appointments and my billing"],
        faults=[{"method": "GET", "path": BILLING, "status": 503}],
    ),
    Scenario("chain_complete_task", ["Complete the grocery task", "What tasks do I have?"]),
    Scenario("chain_rename_task", ["Rename the grocery task to Buy groceries and milk"]),
    Scenario("delete_task_confirmed", ["Delete the grocery task", "yes"]),
    Scenario("delete_task_declined", ["Delete the grocery task", "no"]),
    Scenario("book_appointment", ["Book a haircut for next Tuesday at 3pm"]),
    Scenario("reschedule_next_appointment", ["Move my next appointment to Friday at 10am"]),
    Scenario("cancel_next_appointment_confirmed", ["Cancel my next appointment", "yes"]),
    Scenario(
        "cancelled_turn",
        ["What tasks do I have?", "How much do I owe?"],
        faults=[{"method": "GET", "path": TASKS, "latency_ms": 2000, "times": 1}],
        cancel=frozenset({0}),
    ),
    Scenario("out_of_scope", ["What's the weather like tomorrow?", "Tell me a joke"]),
    Scenario("task_summary", ["How am I doing on my tasks?"]),
    Scenario("next_appointment_follow_up", ["What's my next appointment?", "Thanks, that's all"]),
]


@asynccontextmanager
async def serving(app: web.Application) -> AsyncIterator[str]:
    """`app` on a free local port; its base URL."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    try:
        yield f"http://{host}:{port}"
    finally:
        await runner.cleanup()


async def converse(ws: aiohttp.ClientWebSocketResponse, scenario: Scenario) -> list[str]:
    """Say each message, wait for its turn.done; a readable transcript."""
    transcript: list[str] = []
    for index, text in enumerate(scenario.messages):
        await ws.send_json({"type": "user.message", "id": f"m{index + 1}", "text": text})
        transcript.append(f"  > {text}")
        while True:
            event = await ws.receive_json(timeout=EVENT_TIMEOUT_S)
            kind = event["type"]
            if kind == "tool.started" and index in scenario.cancel:
                await ws.send_json({"type": "turn.cancel"})
            if kind == "ack.done":
                transcript.append(f"  < (ack) {event['text']}")
            elif kind == "tool.finished":
                error = (event.get("error") or {}).get("code", "")
                transcript.append(f"    [{event['tool']}: {event['status']} {error}]".rstrip())
            elif kind == "answer.done":
                transcript.append(f"  < {event['text']}")
            elif kind == "error":
                transcript.append(f"  ! {event['code']}: {event['message']}")
            elif kind == "turn.done":
                transcript.append(f"    (turn {event['status']})")
                break
    return transcript


async def record(scenario: Scenario, out: Path) -> list[str]:
    """Run one scenario; its recording is written to out/<name>.jsonl."""
    with tempfile.TemporaryDirectory() as scratch:
        crm_app = create_crm_app(token=CRM_TOKEN, today=dt.date.today())
        async with serving(crm_app) as crm_url, aiohttp.ClientSession() as http:
            admin = {"Authorization": f"Bearer {CRM_TOKEN}"}
            for fault in scenario.faults:
                async with http.post(f"{crm_url}/admin/faults", json=fault, headers=admin) as r:
                    assert r.status == 201, await r.text()
            settings = load_settings(
                secret=SECRET,
                crm_url=crm_url,
                crm_token=CRM_TOKEN,
                record_dir=scratch,
                backend="embedded",
            )
            async with serving(create_app(settings)) as url:
                token = mint_token(SECRET, scenario.customer, 600)
                headers = {"Authorization": f"Bearer {token}"}
                async with http.ws_connect(f"{url}/v1/ws", headers=headers) as ws:
                    ready = await ws.receive_json(timeout=EVENT_TIMEOUT_S)
                    assert ready["type"] == "session.ready", ready
                    transcript = await converse(ws, scenario)
        keep(Path(scratch), out / f"{scenario.name}.jsonl", token)
    return transcript


def keep(scratch: Path, target: Path, token: str) -> None:
    """Move the session's one recording to `target`, checking it holds no token."""
    (made,) = scratch.glob("*.jsonl")
    # The token signs the session; a recording must never hold it.
    assert token not in made.read_text(), f"{made} holds the session token"
    shutil.move(made, target)


async def record_all(scenarios: list[Scenario], out: Path) -> None:
    for scenario in scenarios:
        transcript = await record(scenario, out)
        print(f"{scenario.name}:")
        print("\n".join(transcript))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="scenarios to record (default: all)")
    parser.add_argument("--out", default=str(HERE), help="where the recordings go")
    args = parser.parse_args(argv)
    chosen = [s for s in SCENARIOS if not args.names or s.name in args.names]
    unknown = set(args.names) - {s.name for s in SCENARIOS}
    if unknown:
        print(f"unknown scenarios: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    asyncio.run(record_all(chosen, out))
    print(json.dumps({"recorded": [s.name for s in chosen], "into": str(out)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
