"""Find-then-act through the websocket with the embedded models and the real CRM stub,
checking the CRM's data afterwards."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from assistant.fakes import EchoNarrator, ScriptedPlanner, calls
from assistant.models.embedded import EmbeddedPlanner
from assistant.schema import FinalDecision
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

TASKS = "/v1/customers/cust_001/tasks"


async def tasks_of(crm_admin: CrmAdmin, customer: str = "cust_001") -> dict[str, dict[str, Any]]:
    status, body = await crm_admin.get(f"/v1/customers/{customer}/tasks")
    assert status == 200
    return {task["title"]: task for task in body["tasks"]}


async def appointments_of(crm_admin: CrmAdmin, status: str = "all") -> list[dict[str, Any]]:
    _, body = await crm_admin.get(f"/v1/customers/cust_001/appointments?status={status}")
    return list(body["appointments"])


def answer(events: list[dict[str, Any]]) -> str:
    return next(e["text"] for e in events if e["type"] == "answer.done")


async def test_find_and_complete(make_assistant: MakeAssistant, crm_admin: CrmAdmin) -> None:
    """'Complete the grocery task' lists, resolves 'Buy groceries' and completes it."""
    chat = await (await make_assistant()).connect()
    events = await chat.say("Complete the grocery task")
    assert [(c["tool"], c["round"]) for c in events[-1]["tool_calls"]] == [
        ("crm.listTasks", 1),
        ("crm.completeTask", 2),
    ]
    assert (await tasks_of(crm_admin))["Buy groceries"]["status"] == "completed"
    assert "Buy groceries" in answer(events)


async def test_find_and_rename(make_assistant: MakeAssistant, crm_admin: CrmAdmin) -> None:
    """A rename reaches the CRM: the old title is gone, the new one is there."""
    chat = await (await make_assistant()).connect()
    await chat.say("Rename the grocery task to Buy groceries and milk")
    tasks = await tasks_of(crm_admin)
    assert "Buy groceries" not in tasks
    assert "Buy groceries and milk" in tasks


async def test_find_and_change_priority(make_assistant: MakeAssistant, crm_admin: CrmAdmin) -> None:
    """'Make the grocery task high priority' updates that task's priority only."""
    chat = await (await make_assistant()).connect()
    before = await tasks_of(crm_admin)
    await chat.say("Make the grocery task high priority")
    after = await tasks_of(crm_admin)
    assert after["Buy groceries"]["priority"] == "high"
    others = {t: v["priority"] for t, v in after.items() if t != "Buy groceries"}
    assert others == {t: v["priority"] for t, v in before.items() if t != "Buy groceries"}


async def test_delete_only_after_yes(make_assistant: MakeAssistant, crm_admin: CrmAdmin) -> None:
    """Delete asks first (the task still exists), then 'yes' deletes exactly it."""
    chat = await (await make_assistant()).connect()
    events = await chat.say("Delete the grocery task")
    pending = events[-1]["awaiting_confirmation"]
    assert pending["prompt"] == "Are you sure you want to delete the task 'Buy groceries'?"
    assert "Buy groceries" in await tasks_of(crm_admin)
    events = await chat.say("yeah go ahead")
    assert events[-1]["status"] == "ok"
    tasks = await tasks_of(crm_admin)
    assert "Buy groceries" not in tasks
    assert len(tasks) >= 3


async def test_delete_declined_keeps_the_task(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'No' after the question: nothing is deleted and the answer says so."""
    chat = await (await make_assistant()).connect()
    await chat.say("Delete the grocery task")
    events = await chat.say("no")
    assert "Buy groceries" in await tasks_of(crm_admin)
    assert "won't" in answer(events)
    assert events[-1]["awaiting_confirmation"] is None


async def test_find_and_reschedule(make_assistant: MakeAssistant, crm_admin: CrmAdmin) -> None:
    """'Move my next appointment to Friday at 10am' moves exactly that appointment."""
    before = await appointments_of(crm_admin, "upcoming")
    chat = await (await make_assistant()).connect()
    events = await chat.say("Move my next appointment to Friday at 10am")
    assert events[-1]["status"] == "ok"
    after = {a["id"]: a for a in await appointments_of(crm_admin, "all")}
    moved = after[before[0]["id"]]
    starts = datetime.fromisoformat(moved["starts_at"]).astimezone(ZoneInfo("America/Los_Angeles"))
    assert (starts.strftime("%A"), starts.hour, starts.minute) == ("Friday", 10, 0)
    assert after[before[1]["id"]]["starts_at"] == before[1]["starts_at"]


async def test_find_and_cancel_after_yes(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Cancelling the next appointment names it, waits for yes, then cancels only it."""
    before = await appointments_of(crm_admin, "upcoming")
    chat = await (await make_assistant()).connect()
    events = await chat.say("Cancel my next appointment")
    prompt = events[-1]["awaiting_confirmation"]["prompt"]
    assert "dental cleaning" in prompt.lower()
    assert [a["id"] for a in await appointments_of(crm_admin, "upcoming")] == [
        a["id"] for a in before
    ]
    await chat.say("yes")
    upcoming = [a["id"] for a in await appointments_of(crm_admin, "upcoming")]
    assert upcoming == [a["id"] for a in before[1:]]


async def test_no_match_says_so_and_offers_what_exists(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """A task that does not exist: nothing is changed, and the tasks there are named."""
    before = await tasks_of(crm_admin)
    chat = await (await make_assistant()).connect()
    events = await chat.say("Complete the laundry task")
    assert [c["tool"] for c in events[-1]["tool_calls"]] == ["crm.listTasks"]
    text = answer(events)
    assert "laundry" in text.lower()
    assert "Buy groceries" in text
    assert await tasks_of(crm_admin) == before


async def test_several_matches_ask_which_one(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'The bill task' matches two of cust_002's tasks: it asks, naming both."""
    before = await tasks_of(crm_admin, "cust_002")
    chat = await (await make_assistant()).connect("cust_002")
    events = await chat.say("Complete the bill task")
    text = answer(events)
    assert "Pay water bill" in text
    assert "Pay phone bill" in text
    assert await tasks_of(crm_admin, "cust_002") == before


async def test_round_limit_with_a_planner_that_keeps_asking(
    make_assistant: MakeAssistant,
) -> None:
    """Past max_rounds=2 the extra call is skipped with round_limit; the turn still ends."""
    planner = ScriptedPlanner(
        calls("crm.listTasks"),
        calls(("crm.listTasks", {"status": "pending"})),
        calls(("crm.listTasks", {"status": "completed"})),
    )
    chat = await (
        await make_assistant(planner=planner, narrator=EchoNarrator(), max_rounds=2)
    ).connect()
    events = await chat.say("tasks, tasks, tasks")
    done = events[-1]
    assert [c["status"] for c in done["tool_calls"]] == ["ok", "ok", "skipped"]
    assert done["tool_calls"][2]["error"]["code"] == "round_limit"


async def test_forced_follow_up_completes_what_a_weak_model_left_undone(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The model listed tasks and stopped; the engine completes the grocery task itself."""
    planner = ScriptedPlanner(calls("crm.listTasks"), FinalDecision(text="You have 3 tasks."))
    assistant = await make_assistant(
        planner=planner, narrator=EchoNarrator(), follow_up=EmbeddedPlanner()
    )
    events = await (await assistant.connect()).say("complete the grocery task")
    assert [c["tool"] for c in events[-1]["tool_calls"]] == ["crm.listTasks", "crm.completeTask"]
    assert (await tasks_of(crm_admin))["Buy groceries"]["status"] == "completed"


async def test_a_second_round_failure_is_told_with_the_first_rounds_results(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The task vanished between list and complete: not_found, said kindly; partial."""
    await crm_admin.add_fault(
        method="POST", path="/v1/customers/*/tasks/*/complete", status=404, times=1
    )
    chat = await (await make_assistant()).connect()
    events = await chat.say("Complete the grocery task")
    done = events[-1]
    assert done["status"] == "partial"
    assert done["tool_calls"][1]["error"]["code"] == "not_found"
    assert answer(events)


async def test_an_expired_confirmation_deletes_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'Yes' after the confirmation expired does not delete the task."""
    now = [datetime.now(UTC)]
    chat = await (await make_assistant(confirmation_ttl_s=60, clock=lambda: now[0])).connect()
    await chat.say("Delete the grocery task")
    now[0] += timedelta(seconds=61)  # the engine's clock: no real waiting
    events = await chat.say("yes")
    assert "Buy groceries" in await tasks_of(crm_admin)
    assert all(c["tool"] != "crm.deleteTask" for c in events[-1]["tool_calls"])


async def test_yes_with_nothing_pending_changes_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """A stray 'yes' gets an ordinary answer and writes nothing."""
    before = await tasks_of(crm_admin)
    chat = await (await make_assistant()).connect()
    events = await chat.say("yes")
    assert events[-1]["tool_calls"] == []
    assert answer(events)
    assert await tasks_of(crm_admin) == before


async def test_closing_the_socket_mid_turn_leaves_no_task_behind(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """A client that disconnects during a slow turn leaves no task running."""
    await crm_admin.add_fault(method="GET", path="/v1/customers/*/invoices", latency_ms=5000)
    assistant = await make_assistant()
    chat = await assistant.connect()
    before = asyncio.all_tasks()
    await chat.send_message("what do I owe?")
    await chat.next_of("tool.started")
    await chat.close()
    for _ in range(100):
        if not {t for t in asyncio.all_tasks() - before if not t.done()}:
            break
        await asyncio.sleep(0.02)
    leaked = {t for t in asyncio.all_tasks() - before if not t.done()}
    assert leaked == set(), leaked
