"""PLATFORMS.md section 2 where test_retell.py leaves a gap: the last frame with
content_complete true "in every case, errors included", said once; odd frames ignored
without dropping the call; the key kept out of the logs."""

from __future__ import annotations

import logging

import pytest

from assistant.fakes import FakeToolBackend, ScriptedNarrator, ScriptedPlanner, calls
from assistant.schema import FinalDecision
from assistant.transports.platform_turns import SORRY
from tests.fixtures.app import AssistantHarness, MakeAssistant
from tests.platforms.conftest import MARIA_PHONE, RETELL_KEY, RetellClient, said

CALL_PATH = f"/v1/retell/{RETELL_KEY}/call_contract_1"


async def _call(harness: AssistantHarness) -> RetellClient:
    """A Retell call past its config frame and greeting."""
    retell = RetellClient(await harness.client.ws_connect(CALL_PATH))
    await retell.next_frame()  # config
    await retell.call_details(MARIA_PHONE)
    await retell.next_frame()  # the greeting, response 0
    return retell


@pytest.mark.parametrize(
    ("planner", "narrator"),
    [
        (ScriptedPlanner(RuntimeError("planner bug")), ScriptedNarrator()),
        (
            ScriptedPlanner(calls("crm.listTasks"), FinalDecision(text="")),
            ScriptedNarrator(RuntimeError("narrator bug")),
        ),
    ],
    ids=["handled-by-the-engine", "escaping-the-engine"],
)
async def test_a_turn_that_breaks_apologises_once_and_completes_its_response(
    make_assistant: MakeAssistant, planner: ScriptedPlanner, narrator: ScriptedNarrator
) -> None:
    """A bug in a turn: response N still ends with content_complete true, and the caller
    hears the apology once, not twice."""
    harness = await make_assistant(
        retell_key=RETELL_KEY, planner=planner, narrator=narrator, tool_backend=FakeToolBackend()
    )
    retell = await _call(harness)

    await retell.response_required(1, "what are my tasks?")
    frames = await retell.response(1)

    assert frames[-1]["content_complete"] is True
    assert said(frames, 1).count("something went wrong on my side") == 1
    assert said(frames, 1).endswith(SORRY)
    await retell.ws.close()


async def test_odd_frames_are_ignored_and_the_call_still_answers(
    make_assistant: MakeAssistant,
) -> None:
    """A binary frame, a string response_id, a transcript that is not a list: none drops
    the call; the next response_required is answered in full."""
    harness = await make_assistant(retell_key=RETELL_KEY)
    retell = await _call(harness)

    await retell.ws.send_bytes(b"\x00\x01")
    await retell.send({"interaction_type": "response_required", "response_id": "1"})
    await retell.send(
        {"interaction_type": "response_required", "response_id": 1, "transcript": "hello"}
    )
    empty = await retell.next_frame()
    await retell.response_required(2, "What do I owe?")
    frames = await retell.response(2)

    assert empty == {
        "response_type": "response",
        "response_id": 1,
        "content": "",
        "content_complete": True,
    }
    assert "$150.00" in said(frames, 2)
    await retell.ws.close()


async def test_the_retell_key_is_never_written_to_the_logs(
    make_assistant: MakeAssistant, caplog: pytest.LogCaptureFixture
) -> None:
    """Neither a call with the right key nor one refused for a wrong key logs the key
    (the service's own logs: `assistant serve` runs without aiohttp's access log)."""
    harness = await make_assistant(retell_key=RETELL_KEY)
    wrong = "retell-key-guessed-0123456789"
    caplog.set_level(logging.DEBUG)

    retell = await _call(harness)
    await retell.response_required(1, "What do I owe?")
    await retell.response(1)
    await retell.ws.close()
    refused = await harness.client.get(f"/v1/retell/{wrong}/call_2")

    assert refused.status == 403
    # The test server's access log is the harness's, not the service's (run_app there
    # is given access_log=None).
    records = [r for r in caplog.records if r.name != "aiohttp.access"]
    logged = "\n".join(record.getMessage() for record in records)
    assert "retell" in logged
    assert RETELL_KEY not in logged
    assert wrong not in logged


async def test_a_long_calls_transcript_is_still_answered(make_assistant: MakeAssistant) -> None:
    """Retell resends the whole transcript: 150 KiB of it (past the websocket's 64 KiB
    frames) is answered instead of closing the socket, which would drop the call."""
    harness = await make_assistant(retell_key=RETELL_KEY)
    retell = await _call(harness)
    earlier = ["and another thing I wanted to say " * 12] * 380

    await retell.response_required(1, *earlier, "What do I owe?")
    frames = await retell.response(1)

    assert len(" ".join(earlier)) > 150_000
    assert "$150.00" in said(frames, 1)
    await retell.ws.close()
