"""A scripted ConversationRelay client, and a narrator that speaks real CRM results.

    relay = await dial(harness)                      # the websocket, as Twilio opens it
    greeting = await relay.setup(from_="+14155550101")
    frames = await relay.ask("what do I owe?")       # every frame of that talk cycle
    assert spoken(frames) == "Sure, I'll check your billing. You owe $150.00."

Frames follow Twilio's documentation (setup, prompt, interrupt, dtmf, error); the
platform's side of the protocol is played here so the bridge meets it over a real
websocket of the app served in-process, backed by the real CRM stub.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Iterator, Sequence
from typing import Any, Protocol

import aiohttp
import pytest

from assistant.schema import NarratorInput, ToolResult
from tests.fixtures.app import AssistantHarness
from tests.fixtures.crm import CrmAdmin

RELAY_PATH = "/v1/conversation-relay"
MARIA_PHONE = "+14155550101"  # cust_001, Maria Garcia, in the CRM seed
UNKNOWN_PHONE = "+15005550199"
CALL_SID = "CA00000000000000000000000000000001"
FRAME_TIMEOUT_S = 10.0
# No frame for this long while no turn runs: the app has said all it will (`frames_until_idle`).
IDLE_QUIET_S = 0.3


class RelayClient:
    """The platform's end of a ConversationRelay websocket."""

    def __init__(
        self, ws: aiohttp.ClientWebSocketResponse, harness: AssistantHarness | None = None
    ) -> None:
        self.ws = ws
        self.harness = harness  # the app dialled, when the test has it (`frames_until_idle`)
        self.received: list[dict[str, Any]] = []

    async def send(self, frame: dict[str, Any] | str | bytes) -> None:
        if isinstance(frame, bytes):
            await self.ws.send_bytes(frame)
        elif isinstance(frame, str):
            await self.ws.send_str(frame)
        else:
            await self.ws.send_str(json.dumps(frame))

    async def setup(
        self,
        from_: str = MARIA_PHONE,
        custom_parameters: dict[str, Any] | None = None,
        *,
        call_sid: str = CALL_SID,
        greeting: bool = True,
    ) -> list[dict[str, Any]]:
        """The documented setup frame; the frames of the greeting that follows (none
        when `greeting` is false)."""
        await self.send(
            {
                "type": "setup",
                "sessionId": "VX00000000000000000000000000000001",
                "accountSid": "AC00000000000000000000000000000001",
                "parentCallSid": "",
                "callSid": call_sid,
                "from": from_,
                "to": "+18005550100",
                "forwardedFrom": "",
                "callType": "PSTN",
                "callerName": "",
                "direction": "inbound",
                "callStatus": "RINGING",
                "customParameters": custom_parameters or {},
            }
        )
        return await self.talk_cycle() if greeting else []

    async def prompt(self, text: str, *, last: bool = True) -> None:
        await self.send({"type": "prompt", "voicePrompt": text, "lang": "en-US", "last": last})

    async def interrupt(self, heard: str, duration_ms: int = 1200) -> None:
        await self.send(
            {
                "type": "interrupt",
                "utteranceUntilInterrupt": heard,
                "durationUntilInterruptMs": duration_ms,
            }
        )

    async def dtmf(self, digit: str) -> None:
        await self.send({"type": "dtmf", "digit": digit})

    async def next_frame(self, timeout_s: float = FRAME_TIMEOUT_S) -> dict[str, Any]:
        message = await self.ws.receive(timeout=timeout_s)
        assert message.type is aiohttp.WSMsgType.TEXT, f"expected a text frame, got {message}"
        frame: dict[str, Any] = json.loads(message.data)
        self.received.append(frame)
        return frame

    async def talk_cycle(self) -> list[dict[str, Any]]:
        """Every frame up to the `text` frame with `last: true` (or an `end` frame)."""
        frames = []
        while True:
            frame = await self.next_frame()
            frames.append(frame)
            if frame["type"] == "end" or (frame["type"] == "text" and frame["last"]):
                return frames

    async def frames_until_idle(self, quiet_s: float = IDLE_QUIET_S) -> list[dict[str, Any]]:
        """Every frame until the app runs no turn and none has come for `quiet_s` (or the
        socket closes): for prompts sent over each other, whose talk cycles are not
        known in advance. Reading until a silence of seconds instead cost each such test
        that whole silence; a turn still running (its CRM call slow) is waited for
        however quiet it is, as long as `FRAME_TIMEOUT_S`."""
        assert self.harness is not None, "dialled without the harness"
        engine = self.harness.services.engine
        frames: list[dict[str, Any]] = []
        loop = asyncio.get_running_loop()
        heard_at = loop.time()
        while True:
            try:
                frames.append(await self.next_frame(timeout_s=quiet_s))
                heard_at = loop.time()
            except TimeoutError:
                if engine.turns_in_flight == 0:
                    return frames
                if loop.time() - heard_at > FRAME_TIMEOUT_S:
                    raise
            except AssertionError:  # not a text frame: the socket closed
                return frames

    async def ask(self, text: str) -> list[dict[str, Any]]:
        """A final prompt; the frames of the answer's talk cycle."""
        await self.prompt(text)
        return await self.talk_cycle()

    async def close(self) -> None:
        await self.ws.close()


def spoken(frames: Sequence[dict[str, Any]]) -> str:
    """What the caller hears: the tokens of the `text` frames, joined."""
    return "".join(frame["token"] for frame in frames if frame["type"] == "text").strip()


class IgnoredKeys(logging.Handler):
    """Counts the keys the bridge says it ignored (relay.py logs each as it reads the
    frame): a key ignored starts no turn, so there is no answer to it to wait for."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.count = 0
        self._changed = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith("relay: ignoring key"):
            self.count += 1
            self._changed.set()

    async def reach(self, count: int) -> None:
        while self.count < count:
            self._changed.clear()
            await self._changed.wait()


@contextlib.contextmanager
def keys_ignored() -> Iterator[IgnoredKeys]:
    """`IgnoredKeys` for the keys pressed inside the block."""
    logger = logging.getLogger("assistant.transports.relay")
    handler, level = IgnoredKeys(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


async def answer_to_key(
    relay: RelayClient, ignored: IgnoredKeys, keys: int = 1, timeout_s: float = 3.0
) -> list[dict[str, Any]]:
    """The talk cycle a key pressed started: none (`[]`) once the bridge has said it
    ignored `keys` keys, else the frames of the talk cycle that comes within `timeout_s`
    (TimeoutError if none does). Waiting out `timeout_s` for an answer that cannot come
    cost every such test its whole wait."""
    cycle = asyncio.ensure_future(relay.talk_cycle())
    told = asyncio.ensure_future(ignored.reach(keys))
    try:
        done, _ = await asyncio.wait(
            {cycle, told}, timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED
        )
        if cycle in done:
            return cycle.result()
        if told in done:
            return []
        raise TimeoutError(f"no answer to the key within {timeout_s} s")
    finally:
        for waiting in (cycle, told):
            waiting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await waiting


TASKS_ROUTE = "/v1/customers/*/tasks"


class Dial(Protocol):
    def __call__(
        self,
        harness: AssistantHarness,
        *,
        headers: dict[str, str] | None = None,
        path: str = RELAY_PATH,
    ) -> Awaitable[RelayClient]: ...


@pytest.fixture
async def dial() -> AsyncIterator[Dial]:
    """Open the relay websocket the way ConversationRelay does; hung up at the end."""
    calls: list[RelayClient] = []

    async def open_call(
        harness: AssistantHarness,
        *,
        headers: dict[str, str] | None = None,
        path: str = RELAY_PATH,
    ) -> RelayClient:
        ws = await harness.client.ws_connect(path, headers=headers or {})
        calls.append(RelayClient(ws, harness))
        return calls[-1]

    yield open_call
    for relay in calls:
        await asyncio.wait_for(relay.close(), FRAME_TIMEOUT_S)


def _money(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def _sentences(result: ToolResult) -> list[str]:
    """What the caller should hear about one result (with markdown a model might add)."""
    name = result.call.tool_name
    if not result.ok:
        code = result.error.code if result.error else "error"
        return [f"I couldn't reach {name.removeprefix('crm.')} ({code}). "]
    data = result.result
    if name == "crm.getNextAppointment":
        appointment = data.get("appointment")
        if appointment is None:
            return ["You have no upcoming appointments. "]
        return [f"Your next appointment is a **{appointment['service'].lower()}**. "]
    if name == "crm.listUpcomingAppointments":
        return [f"You have {len(data['appointments'])} upcoming appointments. "]
    if name == "crm.getOpenInvoices":
        return [f"* Balance: you owe {_money(data['balance_cents'])} & nothing else. "]
    if name == "crm.listTasks":
        pending = [task for task in data["tasks"] if task["status"] == "pending"]
        return [f"You have {len(pending)} pending tasks. "]
    if name == "crm.deleteTask":
        return ["Done, that task is deleted. "]
    return [f"{name} answered. "]


class SpokenNarrator:
    """A fake narrator at the model boundary: one sentence per result, from real data."""

    def __init__(self) -> None:
        self.inputs: list[NarratorInput] = []

    async def narrate(self, request: NarratorInput) -> AsyncIterator[str]:
        self.inputs.append(request)
        for result in request.tool_results:
            for sentence in _sentences(result):
                yield sentence
        if request.confirmation_prompt:
            yield request.confirmation_prompt


async def ring_back_mid_add(
    dial: Dial,
    crm_admin: CrmAdmin,
    first: AssistantHarness,
    again: AssistantHarness,
    call_sids: tuple[str, str],
    said: str,
) -> str:
    """A call on `first` asks `said` (an add the CRM is made slow to write) and hangs up
    while it is written; the caller rings back on `again` (the same instance or another)
    and asks the same. What the second call heard, once the first write has landed."""
    await crm_admin.add_fault(method="POST", path=TASKS_ROUTE, latency_ms=600, times=1)
    call = await dial(first)
    await call.setup(call_sid=call_sids[0])
    await call.prompt(said)
    await crm_admin.wait_until_seen("POST /v1/customers/{cid}/tasks")
    await call.close()
    back = await dial(again)
    await back.setup(call_sid=call_sids[1])
    heard = spoken(await back.ask(said))
    await crm_admin.wait_until_settled()
    return heard
