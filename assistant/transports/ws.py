"""The websocket endpoint `GET /v1/ws`: shared/PROTOCOL.md, version 1, exactly.

One connection is one session. The handler authenticates (a Bearer header on the
upgrade, or a browser's `session.start` first frame), then reads frames; a worker task
owned by the connection runs the session's turns one at a time from a short queue;
one sender serialises every frame going out. Closing the socket cancels the worker,
and with it the running turn. A bad frame gets an `error` and never closes the socket;
only an oversized frame (1009) or a binary one (1003) does.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from dataclasses import dataclass
from typing import Any, Final

from aiohttp import WSCloseCode, WSMsgType, hdrs, web
from yarl import URL

from assistant.app import SERVICES, SETTINGS
from assistant.auth import verify_token
from assistant.engine import Engine, Turn
from assistant.errors import AuthError
from assistant.logs import trace_context
from assistant.metrics import Metrics
from assistant.recording.recorder import SessionRecording
from assistant.schema import ErrorEvent, Event, TurnDone
from assistant.session import Session
from assistant.settings import Settings
from assistant.timeline import LiveTimelines
from assistant.transports.ratelimit import Budget, CustomerBudgets, admit
from assistant.transports.sockets import track
from assistant.transports.ws_frames import (
    FrameError,
    SessionStart,
    TurnCancel,
    UserMessage,
    parse_frame,
)

log = logging.getLogger(__name__)

PROTOCOL_VERSION: Final = 1
PATH: Final = "/v1/ws"
# A close reason must fit in a control frame (125 bytes, 2 of them the code).
_MAX_REASON_BYTES: Final = 123
_BINARY_REFUSED: Final = "binary frames are not supported; send JSON text frames"
_INTERNAL: Final = "Something went wrong on our side; it has been logged."


@dataclass(frozen=True, slots=True)
class WsTuning:
    """Timings fixed by the protocol in production; tests shorten them (`app[WS_TUNING]`)."""

    session_start_timeout_s: float = 10.0
    # The settings count messages per minute: the budget's window.
    rate_period_s: float = 60.0


WS_TUNING = web.AppKey("ws_tuning", WsTuning)
CUSTOMER_BUDGETS = web.AppKey("ws_customer_budgets", CustomerBudgets)


def setup_routes(app: web.Application) -> None:
    """Adds `GET /v1/ws`. `app[SETTINGS]` must be set already."""
    app[WS_TUNING] = WsTuning()
    app.on_startup.append(_create_budgets)
    app.router.add_get(PATH, websocket_handler)


async def _create_budgets(app: web.Application) -> None:
    # At startup, so that a test's WS_TUNING (set after create_app) is the one used.
    rate = app[SETTINGS].customer_messages_per_minute
    app[CUSTOMER_BUDGETS] = CustomerBudgets(rate, app[WS_TUNING].rate_period_s)


# --- the endpoint --------------------------------------------------------------------


async def websocket_handler(request: web.Request) -> web.StreamResponse:
    app = request.app
    settings = app[SETTINGS]
    if not origin_allowed(request, settings.allowed_origins):
        origin = request.headers.get(hdrs.ORIGIN, "")
        return _http_error(web.HTTPForbidden, "forbidden_origin", f"origin {origin} not allowed")
    secret = settings.signing_secret(for_server=True)
    customer_id: str | None = None
    if hdrs.AUTHORIZATION in request.headers:
        try:
            customer_id = verify_token(secret, _bearer(request.headers[hdrs.AUTHORIZATION]))
        except AuthError as exc:
            return _http_error(
                web.HTTPUnauthorized,
                "unauthorized",
                str(exc),
                headers={hdrs.WWW_AUTHENTICATE: "Bearer"},
            )
    ws = web.WebSocketResponse(
        heartbeat=settings.heartbeat_s, max_msg_size=settings.max_frame_bytes
    )
    if not ws.can_prepare(request).ok:
        return _http_error(
            web.HTTPUpgradeRequired,
            "upgrade_required",
            f"{PATH} is a websocket: send an upgrade request",
            headers={hdrs.UPGRADE: "websocket"},
        )
    await ws.prepare(request)
    track(app, ws)
    if customer_id is None:
        customer_id = await _session_start(ws, secret, app[WS_TUNING].session_start_timeout_s)
        if customer_id is None:
            return ws
    services = app[SERVICES]
    trace_id = uuid.uuid4().hex
    session = await services.open_session(customer_id, trace_id=trace_id)
    budgets = (
        Budget(settings.session_messages_per_minute, app[WS_TUNING].rate_period_s),
        app[CUSTOMER_BUDGETS].of(customer_id),
    )
    recording = services.recorder.open(session) if services.recorder else None
    with trace_context(trace_id, session_id=session.session_id):
        connection = WsConnection(
            ws,
            session,
            services.engine,
            settings,
            services.metrics,
            recording=recording,
            timelines=services.timelines,
        )
        try:
            await connection.serve(budgets)
        finally:
            if recording is not None:
                recording.close()
    return ws


def origin_allowed(request: web.Request, allowed: list[str]) -> bool:
    """No Origin (not a browser), the service's own origin, or one on the allow-list."""
    origin = request.headers.get(hdrs.ORIGIN)
    if origin is None:
        return True
    key = _origin_key(origin)
    if key is None:  # "null" (sandboxed frames, files) or garbage
        return False
    own = _origin_key(f"{request.scheme}://{request.host}")
    return key == own or key in {_origin_key(entry) for entry in allowed}


def _origin_key(value: str) -> tuple[str, str, int | None] | None:
    try:
        url = URL(value.strip())
        if not url.scheme or not url.host:
            return None
        return url.scheme.lower(), url.host.lower(), url.port
    except ValueError:
        return None


def _bearer(header: str) -> str:
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer":
        raise AuthError("the Authorization header must be 'Bearer <token>'")
    return token.strip()


def _http_error(
    kind: type[web.HTTPException],
    code: str,
    message: str,
    *,
    headers: dict[str, str] | None = None,
) -> web.Response:
    return web.json_response(
        {"error": {"code": code, "message": message}}, status=kind.status_code, headers=headers
    )


async def _session_start(ws: web.WebSocketResponse, secret: str, timeout_s: float) -> str | None:
    """The browser path: the customer named by a `session.start` first frame, or None
    once the socket is closed (1008 for silence, another frame or a bad token)."""
    try:
        message = await ws.receive(timeout=timeout_s)
    except TimeoutError:
        await _close(ws, WSCloseCode.POLICY_VIOLATION, f"no session.start within {timeout_s:g} s")
        return None
    if message.type is WSMsgType.BINARY:
        await _close(ws, WSCloseCode.UNSUPPORTED_DATA, _BINARY_REFUSED)
        return None
    if message.type is not WSMsgType.TEXT:
        return None  # the client left, or its frame was too big (closed with 1009)
    try:
        frame = parse_frame(message.data)
    except FrameError:
        frame = None
    if not isinstance(frame, SessionStart):
        await _close(ws, WSCloseCode.POLICY_VIOLATION, "the first frame must be session.start")
        return None
    try:
        return verify_token(secret, frame.token)
    except AuthError as exc:
        await _close(ws, WSCloseCode.POLICY_VIOLATION, str(exc))
        return None


async def _close(ws: web.WebSocketResponse, code: int, reason: str) -> None:
    encoded = reason.encode()[:_MAX_REASON_BYTES]
    await ws.close(code=code, message=encoded.decode(errors="ignore").encode())


class _Sender:
    """The one writer of a socket: frames go out whole and in order, from any task.

    After the socket closes, sends are dropped: a turn winding down must not fail
    because nobody is listening any more.
    """

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self._ws = ws
        self._lock = asyncio.Lock()
        self._gone = False

    async def send(self, frame: dict[str, Any]) -> None:
        text = json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
        async with self._lock:
            if self._gone or self._ws.closed:
                return
            try:
                await self._ws.send_str(text)
            except (ConnectionError, RuntimeError) as exc:
                self._gone = True
                log.debug("dropped a frame for a closed socket: %s", exc)


async def _stop(worker: asyncio.Task[None]) -> None:
    """Cancel the session's worker (the running turn with it) and wait until it is done.

    The wait outlasts a cancellation of our own (a server shutting down, a test server
    dropping the handler): a write in flight is finishing, and the turn's end is bounded
    by its calls' timeouts. Our cancellation is passed on afterwards.
    """
    worker.cancel()
    interrupted = False
    while not worker.done():
        try:
            await asyncio.wait([worker])
        except asyncio.CancelledError:
            interrupted = True
    if interrupted:
        raise asyncio.CancelledError


class WsConnection:
    """One session's socket: reads frames, queues messages, runs turns one at a time."""

    def __init__(
        self,
        ws: web.WebSocketResponse,
        session: Session,
        engine: Engine,
        settings: Settings,
        metrics: Metrics,
        *,
        recording: SessionRecording | None = None,
        timelines: LiveTimelines | None = None,
    ) -> None:
        self._ws = ws
        self._timelines = timelines
        self._session = session
        self._recording = recording
        self._engine = engine
        self._settings = settings
        self._metrics = metrics
        self._sender = _Sender(ws)
        self._queue: asyncio.Queue[UserMessage] = asyncio.Queue()
        # Accepted messages not yet answered: the running one plus those queued.
        self._outstanding = 0
        self._turn: Turn | None = None
        self._finished_turns: set[str] = set()
        self._done_sent: set[str] = set()
        self._budgets: tuple[Budget, Budget] | None = None

    async def serve(self, budgets: tuple[Budget, Budget]) -> None:
        """Until the socket closes. `budgets`: this session's and its customer's."""
        self._budgets = budgets
        customer = self._session.customer
        customer_id = customer.customer_id if customer else None
        gauge = self._metrics.sessions.labels("ws")
        gauge.inc()
        log.info("websocket session opened", extra={"customer_id": customer_id})
        worker = asyncio.create_task(self._work(), name=f"ws-turns-{self._session.session_id}")
        try:
            await self._sender.send(
                {
                    "type": "session.ready",
                    "session_id": self._session.session_id,
                    "customer_id": customer_id,
                    # An added field: clients greet the customer by name, not by id.
                    "customer_name": customer.name if customer else None,
                    "protocol": PROTOCOL_VERSION,
                    "limits": {
                        "max_text_chars": self._settings.max_text_chars,
                        "max_tool_calls_per_round": self._settings.max_tool_calls_per_round,
                    },
                }
            )
            await self._read()
        finally:
            try:
                await _stop(worker)
            finally:
                gauge.dec()
                log.info("websocket session closed", extra={"code": self._ws.close_code})

    async def _read(self) -> None:
        while True:
            message = await self._ws.receive()
            if message.type is WSMsgType.TEXT:
                await self._on_text(message.data)
            elif message.type is WSMsgType.BINARY:
                await _close(
                    self._ws, WSCloseCode.UNSUPPORTED_DATA, "binary frames are not supported"
                )
                return
            else:  # closed by the client, the heartbeat, or a frame too big (1009)
                return

    async def _on_text(self, data: str) -> None:
        try:
            frame = parse_frame(data)
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
        except Exception:
            log.exception("failed to handle a client frame")
            await self._send_error("internal", _INTERNAL)

    async def _on_user_message(self, frame: UserMessage) -> None:
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
        assert self._budgets is not None, "serve() sets the budgets"
        refusal = await admit(*self._budgets)
        if refusal is not None:
            self._metrics.rate_limited.labels(refusal.scope).inc()
            raise FrameError(
                "rate_limited",
                f"too many messages from this {refusal.scope}; "
                f"try again in {refusal.retry_after_s:g} s",
                message_id=frame.id,
                retry_after_s=refusal.retry_after_s,
            )
        if self._outstanding > self._settings.max_queued_messages:
            raise FrameError(
                "busy",
                f"{self._settings.max_queued_messages} messages are already waiting; "
                "this one was dropped",
                message_id=frame.id,
            )
        self._outstanding += 1
        self._queue.put_nowait(frame.model_copy(update={"text": text}))

    def _on_cancel(self, frame: TurnCancel) -> None:
        turn = self._turn
        if frame.turn_id is not None and (turn is None or turn.turn_id != frame.turn_id):
            if frame.turn_id in self._finished_turns:
                return  # it ended while the cancel was on its way: nothing to stop
            current = f"; the turn in progress is {turn.turn_id}" if turn else ""
            raise FrameError(
                "invalid_message", f"turn.cancel: no turn {frame.turn_id!r} is running{current}"
            )
        if turn is not None:
            turn.cancel()

    async def _work(self) -> None:
        while True:
            message = await self._queue.get()
            try:
                await self._run_turn(message)
            finally:
                self._outstanding -= 1

    async def _run_turn(self, message: UserMessage) -> None:
        emit = self._recording.wrap_emit(self._emit) if self._recording else self._emit
        if self._timelines is not None:
            emit = self._timelines.wrap_emit(emit, message.text)
        turn = self._engine.start_turn(self._session, message.text, emit, message_id=message.id)
        self._turn = turn
        try:
            await turn.wait()
        except Exception:
            log.exception("turn %s failed", turn.turn_id)
            await self._send_error(
                "internal", _INTERNAL, turn_id=turn.turn_id, trace_id=turn.trace_id
            )
            if turn.turn_id not in self._done_sent:
                # Every turn ends with turn.done, so a client never waits forever.
                done = TurnDone(turn.turn_id, "failed", [], 0, None, {}, trace_id=turn.trace_id)
                await self._emit(done)
        finally:
            self._turn = None
            self._finished_turns.add(turn.turn_id)

    async def _emit(self, event: Event) -> None:
        if isinstance(event, TurnDone):
            self._done_sent.add(event.turn_id)
        await self._sender.send(event.to_wire())

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
        await self._sender.send(frame)


__all__ = ["CUSTOMER_BUDGETS", "PATH", "WS_TUNING", "WsConnection", "WsTuning", "setup_routes"]
