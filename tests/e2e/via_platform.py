"""Playing a written conversation as a voice platform plays it, not through the websocket.

Two platforms' paths (shared/PLATFORMS.md), each with the real caller's side:

- `completions`: the OpenAI-compatible endpoint as Vapi calls it, with the real `openai`
  client, streaming; every request carries the whole history so far (the platform's
  system prompt, each customer turn, and each reply as the platform heard it: the text
  the service streamed), and Vapi's `call` (its id, the caller's number) in the body.
- `retell`: Retell's LLM websocket; each customer turn is a `response_required` with
  the transcript so far (the greeting, then the customer's and the agent's utterances).

`cut` plays the history as a platform keeps it when the caller talks over the voice
(a barge-in): each of the assistant's turns cut after its first sentence.

What a turn wrote is read from the CRM stub (the writes it applied, by route), not from
the service's own events, which a platform never sees.
"""

from __future__ import annotations

import json
import re
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from openai import AsyncOpenAI

from tests.e2e.conversations import check_crm, snapshot, word_problems
from tests.fixtures.app import AssistantHarness
from tests.fixtures.crm import CrmAdmin

PLATFORM_KEY = "vapi-key-0123456789abcdef0123456789"
RETELL_KEY = "retell-key-0123456789abcdef"
MARIA_PHONE = "+14155550101"  # cust_001, Maria Garcia, the customer every case is about
SYSTEM = "You are the front desk of the clinic. Be brief and friendly."
FRAME_TIMEOUT_S = 10.0

# The stub's write routes, as its stats name them, and the tool each one is.
_WRITE_ROUTES = {
    "PATCH /v1/customers/{cid}": "crm.updateContactInfo",
    "POST /v1/customers/{cid}/appointments": "crm.bookAppointment",
    "PATCH /v1/customers/{cid}/appointments/{aid}": "crm.rescheduleAppointment",
    "POST /v1/customers/{cid}/appointments/{aid}/cancel": "crm.cancelAppointment",
    "POST /v1/customers/{cid}/tasks": "crm.addTask",
    "PATCH /v1/customers/{cid}/tasks/{tid}": "crm.updateTask",
    "POST /v1/customers/{cid}/tasks/{tid}/complete": "crm.completeTask",
    "DELETE /v1/customers/{cid}/tasks/{tid}": "crm.deleteTask",
    "POST /v1/customers/{cid}/tickets": "crm.createTicket",
}
# A reply that is only a yes ("yes", "yeah sure, go ahead", "ok do it please").
_BARE_YES = re.compile(
    r"(?i)^\W*(?:(?:yes|yeah|yep|yup|sure|ok|okay|please|go ahead|do it|do that|that's right"
    r"|correct|absolutely|definitely|of course|sounds good|please do)\W*)+$"
)
_SENTENCE = re.compile(r"^.*?[.!?](?=\s|$)", re.DOTALL)


def first_sentence(text: str) -> str:
    """What a caller heard of `text` when they spoke over it after its first sentence."""
    found = _SENTENCE.match(text.strip())
    return found.group(0) if found else text.strip()


@dataclass(frozen=True)
class Reply:
    """What the service streamed for a turn, and what the caller heard of it."""

    text: str
    cut: bool = False
    handed_off: bool = False  # the call goes to a person (a transfer call, Retell's end)

    @property
    def heard(self) -> str:
        return first_sentence(self.text) if self.cut else self.text

    @property
    def asked_unheard(self) -> bool:
        """It asked a question the caller did not hear in full."""
        return "?" in self.text and "?" not in self.heard

    @property
    def asked_heard(self) -> bool:
        return "?" in self.heard


@dataclass
class PlatformVerdict:
    case_id: str
    problems: list[str] = field(default_factory=list)
    wrong_writes: list[str] = field(default_factory=list)  # a write the case never makes
    handed_off: int = 0  # the turn that handed the call to a person, if any

    @property
    def passed(self) -> bool:
        return not self.problems


async def _writes(admin: CrmAdmin) -> Counter[str]:
    applied = (await admin.stats())["writes_applied"]
    return Counter({route: count for route, count in applied.items() if route in _WRITE_ROUTES})


def _written(before: Counter[str], after: Counter[str]) -> list[str]:
    new = after - before
    return sorted(tool for route, n in new.items() for tool in [_WRITE_ROUTES[route]] * n)


class CompletionsCall:
    """One call as Vapi makes it: the whole history in every streamed request."""

    def __init__(
        self,
        harness: AssistantHarness,
        client: AsyncOpenAI,
        cut: bool,
        *,
        named: bool = True,
        other: AsyncOpenAI | None = None,
    ) -> None:
        # `other`: a second instance of the service, with no store shared with the first,
        # taking every second request (a platform's requests balanced over two).
        self._clients = [client, other] if other is not None else [client]
        self._requests = 0
        self._cut = cut
        # Vapi names the call; LiveKit's and Pipecat's OpenAI services name none, and the
        # customer is in the metadata: the conversation is known by its first words.
        self._body: dict[str, Any] = (
            {"call": {"id": f"call-{uuid.uuid4().hex[:12]}", "customer": {"number": MARIA_PHONE}}}
            if named
            else {"metadata": {"customer_id": "cust_001"}}
        )
        # Each call's own instructions (as an agent's often name the call's moment): with
        # no call id and the same ones, a call saying just what the last one-turn call said,
        # within a platform's retry time, is that call's retry (answered as before).
        system = SYSTEM if named else f"{SYSTEM} Call {uuid.uuid4().hex[:8]}."
        self._messages: list[dict[str, str]] = [{"role": "system", "content": system}]

    async def say(self, text: str) -> Reply:
        """The reply the service streamed, and what the caller heard of it."""
        self._messages.append({"role": "user", "content": text})
        client = self._clients[self._requests % len(self._clients)]
        self._requests += 1
        stream = await client.chat.completions.create(
            model="gpt-4o",
            messages=self._messages,  # type: ignore[arg-type]
            stream=True,
            extra_body=self._body,
        )
        pieces: list[str] = []
        handed_off = False
        async for chunk in stream:
            if not chunk.choices:
                continue
            pieces.append(chunk.choices[0].delta.content or "")
            handed_off |= chunk.choices[0].finish_reason == "tool_calls"
        reply = Reply("".join(pieces), self._cut, handed_off)
        self._messages.append({"role": "assistant", "content": reply.heard})
        return reply

    async def close(self) -> None:
        return None


class RetellCall:
    """One Retell call: the greeting, then a `response_required` per customer turn."""

    def __init__(self, harness: AssistantHarness, cut: bool) -> None:
        self._harness = harness
        self._cut = cut
        self._call_id = f"call_{uuid.uuid4().hex[:24]}"
        self._transcript: list[dict[str, str]] = []
        self._response_id = 0
        self._ws: Any = None

    async def open(self) -> None:
        self._ws = await self._harness.client.ws_connect(f"/v1/retell/{RETELL_KEY}/{self._call_id}")
        await self._frame()  # config
        await self._send(
            {
                "interaction_type": "call_details",
                "call": {
                    "call_type": "phone_call",
                    "call_id": self._call_id,
                    "call_status": "registered",
                    "from_number": MARIA_PHONE,
                    "to_number": "+12137771235",
                    "direction": "inbound",
                    "retell_llm_dynamic_variables": {},
                },
            }
        )
        greeting = await self._frame()
        if greeting.get("content"):
            self._transcript.append({"role": "agent", "content": greeting["content"]})

    async def say(self, text: str) -> Reply:
        self._response_id += 1
        number = self._response_id
        self._transcript.append({"role": "user", "content": text})
        await self._send(
            {
                "interaction_type": "response_required",
                "response_id": number,
                "transcript": self._transcript,
            }
        )
        pieces: list[str] = []
        while True:
            frame = await self._frame()
            if frame.get("response_type") != "response" or frame.get("response_id") != number:
                continue
            pieces.append(frame.get("content") or "")
            if frame.get("content_complete"):
                break
        handed_off = bool(frame.get("transfer_number") or frame.get("end_call"))
        reply = Reply("".join(pieces), self._cut, handed_off)
        if reply.heard:
            self._transcript.append({"role": "agent", "content": reply.heard})
        return reply

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()

    async def _send(self, frame: dict[str, Any]) -> None:
        await self._ws.send_str(json.dumps(frame))

    async def _frame(self) -> dict[str, Any]:
        message = await self._ws.receive(timeout=FRAME_TIMEOUT_S)
        frame: dict[str, Any] = json.loads(message.data)
        return frame


async def play_via_platform(
    harness: AssistantHarness,
    client: AsyncOpenAI,
    admin: CrmAdmin,
    case: dict[str, Any],
    path: str,
    *,
    cut: bool = False,
    hand_off_at: int = 0,
    other: AsyncOpenAI | None = None,
) -> PlatformVerdict:
    """One session on freshly seeded data through `path` ("completions", "retell", or
    "unnamed": the completions endpoint with no call id, as LiveKit and Pipecat call it;
    "two_instances": every second request to `other`, an instance sharing no store).
    `hand_off_at`: the turn where the customer asks for a person (a platform hands the
    call over: PLATFORMS.md), where the session ends.

    As written (`cut` false): each turn writes what the case says it writes (the stub's
    applied writes), the CRM holds what the case checks, and the streamed text holds the
    case's words (and none it must not).

    Cut at every barge-in, or over two instances (each holds what it answered only, and
    rebuilds the rest from the history sent): the CRM may fall behind the case (a yes to
    a question the caller did not hear, or that this instance did not ask, is no yes), so
    each turn is held to no wrong write instead: it
    makes only the writes the case's turn makes, or one the case made earlier and this
    session has not, in reply to a question the caller heard in full (asked again); and
    after a question cut short, none of what it asked for."""
    await admin.reset()
    world = await snapshot(admin)
    call: CompletionsCall | RetellCall
    if path in ("completions", "unnamed", "two_instances"):
        named = path != "unnamed"
        call = CompletionsCall(harness, client, cut, named=named, other=other)
    else:
        call = RetellCall(harness, cut)
        await call.open()
    verdict = PlatformVerdict(case["id"])
    owed: Counter[str] = Counter()  # the case's writes this session has not made (cut)
    asked_unheard: list[str] = []  # what a question cut short asked to do (cut)
    previous = Reply("")
    try:
        for number, turn in enumerate(case["turns"], start=1):
            before = await _writes(admin)
            reply = await call.say(turn["say"])
            written = _written(before, await _writes(admin))
            allowed = [sorted(turn.get("writes", []))] + [
                sorted(w) for w in turn.get("writes_alt", [])
            ]
            fair = {tool for option in allowed for tool in option}
            problems: list[str] = []
            if cut or path == "two_instances":
                owed.update(allowed[0])
                late = {t for t in owed if previous.asked_heard}
                # After a question cut short, a bare yes answers nothing the caller heard.
                unheard = asked_unheard or (
                    written if previous.asked_unheard and _BARE_YES.match(turn["say"]) else []
                )
                wrong = [t for t in written if t not in fair | late or t in unheard]
                if wrong:
                    problems.append(f"wrote {written}, expected {allowed[0]}")
                    verdict.wrong_writes.append(f"turn {number}: {wrong}")
                owed -= Counter(written)
                confirm = turn.get("confirm")
                asked = [confirm] if isinstance(confirm, str) else list(confirm or [])
                asked_unheard = [t for t in asked if t != "*"] if reply.asked_unheard else []
            else:
                if written not in allowed:
                    problems.append(f"wrote {written}, expected {allowed[0]}")
                    if [tool for tool in written if tool not in fair]:
                        verdict.wrong_writes.append(f"turn {number}: {written}")
                problems += word_problems(turn, reply.text)
                problems += await check_crm(admin, turn.get("crm", []), world)
            if reply.handed_off:
                verdict.handed_off = number
                if number == hand_off_at:
                    break  # the call is a person's now, as the customer asked
                problems.append("handed the call to a person")
            elif number == hand_off_at:
                problems.append("did not hand the call to a person")
            if problems:
                problems.append(f"answer was: {reply.text!r}")
            verdict.problems += [f"turn {number} {turn['say']!r}: {p}" for p in problems]
            if reply.handed_off:
                break  # the call is a person's now
            previous = reply
    finally:
        await call.close()
    return verdict
