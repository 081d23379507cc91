"""The embedded planner: which calls each request makes, round by round, with real ids."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from assistant.dialogue_state import Action, Dialogue
from assistant.fakes.world import APPOINTMENTS, CATALOG, CUSTOMER, NOW, TASKS, answer, play, task
from assistant.models.embedded import EmbeddedPlanner, questions
from assistant.models.embedded.corrections import correction
from assistant.models.embedded.pinning import task_follow_up
from assistant.models.embedded.references import follow_up
from assistant.models.embedded.replies import NO_ACCOUNT
from assistant.schema import (
    FinalDecision,
    Message,
    PlanRequest,
    ToolCall,
    ToolCallsDecision,
    ToolResult,
    UserTurn,
)

DEV = [
    json.loads(line)
    for line in (Path(__file__).parents[1] / "data" / "dev.jsonl").read_text().splitlines()
    if line.strip()
]


def first_round(text: str, **fields: Any) -> FinalDecision | ToolCallsDecision:
    request = PlanRequest(
        conversation=(UserTurn(text=text),),
        tools=fields.pop("tools", CATALOG.tools),
        customer=CUSTOMER,
        now=NOW,
        **fields,
    )
    return EmbeddedPlanner().plan(request)


@pytest.mark.parametrize("line", DEV, ids=[line["text"] for line in DEV])
async def test_dev_utterances_make_the_expected_calls(line: dict[str, Any]) -> None:
    """Every dev request makes its tools (round after round) and holds its confirmation."""
    turn = await play(line["text"])
    assert turn.tools == line["tools"] or turn.tools in line.get("alt_tools", [])
    assert (turn.held.tool_name if turn.held else None) == line.get("confirm")


@pytest.mark.parametrize(
    ("text", "tool", "arguments"),
    [
        ("Mark buy groceries as done", "crm.completeTask", {"task_id": "task_1"}),
        ("Complete the grocery task", "crm.completeTask", {"task_id": "task_1"}),
        (
            "Rename the grocery task to Buy groceries and milk",
            "crm.updateTask",
            {"task_id": "task_1", "title": "Buy groceries and milk"},
        ),
        (
            "Make the grocery task high priority",
            "crm.updateTask",
            {"task_id": "task_1", "priority": "high"},
        ),
        ("Delete the grocery task", "crm.deleteTask", {"task_id": "task_1"}),
        ("Cancel my next appointment", "crm.cancelAppointment", {"appointment_id": "appt_1"}),
        (
            "Move my next appointment to Friday at 10am",
            "crm.rescheduleAppointment",
            {"appointment_id": "appt_1", "starts_at": "2025-03-07T10:00:00-08:00"},
        ),
        (
            "move my haircut to monday",
            "crm.rescheduleAppointment",
            {"appointment_id": "appt_2", "starts_at": "2025-03-03T14:30:00-08:00"},
        ),
    ],
)
async def test_second_round_acts_on_the_listed_item_with_its_real_id(
    text: str, tool: str, arguments: dict[str, Any]
) -> None:
    """Given the listing as this turn's results, round 2 calls the action on the right id."""
    lookup = first_round(text)
    assert isinstance(lookup, ToolCallsDecision)
    results = tuple(
        ToolResult(call=call, round=1, status="ok", result=answer(call)) for call in lookup.calls
    )
    decision = EmbeddedPlanner().plan(
        PlanRequest(
            conversation=(UserTurn(text=text),),
            tools=CATALOG.tools,
            customer=CUSTOMER,
            now=NOW,
            round=2,
            turn_results=results,
        )
    )
    assert isinstance(decision, ToolCallsDecision)
    (call,) = decision.calls
    assert (call.tool_name, call.arguments) == (tool, arguments)


async def test_a_listing_made_by_another_model_is_acted_on_too() -> None:
    """As the engine's follow-up: after a full listing (not getNext), the action is made."""
    listing = ToolCall(call_id="x", tool_name="crm.listUpcomingAppointments")
    results = (ToolResult(call=listing, status="ok", result=answer(listing)),)
    decision = EmbeddedPlanner().plan(
        PlanRequest(
            conversation=(UserTurn(text="Cancel my next appointment"),),
            tools=CATALOG.tools,
            customer=CUSTOMER,
            now=NOW,
            round=2,
            turn_results=results,
        )
    )
    assert isinstance(decision, ToolCallsDecision)
    assert decision.calls[0].arguments == {"appointment_id": "appt_1"}


async def test_after_acting_the_planner_stops_without_repeating_a_call() -> None:
    """Once the action is in the results, the next round is final (never the same call again)."""
    turn = await play("Complete the grocery task")
    assert turn.tools == ["crm.listTasks", "crm.completeTask"]
    assert "Buy groceries" in turn.answer


async def test_a_failed_lookup_leads_to_no_action() -> None:
    """When the listing failed, nothing is completed and the failure is said."""
    turn = await play("Complete the grocery task", failures={"crm.listTasks": "timeout"})
    assert turn.tools == ["crm.listTasks"]
    assert "didn't answer in time" in turn.answer


async def test_no_match_answers_with_what_exists() -> None:
    """A task that is not there is not guessed: the answer says so and lists the tasks."""
    turn = await play("complete the dishwasher task")
    assert turn.tools == ["crm.listTasks"]
    assert "couldn't find a task" in turn.answer
    assert "Buy groceries" in turn.answer
    assert turn.answer.endswith("?")


async def test_several_matches_ask_which_one_then_the_answer_acts() -> None:
    """Two bill tasks: the planner asks which; "the water one" completes the water bill."""
    bills = [task("t_w", "Pay water bill", "high", 3), task("t_p", "Pay phone bill", "normal", 5)]
    history: list[Message] = []
    asked = await play("complete the bill task", history, tasks=bills)
    assert asked.tools == ["crm.listTasks"]
    assert "Pay water bill" in asked.answer
    assert "Pay phone bill" in asked.answer
    done = await play("the water one", history, tasks=bills)
    assert done.rounds[-1][0].arguments == {"task_id": "t_w"}


async def test_a_write_lacking_a_time_asks_then_books_with_the_reply() -> None:
    """ "book a haircut" asks when; "tomorrow at 3" then books it at 3 PM tomorrow."""
    history: list[Message] = []
    question = await play("book a haircut", history)
    assert question.tools == []
    assert question.answer == "Sure. When would you like your haircut?"
    booked = await play("tomorrow at 3", history)
    (call,) = booked.rounds[0]
    assert call.tool_name == "crm.bookAppointment"
    assert call.arguments == {"service": "Haircut", "starts_at": "2025-03-02T15:00:00-08:00"}


@pytest.mark.parametrize(
    ("first", "reply", "tool", "arguments"),
    [
        ("add a task", "call the bank", "crm.addTask", {"title": "Call the bank"}),
        (
            "update my phone number",
            "415 555 0123",
            "crm.updateContactInfo",
            {"phone": "+14155550123"},
        ),
        (
            "I have a problem with my invoice",
            "yes please",
            "crm.createTicket",
            {"subject": "Problem with my invoice", "body": "Problem with my invoice."},
        ),
    ],
)
async def test_replies_to_a_question_complete_the_request(
    first: str, reply: str, tool: str, arguments: dict[str, Any]
) -> None:
    """The missing piece, given after the question, completes the earlier request."""
    history: list[Message] = []
    asked = await play(first, history)
    assert asked.tools == []
    assert asked.answer.endswith("?")
    done = await play(reply, history)
    (call,) = done.rounds[0]
    assert (call.tool_name, call.arguments) == (tool, arguments)


def test_call_ids_are_unique_and_all_calls_are_returned_in_order() -> None:
    """Five lookups asked: five calls in the order asked (the engine applies the cap)."""
    decision = first_round(
        "Show me my tasks, my appointments, my tickets, my invoices and my profile", max_calls=4
    )
    assert isinstance(decision, ToolCallsDecision)
    assert [call.tool_name for call in decision.calls] == [
        "crm.listTasks",
        "crm.listUpcomingAppointments",
        "crm.listOpenTickets",
        "crm.getOpenInvoices",
        "crm.getCustomerProfile",
    ]
    assert [call.call_id for call in decision.calls] == [f"c_1_{i}" for i in range(1, 6)]


def test_without_tools_only_general_answers_are_given() -> None:
    """An unidentified caller gets general answers, and no call is attempted."""
    assert first_round("How much do I owe?", tools=()) == FinalDecision(text=NO_ACCOUNT)
    greeting = first_round("hello", tools=())
    assert isinstance(greeting, FinalDecision)
    assert greeting.text.startswith("Hi")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hi there", "How can I help"),
        ("Thanks, that's all", "Have a great day"),
        ("What can you help me with?", "appointments"),
        ("What's the weather like tomorrow?", "appointments, billing, tasks and support cases"),
        ("Tell me a joke", "appointments, billing, tasks and support cases"),
        ("add a task", "What should the task say?"),
        ("book an appointment", "What would you like to book"),
    ],
)
def test_messages_needing_no_tool_get_a_fitting_reply(text: str, expected: str) -> None:
    """Small talk, out-of-scope asks and incomplete writes are answered without a call."""
    decision = first_round(text)
    assert isinstance(decision, FinalDecision)
    assert expected in decision.text


def test_decisions_are_deterministic() -> None:
    """The same request always gets the same decision."""
    text = "book a haircut friday at 10am and remind me to bring my id"
    assert first_round(text) == first_round(text)


async def test_answers_to_two_questions_in_a_row_complete_one_request() -> None:
    """ "reschedule my appointment" → when? "friday at 9" → which? "the haircut" → moved."""
    history: list[Message] = []
    await play("reschedule my appointment", history)
    which = await play("friday at 9", history)
    assert which.answer.startswith("Which appointment should I move")
    moved = await play("the haircut", history)
    (call,) = moved.rounds[-1]
    assert call.arguments == {"appointment_id": "appt_2", "starts_at": "2025-03-07T09:00:00-08:00"}


async def test_a_new_request_after_a_question_is_taken_as_new() -> None:
    """Asked when, the customer asks for the balance instead: the balance is looked up."""
    history: list[Message] = []
    await play("book a haircut", history)
    turn = await play("what's my balance", history)
    assert turn.tools == ["crm.getOpenInvoices"]


@pytest.mark.parametrize(
    "text", ["can you pay my invoice with my card", "I'd like a refund for my haircut"]
)
def test_a_payment_or_refund_is_answered_without_a_tool(text: str) -> None:
    """Asking to pay or be refunded calls nothing and says what can be done instead."""
    decision = first_round(text)
    assert isinstance(decision, FinalDecision)
    assert "can't take payments" in decision.text and "what you owe" in decision.text


def test_the_same_words_in_two_conversations_move_each_ones_own_appointment() -> None:
    """A follow-up read once per turn is never answered from another conversation's state."""
    moved = []
    for appointment in (APPOINTMENTS[0], APPOINTMENTS[1], APPOINTMENTS[0]):
        state = Dialogue(focus_kind="appointment", focus=appointment)
        for _ in range(2):  # a later round of the same turn reads it again
            (intent,) = follow_up(state, "move it an hour later", NOW, CUSTOMER.timezone) or []
            assert intent.target is not None
            moved.append((intent.target.item_id, intent.arguments["starts_at"]))
    assert moved == [
        ("appt_1", "2025-03-03T11:00:00-08:00"),
        ("appt_1", "2025-03-03T11:00:00-08:00"),
        ("appt_2", "2025-03-07T15:30:00-08:00"),
        ("appt_2", "2025-03-07T15:30:00-08:00"),
        ("appt_1", "2025-03-03T11:00:00-08:00"),
        ("appt_1", "2025-03-03T11:00:00-08:00"),
    ]


async def test_the_day_said_before_the_question_stays_with_the_time_given_after() -> None:
    """ "book a haircut on wednesday" → what time? → "half ten": Wednesday 10:30, not tomorrow."""
    history: list[Message] = []
    asked = await play("book a haircut on wednesday", history)
    assert asked.tools == []
    booked = await play("half ten", history)
    (call,) = booked.rounds[0]
    assert call.arguments == {"service": "Haircut", "starts_at": "2025-03-05T10:30:00-08:00"}


async def test_a_move_to_a_part_of_the_day_asks_the_hour_before_moving() -> None:
    """ "move my haircut to friday afternoon" asks what time; "3 oclock" moves it to 3 PM."""
    history: list[Message] = []
    asked = await play("move my haircut to friday afternoon", history)
    assert "crm.rescheduleAppointment" not in asked.tools
    assert "What time on" in asked.answer
    moved = await play("3 oclock", history)
    (call,) = moved.rounds[-1]
    assert call.tool_name == "crm.rescheduleAppointment"
    assert call.arguments["starts_at"] == "2025-03-07T15:00:00-08:00"


@pytest.mark.parametrize(
    ("text", "last"),
    [
        ("show me my tasks and what I owe", True),
        ("when's my next appointment", True),
        ("complete the grocery task", False),  # the listing names the task to act on
        ("move my haircut to friday at 3", False),
        ("add a task to call the bank", False),
    ],
)
def test_lookups_that_only_need_telling_are_the_last_round(text: str, last: bool) -> None:
    """Lookups whose results are only told end the planning (the engine does not ask
    again); a lookup that finds what to act on, or a write, leaves room for a next round."""
    decision = first_round(text)
    assert isinstance(decision, ToolCallsDecision)
    assert decision.last_round is last


def test_when_a_named_task_is_due_is_answered_from_the_listing() -> None:
    """ "when is the car insurance due" is answered with that task's day, not the whole list."""
    asked = questions.read_question("when is the car insurance due", Dialogue(), [])
    assert asked is not None and asked.aspect == "task_due"
    ((tool, arguments),) = questions.lookups(asked)
    call = ToolCall(call_id="c_1", tool_name=tool, arguments=arguments)
    listed = ToolResult(call=call, round=1, status="ok", result=answer(call))
    said = questions.answer(asked, [listed], NOW)
    assert said == "Renew car insurance is due March 8."


def test_push_it_to_a_day_moves_the_due_day_of_the_task_in_focus() -> None:
    """ "push it to the 20th" about a task sets its due day (it used to be read as a visit)."""
    (intent,) = task_follow_up("push it to the 20th", TASKS[1], NOW) or []
    assert (intent.kind, dict(intent.arguments)) == ("update_task", {"due_on": "2025-03-20"})


def test_what_is_due_tomorrow_names_only_tomorrows_tasks() -> None:
    """ "whats due tomorrow" names the groceries only, not everything due within the week."""
    asked = questions.read_question("whats due tomorrow", Dialogue(), [])
    assert asked is not None
    ((tool, arguments),) = questions.lookups(asked)
    call = ToolCall(call_id="c_1", tool_name=tool, arguments=arguments)
    listed = ToolResult(call=call, round=1, status="ok", result=answer(call))
    assert questions.answer(asked, [listed], NOW) == "Due tomorrow: Buy groceries."


def test_make_the_named_task_a_day_moves_its_due_day_only_when_it_names_it() -> None:
    """ "make the car insurance saturday" sets that task's due day; other words leave it."""
    (intent,) = task_follow_up("make the car insurance saturday", TASKS[1], NOW) or []
    assert (intent.kind, dict(intent.arguments)) == ("update_task", {"due_on": "2025-03-08"})
    assert task_follow_up("make the haircut saturday", TASKS[1], NOW) is None


def test_not_one_time_but_another_moves_a_booking_to_the_one_meant() -> None:
    """ "sorry not two thirty three thirty" after booking at 2:30 moves it to 3:30, not 2:30."""
    booked = {**APPOINTMENTS[0], "starts_at": "2025-03-04T14:30:00-08:00"}
    action = Action("crm.bookAppointment", {}, "appointment", None, booked)
    state = Dialogue(last_action=action, last_appointment_action=action)
    zone = ZoneInfo("America/Los_Angeles")
    (intent,) = correction(state, "sorry not two thirty three thirty", NOW, zone) or []
    assert intent.kind == "reschedule_appointment"
    assert intent.arguments["starts_at"] == "2025-03-04T15:30:00-08:00"
