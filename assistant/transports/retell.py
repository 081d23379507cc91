"""Retell's custom-LLM websocket: `GET /v1/retell/<key>/<call_id>` (PLATFORMS.md section 2).

Retell does the speech and turn-taking and asks us what to say. Its frames map onto
the shared conversation runner:

    connect            → `config` (auto_reconnect, call_details), then, once the
                         caller is known, the greeting as response 0
    call_details       → the caller: a session token in the dynamic variables, else
                         `from_number` in the CRM; unknown → general questions only
    ping_pong          → the same timestamp back
    update_only        → noted, no reply
    response_required  → a turn: the acknowledgement as response N (content_complete
                         false) before tools are awaited, the answer under the same N,
                         and always a last frame with content_complete true
    reminder_required  → a short nudge, no tools

A higher `response_id` makes the earlier response stale: nothing more is sent for it,
its reads are cancelled and its writes finish (remembered for the next answer). A
handoff (the caller asks for a person, or two failed answers in a row) ends the answer
with `transfer_number` (setting `retell_transfer_number`), or `end_call` without one.

Retell drops the call if this socket fails, so no frame may crash it: a frame that is
not JSON or of an unknown kind is logged and ignored. The key in the URL is checked
before the upgrade and never logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import uuid
from typing import Any, Final

from aiohttp import WSMsgType, web

from assistant.conversation import Conversation, Message, open_conversation
from assistant.errors import StoreUnavailable
from assistant.schema import ToolFinished, ToolStarted
from assistant.services import SERVICES, Services
from assistant.transports.admission import CONNECTION_LIMITS, SATURATED, Refusal
from assistant.transports.outbox import encode_frame
from assistant.transports.platform_calls import continue_stored, stored_session_id
from assistant.transports.platform_retry import LastAnswer
from assistant.transports.platform_turns import RoutedFrames, Spoken, TurnEnd, TurnStream
from assistant.transports.ratelimit import SessionLimits
from assistant.transports.relay_caller import greeting
from assistant.transports.relay_handoff import HANDOFF_LINE, HandoffReason, wants_person
from assistant.transports.retell_caller import identify
from assistant.transports.retell_frames import (
    CONFIG,
    Asked,
    parse_frame,
    read_transcript,
    tool_invocation,
    tool_result,
)
from assistant.transports.saturation import SATURATION
from assistant.transports.sockets import ExplainedSocket, track
from assistant.transports.voice_budget import refusal_line
from assistant.transports.ws import MESSAGE_LIMITS

log = logging.getLogger(__name__)

ROUTE: Final = "/v1/retell/{key}/{call_id}"
# Retell sends call_details right after our config; past this we greet without it.
CALL_DETAILS_WAIT_S: Final = 2.0
NUDGE: Final = "Are you still there? Take your time, I'm here when you're ready."
# How far past the newest response id the next may be: Retell asks one response at a time,
# so a call's ids grow by a few (reminders and barge-ins skip some), never by thousands.
_MAX_RESPONSE_ID_STEP: Final = 1000


class RetellCall:
    """One Retell call: its conversation, and the response id Retell waits for."""

    def __init__(self, ws: web.WebSocketResponse, app: web.Application, call_id: str) -> None:
        self._ws = ws
        self._app = app
        self._services: Services = app[SERVICES]
        self._call_id = call_id
        self._frames = RoutedFrames()
        self._conversation: Conversation | None = None
        self._budgets: SessionLimits | None = None
        self._latest = -1  # the newest response id asked for; earlier ones are stale
        self._speaking: asyncio.Task[None] | None = None
        self._current: TurnStream | None = None
        self._ended = False

    async def run(self) -> None:
        try:
            await self.send({"response_type": "config", "config": CONFIG})
            await self._greet(await self._call_details())
            async for message in self._ws:
                if message.type is WSMsgType.TEXT:
                    await self._receive(message.data)
        finally:
            self._stale()
            # First: close() outlasts a cancellation of ours (the server stopping) and
            # closes the recording; the speaker's stream is abandoned, so it ends too.
            if self._conversation is not None:
                await self._conversation.close()
            if self._speaking is not None:
                await asyncio.wait([self._speaking])

    async def _call_details(self) -> dict[str, Any] | None:
        """The `call` of call_details, answering pings meanwhile; None if it does not come."""
        loop = asyncio.get_running_loop()
        until = loop.time() + CALL_DETAILS_WAIT_S
        while (left := until - loop.time()) > 0:
            try:
                message = await self._ws.receive(timeout=left)
            except TimeoutError:
                break
            if message.type is not WSMsgType.TEXT:
                return None
            frame = parse_frame(message.data)
            if frame is None:
                continue
            if frame.get("interaction_type") == "call_details":
                call = frame.get("call")
                return call if isinstance(call, dict) else {}
            await self._receive_frame(frame)  # a ping (or Retell already asking)
        log.info("retell: no call_details in time; greeting an unknown caller")
        return None

    async def _greet(self, call: dict[str, Any] | None) -> None:
        if self._conversation is not None:
            return  # Retell asked for a response before its call details
        trace_id = f"retell-{uuid.uuid4().hex[:12]}"
        customer_id, lookup_failed = await identify(
            call or {}, self._services.settings, self._services.crm, trace_id
        )
        continued = await self._open(customer_id, trace_id)
        assert self._conversation is not None
        customer = self._conversation.session.customer
        first_name = customer.name.split()[0] if customer and customer.name else None
        text = greeting(first_name, known=customer is not None, lookup_failed=lookup_failed)
        if self._latest < 0:
            # Retell reconnected mid-call (auto_reconnect): the caller was greeted already.
            await self._respond(0, "" if continued else text, complete=True)

    async def _open(self, customer_id: str | None, trace_id: str) -> bool:
        """Open the call's conversation; True when it continues a stored session (a
        reconnect of the same call, on this worker or another sharing the store)."""
        conversation = await open_conversation(
            self._services, customer_id, self._frames, transport="retell", trace_id=trace_id
        )
        session_id = stored_session_id(self._services, "retell", self._call_id)
        continued = await continue_stored(self._services, conversation, session_id, customer_id)
        conversation.start()
        self._conversation = conversation
        limits = self._app[MESSAGE_LIMITS]
        self._budgets = limits.for_session(
            conversation.session.session_id, customer_id or f"retell:{self._call_id}"
        )
        return continued

    # --- frames from Retell -----------------------------------------------------------

    async def _receive(self, data: str) -> None:
        frame = parse_frame(data)
        if frame is not None:
            try:
                await self._receive_frame(frame)
            except Exception:  # a bug here must not drop the call
                log.exception("retell: frame handling failed")

    async def _receive_frame(self, frame: dict[str, Any]) -> None:
        kind = frame.get("interaction_type")
        if kind == "ping_pong":
            await self.send({"response_type": "ping_pong", "timestamp": frame.get("timestamp")})
        elif kind == "update_only":
            log.debug("retell: transcript updated (%d entries)", len(frame.get("transcript") or []))
        elif kind in ("response_required", "reminder_required"):
            response_id = frame.get("response_id")
            if not isinstance(response_id, int) or isinstance(response_id, bool):
                log.warning("retell: ignoring a %s frame without an integer response_id", kind)
                return
            await self._respond_to(response_id, kind, read_transcript(frame.get("transcript")))
        elif kind == "call_details":
            log.info("retell: ignoring call_details after the call began")
        else:
            log.warning("retell: ignoring a frame of interaction_type %r", kind)

    async def _respond_to(self, response_id: int, kind: str, asked: Asked) -> None:
        if response_id < self._latest:
            log.info("retell: ignoring response_id %d, already at %d", response_id, self._latest)
            return
        if response_id > max(self._latest, 0) + _MAX_RESPONSE_ID_STEP:
            # Retell counts its responses up from 0: one far ahead would make every later
            # one stale and leave the call silent, so it is not taken as the newest.
            log.warning(
                "retell: ignoring response_id %d, far ahead of %d", response_id, self._latest
            )
            return
        self._latest = response_id
        self._stale()  # whatever was being said is stale now
        if self._conversation is None:
            await self._open(None, f"retell-{uuid.uuid4().hex[:12]}")
        if self._ended:
            await self._respond(response_id, "", complete=True, end_call=True)
        elif kind == "reminder_required":
            await self._respond(response_id, NUDGE, complete=True)
        elif not asked.text:
            await self._respond(response_id, "", complete=True)
        elif wants_person(asked.text):
            await self._hand_off(response_id, "caller_request")
        elif (answered := self._answers.for_retry(asked.fingerprint)) is not None:
            log.info("retell: the same transcript again is answered as before, not run again")
            await self._respond(response_id, answered.text, complete=True)
        else:
            await self._start_turn(response_id, asked)

    def _stale(self) -> None:
        """Stop the response being given: nothing more is sent, its reads stop."""
        if self._current is not None:
            self._current.abandon()
            self._current = None
            if self._conversation is not None:
                self._conversation.cancel()

    async def _start_turn(self, response_id: int, asked: Asked) -> None:
        assert self._conversation is not None, "opened before any turn"
        assert self._budgets is not None, "opened with the conversation"
        refused = await refusal_line(
            asked.text,
            settings=self._services.settings,
            budgets=self._budgets,
            metrics=self._services.metrics,
            saturation=self._app.get(SATURATION),
        )
        if refused is not None:
            await self._respond(response_id, refused, complete=True)
            return
        message_id = f"r_{response_id}_{uuid.uuid4().hex[:6]}"
        stream = self._current = self._frames.open(message_id)
        self._conversation.submit(Message(asked.text, message_id, asked.heard))
        previous = self._speaking
        speaking = self._speak(response_id, stream, previous, asked.fingerprint)
        self._speaking = asyncio.create_task(speaking)

    async def _speak(
        self,
        response_id: int,
        stream: TurnStream,
        previous: asyncio.Task[None] | None,
        asked: str,
    ) -> None:
        if previous is not None:
            await asyncio.wait([previous])  # its stream is abandoned: it ends at once
        spoken = Spoken()
        async for item in stream:
            if isinstance(item, ToolStarted):
                await self.send(tool_invocation(item))
            elif isinstance(item, ToolFinished):
                await self.send(tool_result(item))
            piece = spoken.piece(item)
            if piece is not None:
                await self._respond(response_id, piece, complete=False)
            if isinstance(item, TurnEnd):
                if self._current is stream:
                    self._current = None
                if self._frames.wants_handoff():
                    await self._hand_off(response_id, "repeated_failures")
                else:
                    await self._keep(asked, str(response_id), spoken.text, item.status)
                    await self._respond(response_id, "", complete=True)

    @property
    def _answers(self) -> LastAnswer:
        """The answers given in full, kept in the call's session (so in the session
        store): Retell reconnecting on a new socket (auto_reconnect), here or on another
        worker, and asking again for a response it had, is answered as before (attacks18:
        a reconnect asking response 2 'yes' again heard "There's nothing waiting for a
        yes just now", the per-socket record gone with the old socket)."""
        if self._conversation is None:
            return LastAnswer()
        return LastAnswer(self._conversation.session.answered)

    async def _keep(self, asked: str, response_id: str, text: str, status: str) -> None:
        """A turn's answer kept, and the session saved with it (the turn's own save may
        have gone before the answer was complete), as platform_calls does."""
        self._answers.keep(asked, response_id, text, status)
        if self._conversation is not None:
            with contextlib.suppress(StoreUnavailable):
                await self._services.sessions.save(self._conversation.session)

    async def _hand_off(self, response_id: int, reason: HandoffReason) -> None:
        self._ended = True
        number = self._services.settings.retell_transfer_number
        how: dict[str, Any] = {"transfer_number": number} if number else {"end_call": True}
        await self._respond(response_id, HANDOFF_LINE[reason], complete=True, **how)
        log.info("retell: handing the call to a person (%s)", reason)

    # --- frames to Retell -------------------------------------------------------------

    async def _respond(
        self, response_id: int, content: str, *, complete: bool, **extra: Any
    ) -> None:
        if response_id != self._latest and response_id != 0:
            return  # stale: Retell no longer waits for it
        frame = {
            "response_type": "response",
            "response_id": response_id,
            "content": content,
            "content_complete": complete,
            **extra,
        }
        await self.send(frame)

    async def send(self, frame: dict[str, Any]) -> None:
        if self._ws.closed:
            return
        try:
            # encode_frame: a lone surrogate from a tool's data is escaped, not fatal.
            await self._ws.send_str(encode_frame(frame).decode("utf-8"))
        except (ConnectionError, RuntimeError) as exc:
            log.info("retell: could not send a %s frame: %s", frame.get("response_type"), exc)

    async def shut_down(self, code: int, reason: str) -> None:
        """The server is stopping: the running turn ends by the usual rules, then close."""
        if self._conversation is not None:
            await self._conversation.wind_down(self._services.settings.shutdown_grace_s)
        await self._ws.close(code=code, message=reason.encode())


async def retell_socket(request: web.Request) -> web.StreamResponse:
    """Check the key (403 before the upgrade), admit, then run the call."""
    app = request.app
    services = app[SERVICES]
    expected = services.settings.retell_key
    given = request.match_info["key"].encode()
    if expected is None or not hmac.compare_digest(given, expected.get_secret_value().encode()):
        log.warning("retell: refusing a connection with a wrong key")  # the key is not logged
        return web.Response(status=403, text="wrong or unconfigured Retell key")
    settings = services.settings
    # Each frame carries the whole transcript: the platforms' limit, not the websocket's.
    ws = ExplainedSocket(
        max_msg_size=settings.platform_max_body_bytes, heartbeat=settings.heartbeat_s
    )
    if not ws.can_prepare(request).ok:
        return web.Response(status=400, text="expected a websocket upgrade")
    saturation = app.get(SATURATION)
    if saturation is not None and saturation.retry_after_s() is not None:
        services.metrics.connections_refused.labels("saturated").inc()
        return SATURATED.response()
    # Calls all come from Retell's few addresses: only the total cap applies.
    slot = app[CONNECTION_LIMITS].admit(request.remote, per_address=False)
    if isinstance(slot, Refusal):
        services.metrics.connections_refused.labels(slot.code).inc()
        return slot.response()
    try:
        await ws.prepare(request)
        call = RetellCall(ws, app, request.match_info["call_id"])
        track(app, ws, call.shut_down)
        log.info("retell: call %s connected", request.match_info["call_id"])
        try:
            await call.run()
        finally:
            await ws.close()
    finally:
        slot.release()
    return ws


def setup_routes(app: web.Application) -> None:
    """Adds Retell's LLM websocket, `GET /v1/retell/<key>/<call_id>`."""
    app.router.add_get(ROUTE, retell_socket)


__all__ = ["NUDGE", "ROUTE", "RetellCall", "retell_socket", "setup_routes"]
