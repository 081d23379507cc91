"""A platform conversation is recorded like any other, with the history it was rebuilt
from, and replays without a difference."""

from __future__ import annotations

import asyncio
from pathlib import Path

from assistant.recording.format import read_recording
from assistant.recording.runner import replay_file
from assistant.schema import AssistantTurn, UserTurn
from assistant.settings import load_settings
from assistant.tools.catalog import load_catalog
from tests.fixtures.app import MakeAssistant
from tests.platforms.conftest import (
    MARIA_PHONE,
    PLATFORM_KEY,
    RETELL_KEY,
    OpenAIClient,
    RetellClient,
    assistant,
    user,
    vapi_body,
)


async def test_a_platform_conversation_is_recorded_and_replays(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, tmp_path: Path
) -> None:
    """Rebuilt from the platform's messages, two turns: one file that replays clean."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY, record_dir=str(tmp_path))
    client = openai_client(harness)
    body = vapi_body(call_id="call-rec")
    earlier = [user("Hi there"), assistant("Hello Maria, how can I help?")]

    for question in ("Show me my appointments and my billing", "And my tasks?"):
        stream = await client.chat.completions.create(
            model="a", messages=[*earlier, user(question)], stream=True, extra_body=body
        )
        _ = [chunk async for chunk in stream]
    await harness.client.close()  # the app stops: its platform conversations close

    (path,) = await asyncio.to_thread(lambda: list(tmp_path.glob("*.jsonl")))
    recording = read_recording(path)
    assert recording.header.history == (
        UserTurn(text="Hi there"),
        AssistantTurn(kind="answer", text="Hello Maria, how can I help?"),
    )
    assert len(recording.turns()) == 2
    settings = load_settings(secret="x" * 32)
    catalog = load_catalog(settings.resolve(settings.tools_path))
    report = await replay_file(path, catalog=catalog, settings=settings)
    assert report.ok, report.render()


async def test_a_retell_call_is_recorded_and_replays(
    make_assistant: MakeAssistant, tmp_path: Path
) -> None:
    """A Retell call's turns go through the same runner: one file that replays clean."""
    harness = await make_assistant(retell_key=RETELL_KEY, record_dir=str(tmp_path))
    retell = RetellClient(await harness.client.ws_connect(f"/v1/retell/{RETELL_KEY}/call-r1"))
    await retell.next_frame()  # config
    await retell.call_details(MARIA_PHONE)
    await retell.next_frame()  # the greeting
    await retell.response_required(1, "Show me my appointments and my billing")
    await retell.response(1)
    await retell.ws.close()
    await harness.client.close()

    (path,) = await asyncio.to_thread(lambda: list(tmp_path.glob("*.jsonl")))
    assert len(read_recording(path).turns()) == 1
    settings = load_settings(secret="x" * 32)
    catalog = load_catalog(settings.resolve(settings.tools_path))
    report = await replay_file(path, catalog=catalog, settings=settings)
    assert report.ok, report.render()
