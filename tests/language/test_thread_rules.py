"""Readings the thread set (tests/data/conversations_thread.jsonl) showed wrong: a detail of
what was just done corrected, a listing pointed back at after others, an hour the last move
left unsaid, and an action named again after the customer moved on from its question."""

from __future__ import annotations

from datetime import datetime, time
from zoneinfo import ZoneInfo

from assistant.dialogue import advance
from assistant.dialogue_state import Action, Dialogue
from assistant.language.confirm import go_ahead_named, is_affirmative
from assistant.language.shifts import bare_clock
from assistant.models.embedded.bare_time import hour_left_unsaid
from assistant.models.embedded.references import read_intents
from assistant.schema import ToolCall, ToolResult

TZ = "America/Los_Angeles"
ZONE = ZoneInfo(TZ)
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZONE)  # a Monday

CONSULTATION = {"id": "a7", "service": "Consultation", "starts_at": "2030-01-17T17:00:00-08:00"}
DENTAL = {"id": "a1", "service": "Dental cleaning", "starts_at": "2030-01-16T10:00:00-08:00"}
HAIRCUT = {"id": "a9", "service": "Haircut", "starts_at": "2030-01-20T14:30:00-08:00"}
HAIRCUT_FRIDAY = {**HAIRCUT, "starts_at": "2030-01-18T14:30:00-08:00"}
MILK = {"id": "t9", "title": "Buy milk", "status": "pending", "due_on": None}
GROCERIES = {"id": "t1", "title": "Buy groceries", "status": "pending", "due_on": "2030-01-15"}


def _read(message: str, state: Dialogue) -> list[tuple[str, dict[str, object]]]:
    return [(i.kind, dict(i.arguments)) for i in read_intents((), message, NOW, TZ, state)]


def _result(tool: str, result: object) -> ToolResult:
    call = ToolCall(call_id=f"c_{tool}", tool_name=tool, arguments={})
    return ToolResult(call=call, round=1, status="ok", result=result)


def test_i_said_4_not_5_moves_the_visit_just_booked_to_4() -> None:
    """ "no, I said 4 not 5" after a 5 PM booking is 4 PM that day; the hour denied is not
    the one read, and "4" alone after a correcting word is an hour too."""
    booked = Action("crm.bookAppointment", {}, "appointment", None, CONSULTATION)
    state = Dialogue(focus_kind="appointment", focus=CONSULTATION, last_action=booked)
    for said in ("no, I said 4 not 5", "no, 4 not 5", "sorry, 4"):
        assert _read(said, state) == [
            ("reschedule_appointment", {"starts_at": "2030-01-17T16:00:00-08:00"})
        ], said
    assert bare_clock("cancel the 5 one", time(17)) is None


def test_the_title_said_whole_renames_the_task_just_added() -> None:
    """ "the title should be 'buy oat milk'" renames the task just added to that; "it should
    be friday" is still a day, not a title."""
    added = Action("crm.addTask", {}, "task", None, MILK)
    state = Dialogue(focus_kind="task", focus=MILK, last_action=added)
    assert _read("the title should be 'buy oat milk'", state) == [
        ("update_task", {"title": "Buy oat milk"})
    ]
    assert _read("actually, call it pay the milkman", state) == [
        ("update_task", {"title": "Pay the milkman"})
    ]
    assert _read("change the name to 'buy milk and eggs'", state) == [
        ("update_task", {"title": "Buy milk and eggs"})
    ]
    assert ("update_task", {"title": "Friday"}) not in _read("no, it should be friday", state)


def test_a_listing_two_topics_back_is_still_counted_in() -> None:
    """ "move the first appointment you told me about…" after the tasks and the balance were
    read out since: the first visit of the visits' listing, not a question."""
    state = Dialogue()
    listings = [
        (
            "what appointments do I have",
            "crm.listUpcomingAppointments",
            "appointments",
            [DENTAL, HAIRCUT],
        ),
        ("and my tasks", "crm.listTasks", "tasks", [GROCERIES, MILK]),
    ]
    for said, tool, key, items in listings:
        state = advance(state, [_result(tool, {key: items})], said, "", [])
    invoices = {"invoices": [{"id": "i1", "amount_cents": 15000}], "balance_cents": 15000}
    state = advance(state, [_result("crm.getOpenInvoices", invoices)], "what do I owe", "", [])
    assert state.last_listed_of("appointment") == (DENTAL, HAIRCUT)
    read = _read("ok, move the first appointment you told me about to thursday at 11am", state)
    assert read == [("reschedule_appointment", {"starts_at": "2030-01-17T11:00:00-08:00"})]
    assert Dialogue.from_json(state.to_json()) == state


def test_a_time_after_a_move_that_kept_its_hour_is_that_hour() -> None:
    """ "move it to friday instead" (the hour kept) → "3pm" moves it to 3 PM on Friday; after
    a move whose hour was said, a time alone is left to be asked about."""
    moved = Action("crm.rescheduleAppointment", {}, "appointment", HAIRCUT, HAIRCUT_FRIDAY)
    state = Dialogue(
        focus_kind="appointment",
        focus=HAIRCUT_FRIDAY,
        last_action=moved,
        last_appointment_action=moved,
    )
    found = hour_left_unsaid(state, "move it to friday instead", "3pm", NOW, ZONE)
    assert found is not None
    assert [dict(i.arguments) for i in found] == [{"starts_at": "2030-01-18T15:00:00-08:00"}]
    assert hour_left_unsaid(state, "move it to friday at 2:30", "3pm", NOW, ZONE) is None
    assert hour_left_unsaid(state, "what else is on friday", "3pm", NOW, ZONE) is None
    assert hour_left_unsaid(state, "move it to friday instead", "3pm?", NOW, ZONE) is None


def test_only_a_yes_naming_the_action_takes_up_a_question_moved_on_from() -> None:
    """ "ok, go ahead with the delete" names the delete asked about before; a bare "yes", or
    a yes that names another item, never does."""
    assert go_ahead_named("ok, go ahead with the delete") == "crm.deleteTask"
    assert go_ahead_named("yes, cancel it after all") == "crm.cancelAppointment"
    assert go_ahead_named("proceed with the cancellation please") == "crm.cancelAppointment"
    for said in ("yes", "go ahead", "ok", "go ahead and delete the eye exam task", "delete it"):
        assert go_ahead_named(said) is None, said
    assert is_affirmative("ok, go ahead with the delete")


def test_another_service_meant_for_the_visit_just_booked_replaces_it() -> None:
    """ "sorry, I meant a massage, not a facial" just after booking the facial: that one
    cancelled and a massage booked at its time; "and a massage too" is another booking."""
    facial = {"id": "a5", "service": "Facial", "starts_at": "2030-01-19T11:00:00-08:00"}
    booked = Action("crm.bookAppointment", {}, "appointment", None, facial)
    state = Dialogue(
        focus_kind="appointment", focus=facial, last_action=booked, last_appointment_action=booked
    )
    assert _read("sorry, I meant a massage, not a facial", state) == [
        ("cancel_appointment", {}),
        ("book_appointment", {"service": "Massage", "starts_at": "2030-01-19T11:00:00-08:00"}),
    ]
    assert ("cancel_appointment", {}) not in _read("oh and a massage too", state)


def test_asking_whether_it_is_done_is_no_yes() -> None:
    """ "so it's definitely cancelled?" to "are you sure you want to cancel…?" asks how
    things stand (it was taken for a yes, and CANCELLED the visit); a yes still is one."""
    asked_how = ("so it's definitely cancelled?", "is that confirmed?", "and it's deleted, right?")
    for asked in asked_how:
        assert not is_affirmative(asked), asked
    for said in ("yes", "sure?", "definitely", "yes it's fine", "that's right", "ok, go ahead"):
        assert is_affirmative(said), said
