"""The terminal client's conversation: one websocket at a time, reconnecting when the
server goes away, sending the user's lines and showing the server's events.

Reconnecting: when the server closes the socket (a restart) the client tries again
with a growing pause (up to 5 s) until it is back or the user quits, then asks to
resume the session (PROTOCOL.md, `session.resume` after the header-authenticated
`session.ready`). A server that does not know the frame answers `invalid_message`: the
conversation simply starts anew, and the client says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import AsyncIterator, Callable, Collection
from typing import Any, Final, TextIO

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from assistant.chat_resume import Sent, cut_off_lines
from assistant.chat_view import Screen, Style, finished_text, progress_text, refusal

_CONNECT_TIMEOUT_S: Final = 10.0
_RECONNECT_MAX_DELAY_S: Final = 5.0
# The server waits up to 5 s for a turn of the session still running before it answers
# a resume (PROTOCOL.md, session.resume): more than that, so a cut-off turn is kept.
_RESUME_TIMEOUT_S: Final = 8.0
EXIT_INTERRUPTED: Final = 130  # the shell's status for a program stopped by Ctrl-C
# The close reasons of a session that ended on time (PROTOCOL.md, "Expiry and overload"):
# the same token will not open another, so the client asks to reconnect and stops.
_SESSION_OVER: Final = frozenset({"session token expired", "session lifetime reached"})

Refusal = Callable[[InvalidStatus], str]


class ChatClient:
    """One conversation: prints the server's events, sends the user's lines.

    `hints` maps tool names to their waiting hints (the progress words), `writes` names
    the tools that change the account, `refusal` explains an HTTP refusal (the CLI knows
    how the token was made), `width` wraps text, `live` rewrites progress lines in place.
    """

    def __init__(
        self,
        out: TextIO,
        *,
        color: bool = False,
        prompt: str = "",
        width: int | None = None,
        live: bool = False,
        hints: dict[str, str] | None = None,
        writes: Collection[str] = (),
        refusal: Refusal | None = None,
    ) -> None:
        self._screen = Screen(out, width=width, live=live)
        self._style = Style(color, getattr(out, "encoding", None))
        self._prompt = prompt
        self._hints = hints or {}
        self._writes = frozenset(writes)
        self._refusal = refusal or refusal_of_given
        self._ws: ClientConnection | None = None
        self._ids = itertools.count(1)
        self._limit_chars: int | None = None
        self._session_id: str | None = None
        # Messages sent and not yet answered (their ids): the client is idle when empty.
        self._waiting: set[str] = set()
        self._cut_off: list[Sent] = []
        self._typed: dict[str, str] = {}  # what each waiting message said
        self._message_of_turn: dict[str, str] = {}
        self._progress: dict[str, tuple[int, str]] = {}  # call id → (line, words)
        # Tool lines that came while an acknowledgement or answer was being written
        # (reads start as their calls stream in; a slow one ends after the answer
        # began): shown once that line is finished, never in the middle of it.
        self._deferred: list[dict[str, Any]] = []
        self._stopping = False
        self._idle = asyncio.Event()
        self._idle.set()
        self._quit = asyncio.Event()
        self._exit_status = 0
        self._refused = False
        self._session_over = False
        self._who: object = None
        self._leaving = False  # we are closing the socket ourselves
        self._tasks: set[asyncio.Task[None]] = set()
        self._last: dict[str, Any] | None = None  # the resumed session's last_turn

    # --- the session ---------------------------------------------------------------

    async def run(self, url: str, token: str, lines: AsyncIterator[str]) -> int:
        """Talk until the lines run out (and every answer is in) or the user quits."""
        ws = await self._open(url, token)
        if ws is None:
            return 1
        sender = asyncio.create_task(self._send_lines(lines))
        quitting = asyncio.create_task(self._quit.wait())
        reader: asyncio.Task[int] | None = None
        try:
            while True:
                reader = asyncio.create_task(self._read(ws))
                await asyncio.wait({reader, sender, quitting}, return_when=asyncio.FIRST_COMPLETED)
                if sender.done() and not reader.done() and not quitting.done():
                    # Input ended: let the answers still coming finish before leaving.
                    idle = asyncio.create_task(self._idle.wait())
                    await asyncio.wait(
                        {reader, idle, quitting}, return_when=asyncio.FIRST_COMPLETED
                    )
                    idle.cancel()
                if not reader.done():
                    self._leaving = True
                    await ws.close()
                    return self._exit_status
                if reader.result() == 0 or quitting.done():
                    return self._exit_status
                if self._session_over:
                    return 1
                if sender.done():
                    return 1  # input is over and the server went away: nothing to wait for
                reconnected = await self._reconnect(url, token, quitting)
                if reconnected is None:
                    return self._exit_status if quitting.done() else 1
                ws = reconnected
        finally:
            tasks = [t for t in (reader, sender, quitting, *self._tasks) if t is not None]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            if self._ws is not None:
                await self._ws.close()
            self._screen.end_line()

    def interrupt(self) -> None:
        """Ctrl-C: stop the answer in progress, or quit (status 130) when there is none."""
        if self._waiting and self._ws is not None:
            self._stopping = True
            task = asyncio.create_task(self._send({"type": "turn.cancel"}))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            self._screen.line(self._style.dim("  (stopping…)"))
        else:
            self._screen.end_line()
            self._exit_status = EXIT_INTERRUPTED
            self._leaving = True
            self._quit.set()

    async def _open(self, url: str, token: str, *, quiet: bool = False) -> ClientConnection | None:
        """Connect and read session.ready; None (having said why, unless `quiet`)."""
        headers = {"Authorization": f"Bearer {token}"}
        try:
            ws = await connect(url, additional_headers=headers, open_timeout=_CONNECT_TIMEOUT_S)
            ready = json.loads(await ws.recv())
        except InvalidURI:
            self._screen.line(self._style.error(f"Not a websocket URL: {url}"))
            return None
        except InvalidStatus as exc:
            self._screen.line(self._style.error(self._refusal(exc)))
            self._refused = True  # a refused token will not get better by retrying
            return None
        except (OSError, TimeoutError, InvalidHandshake, ConnectionClosed) as exc:
            if not quiet:
                self._screen.line(
                    self._style.error(
                        f"Cannot reach the assistant at {url} ({exc}). "
                        "Is it running? Start it with `make run`."
                    )
                )
            return None
        self._ws = ws
        self._limit_chars = ready.get("limits", {}).get("max_text_chars")
        self._who = ready.get("customer_name") or ready.get("customer_id")
        if self._session_id is None:
            self._screen.line(
                self._style.dim(f"Connected as {self._who}. Ctrl-C stops an answer; Ctrl-D quits.")
            )
            self._show_prompt()
        self._session_id = self._session_id or ready.get("session_id")
        return ws

    async def _reconnect(
        self, url: str, token: str, quitting: asyncio.Task[Any]
    ) -> ClientConnection | None:
        self._ws = None
        self._screen.end_line()
        # Kept so that the resumed session's `last_turn` can say what became of them.
        self._cut_off = [(m, t) for m, t in self._typed.items() if m in self._waiting]
        for message_id in list(self._waiting):
            self._answered(message_id, prompt=False)
        self._screen.line(self._style.error("Connection lost; reconnecting… (Ctrl-C quits)"))
        ws: ClientConnection | None = None
        for attempt in itertools.count():
            await asyncio.wait({quitting}, timeout=min(_RECONNECT_MAX_DELAY_S, 0.25 * 2**attempt))
            if quitting.done() or self._refused:
                return None
            ws = await self._open(url, token, quiet=True)
            if ws is not None:
                break
        assert ws is not None
        kept = await self._resume(ws)
        for line in cut_off_lines(self._cut_off, self._last if kept else None):
            self._screen.line(self._style.dim(line))
        what = "the conversation goes on" if kept else "a new conversation"
        self._screen.line(self._style.dim(f"Reconnected as {self._who} ({what})."))
        self._show_prompt()
        return ws

    async def _resume(self, ws: ClientConnection) -> bool:
        """Ask for the earlier session; True when the server kept it."""
        self._last = None
        if self._session_id is None:
            return False
        with contextlib.suppress(ConnectionClosed, TimeoutError, ValueError):
            await ws.send(json.dumps({"type": "session.resume", "session_id": self._session_id}))
            async with asyncio.timeout(_RESUME_TIMEOUT_S):
                while True:
                    frame = json.loads(await ws.recv())
                    if frame.get("type") == "session.ready":
                        self._session_id = frame.get("session_id") or self._session_id
                        resumed = frame.get("resumed") is True
                        if resumed and isinstance(frame.get("last_turn"), dict):
                            self._last = frame["last_turn"]
                            self._catch_up(frame["last_turn"])
                        return resumed
                    if frame.get("type") == "error":
                        break  # a server without session.resume: the new session stands
        return False

    def _catch_up(self, last: dict[str, Any]) -> None:
        """What the turn cut off by the dropped connection did, as the server kept it:
        a write that landed is seen to have landed, not asked for again."""
        if last.get("message_id") not in dict(self._cut_off):
            return
        self._screen.line(self._style.dim("Before the connection dropped:"))
        for call in last.get("tool_calls") or ():
            tool = str(call.get("tool", "?"))
            ok, words = finished_text(call, writes=tool in self._writes, cancelled=True)
            self._screen.line(f"  {'✓' if ok else '✗'} {words}")
        if answer := last.get("answer"):
            self._screen.line(str(answer))
        if last.get("awaiting_confirmation"):
            self._screen.line(self._style.dim("  (say yes or no)"))

    async def _send_lines(self, lines: AsyncIterator[str]) -> None:
        async for line in lines:
            text = line.strip()
            if not text:
                self._screen.end_line()
                self._show_prompt()
                continue
            if self._limit_chars is not None and len(text) > self._limit_chars:
                self._screen.line(
                    self._style.error(f"  ! too long: at most {self._limit_chars} characters")
                )
                self._show_prompt()
                continue
            self._screen.typed(len(self._prompt) + len(line))  # Enter ended the prompt's line
            if self._ws is None:
                self._screen.line(self._style.error("  ! not connected yet; try again shortly"))
                continue
            message_id = f"m{next(self._ids)}"
            self._waiting.add(message_id)
            self._typed[message_id] = text
            self._idle.clear()
            self._stopping = False
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
        if ws.close_code == 1008 and ws.close_reason in _SESSION_OVER:
            self._session_over = True
            self._screen.end_line()
            self._screen.line(
                self._style.error(
                    "Your session has expired. Please reconnect: run `assistant chat` again "
                    "(with a new --token if you passed one)."
                )
            )
            return 1
        if ws.close_code == 1008 and ws.close_reason:
            self._screen.line(
                self._style.error(f"The assistant ended the session: {ws.close_reason}.")
            )
        return 1

    # --- showing events ------------------------------------------------------------

    def _show(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind in ("tool.started", "tool.finished") and self._screen.midline:
            self._deferred.append(event)
            return
        if kind in ("ack.done", "answer.done", "turn.done") and self._deferred:
            self._screen.end_line()
            deferred, self._deferred = self._deferred, []
            for waiting in deferred:
                self._show(waiting)
        style = self._style
        if kind == "turn.started" and isinstance(event.get("message_id"), str):
            self._message_of_turn[str(event.get("turn_id"))] = event["message_id"]
        elif kind == "ack.delta":
            self._screen.write(str(event.get("text", "")), style.ack)
        elif kind in ("ack.done", "answer.done"):
            self._screen.end_line()
        elif kind == "tool.started":
            words = progress_text(str(event.get("tool", "?")), self._hints)
            number = self._screen.line(style.dim(f"  {style.running} {words}"))
            self._progress[str(event.get("call_id"))] = (number, words)
        elif kind == "tool.finished":
            self._tool_finished(event)
        elif kind == "answer.delta":
            self._screen.write(str(event.get("text", "")))
        elif kind == "turn.done":
            self._turn_done(event)
        elif kind == "error":
            self._screen.line(style.error(f"  ! {event.get('message', event.get('code'))}"))
            # A message the server dropped (busy, rate limited…) will get no turn.
            self._answered(event.get("message_id"))

    def _tool_finished(self, event: dict[str, Any]) -> None:
        tool = str(event.get("tool", "?"))
        ok, words = finished_text(event, writes=tool in self._writes, cancelled=self._stopping)
        mark = self._style.ok if ok else self._style.failed
        text = self._style.dim(f"  {mark} {words}")
        started = self._progress.pop(str(event.get("call_id")), None)
        if started is None or not self._screen.rewrite(started[0], text):
            self._screen.line(text)

    def _turn_done(self, event: dict[str, Any]) -> None:
        self._screen.end_line()
        if event.get("status") == "cancelled":
            self._screen.line(self._style.dim("  (stopped)"))
        if event.get("awaiting_confirmation"):
            self._screen.line(self._style.dim("  (say yes or no)"))
        self._answered(self._message_of_turn.pop(str(event.get("turn_id")), None))

    def _answered(self, message_id: object, *, prompt: bool = True) -> None:
        if isinstance(message_id, str) and message_id in self._waiting:
            self._waiting.discard(message_id)
            self._typed.pop(message_id, None)
            if not self._waiting:
                self._stopping = False
                self._idle.set()
                if prompt:
                    self._show_prompt()

    def _show_prompt(self) -> None:
        if self._prompt and not self._waiting:
            self._screen.end_line()
            self._screen.raw(self._prompt)


def refusal_of_given(exc: InvalidStatus) -> str:
    return refusal(exc, "given")
