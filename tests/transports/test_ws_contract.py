"""/v1/ws held to PROTOCOL.md's tables field by field, as an integrator reads them: what
every event carries, turn statuses, the pending confirmation's shape, the resume window
and where `session.resume` may come."""

from __future__ import annotations

from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from assistant.errors import ToolFailure
from assistant.fakes import EchoNarrator, FakeToolBackend, ScriptedPlanner, calls
from assistant.schema import FinalDecision
from assistant.services import SESSION_STORE
from assistant.session_store import InMemorySessionStore
from tests.fixtures.app import MakeAssistant, WsConversation
from tests.fixtures.crm import CrmAdmin

# PROTOCOL.md "Server → client": the fields each event type names (more may be added).
EVENT_FIELDS = {
    "turn.started": {"turn_id", "message_id"},
    "ack.delta": {"turn_id", "round", "text"},
    "ack.done": {"turn_id", "round", "text"},
    "tool.started": {"turn_id", "round", "call_id", "tool", "arguments"},
    "tool.finished": {
        "turn_id",
        "round",
        "call_id",
        "tool",
        "status",
        "error",
        "latency_ms",
        "attempts",
    },
    "answer.delta": {"turn_id", "text"},
    "answer.done": {"turn_id", "text"},
    "turn.done": {
        "turn_id",
        "status",
        "tool_calls",
        "truncated_calls",
        "awaiting_confirmation",
        "timings_ms",
        "trace_id",
    },
}
CALL_FIELDS = {"call_id", "round", "tool", "arguments", "status", "error", "latency_ms", "attempts"}
TOOL_ERROR_CODES = {
    "invalid_arguments",
    "not_found",
    "permission_denied",
    "conflict",
    "rate_limited",
    "timeout",
    "unavailable",
    "circuit_open",
    "round_limit",
    "cancelled",
    "internal",
}


def _missing(event: dict[str, Any]) -> set[str]:
    return EVENT_FIELDS[event["type"]] - set(event)


async def test_every_event_carries_the_fields_the_protocol_names(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Each event of a two-lookup turn has every field of its PROTOCOL.md row, and the
    turn's trace id is the one the CRM saw."""
    assistant = await make_assistant()
    chat = await assistant.connect()

    events = await chat.say("Show me my appointments and my billing", id="m-7")

    assert {e["type"] for e in events} == set(EVENT_FIELDS)
    assert {e["type"]: _missing(e) for e in events if _missing(e)} == {}
    assert events[0]["message_id"] == "m-7"
    started = [e for e in events if e["type"] == "tool.started"]
    finished = [e for e in events if e["type"] == "tool.finished"]
    assert sorted(e["call_id"] for e in started) == sorted(e["call_id"] for e in finished)
    assert all(isinstance(e["latency_ms"], int | float) for e in finished)
    assert all(e["attempts"] == 1 and e["round"] == 1 for e in finished)
    done = events[-1]
    assert [set(call) >= CALL_FIELDS for call in done["tool_calls"]] == [True, True]
    assert set(done["timings_ms"]) >= {"decision", "ack", "tools", "answer", "total"}
    seen_by_crm = {r["trace_id"] for r in await crm_admin.requests(limit=10)}
    assert done["trace_id"] in seen_by_crm


async def test_one_failed_call_of_two_ends_partial_with_a_tool_error_code(
    make_assistant: MakeAssistant,
) -> None:
    """Billing fails, appointments answer: tool.finished says error with a protocol code,
    turn.done says partial; both calls failing says failed."""
    failure = ToolFailure("unavailable", "billing is down")
    backend = FakeToolBackend(failures={"crm.getOpenInvoices": failure, "crm.listTasks": failure})
    planner = ScriptedPlanner(
        calls("crm.listUpcomingAppointments", "crm.getOpenInvoices"),
        FinalDecision(text=""),
        calls("crm.listTasks", "crm.getOpenInvoices"),
        FinalDecision(text=""),
    )
    assistant = await make_assistant(planner=planner, narrator=EchoNarrator(), tool_backend=backend)
    chat = await assistant.connect()

    some = await chat.say("appointments and billing")
    none = await chat.say("tasks and billing")

    failed = [e for e in some if e["type"] == "tool.finished" and e["status"] == "error"]
    assert [(e["tool"], e["error"]["code"]) for e in failed] == [
        ("crm.getOpenInvoices", "unavailable")
    ]
    assert set(failed[0]["error"]) == {"code", "message"}
    every_call = some[-1]["tool_calls"] + none[-1]["tool_calls"]
    codes = {call["error"]["code"] for call in every_call if call["error"]}
    assert codes <= TOOL_ERROR_CODES
    assert (some[-1]["status"], none[-1]["status"]) == ("partial", "failed")


async def test_a_pending_destructive_call_is_named_in_awaiting_confirmation(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'Delete the grocery task': the turn ends asking, awaiting_confirmation is
    {tool, arguments, prompt, calls} with tool/arguments repeating the first call, and
    nothing is deleted before the yes."""
    assistant = await make_assistant()
    chat = await assistant.connect()

    events = await chat.say("Delete the grocery task")

    pending = events[-1]["awaiting_confirmation"]
    assert set(pending) >= {"tool", "arguments", "prompt", "calls"}
    assert pending["calls"][0] == {"tool": pending["tool"], "arguments": pending["arguments"]}
    assert pending["tool"] == "crm.deleteTask"
    assert pending["prompt"].endswith("?")
    answer = next(e["text"] for e in events if e["type"] == "answer.done")
    assert answer.endswith("?")
    stats = await crm_admin.stats()
    assert stats["requests"].get("DELETE /v1/customers/{cid}/tasks/{tid}") is None


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def _resume(assistant: Any, session_id: str) -> dict[str, Any]:
    chat = await assistant.resume(session_id)
    await chat.close()
    ready: dict[str, Any] = chat.ready
    return ready


async def test_the_resume_window_counts_from_the_last_activity(
    make_assistant: MakeAssistant,
) -> None:
    """With a 10-minute window: resumed 11 minutes after the start but 9 after the last
    message; past 10 minutes of quiet, a new session (resumed false, no error)."""
    clock = _Clock()

    def store(app: web.Application) -> None:
        app[SESSION_STORE] = InMemorySessionStore(600.0, clock=clock)

    assistant = await make_assistant(configure=store)
    chat = await assistant.connect()
    await chat.say("What's my next appointment?")
    clock.now = 120.0
    await chat.say("and what do I owe?")
    await chat.close()

    clock.now = 660.0
    within = await _resume(assistant, chat.session_id)
    clock.now += 601.0
    after = await _resume(assistant, chat.session_id)

    assert (within["session_id"], within["resumed"]) == (chat.session_id, True)
    assert after["resumed"] is False
    assert after["session_id"] != chat.session_id
    assert after["customer_id"] == "cust_001"


async def test_session_resume_after_the_first_frame_is_refused_and_the_session_goes_on(
    make_assistant: MakeAssistant,
) -> None:
    """session.resume is a first frame only: later it gets invalid_message saying so,
    and the session keeps answering."""
    assistant = await make_assistant(
        planner=ScriptedPlanner(FinalDecision(text="Hello."), FinalDecision(text="Still here.")),
        narrator=EchoNarrator(),
        tool_backend=FakeToolBackend(),
    )
    chat = await assistant.connect()
    await chat.say("hi")

    await chat.send({"type": "session.resume", "session_id": chat.session_id})
    error = await chat.next_event()
    events = await chat.say("are you there?")

    assert (error["type"], error["code"]) == ("error", "invalid_message")
    assert "first frame" in error["message"]
    assert events[-1]["status"] == "ok"


async def test_a_malformed_browser_resume_closes_1008_naming_the_field(
    make_assistant: MakeAssistant,
) -> None:
    """A browser's first frame with a session_id that is not a string is closed with
    1008, and the reason names session_id rather than a generic complaint."""
    assistant = await make_assistant()
    chat = WsConversation(await assistant.open_ws(), None)
    assistant.conversations.append(chat)

    await chat.send({"type": "session.resume", "session_id": 7, "token": assistant.token()})
    code, reason = await chat.expect_close()

    assert code == 1008
    assert "session_id" in reason


async def test_a_text_frame_that_is_not_utf8_closes_1007(make_assistant: MakeAssistant) -> None:
    """Bytes that are not UTF-8 in a text frame fail the connection as RFC 6455 requires
    (1007, invalid data), not with a hang or a server error; a JSON-escaped lone surrogate
    instead is an invalid_message (test_ws_admission.py)."""
    assistant = await make_assistant()
    chat = await assistant.connect()

    await chat.ws.send_frame(b'{"type": "user.message", "text": "\xff\xfe"}', WSMsgType.TEXT)
    code, _ = await chat.expect_close()

    assert code == WSCloseCode.INVALID_TEXT


async def test_a_message_resent_after_a_resume_is_answered_as_before_not_applied_twice(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """A client that lost its socket resumes and sends 'add a task' again with the same
    id: the service answers it as before (the add's answer, no question, no call), and
    the CRM holds one such task. (Was asked "add it again anyway?" about a message the
    customer sent once; for a change relative to where things are, "push my haircut back
    an hour", a yes to that question moved it twice: assistant/resent.py.)"""
    assistant = await make_assistant()
    first = await assistant.connect()
    done = await first.say("add a task to call the plumber", id="m1")
    await first.close()

    chat = await assistant.connect()
    await chat.send({"type": "session.resume", "session_id": first.session_id})
    await chat.next_of("session.ready")
    events = await chat.say("add a task to call the plumber", id="m1")

    assert events[0]["message_id"] == "m1"
    assert events[-1]["awaiting_confirmation"] is None
    assert events[-1]["tool_calls"] == []
    said = next(e["text"] for e in events if e["type"] == "answer.done")
    assert said == next(e["text"] for e in done if e["type"] == "answer.done")
    _, tasks = await crm_admin.get("/v1/customers/cust_001/tasks")
    assert [t["title"] for t in tasks["tasks"]].count("Call the plumber") == 1


async def test_turn_cancel_during_a_write_reports_the_write_in_turn_done(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """turn.cancel while 'add a task' is being written: the write finishes, its
    tool.finished comes, and turn.done (cancelled) lists it as ok; the CRM holds it once."""
    await crm_admin.add_fault(method="POST", path="/v1/customers/*/tasks", latency_ms=500, times=1)
    assistant = await make_assistant()
    chat = await assistant.connect()

    await chat.send_message("add a task to call the plumber")
    await crm_admin.wait_until_seen("POST /v1/customers/{cid}/tasks")
    await chat.cancel()
    events = await chat.events_until("turn.done")

    finished = [e for e in events if e["type"] == "tool.finished"]
    assert [e["status"] for e in finished if e["tool"] == "crm.addTask"] == ["ok"]
    done = events[-1]
    assert done["status"] == "cancelled"
    writes = [c for c in done["tool_calls"] if c["tool"] == "crm.addTask"]
    assert [c["status"] for c in writes] == ["ok"]
    _, tasks = await crm_admin.get("/v1/customers/cust_001/tasks")
    assert [t["title"] for t in tasks["tasks"]].count("Call the plumber") == 1
