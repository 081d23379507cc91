"""Recording a real websocket session: the app writes it, it replays, and holds no token."""

from __future__ import annotations

import asyncio
from pathlib import Path

from assistant.recording.format import read_recording
from assistant.recording.runner import replay_file
from assistant.settings import Settings
from assistant.tools.catalog import Catalog
from tests.fixtures.app import MakeAssistant


async def test_a_websocket_session_is_recorded_without_its_token_and_replays(
    make_assistant: MakeAssistant, tmp_path: Path, settings: Settings, catalog: Catalog
) -> None:
    """Embedded models, the CRM stub, the socket: one file, no token in it, replays clean."""
    assistant = await make_assistant(record_dir=str(tmp_path))
    token = assistant.token("cust_001")
    chat = await assistant.connect("cust_001", token=token)
    events = await chat.say("Show me my appointments and my billing", id="m1")
    assert events[-1]["type"] == "turn.done"
    await chat.say("Delete the grocery task", id="m2")
    await chat.say("no", id="m3")
    await chat.close()
    await assistant.client.close()  # the session's handler ends; the recording is closed

    (path,) = await asyncio.to_thread(lambda: list(tmp_path.glob("*.jsonl")))
    text = path.read_text()
    assert token not in text
    assert token.split(".")[2] not in text, "not even the token's signature"
    recording = read_recording(path)
    assert recording.header.customer is not None
    assert recording.header.customer.customer_id == "cust_001"
    sent = [event for turn in recording.turns() for event in turn.events]
    assert sent == [e for e in chat.events if e["type"] != "session.ready"]
    report = await replay_file(path, catalog=catalog, settings=settings)
    assert report.ok, report.render()
