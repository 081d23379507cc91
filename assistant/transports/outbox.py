"""The one writer of a socket: a bounded queue of frames, written in batches.

Frames go out whole and in order, from any task, and `send` never waits on the
network: a turn never stalls because its client is slow.

The frames a turn step emits together (turn.started, the acknowledgement, the calls
started; or the answer and turn.done) are queued and written at the next turn of the
event loop in one write to the transport: one system call for the batch instead of
one per frame, which on a busy worker was a fifth of its CPU per turn (bench/load.py).
That direct path is taken while the client keeps up, its socket takes text frames
uncompressed (no permessage-deflate), and nothing is left in the transport's buffer.
Otherwise a writer task sends the frames one by one through aiohttp's own writer
(which compresses and waits for the network to drain), and it notices a client that
stops reading (or whose network died without a close) in two ways, both ending its
socket:

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
import struct
from collections.abc import Callable
from typing import Any

import orjson
from aiohttp import web

log = logging.getLogger(__name__)

_TEXT_FIN = 0x81  # a whole text frame: FIN and opcode 1 (RFC 6455, 5.2)


def encode_frame(frame: dict[str, Any]) -> bytes:
    """Compact JSON in UTF-8 (orjson: a turn's thirteen frames cost 5 µs instead of 65).

    What orjson refuses (a lone surrogate echoed from somewhere, a key that is not a
    string, an integer past 64 bits), the standard library writes: escaped ASCII, keys
    as strings."""
    try:
        return orjson.dumps(frame)
    except TypeError:  # orjson.JSONEncodeError is one
        return json.dumps(frame, separators=(",", ":")).encode("ascii")


def text_frame(payload: bytes) -> bytes:
    """UTF-8 `payload` as one unmasked websocket text frame, as a server sends it."""
    length = len(payload)
    if length < 126:
        return bytes((_TEXT_FIN, length)) + payload
    if length < 65536:
        return struct.pack("!BBH", _TEXT_FIN, 126, length) + payload
    return struct.pack("!BBQ", _TEXT_FIN, 127, length) + payload


class Outbox:
    """Queues frames for one websocket and writes them in batches.

    Neither a task nor a queue object is held while nothing is waiting: an idle
    session's memory (an asyncio.Queue and a parked task were ~4 KiB of it).
    """

    def __init__(
        self,
        ws: web.WebSocketResponse,
        *,
        send_timeout_s: float,
        max_frames: int,
        abort: Callable[[], None],
        transport: asyncio.Transport | None = None,
    ) -> None:
        self._ws = ws
        # The socket's transport, for writing a batch at once; None: frame by frame.
        self._transport = transport
        self._send_timeout_s = send_timeout_s
        self._max_frames = max_frames
        self._frames: list[bytes] = []  # an empty deque would hold a 64-slot block
        self._abort = abort
        self._gone = False
        self._closed = False
        self._batch: asyncio.Handle | None = None
        self._writer: asyncio.Task[None] | None = None

    @property
    def gone(self) -> bool:
        return self._gone or self._ws.closed

    async def send(self, frame: dict[str, Any]) -> None:
        """Queue one frame (async for the callers' sake: it never waits)."""
        self.put(frame)

    def put(self, frame: dict[str, Any]) -> None:
        """Queue one frame: `send` without a coroutine, for the turn's events (a dozen a
        turn, every turn)."""
        if self._gone or self._closed or self._ws.closed:  # `gone`, spelled out
            return
        # Frames waiting behind the one being sent (the writer has taken that one).
        if len(self._frames) >= self._max_frames:
            self._give_up(f"{self._max_frames} frames were waiting for a client not reading")
            return
        self._frames.append(encode_frame(frame))
        if self._batch is None and self._writer is None:
            self._batch = asyncio.get_running_loop().call_soon(self._write_batch)

    async def flush(self, timeout_s: float) -> None:
        """Wait until every queued frame is sent (or the socket gave up), at most `timeout_s`."""
        if self._batch is not None:
            self._batch.cancel()
            self._write_batch()
        writer = self._writer
        if writer is not None:
            await asyncio.wait([writer], timeout=timeout_s)

    async def close(self) -> None:
        """Stop writing (frames still queued are dropped)."""
        self._closed = True
        if self._batch is not None:
            self._batch.cancel()
            self._batch = None
        writer = self._writer
        if writer is not None:
            writer.cancel()
            await asyncio.wait([writer])

    def _write_batch(self) -> None:
        """Every queued frame in one write, or, when the client lags, the writer task."""
        self._batch = None
        if self._closed or not self._frames:
            return
        if self.gone:
            self._frames.clear()  # dropped: nobody is listening
            return
        transport = self._transport
        if (
            transport is None
            or self._ws.compress
            or transport.is_closing()
            or transport.get_write_buffer_size() > 0  # the client is behind: wait for it
        ):
            self._writer = asyncio.create_task(self._write(), name="ws-outbox")
            return
        frames, self._frames = self._frames, []
        transport.write(b"".join([text_frame(payload) for payload in frames]))

    async def _write(self) -> None:
        frames = self._frames
        try:
            while frames:
                payload = frames.pop(0)
                if self.gone:
                    continue  # dropped: nobody is listening
                try:
                    async with asyncio.timeout(self._send_timeout_s):
                        await self._ws.send_str(payload.decode("utf-8"))
                except TimeoutError:
                    self._give_up(
                        f"a frame waited {self._send_timeout_s:g} s for the client to read"
                    )
                except (ConnectionError, RuntimeError) as exc:
                    self._gone = True
                    log.debug("dropped a frame for a closed socket: %s", exc)
        finally:
            self._writer = None

    def _give_up(self, why: str) -> None:
        if self._gone:
            return
        self._gone = True
        log.warning("closing a websocket whose client is not reading: %s", why)
        self._abort()


__all__ = ["Outbox", "encode_frame", "text_frame"]
