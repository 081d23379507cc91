"""Every request of shared/utterances/dev.jsonl through the websocket, the real engine,
the embedded models and the real CRM stub: the tools called (and confirmations).

Played at the pinned Monday noon the conversation sets use (the stub seeded for it): on a
real Tuesday, "Book a haircut for next Tuesday at 3pm" is fairly asked about (this
Tuesday's or the one after?), and the expected calls would depend on the day the suite
ran."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assistant.guard import CHECK_PREFIX
from tests.e2e.conversations import NOW
from tests.e2e.test_conversations import crm_app  # noqa: F401  (the fixture: the pinned stub)
from tests.fixtures.app import MakeAssistant

# A copy of ../shared/utterances/dev.jsonl, so that a clone on its own has it.
DEV = Path(__file__).resolve().parents[1] / "data" / "dev.jsonl"


def _lines() -> list[dict[str, Any]]:
    return [json.loads(line) for line in DEV.read_text().splitlines() if line.strip()]


def _is_check(call: dict[str, Any]) -> bool:
    """A lookup the engine made to check a write for duplicates, not the planner's call."""
    return str(call["call_id"]).startswith(CHECK_PREFIX)


@pytest.mark.parametrize("case", _lines(), ids=lambda case: case["text"][:48])
async def test_dev_utterance_calls_the_expected_tools(
    make_assistant: MakeAssistant, case: dict[str, Any]
) -> None:
    """The planner understands the request: the calls made (all rounds) are the expected."""
    assistant = await make_assistant(clock=lambda: NOW)
    chat = await assistant.connect("cust_001")
    events = await chat.say(case["text"])
    done = events[-1]
    made = [call["tool"] for call in done["tool_calls"] if not _is_check(call)]
    if done["awaiting_confirmation"] and "confirm" not in case:
        # A change to identity data (email, phone) waits for a yes since dev.jsonl was
        # written; the request was understood when the yes runs the expected call.
        assert {c["tool"] for c in done["awaiting_confirmation"]["calls"]} == {
            "crm.updateContactInfo"
        }
        events = await chat.say("yes")
        done = events[-1]
        made += [call["tool"] for call in done["tool_calls"] if not _is_check(call)]
    called = sorted(made)
    allowed = [sorted(case["tools"])] + [sorted(alt) for alt in case.get("alt_tools", [])]
    assert called in allowed, f"{case['text']!r} called {called}"
    pending = done["awaiting_confirmation"]
    if "confirm" in case:
        assert pending is not None
        assert pending["tool"] == case["confirm"]
    else:
        assert pending is None
    assert done["status"] in ("ok", "partial")
    assert any(event["type"] == "answer.done" and event["text"] for event in events)
