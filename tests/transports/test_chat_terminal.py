"""`assistant chat` as a person meets it: in a real terminal (a pty), across a server
restart, with a refused token, and when a write is stopped mid-flight."""

from __future__ import annotations

import asyncio
import fcntl
import io
import os
import re
import select
import struct
import sys
import termios
from collections.abc import AsyncIterator
from typing import Any

from assistant.auth import mint_token
from assistant.chat import ChatClient, tool_words
from assistant.errors import ToolFailure
from assistant.fakes import FakeToolBackend, ScriptedNarrator, ScriptedPlanner, calls
from assistant.schema import FinalDecision, ToolDefinition
from assistant.settings import DEV_SECRET, PROJECT_ROOT, load_settings
from tests.browser.live import LiveStack
from tests.fixtures.app import TEST_SECRET, AssistantHarness, MakeAssistant

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
HINTS, WRITES = tool_words(load_settings())


def ws_url(assistant: AssistantHarness) -> str:
    return str(assistant.client.make_url("/v1/ws")).replace("http://", "ws://", 1)


class Terminal:
    """A pty of `columns` columns running `assistant chat` as its foreground program."""

    def __init__(self, columns: int) -> None:
        self.master, self.slave = os.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
        self.seen = b""

    def _child_setup(self) -> None:  # runs in the child: the pty becomes its terminal
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    async def start(self, *args: str) -> asyncio.subprocess.Process:
        env = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTANT_")}
        env["TERM"] = "xterm"
        env.pop("NO_COLOR", None)
        # The pty's size is the terminal's: a COLUMNS inherited from the test runner is not.
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "assistant", "chat", *args,
            stdin=self.slave, stdout=self.slave, stderr=self.slave,
            cwd=PROJECT_ROOT, env=env, preexec_fn=self._child_setup,
        )  # fmt: skip
        os.close(self.slave)
        return process

    def _read(self) -> bytes:
        ready, _, _ = select.select([self.master], [], [], 0.1)
        if not ready:
            return b""
        try:
            return os.read(self.master, 65536)
        except OSError:  # the child closed the terminal
            return b""

    async def until(self, pattern: str, timeout_s: float = 20.0) -> str:
        """Everything shown so far, once `pattern` (a regex) has appeared in it."""
        async with asyncio.timeout(timeout_s):
            while not re.search(pattern, self.seen.decode(errors="replace")):
                self.seen += await asyncio.to_thread(self._read)
        return self.seen.decode(errors="replace")

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())


async def test_in_a_terminal_progress_name_wrapping_and_ctrl_c(
    make_assistant: MakeAssistant,
) -> None:
    """In a 60-column terminal: greeted by name, each lookup's line turns into a tick in
    place, the answer wraps at 60 columns, and Ctrl-C at the idle prompt exits with 130."""
    assistant = await make_assistant(secret=None)  # demo mode: the dev token is accepted
    terminal = Terminal(columns=60)
    chat = await terminal.start("--url", ws_url(assistant), "--customer", "cust_001")
    try:
        shown = await terminal.until(r"you> ")
        assert "Connected as Maria Garcia." in ANSI.sub("", shown)
        terminal.type("Show me my appointments and my billing\r")
        shown = await terminal.until(r"you> [\s\S]*you> ")
        plain = ANSI.sub("", shown)
        assert "⋯ Checking your billing…" in plain
        # The progress line is rewritten in place: the cursor goes up, the line is cleared.
        assert re.search(r"\x1b\[\d+A\r\x1b\[2K\S*\s*✓ Billing", shown)
        assert "crm." not in plain
        answer_lines = plain.split("✓ Billing", 1)[1].splitlines()
        assert max(len(line) for line in answer_lines) <= 60
        assert any("$" in line for line in answer_lines)
        terminal.type("\x03")
        assert await asyncio.wait_for(chat.wait(), 15) == 130
        assert "Traceback" not in ANSI.sub("", await terminal.until(r"$"))
    finally:
        if chat.returncode is None:
            chat.kill()
            await chat.wait()
        os.close(terminal.master)


async def test_reconnects_after_a_server_restart() -> None:
    """The service restarts between two questions: the client says it lost the
    connection, comes back on its own (a new conversation) and answers the next one."""
    out = io.StringIO()
    stack = LiveStack().start()

    async def shown(text: str) -> None:
        async with asyncio.timeout(20):
            while text not in out.getvalue():  # noqa: ASYNC110 - a StringIO has nothing to await
                await asyncio.sleep(0.05)

    async def lines() -> AsyncIterator[str]:
        yield "What do I owe?"
        await shown("✓ Billing")
        await shown("$")  # the answer names the balance
        await asyncio.to_thread(stack.stop_assistant)
        await shown("Connection lost; reconnecting")
        await asyncio.to_thread(stack.start_assistant)
        await shown("Reconnected as Maria Garcia (a new conversation).")
        yield "What's my next appointment?"

    try:
        client = ChatClient(out, hints=HINTS, writes=WRITES)
        url = stack.url.replace("http://", "ws://").rstrip("/") + "/v1/ws"
        token = mint_token(DEV_SECRET, "cust_001", 600)  # the demo stack's secret
        code = await asyncio.wait_for(client.run(url, token, lines()), 60)
    finally:
        await asyncio.to_thread(stack.close)
    assert code == 0, out.getvalue()
    after = out.getvalue().split("Reconnected", 1)[1]
    assert "✓ Next appointment" in after


async def test_a_refused_token_names_the_real_cause(make_assistant: MakeAssistant) -> None:
    """An expired token says it expired; a token signed with another secret says the
    secrets differ; neither blames the development secret."""
    assistant = await make_assistant(
        planner=ScriptedPlanner(), narrator=ScriptedNarrator(), tool_backend=FakeToolBackend()
    )
    expired = mint_token(TEST_SECRET, "cust_001", -60)
    out = io.StringIO()
    assert await ChatClient(out).run(ws_url(assistant), expired, _no_lines()) == 1
    assert "The token has expired: mint a new one" in out.getvalue()

    other = mint_token("y" * 32, "cust_001", 600)
    out = io.StringIO()
    assert await ChatClient(out).run(ws_url(assistant), other, _no_lines()) == 1
    assert "is not one this server signed" in out.getvalue()
    assert "development secret" not in out.getvalue()


async def _no_lines() -> AsyncIterator[str]:
    return
    yield ""  # pragma: no cover - makes this an async generator


class HeldWrite(FakeToolBackend):
    """Reads answer at once; `crm.addTask` waits for `held` to be set."""

    def __init__(self, failure: ToolFailure | None) -> None:
        super().__init__(failures={"crm.addTask": failure} if failure else {})
        self.held_write = asyncio.Event()
        self.write_started = asyncio.Event()

    async def invoke(self, tool: ToolDefinition, *args: Any, **kwargs: Any) -> Any:
        if tool.name == "crm.addTask":
            self.write_started.set()
            await self.held_write.wait()
        return await super().invoke(tool, *args, **kwargs)


async def _adding_a_held_task(
    make_assistant: MakeAssistant, failure: ToolFailure | None
) -> tuple[HeldWrite, Any, ChatClient, io.StringIO]:
    """An assistant that adds a task on any message, the CRM holding the write, and a
    client writing to a buffer."""
    backend = HeldWrite(failure)
    assistant = await make_assistant(
        planner=ScriptedPlanner(calls(("crm.addTask", {"title": "Call the bank"}))),
        narrator=ScriptedNarrator(["Done."]),
        tool_backend=backend,
    )
    out = io.StringIO()
    return backend, assistant, ChatClient(out, hints=HINTS, writes=WRITES), out


async def _stopped_write(make_assistant: MakeAssistant, failure: ToolFailure | None) -> str:
    """Add a task, press Ctrl-C while the CRM holds the write, then let it end."""
    backend, assistant, client, out = await _adding_a_held_task(make_assistant, failure)
    typed = asyncio.Event()

    async def lines() -> AsyncIterator[str]:
        yield "add a task to call the bank"
        await typed.wait()

    talk = asyncio.create_task(client.run(ws_url(assistant), assistant.token(), lines()))
    await asyncio.wait_for(backend.write_started.wait(), 10)
    client.interrupt()  # turn.cancel: a write already sent is let finish (PROTOCOL.md)
    backend.held_write.set()
    typed.set()
    assert await asyncio.wait_for(talk, 10) == 0
    return out.getvalue()


async def test_a_stopped_write_that_went_through_says_done(
    make_assistant: MakeAssistant,
) -> None:
    """Ctrl-C while a task is being added, and the CRM applied it: "✓ Task added"."""
    shown = await _stopped_write(make_assistant, None)
    assert "✓ Task added" in shown
    assert "not confirmed" not in shown


async def test_a_stopped_write_without_an_answer_says_not_confirmed(
    make_assistant: MakeAssistant,
) -> None:
    """Ctrl-C while a task is being added and the CRM answers 409: "not confirmed",
    never "conflict"."""
    shown = await _stopped_write(make_assistant, ToolFailure("conflict", "in progress"))
    assert "✗ Adding the task: not confirmed (check before asking again)" in shown
    assert "conflict" not in shown
    assert "changed in the meantime" not in shown


async def test_the_turn_s_answer_is_still_shown_after_a_stop(
    make_assistant: MakeAssistant,
) -> None:
    """A plain question answers normally after the client was built with the catalog's
    words (the final decision path: no tools, no progress lines)."""
    assistant = await make_assistant(
        planner=ScriptedPlanner(FinalDecision(text="Hello.")),
        narrator=ScriptedNarrator(),
        tool_backend=FakeToolBackend(),
    )
    out = io.StringIO()

    async def lines() -> AsyncIterator[str]:
        yield "hi"

    assert (
        await ChatClient(out, hints=HINTS).run(ws_url(assistant), assistant.token(), lines()) == 0
    )
    assert "Hello." in out.getvalue()


async def test_a_write_cut_off_by_a_dropped_connection_is_told_after_the_resume(
    make_assistant: MakeAssistant,
) -> None:
    """The socket drops while the CRM holds a task being added, and the write lands: the
    client resumes the conversation and shows "✓ Task added" under "Before the connection
    dropped:", not a silence that invites asking again."""
    backend, assistant, client, out = await _adding_a_held_task(make_assistant, None)
    resumed = asyncio.Event()

    async def lines() -> AsyncIterator[str]:
        yield "add a task to call the bank"
        await resumed.wait()

    talk = asyncio.create_task(client.run(ws_url(assistant), assistant.token(), lines()))
    await asyncio.wait_for(backend.write_started.wait(), 10)
    dropped = client._ws
    assert dropped is not None
    await dropped.close()  # as a flaky network would: the server keeps the session
    backend.held_write.set()
    async with asyncio.timeout(20):
        while "(the conversation goes on)" not in out.getvalue():  # noqa: ASYNC110
            await asyncio.sleep(0.05)
    resumed.set()
    assert await asyncio.wait_for(talk, 10) == 0
    after = out.getvalue().split("Connection lost", 1)[1]
    assert "Before the connection dropped:" in after
    assert "✓ Task added" in after.split("Before the connection dropped:", 1)[1]
