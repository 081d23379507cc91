"""Readings the long-conversation set showed wrong, where a misreading several turns into a
conversation writes what was not asked, or to the wrong item."""

from __future__ import annotations

from datetime import datetime, time
from zoneinfo import ZoneInfo

from assistant.dialogue import advance
from assistant.dialogue_state import Action, Dialogue
from assistant.language import detect_intents
from assistant.language.shifts import bare_clock
from assistant.models.embedded.references import read_intents
from assistant.models.embedded.retries import asked
from assistant.schema import ToolCall, ToolResult

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))  # a Monday

HAIRCUT = {
    "id": "a9",
    "service": "Haircut",
    "status": "upcoming",
    "starts_at": "2030-01-18T11:00:00-08:00",
}
DENTAL = {
    "id": "a1",
    "service": "Dental cleaning",
    "status": "upcoming",
    "starts_at": "2030-01-16T10:00:00-08:00",
}
GROCERIES = {"id": "t1", "title": "Buy groceries", "status": "completed", "due_on": "2030-01-15"}
INSURANCE = {"id": "t2", "title": "Renew car insurance", "status": "pending", "due_on": None}
DRY_CLEANING = {"id": "t5", "title": "Pick up dry cleaning", "status": "pending"}
BILL = {"id": "i1", "description": "Dental cleaning", "due_on": "2030-02-03", "status": "open"}


def _read(message: str, state: Dialogue) -> list[tuple[str, dict[str, object]]]:
    return [(i.kind, dict(i.arguments)) for i in read_intents((), message, NOW, TZ, state)]


def _result(tool: str, result: object, **arguments: object) -> ToolResult:
    call = ToolCall(call_id=f"c_{tool}_{arguments}", tool_name=tool, arguments=dict(arguments))
    return ToolResult(call=call, round=1, status="ok", result=result)


def test_cancel_the_friday_one_after_a_move_is_a_cancel() -> None:
    """ "hmm, cancel the friday one" after "actually make it 11" cancels; it never moves the
    haircut to 1 PM ("one" there points at a visit)."""
    moved = Action("crm.rescheduleAppointment", {}, "appointment", HAIRCUT, HAIRCUT)
    state = Dialogue("appointment", (DENTAL, HAIRCUT), "appointment", HAIRCUT, moved)
    assert [kind for kind, _ in _read("hmm, cancel the friday one", state)] == [
        "cancel_appointment"
    ]
    assert bare_clock("cancel the friday one", time(11)) is None
    assert bare_clock("make it one", time(11)) == time(13)


def test_a_reminder_about_the_bill_is_a_task_not_a_move_of_the_visit_in_view() -> None:
    """ "remind me to pay the bill the day before it's due", the visit just moved and the
    bill read out before it: a task due the day before the bill's due day."""
    moved = Action("crm.rescheduleAppointment", {}, "appointment", DENTAL, DENTAL)
    state = Dialogue(
        "appointment",
        (DENTAL,),
        "appointment",
        DENTAL,
        moved,
        earlier_listed_kind="invoice",
        earlier_listed=(BILL,),
    )
    said = _read("great, and remind me to pay the bill the day before it's due", state)
    assert said == [("add_task", {"title": "Pay the bill", "due_on": "2030-02-02"})]


def test_a_message_about_the_task_never_moves_the_visit_in_focus() -> None:
    """ "i want the dry cleaning before that, make the task friday" with the haircut in
    focus: the dry cleaning task is due Friday; no visit moves."""
    state = Dialogue(
        "appointment",
        (DENTAL, HAIRCUT),
        "appointment",
        HAIRCUT,
        earlier_focus_kind="task",
        earlier_focus=DRY_CLEANING,
    )
    said = _read("i want the dry cleaning before that, make the task friday", state)
    assert said == [("update_task", {"due_on": "2030-01-18"})]


def test_and_with_a_verb_of_its_own_is_not_the_same_again() -> None:
    """ "and move the car insurance one to friday" after completing groceries moves its due
    day; it does not complete it too."""
    done = Action("crm.completeTask", {"task_id": "t1"}, "task", GROCERIES, GROCERIES)
    state = Dialogue("task", (GROCERIES, INSURANCE), "task", GROCERIES, done)
    kinds = [kind for kind, _ in _read("and move the car insurance one to friday", state)]
    assert "complete_task" not in kinds


def test_two_written_in_one_turn_leave_neither_in_focus() -> None:
    """Two tasks added at once: "make it due friday" next aims at neither (which is asked)."""
    plumber = {"id": "t8", "title": "Call the plumber", "status": "pending"}
    card = {"id": "t9", "title": "Buy a birthday card", "status": "pending"}
    results = [
        _result("crm.addTask", plumber, title="Call the plumber"),
        _result("crm.addTask", card, title="Buy a birthday card"),
    ]
    state = advance(None, results, "add two tasks, call the plumber and buy a card", "Added.")
    assert state.focus is None
    said = read_intents((), "make it due friday", NOW, TZ, state)
    assert all(i.target is None or i.target.item_id is None for i in said)


def test_several_tasks_counted_are_each_added() -> None:
    """ "add two tasks, call the plumber and buy a birthday card": two tasks; "buy milk and
    eggs" with no count stays one."""
    two = detect_intents("add two tasks, call the plumber and buy a birthday card", NOW, TZ)
    assert [i.arguments.get("title") for i in two] == ["Call the plumber", "Buy a birthday card"]
    one = detect_intents("add buy milk and eggs to my list", NOW, TZ)
    assert [i.arguments.get("title") for i in one] == ["Buy milk and eggs"]


def test_only_asking_whether_it_went_through_checks_a_write() -> None:
    """ "did that go through?" and "try again" are about the last write; "has it been paid"
    is a question about a bill."""
    assert asked("did that go through?") == "check"
    assert asked("ok did that work") == "check"
    assert asked("can you try again") == "retry"
    assert asked("has it been paid") is None
    assert asked("try again and also book a haircut") is None
