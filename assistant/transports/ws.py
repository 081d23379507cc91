"""The websocket endpoint `GET /v1/ws`: shared/PROTOCOL.md, version 1, exactly.

One connection is one session. The handler admits the socket (admission.py: caps
answered over HTTP), authenticates it (ws_handshake.py: a Bearer header on the
upgrade, or a browser's `session.start` first frame), then reads frames; the session's
conversation (conversation.py, the runner every transport shares) runs its turns one
at a time from a short queue; one outbox (outbox.py) sends every frame going out,
and closes a client that does not read. Closing the socket stops the running turn. A bad frame
gets an `error` and never closes the socket; only an oversized frame (1009) or a
binary one (1003) does. A session also ends on time (its token's expiry, its maximum
lifetime) and when the server stops, after its running turn has been wound down.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

from aiohttp import WSCloseCode, WSMsgType, hdrs, web

from assistant.auth import SessionClaims, verify_session
from assistant.conversation import (
    RESUME_WAIT_S,
    CancelOutcome,
    Conversation,
    Message,
    open_conversation,
)
from assistant.engine import Turn
from assistant.errors import AuthError, StoreUnavailable
from assistant.logs import trace_context
from assistant.metrics import Metrics
from assistant.schema import ErrorEvent, Event, EventSink, TurnDone
from assistant.services import METRICS, SERVICES, SETTINGS
from assistant.settings import Settings
from assistant.transports.admission import CONNECTION_LIMITS, SATURATED, Refusal
from assistant.transports.outbox import Outbox
from assistant.transports.ratelimit import InMemoryLimits, MessageLimits, SessionLimits
from assistant.transports.saturation import SATURATION, Saturation
from assistant.transports.sockets import ExplainedSocket, track
from assistant.transports.ws_frames import (
    FrameError,
    SessionResume,
    TurnCancel,
    UserMessage,
    parse_frame,
)
from assistant.transports.ws_handshake import (
    bearer_token,
    close_socket,
    http_error,
    origin_allowed,
    session_start,
)
from assistant.transports.ws_resume import last_turn

log = logging.getLogger(__name__)

PROTOCOL_VERSION: Final = 1
PATH: Final = "/v1/ws"
_INTERNAL: Final = "Something went wrong on our side; it has been logged."
# The shared session store is down: the message was not acted on, so nothing changed.
_STORE_DOWN: Final = (
    "the conversation store cannot be reached just now, so this message was not acted on "
    "and nothing was changed; send it again in a moment"
)
_STORE_RETRY_S: Final = 2.0


@dataclass(frozen=True, slots=True)
class WsTuning:
    """Timings fixed by the protocol in production; tests shorten them (`app[WS_TUNING]`)."""

    session_start_timeout_s: float = 10.0
    # How long a resume waits for a turn of the session still running elsewhere.
    resume_wait_s: float = RESUME_WAIT_S
    # The settings count messages per minute: the budget's window.
    rate_period_s: float = 60.0


WS_TUNING = web.AppKey("ws_tuning", WsTuning)
# Message budgets; set before start-up to share them (Redis), else made per process.
MESSAGE_LIMITS = web.AppKey("message_limits", MessageLimits)


def setup_routes(app: web.Application) -> None:
    """Adds `GET /v1/ws`. `app[SETTINGS]` must be set already."""
    app[WS_TUNING] = WsTuning()
    app.on_startup.append(_create_budgets)
    app.router.add_get(PATH, websocket_handler)


async def _create_budgets(app: web.Application) -> None:
    # At startup, so that a test's WS_TUNING (set after create_app) is the one used.
    if MESSAGE_LIMITS in app:
        return
    settings = app[SETTINGS]
    app[MESSAGE_LIMITS] = InMemoryLimits(
        settings.session_messages_per_minute,
        settings.customer_messages_per_minute,
        app[WS_TUNING].rate_period_s,
    )


# --- the endpoint --------------------------------------------------------------------


async def websocket_handler(request: web.Request) -> web.StreamResponse:
    app = request.app
    settings = app[SETTINGS]
    if not origin_allowed(request, settings):
        origin = request.headers.get(hdrs.ORIGIN, "")
        return http_error(web.HTTPForbidden, "forbidden_origin", f"origin {origin} not allowed")
    secret = settings.signing_secret(for_server=True)
    claims: SessionClaims | None = None
    if hdrs.AUTHORIZATION in request.headers:
        try:
            claims = verify_session(secret, bearer_token(request.headers[hdrs.AUTHORIZATION]))
        except AuthError as exc:
            return http_error(
                web.HTTPUnauthorized,
                "unauthorized",
                str(exc),
                headers={hdrs.WWW_AUTHENTICATE: "Bearer"},
            )
    ws = ExplainedSocket(heartbeat=settings.heartbeat_s, max_msg_size=settings.max_frame_bytes)
    if not ws.can_prepare(request).ok:
        return http_error(
            web.HTTPUpgradeRequired,
            "upgrade_required",
            f"{PATH} is a websocket: send an upgrade request",
            headers={hdrs.UPGRADE: "websocket"},
        )
    # Counted from before the upgrade until the socket closes, authenticated or not.
    refused = app[METRICS].connections_refused
    if app.get(SATURATION) and app[SATURATION].retry_after_s() is not None:
        refused.labels("saturated").inc()
        return SATURATED.response()
    slot = app[CONNECTION_LIMITS].admit(request.remote)
    if isinstance(slot, Refusal):
        refused.labels(slot.code).inc()
        return slot.response()
    try:
        refusal = slot.claim_customer(claims.customer_id) if claims else None
        if refusal is not None:
            refused.labels(refusal.code).inc()
            return refusal.response()
        await ws.prepare(request)
        track(app, ws)
        resume_id: str | None = None
        if claims is None:
            opened = await session_start(ws, secret, app[WS_TUNING].session_start_timeout_s)
            if opened is None:
                return ws
            claims, resume_id = opened
            refusal = slot.claim_customer(claims.customer_id)
            if refusal is not None:
                refused.labels(refusal.code).inc()
                await close_socket(ws, WSCloseCode.TRY_AGAIN_LATER, refusal.message)
                return ws
        await _run_session(request, ws, claims, resume_id)
    finally:
        slot.release()
    return ws


async def _run_session(
    request: web.Request, ws: web.WebSocketResponse, claims: SessionClaims, resume_id: str | None
) -> None:
    app = request.app
    settings = app[SETTINGS]
    services = app[SERVICES]
    trace_id = uuid.uuid4().hex
    transport = request.transport

    def abort() -> None:
        services.metrics.slow_clients.inc()
        if transport is not None:
            transport.abort()

    connection = WsConnection(
        ws,
        settings,
        services.metrics,
        abort=abort,
        saturation=app.get(SATURATION),
        transport=transport if isinstance(transport, asyncio.Transport) else None,
        resume_wait_s=app[WS_TUNING].resume_wait_s,
    )
    conversation = await open_conversation(
        services,
        claims.customer_id,
        connection,
        transport="ws",
        trace_id=trace_id,
        heard_apart=True,  # tabs and devices of one session each hear their own turns
    )
    resumed = False
    if resume_id is not None:
        resumed = await conversation.resume(
            resume_id, claims.customer_id, wait_s=app[WS_TUNING].resume_wait_s
        )
        conversation.session.after_lost = not resumed
    with trace_context(trace_id, session_id=conversation.session.session_id):
        track(app, ws, connection.end)
        await connection.serve(
            conversation, app[MESSAGE_LIMITS], expires_at=claims.expires_at, resumed=resumed
        )


TOKEN_EXPIRED: Final = "session token expired"
LIFETIME_REACHED: Final = "session lifetime reached"
_NOT_RUN: Final = "the session ended before this message was answered; send it again"


def _still_asked(conversation: Conversation) -> str:
    """Said after a message is refused while a question waits for its answer: a "yes"
    refused so did nothing, and the question is still to be answered (a customer told
    only "the server is busy" cannot know whether the delete was made)."""
    if not conversation.question_waits:
        return ""
    return ". Nothing was done: the question asked last still waits for your answer"


class WsConnection:
    """One session's socket: protocol frames in and out of its conversation.

    The conversation (conversation.py) runs the turns one at a time; this class reads
    frames, checks and queues messages, and writes events through one outbox. A
    session ends when the client leaves (the running turn is cancelled with the
    socket), or by `end(code, reason)`: at its token's expiry or its maximum lifetime
    (1008) and when the server stops (1001). `end` cancels the running turn by the
    usual rules, waits for it (a write in flight finishes), sends everything queued,
    its `tool.finished` and `turn.done` included, and only then closes.
    """

    def __init__(
        self,
        ws: web.WebSocketResponse,
        settings: Settings,
        metrics: Metrics,
        *,
        abort: Callable[[], None] | None = None,
        saturation: Saturation | None = None,
        transport: asyncio.Transport | None = None,
        resume_wait_s: float = RESUME_WAIT_S,
    ) -> None:
        self._ws = ws
        self._resume_wait_s = resume_wait_s
        self._saturation = saturation
        self._settings = settings
        self._metrics = metrics
        self._outbox = Outbox(
            ws,
            send_timeout_s=settings.send_timeout_s,
            max_frames=settings.max_outgoing_frames,
            abort=abort or (lambda: None),
            transport=transport,
        )
        self._conversation: Conversation | None = None
        self._done_sent: set[str] = set()
        self._budgets: SessionLimits | None = None
        self._limits: MessageLimits | None = None
        self._resume_closed = False
        self._ending: asyncio.Task[None] | None = None
        # What `_emit` returns: awaiting a future already done returns at once.
        self._queued: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queued.set_result(None)

    async def serve(
        self,
        conversation: Conversation,
        limits: MessageLimits,
        *,
        expires_at: float | None = None,
        resumed: bool = False,
    ) -> None:
        """Until the socket closes. `limits`: the message budgets (this session's and its
        customer's); `expires_at`: the token's expiry (epoch seconds); `resumed`: the
        conversation continues an earlier session (browser `session.resume`)."""
        self._conversation = conversation
        self._limits = limits
        session = conversation.session
        customer = session.customer
        customer_id = customer.customer_id if customer else None
        self._budgets = limits.for_session(session.session_id, customer_id or "")
        log.info("websocket session opened", extra={"customer_id": customer_id})
        conversation.start()
        expiry = self._schedule_expiry(expires_at)
        try:
            await self._send_ready(resumed=resumed)
            await self._read()
        finally:
            expiry.cancel()
            try:
                if self._ending is not None:
                    await asyncio.wait([self._ending])
                await conversation.close()
            finally:
                await self._outbox.close()
                log.info("websocket session closed", extra={"code": self._ws.close_code})

    async def _send_ready(self, *, resumed: bool) -> None:
        conversation = self._conversation
        assert conversation is not None, "serve() sets it"
        session = conversation.session
        customer = session.customer
        # An added field, only on a resume: how the turn before the reconnect ended.
        told = {"last_turn": last_turn(session)} if resumed else {}
        await self._outbox.send(
            {
                "type": "session.ready",
                "session_id": session.session_id,
                "customer_id": customer.customer_id if customer else None,
                # An added field: clients greet the customer by name, not by id.
                "customer_name": customer.name if customer else None,
                "protocol": PROTOCOL_VERSION,
                "resumed": resumed,
                "limits": {
                    "max_text_chars": self._settings.max_text_chars,
                    "max_tool_calls_per_round": self._settings.max_tool_calls_per_round,
                },
                **told,
            }
        )

    async def _on_resume(self, frame: SessionResume) -> None:
        """`session.resume` after the Bearer path's `session.ready`: a second ready names
        the session the client gets (the earlier one when it can be continued)."""
        conversation = self._conversation
        assert conversation is not None, "serve() sets it"
        assert self._limits is not None, "serve() sets them"
        if frame.token is not None:
            raise FrameError(
                "invalid_message",
                "session.resume: this socket is already authenticated; send it without a token",
            )
        if self._resume_closed:
            raise FrameError("invalid_message", "session.resume: only as the first frame")
        self._resume_closed = True
        customer = conversation.session.customer
        customer_id = customer.customer_id if customer else None
        resumed = await conversation.resume(
            frame.session_id, customer_id, wait_s=self._resume_wait_s
        )
        if resumed:
            self._budgets = self._limits.for_session(frame.session_id, customer_id or "")
        else:
            conversation.session.after_lost = True
        await self._send_ready(resumed=resumed)

    def _schedule_expiry(self, expires_at: float | None) -> asyncio.TimerHandle:
        lifetime_s = self._settings.max_session_lifetime_s
        token_left_s = (expires_at - time.time()) if expires_at is not None else lifetime_s + 1
        reason = TOKEN_EXPIRED if token_left_s <= lifetime_s else LIFETIME_REACHED
        return asyncio.get_running_loop().call_later(
            max(0.0, min(token_left_s, lifetime_s)),
            self.begin_end,
            WSCloseCode.POLICY_VIOLATION,
            reason,
        )

    @property
    def ending(self) -> bool:
        """True once the session has begun to end (expiry, lifetime, shutdown)."""
        return self._ending is not None

    def begin_end(self, code: int, reason: str) -> None:
        """Start ending the session (once); see `end`."""
        if self._ending is None:
            self._ending = asyncio.create_task(self._end(code, reason), name="ws-end")

    async def end(self, code: int, reason: str) -> None:
        """End the session gracefully and close the socket with `code` and `reason`."""
        self.begin_end(code, reason)
        assert self._ending is not None
        await asyncio.wait([self._ending])

    async def _end(self, code: int, reason: str) -> None:
        grace_s = self._settings.shutdown_grace_s
        if self._conversation is not None:
            for dropped in await self._conversation.wind_down(grace_s):
                await self._send_error("busy", _NOT_RUN, message_id=dropped.message_id)
        await self._outbox.flush(grace_s)
        log.info("ending the websocket session: %s", reason)
        await close_socket(self._ws, code, reason)

    async def _read(self) -> None:
        while True:
            message = await self._ws.receive()
            if message.type is WSMsgType.TEXT:
                await self._on_text(message.data)
            elif message.type is WSMsgType.BINARY:
                await close_socket(
                    self._ws, WSCloseCode.UNSUPPORTED_DATA, "binary frames are not supported"
                )
                return
            else:  # closed by the client, the heartbeat, or a frame too big (1009)
                return

    async def _on_text(self, data: str) -> None:
        frame: object = None
        try:
            frame = parse_frame(data)
            if isinstance(frame, SessionResume):
                await self._on_resume(frame)
                return
            self._resume_closed = True  # session.resume is only a first frame
            if isinstance(frame, UserMessage):
                await self._on_user_message(frame)
            elif isinstance(frame, TurnCancel):
                self._on_cancel(frame)
            else:
                raise FrameError("invalid_message", "session.start: the session is already open")
        except FrameError as exc:
            await self._send_error(
                exc.code, exc.message, message_id=exc.message_id, retry_after_s=exc.retry_after_s
            )
        except StoreUnavailable as exc:
            log.warning("a client frame was not acted on: %s", exc)
            message_id = frame.id if isinstance(frame, UserMessage) else None
            await self._send_error(
                "busy", _STORE_DOWN, message_id=message_id, retry_after_s=_STORE_RETRY_S
            )
        except Exception:
            log.exception("failed to handle a client frame")
            await self._send_error("internal", _INTERNAL)

    async def _on_user_message(self, frame: UserMessage) -> None:
        conversation = self._conversation
        assert conversation is not None, "serve() sets it"
        assert self._budgets is not None, "serve() sets them"
        if self._ending is not None:
            raise FrameError("busy", _NOT_RUN, message_id=frame.id)
        text = frame.text.strip()
        if not text:
            raise FrameError(
                "invalid_message", "user.message: 'text' is empty", message_id=frame.id
            )
        limit = self._settings.max_text_chars
        if len(text) > limit:
            raise FrameError(
                "text_too_long",
                f"the message is {len(text)} characters; the limit is {limit}",
                message_id=frame.id,
            )
        refusal = await self._budgets.admit()
        if refusal is not None:
            self._metrics.rate_limited.labels(refusal.scope).inc()
            raise FrameError(
                "rate_limited",
                f"too many messages from this {refusal.scope}; "
                f"try again in {refusal.retry_after_s:g} s{_still_asked(conversation)}",
                message_id=frame.id,
                retry_after_s=refusal.retry_after_s,
            )
        wait_s = self._saturation.retry_after_s() if self._saturation else None
        if wait_s is not None:
            self._metrics.turns_refused.inc()
            raise FrameError(
                "busy",
                f"the server is busy; try again in {wait_s:g} s{_still_asked(conversation)}",
                message_id=frame.id,
                retry_after_s=wait_s,
            )
        if conversation.outstanding > self._settings.max_queued_messages:
            raise FrameError(
                "busy",
                f"{self._settings.max_queued_messages} messages are already waiting; "
                f"this one was dropped{_still_asked(conversation)}",
                message_id=frame.id,
            )
        conversation.submit(Message(text, frame.id))

    def _on_cancel(self, frame: TurnCancel) -> None:
        assert self._conversation is not None, "serve() sets it"
        outcome = self._conversation.cancel(frame.turn_id)
        if outcome is CancelOutcome.UNKNOWN:
            turn = self._conversation.turn
            current = f"; the turn in progress is {turn.turn_id}" if turn else ""
            raise FrameError(
                "invalid_message", f"turn.cancel: no turn {frame.turn_id!r} is running{current}"
            )

    # --- the conversation's frames ----------------------------------------------------

    def sink(self, message: Message) -> EventSink:
        return self._emit

    async def turn_failed(self, message: Message, turn: Turn) -> None:
        await self._send_error("internal", _INTERNAL, turn_id=turn.turn_id, trace_id=turn.trace_id)
        if turn.turn_id not in self._done_sent:
            # Every turn ends with turn.done, so a client never waits forever.
            done = TurnDone(turn.turn_id, "failed", [], 0, None, {}, trace_id=turn.trace_id)
            await self._emit(done)

    async def turn_ended(self, message: Message, turn: Turn, status: str) -> None:
        return None

    def _emit(self, event: Event) -> Awaitable[None]:
        """The turn's event sink: the frame is queued at once, and what is returned to
        await is already done (a dozen events a turn: no coroutine made for each)."""
        if isinstance(event, TurnDone):
            self._done_sent.add(event.turn_id)
        self._outbox.put(event.to_wire())
        return self._queued

    async def _send_error(
        self,
        code: str,
        message: str,
        *,
        turn_id: str | None = None,
        message_id: str | None = None,
        retry_after_s: float | None = None,
        trace_id: str | None = None,
    ) -> None:
        frame = ErrorEvent(
            code, message, turn_id=turn_id, retry_after_s=retry_after_s, trace_id=trace_id
        ).to_wire()
        if message_id is not None:
            frame["message_id"] = message_id  # which message was dropped (an added field)
        await self._outbox.send(frame)


__all__ = ["MESSAGE_LIMITS", "PATH", "WS_TUNING", "WsConnection", "WsTuning", "setup_routes"]
