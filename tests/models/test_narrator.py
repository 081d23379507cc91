"""The embedded narrator: every result, every failure, spoken plainly and streamed."""

from __future__ import annotations

import re
from typing import Any, get_args

import pytest

from assistant.errors import ToolErrorCode
from assistant.fakes.world import APPOINTMENTS, CUSTOMER, NOW, TASKS, answer, moment, task
from assistant.models.embedded import EmbeddedNarrator
from assistant.schema import Message, NarratorInput, ToolCall, ToolError, ToolExchange, ToolResult


def ok(tool: str, arguments: dict[str, Any] | None = None, result: Any = None) -> ToolResult:
    call = ToolCall(call_id=f"c_{tool}", tool_name=tool, arguments=arguments or {})
    return ToolResult(call=call, status="ok", result=answer(call) if result is None else result)


def failed(tool: str, code: str, arguments: dict[str, Any] | None = None) -> ToolResult:
    call = ToolCall(call_id=f"c_{tool}", tool_name=tool, arguments=arguments or {})
    status = "skipped" if code == "round_limit" else "error"
    error = ToolError(code=code, message="injected")  # type: ignore[arg-type]
    return ToolResult(call=call, status=status, error=error)


async def pieces(
    message: str, *results: ToolResult, conversation: tuple[Message, ...] = (), **fields: Any
) -> list[str]:
    request = NarratorInput(
        user_message=message,
        tool_results=results,
        context_hint="Summarise the results naturally.",
        customer=CUSTOMER,
        now=fields.pop("now", NOW),
        conversation=conversation,
        **fields,
    )
    return [piece async for piece in EmbeddedNarrator().narrate(request)]


async def say(message: str, *results: ToolResult, **fields: Any) -> str:
    return "".join(await pieces(message, *results, **fields))


async def test_seed_appointments_and_billing_mention_the_date_and_the_balance() -> None:
    """ "Show me my appointments and my billing" → the appointment date and the balance."""
    text = await say(
        "Show me my appointments and my billing",
        ok("crm.listUpcomingAppointments"),
        ok("crm.getOpenInvoices"),
    )
    assert "Monday, March 3 at 10:00 AM" in text
    assert "$150.00" in text
    assert text.index("March 3") < text.index("$150.00")


async def test_the_answer_streams_sentence_by_sentence() -> None:
    """Each piece is one sentence ending in a space (but the last), so voice can start early."""
    streamed = await pieces(
        "Show me my appointments and my billing",
        ok("crm.listUpcomingAppointments"),
        ok("crm.getOpenInvoices"),
    )
    assert len(streamed) >= 2
    assert all(piece.endswith((". ", "? ", "! ")) for piece in streamed[:-1])
    assert streamed[-1].endswith((".", "?", "!"))


@pytest.mark.parametrize(
    ("message", "result", "expected"),
    [
        ("What's on file for me?", ok("crm.getCustomerProfile"), "maria.garcia@example.com"),
        ("What email do you have?", ok("crm.getCustomerProfile"), "The email on file is"),
        ("Do I have any appointments?", ok("crm.listUpcomingAppointments"), "two upcoming"),
        ("What's my next appointment?", ok("crm.getNextAppointment"), "Your next appointment is"),
        (
            "Book a haircut",
            ok("crm.bookAppointment", {"service": "Haircut", "starts_at": moment(3, 15)}),
            "You're booked for a haircut on Tuesday, March 4 at 3:00 PM",
        ),
        (
            "Move it",
            ok(
                "crm.rescheduleAppointment",
                {"appointment_id": "appt_1", "starts_at": moment(6, 10)},
            ),
            "Your dental cleaning is now on Friday, March 7 at 10:00 AM",
        ),
        (
            "Cancel it",
            ok("crm.cancelAppointment", {"appointment_id": "appt_1"}),
            "Your dental cleaning on Monday, March 3 at 10:00 AM is cancelled",
        ),
        ("What do I owe?", ok("crm.getOpenInvoices"), "Your balance is $150.00"),
        ("What tasks do I have?", ok("crm.listTasks"), "three pending tasks"),
        (
            "Add a task",
            ok("crm.addTask", {"title": "Renew my insurance", "due_on": "2025-03-07"}),
            "I added a task: Renew my insurance, due Friday, March 7.",
        ),
        (
            "Complete it",
            ok("crm.completeTask", {"task_id": "task_1"}),
            "I marked Buy groceries as complete",
        ),
        (
            "Make it high priority",
            ok("crm.updateTask", {"task_id": "task_1", "priority": "high"}),
            "Buy groceries is now high priority.",
        ),
        (
            "Delete it",
            ok("crm.deleteTask", {"task_id": "task_1"}),
            "I deleted that task.",
        ),
        ("Any open tickets?", ok("crm.listOpenTickets"), "Question about my last invoice"),
        (
            "Open a case",
            ok("crm.createTicket", {"subject": "Invoice amount looks wrong", "body": "Wrong."}),
            "I opened a support case: Invoice amount looks wrong.",
        ),
        (
            "Update my email",
            ok("crm.updateContactInfo", {"email": "jane.doe@example.com"}),
            "your email is now jane.doe@example.com",
        ),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
async def test_every_tools_result_is_said(message: str, result: ToolResult, expected: str) -> None:
    """Each tool's result has its own natural sentence."""
    assert expected in await say(message, result)


async def test_answers_hold_no_markdown_and_no_ids() -> None:
    """No bullets, asterisks or ids: only what a person would say."""
    text = await say(
        "Give me everything",
        ok("crm.listUpcomingAppointments"),
        ok("crm.getOpenInvoices"),
        ok("crm.listTasks"),
        ok("crm.listOpenTickets"),
        ok("crm.getCustomerProfile"),
    )
    assert not re.search(r"[*#_`\[\]]|^\s*-\s", text)
    assert not re.search(r"\b(?:appt|task|inv|tkt|cust)_\d", text)


async def test_empty_results_are_said_as_such() -> None:
    """Nothing to report is said plainly ("You have no upcoming appointments.")."""
    assert await say(
        "appointments?", ok("crm.listUpcomingAppointments", result={"appointments": []})
    ) == ("You have no upcoming appointments.")
    assert await say("next?", ok("crm.getNextAppointment", result={"appointment": None})) == (
        "You have no upcoming appointments."
    )
    nothing_owed = {"invoices": [], "balance_cents": 0, "currency": "USD"}
    assert "don't owe anything" in await say(
        "bill?", ok("crm.getOpenInvoices", result=nothing_owed)
    )
    assert await say("tasks?", ok("crm.listTasks", result={"tasks": []})) == (
        "You don't have any tasks."
    )
    assert await say("tickets?", ok("crm.listOpenTickets", result={"tickets": []})) == (
        "You have no open support cases."
    )


async def test_a_long_list_gives_three_and_says_how_many_more() -> None:
    """Six appointments: three are read, then "and three more"."""
    many = [{**APPOINTMENTS[1], "id": f"appt_{i}", "starts_at": moment(i + 2, 9)} for i in range(6)]
    text = await say(
        "my appointments", ok("crm.listUpcomingAppointments", result={"appointments": many})
    )
    assert "six upcoming appointments" in text
    assert "and three more" in text


async def test_task_summary_gives_totals_rate_and_priorities() -> None:
    """ "How am I doing on my tasks?" → total, completed, pending, rate, by priority."""
    text = await say("How am I doing on my tasks?", ok("crm.listTasks"))
    assert "four tasks in total" in text
    assert "one completed and three pending" in text
    assert "25%" in text
    assert "one is high priority" in text


SYSTEMS = {
    "crm.getOpenInvoices": "the billing system",
    "crm.listUpcomingAppointments": "the scheduling system",
    "crm.listTasks": "the task system",
    "crm.listOpenTickets": "the support system",
    "crm.getCustomerProfile": "the account system",
}
CODE_WORDS = {
    "timeout": "didn't answer in time",
    "unavailable": "is unavailable right now",
    "circuit_open": "is down right now",
    "rate_limited": "is busy right now, please try again in a moment",
    "not_found": "couldn't find",
    "permission_denied": "isn't something I'm allowed to do",
    "invalid_arguments": "didn't get the details quite right",
    # A 409 to a request sent once: a refusal, not a race (a key reused with another
    # body is the clash: test_a_clash_of_two_writes_is_said_as_one).
    "conflict": "refused the request as a conflict",
    "round_limit": "didn't get to check your billing this time",
    "cancelled": "stopped before I could check your billing",
    "internal": "something went wrong on our side",
}


@pytest.mark.parametrize("code", get_args(ToolErrorCode))
async def test_every_error_code_is_said_plainly(code: str) -> None:
    """Each failure says what could not be done and why, without blaming the customer."""
    text = await say("What do I owe?", failed("crm.getOpenInvoices", code))
    assert CODE_WORDS[code] in text
    assert "you entered" not in text.lower() and "your fault" not in text.lower()


async def test_a_clash_of_two_writes_is_said_as_one() -> None:
    """An idempotency key the CRM holds with another body (two writes really met) is
    said as a clash; a write refused once as a conflict is said as refused, with no
    invitation to race it again."""
    call = ToolCall(call_id="c_add", tool_name="crm.addTask", arguments={"title": "Call mom"})
    clash = ToolError(code="conflict", message="the CRM answered 422: idempotency key reused")
    refused = ToolError(code="conflict", message="the CRM answered 409: conflict")
    said = await say("add a task", ToolResult(call=call, status="error", error=clash))
    assert "clashed with another change" in said
    said = await say("add a task", ToolResult(call=call, status="error", error=refused))
    assert "refused it as a conflict" in said and "nothing was changed" in said
    assert "try again" not in said


@pytest.mark.parametrize(("tool", "system"), SYSTEMS.items())
async def test_failures_name_the_system_of_their_domain(tool: str, system: str) -> None:
    """A timeout names the system that did not answer ("the billing system…")."""
    assert f"{system} didn't answer in time" in await say("?", failed(tool, "timeout"))


async def test_partial_failure_gives_what_worked_and_what_did_not() -> None:
    """Appointments answered, billing timed out: both are said, in the order asked."""
    text = await say(
        "Show me my appointments and my billing",
        ok("crm.listUpcomingAppointments"),
        failed("crm.getOpenInvoices", "timeout"),
    )
    assert "two upcoming appointments" in text
    assert "I couldn't check your billing: the billing system didn't answer in time." in text
    assert text.index("appointments") < text.index("billing system")


async def test_an_unconfirmed_write_is_not_reported_as_failed() -> None:
    """A write sent but not confirmed may be done: said so, no "couldn't", no invitation to
    repeat it."""
    call = ToolCall(call_id="c_1", tool_name="crm.addTask", arguments={"title": "Call mom"})
    error = ToolError(code="timeout", message="no answer", unconfirmed=True)
    result = ToolResult(call=call, status="error", error=error, attempts=3)
    text = await say("add a task", result)
    assert "add the task Call mom" in text
    assert "hasn't confirmed it yet" in text
    assert "couldn't" not in text and "try again" not in text


async def test_a_write_never_started_says_nothing_was_changed() -> None:
    """A write the turn had no time left to start: nothing changed, said plainly."""
    text = await say("add a task", failed("crm.addTask", "timeout", {"title": "Call mom"}))
    assert "before I could add the task Call mom, so nothing was changed" in text


async def test_confirmation_question_ends_the_answer_without_reading_the_listing() -> None:
    """ "Delete the grocery task" → only the question, not the task list that found it."""
    prompt = "Are you sure you want to delete the task 'Buy groceries'?"
    text = await say("Delete the grocery task", ok("crm.listTasks"), confirmation_prompt=prompt)
    assert text == prompt


async def test_other_results_are_still_said_before_a_confirmation() -> None:
    """A balance asked with a cancellation is said, then the confirmation question."""
    prompt = "Are you sure you want to cancel your dental cleaning?"
    text = await say(
        "What do I owe, and cancel my next appointment",
        ok("crm.getOpenInvoices"),
        ok("crm.getNextAppointment"),
        confirmation_prompt=prompt,
    )
    assert text.startswith("Your balance is $150.00")
    assert text.endswith(prompt)
    assert "Your next appointment is" not in text


async def test_after_acting_the_lookup_is_not_read_out() -> None:
    """ "Complete the grocery task": the completion is said, not the whole task list."""
    text = await say(
        "Complete the grocery task",
        ok("crm.listTasks"),
        ok("crm.completeTask", {"task_id": "task_1"}),
    )
    assert text == "Done. I marked Buy groceries as complete. You have two pending tasks left."


async def test_a_vanished_task_is_said_with_what_is_left() -> None:
    """The task vanished between list and complete: said plainly, and the list still given."""
    text = await say(
        "Complete the grocery task",
        ok("crm.listTasks"),
        failed("crm.completeTask", "not_found", {"task_id": "task_1"}),
    )
    assert "I couldn't mark Buy groceries as complete: it doesn't seem to exist anymore." in text
    assert "three pending tasks" in text


async def test_completing_an_already_completed_task_says_so() -> None:
    """Completing a task that was already done says it was already done."""
    done = [task("task_4", "Call the pharmacy", "normal", -1, done=True)]
    text = await say(
        "complete the pharmacy task",
        ok("crm.listTasks", result={"tasks": done}),
        ok("crm.completeTask", {"task_id": "task_4"}, result={**done[0]}),
    )
    assert text == "Call the pharmacy was already marked complete."


async def test_a_confirmed_delete_names_the_task_from_earlier_in_the_conversation() -> None:
    """After "yes", the deleted task is named from the listing of the turn before."""
    earlier = ToolExchange(round=1, results=(ok("crm.listTasks"),))
    text = await say("yes", ok("crm.deleteTask", {"task_id": "task_1"}), conversation=(earlier,))
    assert text == "I deleted the task Buy groceries."


async def test_cut_requests_are_mentioned() -> None:
    """Requests past the per-round cap are not silently dropped."""
    text = await say("everything", ok("crm.getOpenInvoices"), truncated_calls=1)
    assert "I left one more of your requests for now" in text


async def test_tasks_answer_points_out_what_needs_attention() -> None:
    """The task list says which one is due soonest and which is high priority."""
    text = await say("my tasks", ok("crm.listTasks"))
    assert "Buy groceries is due tomorrow" in text
    assert "Renew car insurance is high priority" in text
    assert len(TASKS) == 4


async def test_when_everything_failed_the_answer_apologises() -> None:
    """All calls failed: an apology, then each failure said plainly."""
    text = await say(
        "Show me my appointments and my billing",
        failed("crm.listUpcomingAppointments", "circuit_open"),
        failed("crm.getOpenInvoices", "rate_limited"),
    )
    assert text.startswith("Sorry, I couldn't look up your appointments: the scheduling system")
    assert "the billing system is busy right now, please try again in a moment" in text


async def test_a_progressive_answer_says_what_is_ready_then_only_the_rest() -> None:
    """First part: the appointments and "I'm still checking your billing."; second part,
    with every result: only the balance, nothing said twice, no "All done"."""
    appointments = ok("crm.listUpcomingAppointments")
    billing = ok("crm.getOpenInvoices")
    message = "Show me my appointments and my billing"
    first = "".join(await pieces(message, appointments, waiting_on=("checking your billing",)))
    rest = "".join(
        await pieces(message, appointments, billing, told=frozenset({appointments.call.call_id}))
    )
    whole = "".join(await pieces(message, appointments, billing))
    assert first.endswith("I'm still checking your billing.")
    assert first.removesuffix("I'm still checking your billing.").strip() in whole
    assert rest.strip() and rest.strip() in whole
    assert not set(first.split(". ")) & set(rest.split(". "))


async def test_every_appointment_on_file_is_told_as_last_visit_coming_up_and_cancelled() -> None:
    """ "when did I last come in, and was the consultation cancelled?" is answered from the
    whole history: the last past visit, then what is coming, then what was cancelled."""
    text = await say(
        "when did i last come in and was the consultation cancelled",
        ok("crm.listAppointments", {"status": "all"}),
    )
    assert text.startswith("Your last visit was a haircut on Tuesday, December 31, 2024"), text
    assert "Coming up: a dental cleaning on Monday, March 3" in text
    assert text.endswith("A consultation on Wednesday, March 5 at 11:30 AM was cancelled."), text


async def test_the_profile_read_beside_an_email_change_tells_only_what_was_asked() -> None:
    """ "change my email … and what phone number do you have": the new email once, then the
    phone; the old email read beside the change is never told as the one on file."""
    change = ok("crm.updateContactInfo", {"email": "maria.g@newmail.com"})
    text = await say(
        "change my email to maria.g@newmail.com and what phone number do you have for me",
        change,
        ok("crm.getCustomerProfile"),
    )
    assert (
        text
        == "Done: your email is now maria.g@newmail.com. The phone number on file is 415-555-0101."
    )


async def test_a_held_back_done_does_not_turn_the_list_into_the_completed_tasks() -> None:
    """ "don't mark it done yet, just tell me what's on my list" lists what is pending."""
    text = await say(
        "dont mark it done yet, just tell me whats still on my list", ok("crm.listTasks")
    )
    assert text.startswith("You have three pending tasks: Buy groceries"), text


async def test_an_appointment_time_is_said_in_the_customers_day_or_said_unreadable() -> None:
    """Tomorrow's visit is "tomorrow", a later one has its date; a missing or garbled time
    is said to be unreadable instead of failing the answer, across customers' days."""
    listing = {
        "appointments": [
            {"id": "a1", "service": "Haircut", "starts_at": moment(1, 9)},
            {"id": "a2", "service": "Eye exam", "starts_at": moment(3, 14)},
            {"id": "a3", "service": "Massage", "starts_at": "next tuesday-ish"},
            {"id": "a4", "service": "Facial", "starts_at": None},
        ]
    }
    result = ok("crm.listUpcomingAppointments", result=listing)
    text = await say("what have I got coming up", result)
    assert "a haircut tomorrow at 9 AM" in text
    assert "an eye exam on Tuesday, March 4 at 2:00 PM" in text
    assert "a massage at a time I couldn't read" in text
    assert "a facial at a time I couldn't read" in text
    # The same visits a day later: "tomorrow" is no longer the haircut's.
    later = await say("what have I got coming up", result, now=NOW.replace(day=2))
    assert "a haircut today at 9 AM" in later
    assert "an eye exam on Tuesday, March 4 at 2:00 PM" in later


async def test_an_invoice_due_day_is_said_from_the_customers_day() -> None:
    """The same invoice is "due tomorrow" one day and "due today" the next."""
    invoices = {
        "invoices": [
            {"id": "i1", "description": "Haircut", "amount_cents": 4500, "due_on": "2025-03-02"}
        ],
        "balance_cents": 4500,
        "currency": "USD",
    }
    result = ok("crm.getOpenInvoices", result=invoices)
    text = await say("what do I owe", result)
    assert text == "Your balance is $45.00, from one open invoice for haircut, due tomorrow."
    later = await say("what do I owe", result, now=NOW.replace(day=2))
    assert later == "Your balance is $45.00, from one open invoice for haircut, due today."


async def test_two_visits_moved_in_one_turn_are_done_once() -> None:
    """ "Push both appointments back an hour": "Done." once, then each visit's new time
    (it said "Done." before each)."""
    first, second = (str(appointment["id"]) for appointment in APPOINTMENTS[:2])
    text = await say(
        "push both appointments back an hour",
        ok("crm.rescheduleAppointment", {"appointment_id": first, "starts_at": moment(1, 11)}),
        ok("crm.rescheduleAppointment", {"appointment_id": second, "starts_at": moment(2, 15)}),
    )
    assert text.count("Done.") == 1
    assert text.count(" is now ") == 2


async def test_a_whole_invoice_history_says_what_is_paid_apart_from_what_is_owed() -> None:
    """ "What have I paid you so far?": the paid invoices are said as paid, without the due
    day they had (read with one, a settled bill sounded still owed); the open one after."""
    history = {
        "currency": "USD",
        "invoices": [
            {
                "description": "Haircut",
                "amount_cents": 4500,
                "status": "paid",
                "due_on": "2025-02-01",
            },
            {
                "description": "Dental cleaning",
                "amount_cents": 15000,
                "status": "open",
                "due_on": "2025-03-20",
            },
        ],
    }
    text = await say(
        "what have I paid you so far", ok("crm.listInvoices", {"status": "all"}, history)
    )
    assert "You've paid one invoice: $45.00 for haircut." in text
    assert "Still open: $150.00 for dental cleaning, due" in text
    paid_only = {**history, "invoices": history["invoices"][:1]}
    text = await say("my paid invoices", ok("crm.listInvoices", {"status": "paid"}, paid_only))
    assert "$45.00 for haircut" in text and "due" not in text
