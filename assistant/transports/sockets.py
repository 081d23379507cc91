"""Open websockets of the app, ended with 1001 (going away) when the server stops.

Without this, stopping `assistant serve` waits for every open chat page or call to
close on its own (aiohttp's shutdown timeout); clients reconnect by themselves.

A socket may register how it ends gracefully (a session: its running turn is
cancelled by the usual rules, so a write in flight finishes and its `tool.finished`
and `turn.done` reach the client before the close); the rest are closed at once.
Every ending is bounded by the shutdown grace (`shutdown_grace_s`).
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import WSCloseCode, web

Ending = Callable[[int, str], Awaitable[None]]
OPEN_SOCKETS = web.AppKey(
    "open_sockets", weakref.WeakKeyDictionary[web.WebSocketResponse, Ending | None]
)
SHUTDOWN_GRACE_S = web.AppKey("shutdown_grace_s", float)
GOING_AWAY = "server shutting down"


class ExplainedSocket(web.WebSocketResponse):
    """A server websocket whose closes for a broken frame say what was wrong.

    aiohttp closes by itself, with no reason, on a frame over the size limit (1009) or
    a text frame that is not UTF-8 (1007): the client's developer saw only the code.
    """

    def __init__(self, *, max_msg_size: int, **kwargs: Any) -> None:
        super().__init__(max_msg_size=max_msg_size, **kwargs)
        self._reasons: dict[int, str] = {
            WSCloseCode.MESSAGE_TOO_BIG: f"a frame was over the {max_msg_size}-byte limit",
            WSCloseCode.INVALID_TEXT: "a text frame was not valid UTF-8",
            WSCloseCode.PROTOCOL_ERROR: "a frame broke the websocket protocol",
        }

    async def close(
        self, *, code: int = WSCloseCode.OK, message: bytes = b"", drain: bool = True
    ) -> bool:
        if not message and code in self._reasons:
            message = self._reasons[code].encode()
        return await super().close(code=code, message=message, drain=drain)


def setup_socket_tracking(app: web.Application, *, grace_s: float = 10.0) -> None:
    app[OPEN_SOCKETS] = weakref.WeakKeyDictionary()
    app[SHUTDOWN_GRACE_S] = grace_s
    app.on_shutdown.append(_close_all)


def track(app: web.Application, ws: web.WebSocketResponse, ending: Ending | None = None) -> None:
    """Remember `ws` (and, when given, how it ends gracefully) until it is collected."""
    app[OPEN_SOCKETS][ws] = ending


async def _close_all(app: web.Application) -> None:
    endings = [
        ending(WSCloseCode.GOING_AWAY, GOING_AWAY)
        if ending is not None
        else ws.close(code=WSCloseCode.GOING_AWAY, message=GOING_AWAY.encode())
        for ws, ending in list(app[OPEN_SOCKETS].items())
        if not ws.closed
    ]
    if not endings:
        return
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(app[SHUTDOWN_GRACE_S] + 1.0):
            await asyncio.gather(*endings, return_exceptions=True)
    # Past the grace, whatever is still open closes now.
    late = [ws for ws in list(app[OPEN_SOCKETS].keys()) if not ws.closed]
    await asyncio.gather(
        *(ws.close(code=WSCloseCode.GOING_AWAY, message=GOING_AWAY.encode()) for ws in late),
        return_exceptions=True,
    )
