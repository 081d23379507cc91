"""What is said in place of a model's sentence that would tell the opposite of what
happened (assistant/truthful.py): a denial of a write that went through, a claim of
another change than the one made, a tool call written as text."""

from __future__ import annotations

import pytest

from assistant.claims import NOT_DONE
from assistant.figures import UNSURE, corrected, facts_of
from assistant.schema import ToolCall, ToolError, ToolResult
from assistant.truthful import NOT_RUN, said_instead

WRITES = {
    "crm.addTask",
    "crm.bookAppointment",
    "crm.rescheduleAppointment",
    "crm.cancelAppointment",
    "crm.deleteTask",
    "crm.createTicket",
    "crm.completeTask",
    "crm.updateTask",
}
ZONE = "America/Los_Angeles"


def ran(tool: str, result: dict[str, object] | None = None, *, ok: bool = True) -> ToolResult:
    call = ToolCall(call_id=f"c_{tool}", tool_name=tool)
    if ok:
        return ToolResult(call=call, round=1, status="ok", result=result or {})
    error = ToolError(code="invalid_arguments", message="refused")
    return ToolResult(call=call, round=1, status="error", error=error)


MOVED = ran(
    "crm.rescheduleAppointment", {"service": "Haircut", "starts_at": "2030-11-25T15:00:00-08:00"}
)
ADDED = ran("crm.addTask", {"title": "Buy milk"})
BOOKING_FAILED = ran("crm.bookAppointment", ok=False)


@pytest.mark.parametrize(
    ("sentence", "results", "says"),
    [
        # A claim of another change than the one made names the one made.
        ("Your haircut has been cancelled.", [MOVED], "your haircut is moved to Monday"),
        # A denial of a write that went through.
        ("Sorry, I couldn't add that task.", [ADDED], "The task 'Buy milk' is added."),
        ("I wasn't able to move your haircut.", [MOVED], "Your haircut is moved to"),
        ("Unfortunately that didn't go through.", [ADDED], "that did go through"),
        # A tool call written as text.
        ('<tool_call>{"name": "crm_addTask"}</tool_call>', [], NOT_RUN),
        ('{"name": "crm_deleteTask", "arguments": {"task_id": "t1"}}', [], NOT_RUN),
        ('{"name": "crm_addTask", "arguments": {}}', [ADDED], "the task 'Buy milk' is added"),
    ],
)
def test_a_sentence_telling_the_opposite_is_replaced(
    sentence: str, results: list[ToolResult], says: str
) -> None:
    instead = said_instead(sentence, results, WRITES, timezone=ZONE)
    assert instead is not None and says in instead, instead


@pytest.mark.parametrize(
    ("sentence", "results"),
    [
        ("I've added 'Buy milk'.", [ADDED]),
        # The booking that failed may be the one meant.
        ("Sorry, I couldn't book your massage.", [MOVED, BOOKING_FAILED]),
        # Another write than the one made, not attempted: true.
        ("I couldn't update your email, though.", [ADDED]),
        ("I can't cancel appointments within a day of them.", [MOVED]),
        ("Your balance is $150.", []),
        ('The task "Buy milk" is on your list.', []),
    ],
)
def test_a_true_sentence_is_said_as_it_is(sentence: str, results: list[ToolResult]) -> None:
    assert said_instead(sentence, results, WRITES, timezone=ZONE) is None


def test_a_claim_with_nothing_made_keeps_its_line() -> None:
    assert said_instead("I've booked your haircut.", [], WRITES, timezone=ZONE) == NOT_DONE


def test_an_amount_owed_with_no_billing_read_is_not_said() -> None:
    """'Your balance is $320.' after an add, nothing billed read: not said; an amount in
    the customer's words, or one owed to someone else, is said."""
    facts = facts_of([ADDED], [], ZONE)
    assert corrected("Your balance with us is $320.", facts, set()) == UNSURE
    assert corrected("You owe $320 in all.", facts, set()) == UNSURE
    assert corrected("Your balance is $320.", facts, {"320"}) is None
    assert corrected("Remember you owe the plumber $320.", facts, set()) is None
    assert corrected("A haircut costs $45.", facts, set()) is None
