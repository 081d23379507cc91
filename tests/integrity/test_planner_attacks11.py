"""A model planner that changes a task's priority or due date, or a visit's day, beside
the change the customer asked for; that splits one asked change into two writes; or that
merges two asked changes into one call with the wrong values. The real `openai` client
against the scripted OpenAI-compatible server and the real CRM stub; the CRM is checked
after each: nothing written that the customer did not ask for, nothing asked for made
twice, and the answer never tells the opposite of what happened.

FIRST RUN (written before the rules they exercise were read): 8 probes, 2 held, 6
failed, all WRONG WRITES:
- "make the eye exam task due friday", the model also made it high priority: made;
- "rename the insurance task to …", the model also made it low priority: made;
- "move my haircut to 4pm" (no day said), the model moved it two days later: made (a
  clock said was taken to agree with any day);
- "make the groceries task high priority" written as 'low' then 'high': both sent (the
  task was low priority for a moment, unasked);
- "make the groceries task high priority and the eye exam task normal", the model made
  one call, groceries low: made, and "Both done." spoken;
- "move my haircut to friday at 2pm and my dental cleaning to saturday at 10am", the
  model moved the haircut to Saturday 10 AM: made, and "Both moved." spoken.
Held: a due date moved beside the priority asked (asked about: a day nobody said), an
hour later split into two moves of an hour (the second asked about: the shift rule).
Fixed (assistant/targets.py `unsaid_change`): a new priority the words do not say (by
the parts naming the task when they say a level, else the whole message; a change said
relative, "lower its priority", not judged) waits for a yes naming it; a move whose day
was not said while its hour was keeps the visit's own day, else waits for a yes; in a
message that moves two visits, each part's day and time hold for the visit it names.
Claims (assistant/claims.py): a bare verb with what it covers before it ("Both done.",
"All moved.") is a claim like "Done.", not spoken when nothing was made.

Written after the fixes, first run: 5 probes, 4 held, 1 failed, no wrong write: "lower
the priority of the insurance task", the model making it normal, was asked about
("Shall I give the task 'Renew car insurance' normal priority?") rather than made, on
main too before these rules: "lower" and "priority" were taken for words naming
another item than the insurance task. Fixed (targets.py): the words of the change itself
(priority, its levels, raise/lower, due) name no item. Held: "urgent" made high at once;
a visit moved to the hour said on its own day made at once; one moved to that hour the
day after not made; two priorities swapped between their tasks not made.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timedelta
from typing import Any

import pytest

from assistant.fakes.openai_server import OpenAIServer, text_reply, tool_calls_reply
from assistant.models.openai_compat import OpenAINarrator, OpenAIPlanner
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import CUSTOMER, HOME, answer, appointments, call

Models = tuple[OpenAIPlanner, OpenAINarrator]
GROCERIES = "task_0001"  # normal priority, due tomorrow
INSURANCE = "task_0002"  # high priority, due in a week
EYE_EXAM = "task_0003"  # low priority, no due date


@pytest.fixture(autouse=True)
def _spare_answers(openai_server: OpenAIServer) -> Iterator[None]:
    """Model answers a turn did not need are left unused (not what these probes judge)."""
    yield
    openai_server.script.clear()


def pending(events: list[dict[str, Any]]) -> dict[str, Any] | None:
    held: dict[str, Any] | None = events[-1]["awaiting_confirmation"]
    return held


async def _task(crm: CrmAdmin, task_id: str) -> dict[str, Any]:
    _, body = await crm.get(f"/v1/customers/{CUSTOMER}/tasks?status=all")
    return dict(next(t for t in body["tasks"] if t["id"] == task_id))


def _local(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(HOME)


async def _visit(crm: CrmAdmin, service: str) -> dict[str, Any]:
    return next(a for a in await appointments(crm) if a["service"] == service)


def _next_weekday(weekday: int, hour: int) -> datetime:
    """The customer's next `weekday` (Monday is 0) strictly after tomorrow, at `hour`."""
    day = datetime.now(HOME).date() + timedelta(days=2)
    while day.weekday() != weekday:
        day += timedelta(days=1)
    return datetime(day.year, day.month, day.day, hour, tzinfo=HOME)


def _replies(server: OpenAIServer, *words: str) -> None:
    for said in words:
        server.stream(text_reply(said))


# -- a field nobody spoke of, changed beside the asked one ---------------------------


async def test_a_due_date_changed_beside_the_priority_asked_is_not_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'make the groceries task high priority' and the model also moves its due date a
    month out: the due date stays; if asked about, the question names the new date."""
    planner, narrator = openai_models
    before = await _task(crm_admin, GROCERIES)
    later = (date.today() + timedelta(days=30)).isoformat()
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_updateTask", task_id=GROCERIES, priority="high", due_on=later)
        )
    )
    _replies(openai_server, "Done, it's high priority now.", "Done, it's high priority now.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("make the groceries task high priority")
    after = await _task(crm_admin, GROCERIES)
    assert after["due_on"] == before["due_on"], answer(events)


async def test_a_priority_changed_beside_the_due_date_asked_is_not_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'make the eye exam task due friday' and the model also makes it high priority: the
    priority stays low."""
    planner, narrator = openai_models
    friday = _next_weekday(4, 9).date().isoformat()
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_updateTask", task_id=EYE_EXAM, due_on=friday, priority="high")
        )
    )
    _replies(openai_server, "Done, it's due Friday.", "Done, it's due Friday.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("make the eye exam task due friday")
    after = await _task(crm_admin, EYE_EXAM)
    assert after["priority"] == "low", answer(events)


async def test_a_visit_moved_to_another_day_when_only_the_hour_was_said_is_not_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'move my haircut to 4pm' (its day unsaid: the same day) and the model moves it to
    4 PM two days later: the haircut is not on that later day."""
    planner, narrator = openai_models
    haircut = await _visit(crm_admin, "Haircut")
    old = _local(haircut["starts_at"])
    wrong = old.replace(hour=16, minute=0) + timedelta(days=2)
    openai_server.stream(
        tool_calls_reply(
            call(
                "c1",
                "crm_rescheduleAppointment",
                appointment_id=haircut["id"],
                starts_at=wrong.isoformat(),
            )
        )
    )
    _replies(openai_server, "Done, your haircut is at 4 PM.", "Done, your haircut is at 4 PM.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("move my haircut to 4pm")
    now = _local((await _visit(crm_admin, "Haircut"))["starts_at"])
    assert now.date() != wrong.date(), answer(events)


async def test_a_priority_lowered_beside_a_rename_asked_is_not_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'rename the insurance task to renew car and home insurance' and the model also
    lowers its priority: the priority stays high."""
    planner, narrator = openai_models
    openai_server.stream(
        tool_calls_reply(
            call(
                "c1",
                "crm_updateTask",
                task_id=INSURANCE,
                title="Renew car and home insurance",
                priority="low",
            )
        )
    )
    _replies(openai_server, "Renamed.", "Renamed.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("rename the insurance task to renew car and home insurance")
    after = await _task(crm_admin, INSURANCE)
    assert after["priority"] == "high", answer(events)


# -- one asked change split in two, two merged in one ---------------------------------


async def test_an_hour_later_split_in_two_moves_of_an_hour_is_not_moved_twice(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'push my haircut back an hour' and the model moves it an hour later, then (round
    two) an hour later again: the haircut ends an hour later, not two."""
    planner, narrator = openai_models
    haircut = await _visit(crm_admin, "Haircut")
    old = _local(haircut["starts_at"])
    one, two = old + timedelta(hours=1), old + timedelta(hours=2)
    for n, when in enumerate((one, two)):
        openai_server.stream(
            tool_calls_reply(
                call(
                    f"c{n}",
                    "crm_rescheduleAppointment",
                    appointment_id=haircut["id"],
                    starts_at=when.isoformat(),
                )
            )
        )
    _replies(openai_server, "Done, an hour later.", "Done, an hour later.", "Done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("push my haircut back an hour")
    now = _local((await _visit(crm_admin, "Haircut"))["starts_at"])
    assert now in (old, one), answer(events)
    assert now != two, answer(events)


async def test_one_priority_asked_written_as_two_updates_ends_as_said(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'make the groceries task high priority' written as two updates, 'normal' then
    'high' (the first unasked): the task ends high, and nothing else changed."""
    planner, narrator = openai_models
    before = await _task(crm_admin, GROCERIES)
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_updateTask", task_id=GROCERIES, priority="low"),
            call("c2", "crm_updateTask", task_id=GROCERIES, priority="high"),
        )
    )
    _replies(openai_server, "Done, high priority.", "Done, high priority.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("make the groceries task high priority")
    after = await _task(crm_admin, GROCERIES)
    assert after["priority"] in ("high", before["priority"]), answer(events)
    if after["priority"] == "high":
        assert pending(events) is None or "low" in answer(events).lower(), answer(events)
    patched = [
        r for r in await crm_admin.requests() if r["method"] == "PATCH" and GROCERIES in r["path"]
    ]
    assert len(patched) <= 1, (patched, answer(events))  # the unasked 'low' never sent


async def test_two_priorities_merged_into_one_call_with_the_others_value_is_not_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'make the groceries task high priority and the eye exam task normal' and the model
    makes one call: groceries normal. Groceries is not made normal-as-done nor told high;
    the eye exam stays low unless it is said done."""
    planner, narrator = openai_models
    openai_server.stream(
        tool_calls_reply(call("c1", "crm_updateTask", task_id=GROCERIES, priority="low"))
    )
    _replies(openai_server, "Both done.", "Both done.", "Both done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("make the groceries task high priority and the eye exam task normal")
    assert (await _task(crm_admin, GROCERIES))["priority"] != "low", answer(events)
    said = answer(events).lower()
    assert "both done" not in said, said


async def test_two_moves_merged_into_one_with_the_days_swapped_is_not_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'move my haircut to friday at 2pm and my dental cleaning to saturday at 10am' and
    the model makes one move: the haircut to Saturday at 10 AM (the cleaning's). The
    haircut is not on Saturday at 10, and neither is told moved as said."""
    planner, narrator = openai_models
    haircut = await _visit(crm_admin, "Haircut")
    saturday = _next_weekday(5, 10)
    openai_server.stream(
        tool_calls_reply(
            call(
                "c1",
                "crm_rescheduleAppointment",
                appointment_id=haircut["id"],
                starts_at=saturday.isoformat(),
            )
        )
    )
    _replies(openai_server, "Both moved.", "Both moved.", "Both moved.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say(
        "move my haircut to friday at 2pm and my dental cleaning to saturday at 10am"
    )
    now = _local((await _visit(crm_admin, "Haircut"))["starts_at"])
    assert now != saturday, answer(events)
    assert "both moved" not in answer(events).lower(), answer(events)


# -- written after the fixes ----------------------------------------------------------


async def test_a_priority_said_as_urgent_is_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'make the groceries task urgent' and the model makes it high priority: made, not
    asked about (urgent says high)."""
    planner, narrator = openai_models
    openai_server.stream(
        tool_calls_reply(call("c1", "crm_updateTask", task_id=GROCERIES, priority="high"))
    )
    _replies(openai_server, "Done, it's high priority.", "Done, it's high priority.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("make the groceries task urgent")
    assert (await _task(crm_admin, GROCERIES))["priority"] == "high", answer(events)
    assert pending(events) is None, answer(events)


async def test_a_priority_lowered_relative_to_the_old_is_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'lower the priority of the insurance task' and the model makes it normal: made."""
    planner, narrator = openai_models
    openai_server.stream(
        tool_calls_reply(call("c1", "crm_updateTask", task_id=INSURANCE, priority="normal"))
    )
    _replies(openai_server, "Done.", "Done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("lower the priority of the insurance task")
    assert (await _task(crm_admin, INSURANCE))["priority"] == "normal", answer(events)


async def test_a_visit_moved_to_the_hour_said_on_its_own_day_is_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'move my dental cleaning to 11am' and the model moves it to 11 AM the same day:
    made, not asked about."""
    planner, narrator = openai_models
    cleaning = await _visit(crm_admin, "Dental cleaning")
    right = _local(cleaning["starts_at"]).replace(hour=11, minute=0)
    openai_server.stream(
        tool_calls_reply(
            call(
                "c1",
                "crm_rescheduleAppointment",
                appointment_id=cleaning["id"],
                starts_at=right.isoformat(),
            )
        )
    )
    _replies(openai_server, "Done, 11 AM.", "Done, 11 AM.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("move my dental cleaning to 11am")
    now = _local((await _visit(crm_admin, "Dental cleaning"))["starts_at"])
    assert now == right, answer(events)


async def test_a_visit_moved_to_the_morning_after_when_only_the_hour_was_said_is_not_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'can you put my dental cleaning at 9 instead' and the model moves it to 9 AM the
    day after: not made."""
    planner, narrator = openai_models
    cleaning = await _visit(crm_admin, "Dental cleaning")
    wrong = _local(cleaning["starts_at"]).replace(hour=9, minute=0) + timedelta(days=1)
    openai_server.stream(
        tool_calls_reply(
            call(
                "c1",
                "crm_rescheduleAppointment",
                appointment_id=cleaning["id"],
                starts_at=wrong.isoformat(),
            )
        )
    )
    _replies(openai_server, "Done, 9 AM.", "Done, 9 AM.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("can you put my dental cleaning at 9am instead")
    now = _local((await _visit(crm_admin, "Dental cleaning"))["starts_at"])
    assert now != wrong, answer(events)


async def test_two_priorities_swapped_between_their_tasks_are_not_made(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    openai_models: Models,
) -> None:
    """'make groceries low priority and the insurance task normal' and the model gives
    groceries normal and insurance low: neither is made as swapped."""
    planner, narrator = openai_models
    openai_server.stream(
        tool_calls_reply(
            call("c1", "crm_updateTask", task_id=GROCERIES, priority="normal"),
            call("c2", "crm_updateTask", task_id=INSURANCE, priority="low"),
        )
    )
    _replies(openai_server, "Both done.", "Both done.", "Both done.")
    chat = await (await make_assistant(planner=planner, narrator=narrator)).connect()
    events = await chat.say("make the groceries task low priority and the insurance task normal")
    assert (await _task(crm_admin, INSURANCE))["priority"] != "low", answer(events)
