"""`assistant chat`: a terminal client that talks to a running assistant over /v1/ws.

It shows a turn as it happens: the acknowledgement (dim, italic) at once, a line per
tool call as each finishes, then the answer streaming in. Ctrl-C during a turn sends
`turn.cancel`; Ctrl-C at the prompt, or Ctrl-D, quits. Piped input works too: the
client sends each line, waits for every answer, and exits.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import signal
import sys
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Final, TextIO

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from assistant.auth import mint_token
from assistant.errors import ConfigError
from assistant.settings import load_settings

DEFAULT_URL: Final = "ws://127.0.0.1:8080/v1/ws"
DEFAULT_CUSTOMER: Final = "cust_001"
_PROMPT: Final = "you> "
_CONNECT_TIMEOUT_S: Final = 10.0
_POLICY: Final = 1008
# The close reasons of a session that ended on time (PROTOCOL.md, "Expiry and overload").
_SESSION_OVER: Final = frozenset({"session token expired", "session lifetime reached"})

# How a failed call reads on its progress line.
_FAILURE_WORDS: Final = {
    "timeout": "timed out",
    "unavailable": "unavailable",
    "circuit_open": "not tried (the service is failing)",
    "rate_limited": "rate limited",
    "cancelled": "cancelled",
    "not_found": "not found",
    "permission_denied": "not allowed",
    "invalid_arguments": "invalid request",
    "conflict": "conflict",
    "round_limit": "skipped (too many steps)",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--url", default=DEFAULT_URL, help=f"the websocket (default {DEFAULT_URL})")
    parser.add_argument(
        "--customer", default=DEFAULT_CUSTOMER, help="who to talk as, when minting a token"
    )
    parser.add_argument(
        "--token",
        default=None,
        help="a session token (default: mint one with the configured secret)",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="assistant chat", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))


def run(args: argparse.Namespace) -> int:
    """The `assistant chat` command: 0 when the user quits, 1 when the service fails us."""
    try:
        token = args.token or dev_token(args.customer, getattr(args, "config", None))
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        return asyncio.run(_chat_on_terminal(args.url, token))
    except KeyboardInterrupt:
        return 130


def dev_token(customer_id: str, config: str | None = None) -> str:
    """A token signed with the configured secret (the development one unless
    ASSISTANT_SECRET is set: only a demo-mode server accepts that)."""
    settings = load_settings(Path(config) if config else None)
    secret = settings.signing_secret(for_server=False)
    return mint_token(secret, customer_id, settings.session_token_ttl_s)


async def _chat_on_terminal(url: str, token: str) -> int:
    client = ChatClient(sys.stdout, color=_wants_color(sys.stdout), prompt=_stdin_prompt())
    with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
        asyncio.get_running_loop().add_signal_handler(signal.SIGINT, client.interrupt)
    return await client.run(url, token, stdin_lines())


def _wants_color(out: TextIO) -> bool:
    return out.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def _stdin_prompt() -> str:
    return _PROMPT if sys.stdin.isatty() else ""


async def stdin_lines() -> AsyncIterator[str]:
    """Lines typed on stdin, read by a daemon thread so that events keep printing
    while `input()` waits (and so that quitting never waits for a last Enter)."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def pump() -> None:
        while True:
            try:
                line: str | None = input()
            except (EOFError, OSError, ValueError):
                line = None
            try:
                loop.call_soon_threadsafe(queue.put_nowait, line)
            except RuntimeError:  # the loop is gone: the client has quit
                return
            if line is None:
                return

    threading.Thread(target=pump, name="chat-stdin", daemon=True).start()
    while (line := await queue.get()) is not None:
        yield line


class _Style:
    def __init__(self, color: bool, encoding: str | None) -> None:
        self._color = color
        try:
            "✓✗".encode(encoding or "utf-8")
            self.ok, self.failed = "✓", "✗"
        except UnicodeEncodeError:
            self.ok, self.failed = "ok", "x"

    def _sgr(self, codes: str, text: str) -> str:
        return f"\x1b[{codes}m{text}\x1b[0m" if self._color and text else text

    def ack(self, text: str) -> str:
        return self._sgr("2;3", text)

    def dim(self, text: str) -> str:
        return self._sgr("2", text)

    def error(self, text: str) -> str:
        return self._sgr("31", text)


class ChatClient:
    """One conversation: prints the server's events, sends the user's lines."""

    def __init__(self, out: TextIO, *, color: bool = False, prompt: str = "") -> None:
        self._out = out
        self._style = _Style(color, getattr(out, "encoding", None))
        self._prompt = prompt
        self._ws: ClientConnection | None = None
        self._ids = itertools.count(1)
        self._limit_chars: int | None = None
        # Messages sent and not yet answered (their ids): the client is idle when empty.
        self._waiting: set[str] = set()
        self._message_of_turn: dict[str, str] = {}
        self._idle = asyncio.Event()
        self._idle.set()
        self._quit = asyncio.Event()
        self._leaving = False  # we are closing the socket ourselves
        self._midline = False
        self._tasks: set[asyncio.Task[None]] = set()

    # --- the session ---------------------------------------------------------------

    async def run(self, url: str, token: str, lines: AsyncIterator[str]) -> int:
        """Talk until the lines run out (and every answer is in) or the user quits."""
        ws = await self._connect(url, token)
        if ws is None:
            return 1
        self._ws = ws
        try:
            ready = json.loads(await ws.recv())
        except ConnectionClosed as closed:
            self._line(self._style.error(f"The assistant closed the connection: {closed}"))
            return 1
        self._limit_chars = ready.get("limits", {}).get("max_text_chars")
        self._line(
            self._style.dim(
                f"Connected as {ready.get('customer_id')} (session {ready.get('session_id')}). "
                "Ctrl-C stops an answer; Ctrl-D quits."
            )
        )
        self._show_prompt()
        reader = asyncio.create_task(self._read(ws))
        sender = asyncio.create_task(self._send_lines(ws, lines))
        quitting = asyncio.create_task(self._quit.wait())
        try:
            await asyncio.wait({reader, sender, quitting}, return_when=asyncio.FIRST_COMPLETED)
            if sender.done() and not reader.done() and not quitting.done():
                # Input ended: let the answers still coming finish before leaving.
                idle = asyncio.create_task(self._idle.wait())
                await asyncio.wait({reader, idle, quitting}, return_when=asyncio.FIRST_COMPLETED)
                idle.cancel()
            if reader.done():
                return reader.result()
            self._leaving = True
            await ws.close()
            return 0
        finally:
            for task in (reader, sender, quitting, *self._tasks):
                task.cancel()
            await asyncio.gather(reader, sender, quitting, *self._tasks, return_exceptions=True)
            await ws.close()
            self._end_line()

    def interrupt(self) -> None:
        """Ctrl-C: stop the answer in progress, or quit when there is none."""
        if self._waiting and self._ws is not None:
            task = asyncio.create_task(self._send({"type": "turn.cancel"}))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            self._end_line()
            self._line(self._style.dim("  (stopping…)"))
        else:
            self._leaving = True
            self._quit.set()

    async def _connect(self, url: str, token: str) -> ClientConnection | None:
        headers = {"Authorization": f"Bearer {token}"}
        try:
            return await connect(url, additional_headers=headers, open_timeout=_CONNECT_TIMEOUT_S)
        except InvalidURI:
            self._line(self._style.error(f"Not a websocket URL: {url}"))
        except InvalidStatus as exc:
            self._line(self._style.error(_refusal(exc)))
        except (OSError, TimeoutError, InvalidHandshake) as exc:
            self._line(
                self._style.error(
                    f"Cannot reach the assistant at {url} ({exc}). "
                    "Is it running? Start it with `make run`."
                )
            )
        return None

    async def _send_lines(self, ws: ClientConnection, lines: AsyncIterator[str]) -> None:
        async for line in lines:
            text = line.strip()
            if not text:
                self._midline = False
                self._show_prompt()
                continue
            if self._limit_chars is not None and len(text) > self._limit_chars:
                self._line(self._style.error(f"  ! too long: at most {self._limit_chars} chars"))
                self._show_prompt()
                continue
            self._midline = False  # the user's Enter ended the prompt's line
            message_id = f"m{next(self._ids)}"
            self._waiting.add(message_id)
            self._idle.clear()
            await self._send({"type": "user.message", "id": message_id, "text": text})

    async def _send(self, frame: dict[str, Any]) -> None:
        if self._ws is None:
            return
        with contextlib.suppress(ConnectionClosed):
            await self._ws.send(json.dumps(frame))

    async def _read(self, ws: ClientConnection) -> int:
        """Show events until the socket closes; 0 if we closed it, 1 if the server did."""
        try:
            async for raw in ws:
                self._show(json.loads(raw))
        except ConnectionClosed:
            pass
        if self._leaving:
            return 0
        self._end_line()
        if ws.close_code == _POLICY and ws.close_reason in _SESSION_OVER:
            # The token (or the session's lifetime) ran out: nothing is wrong, start again.
            self._line(
                self._style.error(
                    "Your session has expired. Please reconnect: run `assistant chat` again "
                    "(with a new --token if you passed one)."
                )
            )
            return 1
        reason = f": {ws.close_reason}" if ws.close_reason else ""
        self._line(self._style.error(f"The assistant closed the connection{reason}."))
        return 1

    # --- showing events ------------------------------------------------------------

    def _show(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "turn.started" and isinstance(event.get("message_id"), str):
            self._message_of_turn[str(event.get("turn_id"))] = event["message_id"]
        elif kind == "ack.delta":
            self._write(self._style.ack(str(event.get("text", ""))))
        elif kind in ("ack.done", "answer.done"):
            self._end_line()
        elif kind == "tool.finished":
            self._end_line()
            self._line(self._tool_line(event))
        elif kind == "answer.delta":
            self._write(str(event.get("text", "")))
        elif kind == "turn.done":
            self._turn_done(event)
        elif kind == "error":
            self._end_line()
            self._line(self._style.error(f"  ! {event.get('message', event.get('code'))}"))
            # A message the server dropped (busy, rate limited…) will get no turn.
            self._answered(event.get("message_id"))

    def _tool_line(self, event: dict[str, Any]) -> str:
        tool = event.get("tool", "?")
        if event.get("status") == "ok":
            return self._style.dim(f"  {self._style.ok} {tool} {event.get('latency_ms', 0)} ms")
        error = event.get("error") or {}
        code = str(error.get("code", "error"))
        return self._style.dim(f"  {self._style.failed} {tool} {_FAILURE_WORDS.get(code, code)}")

    def _turn_done(self, event: dict[str, Any]) -> None:
        self._end_line()
        if event.get("status") == "cancelled":
            self._line(self._style.dim("  (stopped)"))
        if event.get("awaiting_confirmation"):
            self._line(self._style.dim("  (say yes or no)"))
        self._answered(self._message_of_turn.pop(str(event.get("turn_id")), None))

    def _answered(self, message_id: object) -> None:
        if isinstance(message_id, str) and message_id in self._waiting:
            self._waiting.discard(message_id)
            if not self._waiting:
                self._idle.set()
                self._show_prompt()

    def _show_prompt(self) -> None:
        if self._prompt and not self._waiting:
            self._write(self._prompt)
            self._out.flush()

    def _write(self, text: str) -> None:
        self._out.write(text)
        self._out.flush()
        self._midline = True

    def _line(self, text: str) -> None:
        self._out.write(text + "\n")
        self._out.flush()
        self._midline = False

    def _end_line(self) -> None:
        if self._midline:
            self._line("")


def _refusal(exc: InvalidStatus) -> str:
    status = exc.response.status_code
    try:
        message = json.loads(exc.response.body or b"")["error"]["message"]
    except (ValueError, KeyError, TypeError):
        message = exc.response.reason_phrase
    hint = ""
    if status == 401:
        hint = (
            " A token minted with the development secret only works against a demo-mode "
            "server; pass --token from `assistant token` (same ASSISTANT_SECRET)."
        )
    return f"The assistant refused the session (HTTP {status}: {message}).{hint}"


if __name__ == "__main__":
    sys.exit(main())
