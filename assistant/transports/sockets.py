"""Open websockets of the app, closed with 1001 (going away) when the server stops.

Without this, stopping `assistant serve` waits for every open chat page or call to
close on its own (aiohttp's shutdown timeout); clients reconnect by themselves.
"""

from __future__ import annotations

import asyncio
import weakref

from aiohttp import WSCloseCode, web

OPEN_SOCKETS = web.AppKey("open_sockets", weakref.WeakSet[web.WebSocketResponse])


def setup_socket_tracking(app: web.Application) -> None:
    app[OPEN_SOCKETS] = weakref.WeakSet()
    app.on_shutdown.append(_close_all)


def track(app: web.Application, ws: web.WebSocketResponse) -> None:
    app[OPEN_SOCKETS].add(ws)


async def _close_all(app: web.Application) -> None:
    sockets = [ws for ws in app[OPEN_SOCKETS] if not ws.closed]
    await asyncio.gather(
        *(ws.close(code=WSCloseCode.GOING_AWAY, message=b"server shutting down") for ws in sockets),
        return_exceptions=True,
    )
