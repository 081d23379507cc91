"""`assistant chat`: a terminal client that talks to a running assistant over /v1/ws.

It shows a turn as it happens: the acknowledgement (dim, italic) at once, a line per
tool call as it starts, ticked when it finishes, then the answer streaming in, wrapped
to the terminal (chat_view.py). Ctrl-C during a turn sends `turn.cancel`; Ctrl-C at the
prompt quits with status 130, Ctrl-D with 0. When the server goes away (a restart) the
client reconnects by itself and asks to resume the session. Piped input works too: the
client sends each line, waits for every answer, and exits.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import signal
import sys
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Final, TextIO

from assistant.auth import mint_token
from assistant.chat_client import EXIT_INTERRUPTED, ChatClient
from assistant.chat_view import refusal
from assistant.errors import ConfigError
from assistant.settings import Settings, load_settings

DEFAULT_URL: Final = "ws://127.0.0.1:8080/v1/ws"
DEFAULT_CUSTOMER: Final = "cust_001"
_PROMPT: Final = "you> "


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
    """The `assistant chat` command: 0 when the user quits with Ctrl-D (or input ends),
    130 with Ctrl-C, 1 when the service fails us, 2 for bad settings."""
    try:
        settings = load_settings(Path(args.config) if getattr(args, "config", None) else None)
        token = args.token or dev_token(args.customer, settings=settings)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    origin = "given" if args.token else ("secret" if settings.secret else "dev")
    try:
        return asyncio.run(_chat_on_terminal(args.url, token, settings, origin))
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED


def dev_token(
    customer_id: str, config: str | None = None, *, settings: Settings | None = None
) -> str:
    """A token signed with the configured secret (the development one unless
    ASSISTANT_SECRET is set: only a demo-mode server accepts that)."""
    settings = settings or load_settings(Path(config) if config else None)
    secret = settings.signing_secret(for_server=False)
    return mint_token(secret, customer_id, settings.session_token_ttl_s)


def tool_words(settings: Settings) -> tuple[dict[str, str], frozenset[str]]:
    """The catalog's waiting hints and which tools write; none when it cannot be read
    (the client may talk to a server whose catalog this machine does not have)."""
    from assistant.tools.catalog import load_catalog

    try:
        catalog = load_catalog(settings.resolve(settings.tools_path))
    except Exception:
        return {}, frozenset()
    hints = {tool.name: tool.waiting_hint for tool in catalog.tools}
    return hints, frozenset(tool.name for tool in catalog.tools if tool.writes)


async def _chat_on_terminal(url: str, token: str, settings: Settings, origin: str) -> int:
    hints, writes = tool_words(settings)
    terminal = sys.stdout.isatty()
    client = ChatClient(
        sys.stdout,
        color=_wants_color(sys.stdout),
        prompt=_stdin_prompt(),
        width=shutil.get_terminal_size().columns if terminal else None,
        live=terminal and os.environ.get("TERM") != "dumb",
        hints=hints,
        writes=writes,
        refusal=lambda exc: refusal(exc, origin),
    )
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


__all__ = ["ChatClient", "add_arguments", "dev_token", "main", "refusal", "run"]


if __name__ == "__main__":
    sys.exit(main())
