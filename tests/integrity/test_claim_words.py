"""Which sentences claim a change no write of the turn made (assistant/claims.py)."""

from __future__ import annotations

import pytest

from assistant.claims import NOT_ALL_DONE, NOT_DONE, NOT_YET, unbacked_claim
from assistant.schema import ToolCall, ToolError, ToolResult

WRITES = {
    "crm.addTask",
    "crm.bookAppointment",
    "crm.deleteTask",
    "crm.completeTask",
    "crm.createTicket",
}


def ran(tool: str, *, ok: bool = True) -> ToolResult:
    call = ToolCall(call_id=f"c_{tool}", tool_name=tool)
    if ok:
        return ToolResult(call=call, round=1, status="ok", result={})
    error = ToolError(code="invalid_arguments", message="refused")
    return ToolResult(call=call, round=1, status="error", error=error)


TASK_ADDED_BOOKING_FAILED = (ran("crm.addTask"), ran("crm.bookAppointment", ok=False))


@pytest.mark.parametrize(
    ("sentence", "results", "instead"),
    [
        ("Your balance is $150.00.", (), None),
        ("I've booked your haircut.", (), NOT_DONE),
        ("Booked!", (), NOT_DONE),
        ("I've taken care of that for you.", (), NOT_DONE),
        ("I've put you down for Friday at 3.", (), NOT_DONE),
        ("You're all set.", (), NOT_DONE),
        # An adverb between (tests/integrity/test_model_attacks8.py).
        ("You owe $150. I've also opened a billing dispute for you.", (), NOT_DONE),
        ("I have quickly added it.", (), NOT_DONE),
        ("I've also added 'Buy milk'.", (ran("crm.addTask"),), None),
        ("I've booked your haircut.", (ran("crm.bookAppointment"),), None),
        ("I've added 'Buy milk'.", TASK_ADDED_BOOKING_FAILED, None),
        ("I've added 'Buy milk' and booked your haircut.", TASK_ADDED_BOOKING_FAILED, NOT_ALL_DONE),
        (
            "I've added 'Buy milk', but your haircut couldn't be booked.",
            TASK_ADDED_BOOKING_FAILED,
            None,
        ),
        # A title in quotes holds any words: 'Get car fixed' claims nothing by itself.
        ("I've added 'Schedule a booked review'.", TASK_ADDED_BOOKING_FAILED, None),
        ("I marked 'Buy groceries' as complete.", (ran("crm.completeTask"),), None),
        ("I marked 'Buy groceries' as complete.", (ran("crm.addTask"),), NOT_ALL_DONE),
        # How a task or a case is described is no claim of another change: a new task
        # "marked high priority" is the task added (a truthful answer was replaced by
        # "I haven't made every change I mentioned").
        ("I added a task: Water the plants, marked low priority.", (ran("crm.addTask"),), None),
        ("I've added 'Call mum', marked as urgent.", (ran("crm.addTask"),), None),
        ("Done, I've added it and marked it high priority.", (ran("crm.addTask"),), None),
        ("I've opened a case, marked urgent.", (ran("crm.createTicket"),), None),
        ("I've added a reminder, scheduled for Friday.", (ran("crm.addTask"),), None),
        ("I've added the task, due Friday and marked important.", (ran("crm.addTask"),), None),
        # ...but a completion or a booking beside it is still a change of its own.
        (
            "I've added the task and marked the groceries as done.",
            (ran("crm.addTask"),),
            NOT_ALL_DONE,
        ),
        ("I've added the task and marked it complete.", (ran("crm.addTask"),), NOT_ALL_DONE),
        ("I've added the task and scheduled your haircut.", (ran("crm.addTask"),), NOT_ALL_DONE),
        ("I've marked the groceries task high priority.", (), NOT_DONE),
    ],
)
def test_a_claim_is_backed_by_the_write_that_makes_it(
    sentence: str, results: tuple[ToolResult, ...], instead: str | None
) -> None:
    """Each verb of a claim needs a successful write that makes that change."""
    assert unbacked_claim(sentence, results, WRITES) == instead


@pytest.mark.parametrize(
    ("sentence", "earlier", "instead"),
    [
        # "what day did you move it to?": the state a change of this conversation left.
        ("Your haircut is now on Saturday at 11 AM.", {"crm.rescheduleAppointment"}, None),
        ("Your haircut on Friday is cancelled.", {"crm.cancelAppointment"}, None),
        ("Your haircut is now on Saturday at 11 AM.", set(), NOT_DONE),
        ("Your haircut is now on Saturday at 11 AM.", {"crm.addTask"}, NOT_ALL_DONE),
        # A claim of doing needs a write of this turn: an earlier one made another change.
        ("I've moved your haircut to Saturday.", {"crm.rescheduleAppointment"}, NOT_DONE),
    ],
)
def test_a_state_said_again_rests_on_a_change_made_earlier_in_the_conversation(
    sentence: str, earlier: set[str], instead: str | None
) -> None:
    writes = {*WRITES, "crm.rescheduleAppointment", "crm.cancelAppointment"}
    assert unbacked_claim(sentence, (), writes, earlier=earlier) == instead


def test_a_claim_while_the_change_waits_for_a_yes_says_not_yet() -> None:
    """'I've deleted it' while the delete waits for the yes: 'not yet', the question follows."""
    assert unbacked_claim("I've deleted the task.", (), WRITES, held=True) == NOT_YET
