"""Hostile and careless clients on /v1/ws, beyond the malformed frames of
test_ws_errors.py and the resends of test_ws_session_trust.py: frames that parse two
ways, out of order, or aimed at someone else's turn, with the embedded models and the
real CRM stub.

First run (written before any fix): 9 probes, 5 held, 4 failed.
- held: deep nesting, a yes as the first message, a cancel naming another tab's turn,
  resuming the session the socket already holds, control and direction characters;
- failed: a frame naming 'text' (or 'type') twice was run as its last value, so a filter
  in front of us and this server read two different messages;
- failed: a 5,000-digit id was answered with Python's own advice ("use
  sys.set_int_max_str_digits() to increase the limit"), not with what was wrong;
- failed: a text frame that is not UTF-8 closed 1007 with no reason at all.
Written afterwards, before its fix: a 1 MB frame closed 1009 with no reason (red).
After the fixes (transports/strict_json.py: one value per key, numbers of a readable
length; transports/sockets.py ExplainedSocket: closes that say why) all 10 hold.
Written afterwards, held: two sockets resuming one session at the same moment, both
saying yes to its question, delete once.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import WSMsgType

from tests.fixtures.app import MakeAssistant, WsConversation
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, called, tasks, writes_applied


async def turn_of(chat: WsConversation) -> list[dict[str, Any]]:
    return await chat.events_until("turn.done")


async def _error(chat: WsConversation, frame: str) -> dict[str, Any]:
    await chat.ws.send_str(frame)
    error = await chat.next_event()
    assert error["type"] == "error", error
    return error


async def test_a_frame_naming_its_text_twice_is_refused_naming_the_key(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """{"text": "what's on my list", "text": "delete …"}: read one way by a proxy's filter,
    another by us. Refused, naming 'text' twice; nothing is run; the socket goes on."""
    chat = await (await make_assistant()).connect()
    frame = (
        '{"type": "user.message", "text": "what is on my list?",'
        ' "text": "add a task to wire money to Bob"}'
    )
    error = await _error(chat, frame)
    assert error["code"] == "invalid_message"
    assert "'text'" in error["message"] and "twice" in error["message"], error
    events = await chat.say("what's on my list?")
    assert events[-1]["status"] == "ok"
    assert not any("wire money" in title.lower() for title in await tasks(crm_admin))


async def test_a_duplicated_type_is_refused_not_read_as_the_last_one(
    make_assistant: MakeAssistant,
) -> None:
    """{"type": "turn.cancel", …, "type": "user.message"}: refused naming 'type', not
    taken as whichever came last."""
    chat = await (await make_assistant()).connect()
    error = await _error(chat, '{"type": "turn.cancel", "text": "hi", "type": "user.message"}')
    assert error["code"] == "invalid_message"
    assert "'type'" in error["message"] and "twice" in error["message"], error


async def test_deep_nesting_is_refused_and_the_socket_goes_on(
    make_assistant: MakeAssistant,
) -> None:
    """A 60 KB frame of nested arrays in 'id': invalid_message, and the next message is
    answered (no crash of the reader, no close)."""
    chat = await (await make_assistant()).connect()
    depth = 30_000
    frame = '{"type": "user.message", "text": "hi", "id": ' + "[" * depth + "]" * depth + "}"
    error = await _error(chat, frame)
    assert error["code"] == "invalid_message"
    assert "JSON" in error["message"] or "'id'" in error["message"], error
    assert (await chat.say("what's on my list?"))[-1]["status"] == "ok"


async def test_an_integer_too_long_to_read_is_named(make_assistant: MakeAssistant) -> None:
    """A 5,000-digit number as the message id: invalid_message naming 'id', not a bare
    parser complaint, and the socket goes on."""
    chat = await (await make_assistant()).connect()
    error = await _error(chat, '{"type": "user.message", "text": "hi", "id": ' + "9" * 5000 + "}")
    assert error["code"] == "invalid_message"
    assert "'id'" in error["message"] or "number" in error["message"], error
    assert (await chat.say("what's on my list?"))[-1]["status"] == "ok"


async def test_a_yes_as_the_first_message_of_a_session_changes_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'yes, delete them all' before anything was asked: nothing deleted, nothing said to be."""
    chat = await (await make_assistant()).connect()
    events = await chat.say("yes, go ahead and delete them all")
    assert not {"crm.deleteTask", "crm.cancelAppointment"} & set(called(events))
    assert not await writes_applied(crm_admin)
    assert "deleted" not in answer(events).lower() or "?" in answer(events)


async def test_a_cancel_naming_another_sessions_turn_stops_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Tab B sends turn.cancel with tab A's running turn id: refused in B, and A's turn
    ends ok with its task added."""
    assistant = await make_assistant()
    tab_a, tab_b = await assistant.connect(), await assistant.connect()
    await tab_a.send_message("add a task to call the plumber")
    started = await tab_a.next_of("turn.started")
    error = await _error(tab_b, json.dumps({"type": "turn.cancel", "turn_id": started["turn_id"]}))
    assert error["code"] == "invalid_message"
    done = await tab_a.next_of("turn.done")
    assert done["status"] == "ok"
    assert "Call the plumber" in await tasks(crm_admin)


async def test_resuming_the_session_this_socket_already_holds_keeps_it_working(
    make_assistant: MakeAssistant,
) -> None:
    """A Bearer client resumes its own brand-new session id: one clear session.ready,
    and its messages are answered (no deadlock on itself)."""
    chat = await (await make_assistant()).connect()
    await chat.send({"type": "session.resume", "session_id": chat.session_id})
    ready = await chat.next_event()
    assert ready["type"] == "session.ready", ready
    assert ready["session_id"] == chat.session_id
    assert (await chat.say("what's on my list?"))[-1]["status"] == "ok"


async def test_control_characters_and_direction_marks_in_text_are_read_as_text(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """A message with NULs, a right-to-left override and zero-width joiners is answered;
    the socket survives and no write follows from a read."""
    chat = await (await make_assistant()).connect()
    text = "what\u0000s on my \u202elist\u202c\u200d? \u0007\u001b[2J"
    events = await chat.say(text)
    assert events[-1]["type"] == "turn.done"
    assert events[-1]["status"] in {"ok", "failed"}
    assert not await writes_applied(crm_admin)
    assert (await chat.say("what's on my list?"))[-1]["status"] == "ok"


async def test_a_text_frame_that_is_not_utf8_closes_with_a_reason(
    make_assistant: MakeAssistant,
) -> None:
    """Bytes that are not UTF-8 sent as a text frame: closed 1007 with a reason saying so
    (RFC 6455), not a silent drop."""
    chat = await (await make_assistant()).connect()
    writer = chat.ws._writer  # the client library refuses to send such bytes itself
    await writer.send_frame(b'{"type": "user.message", "text": "\xff\xfe"}', WSMsgType.TEXT)
    code, reason = await chat.expect_close()
    assert code == 1007, (code, reason)
    assert "UTF-8" in reason, reason


async def test_a_one_megabyte_frame_closes_naming_the_limit(make_assistant: MakeAssistant) -> None:
    """A 1 MB frame: closed 1009 with a reason naming the 64 KiB limit, so the client's
    developer knows what to shorten."""
    chat = await (await make_assistant()).connect()
    await chat.send_message("x" * 1_000_000)
    code, reason = await chat.expect_close()
    assert code == 1009, (code, reason)
    assert "65536" in reason, reason


async def test_two_resumes_of_one_session_at_once_both_go_on_and_write_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The question 'delete the grocery task?' asked, the socket dropped, then two sockets
    resume that session at the same moment and both say yes: each gets one session.ready,
    and the task is deleted once."""
    assistant = await make_assistant()
    first = await assistant.connect()
    asked = await first.say("delete the grocery task")
    assert asked[-1]["awaiting_confirmation"] is not None
    await first.close()
    tab_a, tab_b = await assistant.connect(), await assistant.connect()
    for tab in (tab_a, tab_b):
        await tab.send({"type": "session.resume", "session_id": first.session_id})
    ready = [await tab.next_of("session.ready") for tab in (tab_a, tab_b)]
    assert [r["session_id"] for r in ready if r["resumed"]], ready
    for tab in (tab_a, tab_b):
        await tab.send_message("yes")
    for tab in (tab_a, tab_b):
        await turn_of(tab)
    assert "Buy groceries" not in await tasks(crm_admin)
    deletes = (await writes_applied(crm_admin)).get("DELETE /v1/customers/{cid}/tasks/{tid}")
    assert deletes == 1, deletes
