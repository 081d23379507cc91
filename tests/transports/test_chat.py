"""`assistant chat`: the terminal client against a real running app."""

from __future__ import annotations

import asyncio
import io
import os
import socket
import sys
from collections.abc import AsyncIterator, Iterable

from assistant.chat import ChatClient, tool_words
from assistant.errors import ToolFailure
from assistant.fakes import (
    FakeToolBackend,
    HangingToolBackend,
    ScriptedNarrator,
    ScriptedPlanner,
    calls,
)
from assistant.schema import FinalDecision, PlanRequest, ToolCallsDecision
from assistant.settings import PROJECT_ROOT, load_settings
from tests.fixtures.app import AssistantHarness, MakeAssistant


def _ws_url(assistant: AssistantHarness) -> str:
    return str(assistant.client.make_url("/v1/ws")).replace("http://", "ws://", 1)


async def _lines(lines: Iterable[str], hold: asyncio.Event | None = None) -> AsyncIterator[str]:
    for line in lines:
        yield line
    if hold is not None:
        await hold.wait()


HINTS, WRITES = tool_words(load_settings())


def _client(out: io.StringIO) -> ChatClient:
    """A client with the catalog's words, writing to `out` (not a terminal)."""
    return ChatClient(out, hints=HINTS, writes=WRITES)


async def _chat(assistant: AssistantHarness, *lines: str, token: str | None = None) -> str:
    out = io.StringIO()
    client = _client(out)
    code = await client.run(_ws_url(assistant), token or assistant.token(), _lines(lines))
    assert code == 0, out.getvalue()
    return out.getvalue()


async def test_chat_shows_ack_tool_progress_and_answer(make_assistant: MakeAssistant) -> None:
    """A question typed in the terminal: acknowledgement, a line per lookup as it starts
    and another as it finishes, in the customer's words, then the answer."""
    planner = ScriptedPlanner(
        calls("crm.listUpcomingAppointments", "crm.getOpenInvoices"), FinalDecision(text="")
    )
    narrator = ScriptedNarrator(["You have two appointments ", "and owe $150.00."])
    assistant = await make_assistant(planner=planner, narrator=narrator)
    shown = await _chat(assistant, "Show me my appointments and my billing")
    ack = "Sure, I'll look up your upcoming appointments and check your billing."
    answer = "You have two appointments and owe $150.00."
    assert ack in shown
    started = shown.index("⋯ Checking your billing…")
    assert shown.index(ack) < started < shown.index("✓ Billing") < shown.index(answer)
    assert "⋯ Looking up your upcoming appointments…" in shown
    assert "✓ Appointments" in shown
    assert "crm." not in shown


async def test_chat_shows_failed_lookups_and_the_confirmation_hint(
    make_assistant: MakeAssistant,
) -> None:
    """A timed-out lookup shows ✗ and why in plain words; a destructive request asks."""
    planner = ScriptedPlanner(
        calls("crm.listTasks", "crm.getOpenInvoices"),
        FinalDecision(text=""),
        calls(("crm.cancelAppointment", {"appointment_id": "appt_1"})),
    )
    narrator = ScriptedNarrator(["Your billing is not answering."], ["Are you sure?"])
    backend = FakeToolBackend(failures={"crm.getOpenInvoices": ToolFailure("timeout", "slow")})
    assistant = await make_assistant(planner=planner, narrator=narrator, tool_backend=backend)
    shown = await _chat(assistant, "tasks and billing", "cancel my appointment")
    assert "✓ Tasks" in shown
    assert "✗ Billing: took too long" in shown
    assert "Are you sure?\n  (say yes or no)" in shown


async def test_chat_says_plainly_when_the_server_is_not_running() -> None:
    """No service listening: a clear message naming the URL and how to start it."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    out = io.StringIO()
    url = f"ws://127.0.0.1:{port}/v1/ws"
    code = await ChatClient(out).run(url, "token", _lines([]))
    assert code == 1
    assert f"Cannot reach the assistant at {url}" in out.getvalue()
    assert "make run" in out.getvalue()


async def test_chat_explains_a_refused_token(make_assistant: MakeAssistant) -> None:
    """A token the server refuses: HTTP 401 and the server's reason, not a traceback."""
    assistant = await make_assistant(
        planner=ScriptedPlanner(), narrator=ScriptedNarrator(), tool_backend=FakeToolBackend()
    )
    out = io.StringIO()
    code = await ChatClient(out).run(_ws_url(assistant), "not-a-token", _lines([]))
    assert code == 1
    assert "refused the session (HTTP 401" in out.getvalue()
    assert "invalid session token" in out.getvalue()


async def test_ctrl_c_during_a_turn_stops_it(make_assistant: MakeAssistant) -> None:
    """Interrupting while a lookup hangs sends turn.cancel: the turn shows as stopped."""
    backend = HangingToolBackend()
    assistant = await make_assistant(
        planner=ScriptedPlanner(calls("crm.listTasks")),
        narrator=ScriptedNarrator(),
        tool_backend=backend,
    )
    out = io.StringIO()
    client = _client(out)
    done_typing = asyncio.Event()
    talk = asyncio.create_task(
        client.run(_ws_url(assistant), assistant.token(), _lines(["my tasks"], done_typing))
    )
    await backend.started.wait()
    client.interrupt()
    done_typing.set()  # then the user types Ctrl-D: the client leaves once the turn is over
    assert await asyncio.wait_for(talk, 10) == 0
    assert "✗ Tasks: stopped" in out.getvalue()
    assert "(stopped)" in out.getvalue()


async def test_assistant_chat_command_talks_to_a_demo_server(
    make_assistant: MakeAssistant,
) -> None:
    """`python -m assistant chat` with piped input mints a dev token a demo-mode server
    accepts, prints the answer and exits 0."""
    planner = ScriptedPlanner(FinalDecision(text="Hello from the assistant."))
    assistant = await make_assistant(
        planner=planner,
        narrator=ScriptedNarrator(),
        tool_backend=FakeToolBackend(),
        secret=None,  # demo mode without a secret: the development one
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTANT_")}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "assistant",
        "chat",
        "--url",
        _ws_url(assistant),
        "--customer",
        "cust_002",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=PROJECT_ROOT,
        env=env,
    )
    stdout, stderr = await asyncio.wait_for(process.communicate(b"hello\n"), 30)
    shown = stdout.decode()
    assert process.returncode == 0, stderr.decode() + shown
    assert "Connected as cust_002" in shown
    assert "Hello from the assistant." in shown
    planner.assert_used_up()


async def test_chat_asks_to_reconnect_when_the_session_expires(
    make_assistant: MakeAssistant,
) -> None:
    """A token that runs out mid-conversation: the terminal says to reconnect, exit code 1."""
    assistant = await make_assistant(
        planner=ScriptedPlanner(), narrator=ScriptedNarrator(), tool_backend=FakeToolBackend()
    )
    out = io.StringIO()
    hold = asyncio.Event()  # the user types nothing more; the server ends the session
    code = await ChatClient(out).run(
        _ws_url(assistant), assistant.token(ttl_s=2), _lines([], hold=hold)
    )
    assert code == 1
    assert "Your session has expired. Please reconnect" in out.getvalue()


async def test_lookups_that_start_mid_acknowledgement_never_split_its_line(
    make_assistant: MakeAssistant,
) -> None:
    """Reads started as their calls stream in: the acknowledgement stays one line, and
    the lookup lines follow it."""

    async def streaming(request: PlanRequest) -> ToolCallsDecision:
        decision = calls("crm.listUpcomingAppointments", "crm.getOpenInvoices")
        for call in decision.calls:
            await asyncio.sleep(0.01)  # the next call is still streaming
            assert request.on_call is not None
            await request.on_call(call)
        return decision

    planner = ScriptedPlanner(streaming, FinalDecision(text=""))
    narrator = ScriptedNarrator(["You have two appointments ", "and owe $150.00."])
    assistant = await make_assistant(planner=planner, narrator=narrator)
    shown = await _chat(assistant, "Show me my appointments and my billing")
    lines = shown.splitlines()
    ack = "Sure, I'll look up your upcoming appointments and check your billing."
    assert any(line.endswith(ack) for line in lines), shown
    ack_line = next(n for n, line in enumerate(lines) if line.endswith(ack))
    lookups = [n for n, line in enumerate(lines) if "Billing" in line or "billing…" in line]
    assert lookups and min(lookups) > ack_line, shown
