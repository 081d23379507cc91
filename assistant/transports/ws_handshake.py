"""The websocket handshake of `/v1/ws`: who may upgrade, and the browser's first frame.

Before the upgrade: the Origin (never judged from `Host`), the Bearer token, answers as
HTTP errors. After it, for browsers: `session.start` within an absolute deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
from typing import Final

from aiohttp import WSCloseCode, WSMsgType, hdrs, web
from yarl import URL

from assistant.auth import SessionClaims, verify_session
from assistant.errors import AuthError
from assistant.settings import Settings
from assistant.transports.ws_frames import FrameError, SessionResume, SessionStart, parse_frame

# A close reason must fit in a control frame (125 bytes, 2 of them the code).
_MAX_REASON_BYTES: Final = 123
BINARY_REFUSED: Final = "binary frames are not supported; send JSON text frames"


def origin_allowed(request: web.Request, settings: Settings) -> bool:
    """No Origin (not a browser), the service's own origin, or one on the allow-list.

    The own origin is `ASSISTANT_PUBLIC_URL` when set, else the address this server's
    socket is bound to (with `localhost` for a loopback one). It is never built from
    the `Host` header: a DNS-rebinding page sends its own name in both Host and Origin.
    """
    origin = request.headers.get(hdrs.ORIGIN)
    if origin is None:
        return True
    key = _origin_key(origin)
    if key is None:  # "null" (sandboxed frames, files) or garbage
        return False
    allowed = {_origin_key(entry) for entry in settings.allowed_origins}
    return key in allowed or key in _own_origins(request, settings)


def _own_origins(
    request: web.Request, settings: Settings
) -> set[tuple[str, str, int | None] | None]:
    if settings.public_origin:
        return {_origin_key(settings.public_origin)}
    sockname = request.transport.get_extra_info("sockname") if request.transport else None
    if not isinstance(sockname, tuple) or len(sockname) < 2:
        return set()
    host, port = str(sockname[0]), int(sockname[1])
    hosts = {host}
    with contextlib.suppress(ValueError):
        if ipaddress.ip_address(host).is_loopback:
            hosts |= {"localhost", "127.0.0.1", "::1"}
    return {(request.scheme, name, port) for name in hosts}


def _origin_key(value: str) -> tuple[str, str, int | None] | None:
    try:
        url = URL(value.strip())
        if not url.scheme or not url.host:
            return None
        return url.scheme.lower(), url.host.lower(), url.port
    except ValueError:
        return None


def bearer_token(header: str) -> str:
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer":
        raise AuthError("the Authorization header must be 'Bearer <token>'")
    return token.strip()


def http_error(
    kind: type[web.HTTPException],
    code: str,
    message: str,
    *,
    headers: dict[str, str] | None = None,
) -> web.Response:
    return web.json_response(
        {"error": {"code": code, "message": message}}, status=kind.status_code, headers=headers
    )


async def session_start(
    ws: web.WebSocketResponse, secret: str, timeout_s: float
) -> tuple[SessionClaims, str | None] | None:
    """The browser path: the claims of a `session.start` (or `session.resume`) first
    frame, with the session id to resume if any; None once the socket is closed (1008
    for silence, another frame or a bad token).

    The deadline is absolute: `receive(timeout=…)` would restart it on every ping the
    client sends, and an unauthenticated socket could live for ever.
    """
    try:
        async with asyncio.timeout(timeout_s):
            message = await ws.receive()
    except TimeoutError:
        await close_socket(
            ws, WSCloseCode.POLICY_VIOLATION, f"no session.start within {timeout_s:g} s"
        )
        return None
    if message.type is WSMsgType.BINARY:
        await close_socket(ws, WSCloseCode.UNSUPPORTED_DATA, BINARY_REFUSED)
        return None
    if message.type is not WSMsgType.TEXT:
        return None  # the client left, or its frame was too big (closed with 1009)
    try:
        frame = parse_frame(message.data)
    except FrameError as exc:
        # Name what was wrong with it (a mistyped session_id, a missing token), as a
        # frame refused later would be told, within a close reason's 123 bytes.
        await close_socket(
            ws, WSCloseCode.POLICY_VIOLATION, f"session.start expected: {exc.message}"
        )
        return None
    resume_id = frame.session_id if isinstance(frame, SessionResume) else None
    token = frame.token if isinstance(frame, SessionStart | SessionResume) else None
    if token is None:
        await close_socket(
            ws,
            WSCloseCode.POLICY_VIOLATION,
            "the first frame must be session.start (or session.resume with a token)",
        )
        return None
    try:
        return verify_session(secret, token), resume_id
    except AuthError as exc:
        await close_socket(ws, WSCloseCode.POLICY_VIOLATION, str(exc))
        return None


async def close_socket(ws: web.WebSocketResponse, code: int, reason: str) -> None:
    encoded = reason.encode()[:_MAX_REASON_BYTES]
    await ws.close(code=code, message=encoded.decode(errors="ignore").encode())


__all__ = [
    "BINARY_REFUSED",
    "bearer_token",
    "close_socket",
    "http_error",
    "origin_allowed",
    "session_start",
]
