"""The one writer of a socket: a bounded queue of frames and a task that sends them.

Frames go out whole and in order, from any task, and `send` never waits on the
network: a turn never stalls because its client is slow. A client that stops reading
(or whose network died without a close) shows in two ways, and both end its socket:

- one frame takes longer than `send_timeout_s` to hand to the network, or
- more than `max_frames` frames are waiting behind the one being sent.

The socket is then aborted (a close frame could not get through a full pipe either),
so the handler's read loop ends, and the connection's usual wind-down cancels its
turn: reads are cancelled, writes in flight finish.

After the socket closes, sends are dropped: a turn winding down must not fail because
nobody is listening any more. Text that is not valid UTF-8 (a lone surrogate echoed
from somewhere) is sent with JSON escapes instead of failing the send.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import Callable
from typing import Any

from aiohttp import web

log = logging.getLogger(__name__)


_TCP_CORK: int | None = getattr(socket, "TCP_CORK", None)


def _set_cork(sock: Any, value: int) -> bool:
    try:
        sock.setsockopt(socket.IPPROTO_TCP, _TCP_CORK, value)
    except (OSError, TypeError):
        return False
    return True


def encode_frame(frame: dict[str, Any]) -> str:
    """Compact JSON; escaped ASCII when a string would not encode as UTF-8."""
    text = json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
    if text.isascii():  # nearly every frame: no need to encode it once more to check
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(frame, separators=(",", ":"))
    return text


class Outbox:
    """Queues frames for one websocket and sends them from its own task.

    The writer task runs only while frames are waiting, and the queue is a plain list:
    an idle session holds neither (an asyncio.Queue and a parked task were ~4 KiB of
    each open session's memory).
    """

    def __init__(
        self,
        ws: web.WebSocketResponse,
        *,
        send_timeout_s: float,
        max_frames: int,
        abort: Callable[[], None],
    ) -> None:
        self._ws = ws
        self._send_timeout_s = send_timeout_s
        self._max_frames = max_frames
        self._frames: list[str] = []  # an empty deque would hold a 64-slot block
        self._abort = abort
        self._gone = False
        self._closed = False
        self._writer: asyncio.Task[None] | None = None

    @property
    def gone(self) -> bool:
        return self._gone or self._ws.closed

    async def send(self, frame: dict[str, Any]) -> None:
        """Queue one frame (async for the callers' sake: it never waits)."""
        if self.gone or self._closed:
            return
        # Frames waiting behind the one being sent (the writer has taken that one).
        if len(self._frames) >= self._max_frames:
            self._give_up(f"{self._max_frames} frames were waiting for a client not reading")
            return
        self._frames.append(encode_frame(frame))
        if self._writer is None:
            self._writer = asyncio.create_task(self._write(), name="ws-outbox")

    async def flush(self, timeout_s: float) -> None:
        """Wait until every queued frame is sent (or the socket gave up), at most `timeout_s`."""
        writer = self._writer
        if writer is not None:
            await asyncio.wait([writer], timeout=timeout_s)

    async def close(self) -> None:
        """Stop the writer (frames still queued are dropped)."""
        self._closed = True
        writer = self._writer
        if writer is not None:
            writer.cancel()
            await asyncio.wait([writer])

    async def _write(self) -> None:
        frames = self._frames
        corked: Any = None
        try:
            while frames:
                text = frames.pop(0)
                if self.gone:
                    continue  # dropped: nobody is listening
                if frames and corked is None:
                    corked = self._cork()  # more behind this one: one packet for all
                try:
                    async with asyncio.timeout(self._send_timeout_s):
                        await self._ws.send_str(text)
                except TimeoutError:
                    self._give_up(
                        f"a frame waited {self._send_timeout_s:g} s for the client to read"
                    )
                except (ConnectionError, RuntimeError) as exc:
                    self._gone = True
                    log.debug("dropped a frame for a closed socket: %s", exc)
        finally:
            if corked:
                _set_cork(corked, 0)  # uncorked: what is buffered leaves now
            self._writer = None

    def _cork(self) -> Any:
        """The socket, corked (Linux TCP_CORK) while a batch of frames is written, so the
        batch leaves in one packet rather than a packet (and a wake-up of the client) per
        frame; the bytes are the same. False when it cannot be corked: frames then go
        one by one as before."""
        sock = self._ws.get_extra_info("socket")
        if sock is None or _TCP_CORK is None or not _set_cork(sock, 1):
            return False
        return sock

    def _give_up(self, why: str) -> None:
        if self._gone:
            return
        self._gone = True
        log.warning("closing a websocket whose client is not reading: %s", why)
        self._abort()


__all__ = ["Outbox", "encode_frame"]
