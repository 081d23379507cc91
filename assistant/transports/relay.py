"""The telephony bridge: `GET /v1/conversation-relay` speaks Twilio ConversationRelay.

The platform turns a phone call into a websocket of text (it does the speech
recognition and the voice); this module maps that onto the engine and back:

    setup      → find the caller (signed token in customParameters, else their number
                 through the CRM), open a session, greet them by first name
    prompt     → partial transcripts (`last: false`) are gathered; the whole utterance
                 becomes one user message; "talk to a person" hands the call off
    interrupt  → barge-in: the turn is cancelled, nothing more is said for it, and
                 history keeps only what the caller heard
    dtmf       → 1 is "yes" and 2 is "no" while a confirmation is pending
    error      → logged

Abuse limits: the upgrade counts against `max_connections` (not per address: every
call comes from Twilio's few addresses); `setup` must come within
`relay_setup_timeout_s`; a `callSid` already seen is a replay and is refused
(relay_calls.py); a `call_token` in the URL (relay_twiml.py) must be valid and name
the call and caller of `setup`; partial prompts are bounded in size and count, and a
caller past the bound hears a short line before the call ends. A whole utterance is held
to the websocket's limits (voice_budget.py: its length, the session's and the customer's
message rates): past one the caller hears why and nothing of it runs.

A prompt that arrives while a turn is still running cancels that turn and then starts
the new one, as a person on the phone expects: the caller spoke again, so what they
say now is what they want answered (often they rephrased or gave up waiting), and a
stale answer arriving afterwards would talk over them. A write already in flight
still finishes before the new turn starts. Two failed turns in a row, or a request for
a person, end the call with `handoffData` for the call flow to transfer.

The platform drops the call if this websocket fails, so no frame may crash it: frames
that are not JSON, of an unknown type, missing fields, or binary are logged and
ignored.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from typing import Any, Final

from aiohttp import WSCloseCode, WSMsgType, web

from assistant.auth import CallClaims
from assistant.conversation import Conversation, Message, open_conversation
from assistant.engine import Turn
from assistant.errors import AuthError
from assistant.schema import EventSink
from assistant.services import SERVICES, Services
from assistant.session import PendingConfirmation, Session
from assistant.settings import Settings
from assistant.transports.admission import CONNECTION_LIMITS, SATURATED, Refusal
from assistant.transports.outbox import encode_frame
from assistant.transports.ratelimit import MessageLimits, SessionLimits
from assistant.transports.relay_admission import call_claims, signature_refusal
from assistant.transports.relay_caller import greeting, identify
from assistant.transports.relay_calls import CALL_REGISTRY, CallRegistry, InMemoryCalls
from assistant.transports.relay_frames import (
    DtmfFrame,
    ErrorFrame,
    FrameError,
    InterruptFrame,
    PromptFrame,
    SetupFrame,
    end_frame,
    grows_from,
    parse_frame,
    revises,
)
from assistant.transports.relay_handoff import HANDOFF_LINE, HandoffReason, handoff_data
from assistant.transports.relay_handoff import wants_person as _wants_person
from assistant.transports.relay_talk import TalkCycle
from assistant.transports.relay_twiml import TWIML_ROUTE, TWIML_SETTINGS, twiml_webhook
from assistant.transports.saturation import SATURATION, Saturation
from assistant.transports.sockets import ExplainedSocket, track
from assistant.transports.voice_budget import refusal_line
from assistant.transports.ws import MESSAGE_LIMITS

log = logging.getLogger(__name__)

ROUTE: Final = "/v1/conversation-relay"
_FAILURES_BEFORE_HANDOFF: Final = 2
_DTMF_ANSWERS: Final = {"1": "yes", "2": "no"}
_SORRY: Final = "I'm sorry, something went wrong on my side. Please try that again."
_TOO_LONG: Final = (
    "I'm sorry, that was more than I can take in at once, so I have to end this call. "
    "Please call back and tell me a little at a time. Goodbye."
)
_LIFETIME_REACHED: Final = (
    "I'm sorry, this call has gone on as long as I can keep it open, so I have to end it "
    "now. Please call again if there's anything else. Goodbye."
)


class RelayCall:
    """One phone call: its session, its running turn, and the talk cycle last spoken."""

    def __init__(
        self,
        ws: web.WebSocketResponse,
        services: Services,
        *,
        call: CallClaims | None = None,
        registry: CallRegistry | None = None,
        limits: MessageLimits,
        saturation: Saturation | None = None,
    ) -> None:
        self._ws = ws
        self._services = services
        self._limits = limits  # the websocket's message budgets (in Redis when shared)
        self._budgets: SessionLimits | None = None
        self._saturation = saturation
        self._call = call  # what the call token in the URL admits, if there was one
        self._registry: CallRegistry = InMemoryCalls() if registry is None else registry
        self._partial_chars = 0
        self._partial_frames = 0  # prompts since the last whole utterance
        self._deadline: asyncio.Timeout | None = None
        self.ending = False  # the server is stopping and winding this call down
        self._settings: Settings = services.settings
        self._conversation: Conversation | None = None  # opened by setup
        self._session: Session | None = None
        self._setup: SetupFrame | None = None
        self._partial: list[str] = []
        self._turn_cycle: TalkCycle | None = None
        self._cycle: TalkCycle | None = None  # what an interrupt refers to
        self._failures_in_row = 0
        # The question the caller's last words or key answer, until their turn ends.
        self._answering: PendingConfirmation | None = None
        self._ended = False
        # Ends the call at `max_session_lifetime_s` after setup, as a websocket session ends.
        self._lifetime: asyncio.TimerHandle | None = None
        self._lifetime_end: asyncio.Task[None] | None = None

    # --- the call's life --------------------------------------------------------------

    @property
    def _turn(self) -> Turn | None:
        return self._conversation.turn if self._conversation is not None else None

    async def run(self) -> None:
        """Read frames until the platform hangs up; the conversation ends with the call."""
        try:
            # An absolute deadline for `setup` (pings do not extend it); lifted by setup.
            async with asyncio.timeout(self._settings.relay_setup_timeout_s) as self._deadline:
                async for message in self._ws:
                    try:
                        await self._receive(message.type, message.data)
                    except Exception:  # a bug here must not drop the call
                        log.exception("relay frame handling failed")
        except TimeoutError:
            log.warning(
                "relay: no setup within %g s; closing", self._settings.relay_setup_timeout_s
            )
            await self._ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"no setup in time")
        finally:
            if self._lifetime is not None:
                self._lifetime.cancel()
            if self._conversation is not None:
                await self._conversation.close()  # a write in flight still finishes

    async def _receive(self, kind: WSMsgType, data: Any) -> None:
        if kind is WSMsgType.BINARY:
            log.warning("relay: ignoring a binary frame of %d bytes", len(data))
            return
        if kind is not WSMsgType.TEXT:
            return  # pings, pongs and close frames are aiohttp's business
        try:
            frame = parse_frame(data)
        except FrameError as exc:
            log.warning("relay: ignoring an unusable frame: %s", exc)
            return
        if isinstance(frame, SetupFrame):
            await self._on_setup(frame)
        elif isinstance(frame, ErrorFrame):
            log.warning("relay: the platform reports an error: %s", frame.description)
        elif self._session is None:
            log.warning("relay: ignoring a %s frame before setup", frame.type)
        elif self._ended:
            log.info("relay: ignoring a %s frame after the call was handed off", frame.type)
        elif isinstance(frame, PromptFrame):
            await self._on_prompt(frame)
        elif isinstance(frame, InterruptFrame):
            self._on_interrupt(frame)
        elif isinstance(frame, DtmfFrame):
            self._on_dtmf(frame)

    async def send(self, frame: dict[str, Any]) -> None:
        """Send one frame; a call that already hung up is not an error."""
        if self._ws.closed:
            return
        try:
            await self._ws.send_str(encode_frame(frame).decode("utf-8"))
        except (ConnectionError, RuntimeError) as exc:
            log.info("relay: could not send a %s frame: %s", frame.get("type"), exc)

    # --- setup ------------------------------------------------------------------------

    async def _on_setup(self, frame: SetupFrame) -> None:
        if self._setup is not None:
            log.warning("relay: ignoring a second setup frame")
            return
        self._setup = frame
        if self._deadline is not None:
            self._deadline.reschedule(None)
        refusal = await self._refusal(frame)
        if refusal is not None:
            log.warning("relay: refusing call %s: %s", frame.call_sid or "?", refusal)
            self._ended = True
            await self._ws.close(code=WSCloseCode.POLICY_VIOLATION, message=refusal.encode())
            return
        trace_id = f"relay-{uuid.uuid4().hex[:12]}"
        customer_id, lookup_failed = await identify(
            frame, self._settings, self._services.crm, trace_id
        )
        conversation = await open_conversation(
            self._services, customer_id, self, transport="relay", trace_id=trace_id
        )
        self._conversation, self._session = conversation, conversation.session
        self._budgets = self._limits.for_session(
            conversation.session.session_id, customer_id or f"relay:{frame.call_sid}"
        )
        conversation.start()
        self._lifetime = asyncio.get_running_loop().call_later(
            self._settings.max_session_lifetime_s, self._lifetime_reached
        )
        customer = self._session.customer
        first_name = customer.name.split()[0] if customer and customer.name else None
        log.info(
            "relay: call %s from %s as %s",
            frame.call_sid or "?",
            frame.from_ or "?",
            customer_id or "an unknown caller",
        )
        cycle = self._cycle = TalkCycle(self.send, self._session)
        await cycle.say(
            greeting(first_name, known=customer is not None, lookup_failed=lookup_failed)
        )

    async def _refusal(self, frame: SetupFrame) -> str | None:
        """Why this `setup` may not open a call (a replay, another call's token), or None."""
        call = self._call
        if call is not None and frame.call_sid != call.call_sid:
            return "the call token is for another call"
        if call is not None and call.caller and frame.from_ != call.caller:
            return "the caller is not the one the call token names"
        if not frame.call_sid:
            return None if self._settings.demo else "setup has no callSid"
        if not await self._registry.claim(frame.call_sid):
            return "this call is already connected"
        return None

    def _lifetime_reached(self) -> None:
        self._lifetime_end = asyncio.create_task(self._end_at_lifetime())

    async def _end_at_lifetime(self) -> None:
        """The call's maximum lifetime: the question being answered is answered (within
        the shutdown grace), nothing more is taken, then the caller hears why it ends."""
        if self._ended or self._conversation is None:
            return
        log.info("relay: call reached its maximum lifetime; ending it")
        await self._conversation.wind_down(self._settings.shutdown_grace_s, finish_turn=True)
        await self.end_call(_LIFETIME_REACHED)

    async def shut_down(self, code: int, reason: str) -> None:
        """The server is stopping: let the turn end by the usual rules, then close."""
        self.ending = True
        if self._conversation is not None:
            # Cooperative: a write in flight finishes and is spoken; nothing queued runs.
            await self._conversation.wind_down(self._settings.shutdown_grace_s)
        await self._ws.close(code=code, message=reason.encode())

    # --- what the caller does ---------------------------------------------------------

    async def _on_prompt(self, frame: PromptFrame) -> None:
        piece = frame.voice_prompt.strip()
        gathered = " ".join(part for part in self._partial if part)
        if gathered and grows_from(piece, gathered):
            # The recogniser's hypothesis so far, said again and grown: it replaces the
            # pieces gathered, or "Add a task" + "Add a task to call the plumber" would
            # be one utterance said twice over.
            self._partial = [piece]
        elif gathered and grows_from(gathered, piece):
            pass  # heard already: a late partial of what was gathered
        elif self._partial and (
            grows_from(piece, self._partial[-1]) or revises(piece, self._partial[-1])
        ):
            # The last piece's hypothesis grown or revised ("at a task to call", then
            # "add a task to call mom"): it replaces that piece only.
            self._partial[-1] = piece
        elif gathered and revises(piece, gathered):
            # A revised hypothesis of the whole utterance ("add a task to buy milk", then
            # "I already have a task to buy milk"): the later words are what was said,
            # never the two joined into a request nobody made.
            self._partial = [piece]
        else:
            self._partial.append(piece)
        self._partial_chars += len(piece)
        self._partial_frames += 1
        if (
            self._partial_frames > self._settings.relay_max_partial_prompts
            or self._partial_chars > self._settings.relay_max_partial_chars
        ):
            log.warning(
                "relay: %d partial prompts (%d characters) without an end; ending the call",
                self._partial_frames,
                self._partial_chars,
            )
            self._partial.clear()
            self._partial_chars = self._partial_frames = 0
            await self.end_call(_TOO_LONG)
            return
        if not frame.last:
            return
        text = " ".join(part for part in self._partial if part)
        self._partial.clear()
        self._partial_chars = self._partial_frames = 0
        if not text:
            return
        if _wants_person(text):
            await self.hand_off("caller_request", last_request=text)
            return
        await self._submit(text)

    async def _submit(self, text: str) -> None:
        """Queue a user message; the caller spoke again, so a running turn gives way.
        Past a budget (voice_budget.py) the caller hears why instead, and no turn runs."""
        await self._stop_turn()
        assert self._budgets is not None, "set with the conversation"
        refused = await refusal_line(
            text,
            settings=self._settings,
            budgets=self._budgets,
            metrics=self._services.metrics,
            saturation=self._saturation,
        )
        if refused is not None:
            cycle = self._cycle = TalkCycle(self.send, self._session)
            await cycle.say(refused)
            return
        self._submit_now(text)

    def _submit_now(self, text: str) -> None:
        assert self._conversation is not None, "frames wait for setup"
        # Whatever the caller said or keyed answers the question waiting, if any.
        self._answering = self._session.pending if self._session is not None else None
        self._conversation.submit(Message(text))

    def _on_interrupt(self, frame: InterruptFrame) -> None:
        heard = frame.utterance_until_interrupt
        if self._cycle is not None:
            self._cycle.interrupt(heard)
        if self._turn is not None and self._turn_cycle is self._cycle:
            self._turn.cancel()
        log.info("relay: barge-in after %r", heard[-60:])

    def _on_dtmf(self, frame: DtmfFrame) -> None:
        answer = _DTMF_ANSWERS.get(frame.digit.strip())
        pending = self._session.pending if self._session else None
        if answer is None or pending is None or pending.expires_at <= time.time():
            log.info("relay: ignoring key %r (nothing to confirm)", frame.digit)
            return
        if pending is self._answering:
            # Pressed again (twice, a stuck key, or right behind a spoken "yes") before
            # that answer's turn ended: it answers the question; this would hear
            # "nothing waiting" after the change was made.
            log.info("relay: ignoring key %r (this question is being answered)", frame.digit)
            return
        # A key press is not speech: nothing is talking over us, so no barge-in here.
        self._submit_now(answer)

    async def _stop_turn(self) -> None:
        turn, cycle = self._turn, self._turn_cycle
        if turn is None or turn.done():
            return
        if cycle is not None:
            await cycle.close()  # end its talk cycle where it got to
            cycle.silence()
        turn.cancel()

    # --- turns ------------------------------------------------------------------------

    def sink(self, message: Message) -> EventSink | None:
        """A new talk cycle for the turn; nothing once the call is handed off."""
        if self._ended or self._session is None:
            return None
        cycle = self._cycle = self._turn_cycle = TalkCycle(self.send, self._session)
        return cycle.on_event

    async def turn_failed(self, message: Message, turn: Turn) -> None:
        """An engine bug: apologise, keep the call."""
        cycle = self._turn_cycle
        if cycle is not None and not cycle.silenced:
            await cycle.say(_SORRY)

    async def turn_ended(self, message: Message, turn: Turn, status: str) -> None:
        await self._after_turn(status)

    async def _after_turn(self, status: str) -> None:
        self._answering = None  # a question still waiting after this turn may be keyed
        if status == "failed":
            self._failures_in_row += 1
        elif status in ("ok", "partial"):
            self._failures_in_row = 0
        if self._failures_in_row >= _FAILURES_BEFORE_HANDOFF and not self._ended:
            await self.hand_off("repeated_failures")

    async def end_call(self, line: str) -> None:
        """Say `line`, then `end` the session (no handoff: the call is over)."""
        if self._ended:
            return
        self._ended = True
        await self._stop_turn()
        cycle = self._cycle = TalkCycle(self.send)
        await cycle.say(line)
        await self.send(end_frame())

    async def hand_off(self, reason: HandoffReason, *, last_request: str | None = None) -> None:
        """Say a short line, then `end` with the reason and a summary for the agent."""
        if self._ended:
            return
        self._ended = True
        await self._stop_turn()
        session = self._session
        data = handoff_data(
            reason,
            list(session.history) if session else [],
            session.customer if session else None,
            call_sid=self._setup.call_sid if self._setup else "",
            last_request=last_request,
        )
        cycle = self._cycle = TalkCycle(self.send)
        await cycle.say(HANDOFF_LINE[reason])
        await self.send(end_frame(data))
        log.info("relay: handing the call off (%s)", reason)


async def conversation_relay(request: web.Request) -> web.StreamResponse:
    """The websocket handler: check the signature, then run the call."""
    services = request.app[SERVICES]
    settings = services.settings
    refusal = signature_refusal(request, settings)
    if refusal is not None:
        return refusal
    try:
        call = call_claims(request, settings)
    except AuthError as exc:
        log.warning("relay: refusing a connection: %s", exc)
        return web.Response(status=403, text=str(exc))
    ws = ExplainedSocket(
        max_msg_size=settings.max_frame_bytes,
        heartbeat=settings.heartbeat_s,
    )
    if not ws.can_prepare(request).ok:
        return web.Response(status=400, text="expected a websocket upgrade")
    # Calls all come from the platform's few addresses: only the total cap applies.
    saturation = request.app.get(SATURATION)
    if saturation is not None and saturation.retry_after_s() is not None:
        services.metrics.connections_refused.labels("saturated").inc()
        return SATURATED.response()
    slot = request.app[CONNECTION_LIMITS].admit(request.remote, per_address=False)
    if isinstance(slot, Refusal):
        services.metrics.connections_refused.labels(slot.code).inc()
        return slot.response()
    try:
        await ws.prepare(request)
        relay_call = RelayCall(
            ws,
            services,
            call=call,
            registry=request.app[CALL_REGISTRY],
            limits=request.app[MESSAGE_LIMITS],
            saturation=saturation,
        )
        track(request.app, ws, relay_call.shut_down)
        try:
            await relay_call.run()
        finally:
            await ws.close()
    finally:
        slot.release()
    return ws


def setup_routes(
    app: web.Application, settings: Settings, registry: CallRegistry | None = None
) -> None:
    """Registers `GET /v1/conversation-relay` and the `POST /v1/twiml` voice webhook.

    `registry`: the calls already seen (default: this process's memory).
    """
    app[CALL_REGISTRY] = InMemoryCalls() if registry is None else registry
    app[TWIML_SETTINGS] = settings
    app.router.add_get(ROUTE, conversation_relay)
    app.router.add_post(TWIML_ROUTE, twiml_webhook)


__all__ = ["ROUTE", "RelayCall", "conversation_relay", "greeting", "setup_routes"]
