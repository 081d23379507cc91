"""The dialogue state: what a turn leaves in focus and listed, and that it is plain data."""

from __future__ import annotations

import json

from assistant.dialogue import advance
from assistant.dialogue_state import Dialogue
from assistant.models.embedded.pinning import the_other_named
from assistant.schema import ToolCall, ToolResult

TASKS = [
    {"id": "t1", "title": "Schedule eye exam", "status": "pending", "priority": "low"},
    {
        "id": "t2",
        "title": "Renew car insurance",
        "status": "pending",
        "priority": "high",
        "due_on": "2030-01-08",
    },
    {
        "id": "t3",
        "title": "Buy groceries",
        "status": "pending",
        "priority": "normal",
        "due_on": "2030-01-02",
    },
]


def _result(tool: str, result: object, **arguments: object) -> ToolResult:
    call = ToolCall(call_id="c1", tool_name=tool, arguments=dict(arguments))
    return ToolResult(call=call, round=1, status="ok", result=result)


def test_a_listing_is_kept_in_the_order_it_is_read_out() -> None:
    """Tasks listed are kept soonest due first, the order the narrator reads them."""
    state = advance(None, [_result("crm.listTasks", {"tasks": TASKS})], "my tasks", "…")
    assert [t["title"] for t in state.listed] == [
        "Buy groceries",
        "Renew car insurance",
        "Schedule eye exam",
    ]


def test_a_write_puts_its_item_in_focus_and_is_the_last_action() -> None:
    """Completing a task focuses it and remembers the call, with the item before it."""
    listed = advance(None, [_result("crm.listTasks", {"tasks": TASKS})], "my tasks", "…")
    done = {**TASKS[2], "status": "completed"}
    state = advance(listed, [_result("crm.completeTask", done, task_id="t3")], "done", "Done.")
    assert state.focus == done
    assert state.last_action is not None
    assert state.last_action.before == TASKS[2]
    assert state.last_action.tool == "crm.completeTask"


def test_an_offered_support_case_is_the_open_question() -> None:
    """An answer ending by offering a support case leaves that offer open, with the words."""
    state = advance(
        None, [], "why was I charged 150", "… Would you like me to open a support case?"
    )
    assert (state.question, state.about) == ("offer_case", "why was I charged 150")


def test_the_state_is_plain_json() -> None:
    """The state goes through JSON and back unchanged (sessions are stored elsewhere)."""
    listed = advance(None, [_result("crm.listTasks", {"tasks": TASKS})], "my tasks", "…")
    state = advance(listed, [_result("crm.completeTask", TASKS[0], task_id="t1")], "x", "y")
    assert Dialogue.from_json(json.loads(json.dumps(state.to_json()))) == state


def test_the_other_one_is_named_when_only_one_other_was_listed() -> None:
    """ "what about the other one" after asking of one of two appointments names the other;
    with more than one other, nothing is guessed."""
    dental = {"id": "a1", "service": "Dental cleaning", "status": "upcoming"}
    haircut = {"id": "a2", "service": "Haircut", "status": "upcoming"}
    checkup = {"id": "a3", "service": "Annual checkup", "status": "upcoming"}
    two = Dialogue(
        listed_kind="appointment", listed=(dental, haircut), focus_kind="appointment", focus=dental
    )
    assert the_other_named(two, "and the other one?") == "and the haircut?"
    three = Dialogue(
        listed_kind="appointment",
        listed=(dental, haircut, checkup),
        focus_kind="appointment",
        focus=dental,
    )
    assert the_other_named(three, "and the other one?") == "and the other one?"


def test_a_task_added_while_the_list_is_in_view_joins_it_last() -> None:
    """A task added after a listing can be named later, even once another write took focus."""
    listed = advance(None, [_result("crm.listTasks", {"tasks": TASKS})], "my tasks", "…")
    added = {"id": "t9", "title": "Pick up dry cleaning", "status": "pending"}
    state = advance(listed, [_result("crm.addTask", added, title=added["title"])], "add", "Done.")
    assert [t["id"] for t in state.listed] == ["t3", "t2", "t1", "t9"]


def test_open_another_one_after_a_listing_is_another_of_what_was_listed() -> None:
    """ "open another one" after the support cases were read out asks for another case."""
    tickets = [{"id": "k1", "subject": "Question about my last invoice", "status": "open"}]
    state = advance(None, [_result("crm.listOpenTickets", {"tickets": tickets})], "cases", "…")
    said = the_other_named(state, "ok open another one my login is broken")
    assert said == "ok open another ticket my login is broken"


def test_the_question_an_answer_leaves_open_is_named_and_a_plain_answer_leaves_none() -> None:
    """Each "Which …?" question is recognised; an answer asking none leaves no question."""
    asked = {
        "Which appointment should I cancel: the haircut or the physio?": "which_cancel",
        "Which one should I move: the haircut or the physio?": "which_move",
        "Which task do you mean: Buy groceries or Renew car insurance?": "which_task",
        "I found two. Which one did you mean?": "which_task",
        "You have 3 tasks. Buy groceries is due January 2; which one first?": None,
        "You have 3 tasks: Buy groceries, Renew car insurance and Schedule eye exam.": None,
    }
    for answer, question in asked.items():
        state = advance(None, [], "which one", answer)
        assert state.question == question, answer


def test_no_just_one_of_them_is_not_a_bare_no() -> None:
    """ "No, just the haircut" narrows what waits (the planner hears it); "no thanks" declines."""
    from assistant.confirmation import is_negative

    assert is_negative("no thanks")
    assert not is_negative("no, just the haircut")
    assert not is_negative("no only the first")


def test_two_lists_read_together_are_kept_and_go_through_json() -> None:
    """The visits and the to-dos read out in one answer are kept together, in the order
    read, through JSON and back; an answer reading one list out lets them go."""
    visits = [
        {"id": "a1", "service": "Dental cleaning", "starts_at": "2030-01-16T10:00:00-08:00"},
        {"id": "a2", "service": "Haircut", "starts_at": "2030-01-20T14:30:00-08:00"},
    ]
    both = advance(
        None,
        [
            _result("crm.listUpcomingAppointments", {"appointments": visits}),
            _result("crm.listTasks", {"tasks": TASKS}),
        ],
        "what's on my plate",
        "…",
    )
    assert [kind for kind, _ in both.read_together] == ["appointment", "task"]
    assert Dialogue.from_json(json.loads(json.dumps(both.to_json()))) == both
    assert both.last_listed_of("appointment")[1]["id"] == "a2"
    tasks_only = advance(both, [_result("crm.listTasks", {"tasks": TASKS})], "my tasks", "…")
    assert tasks_only.read_together == ()
