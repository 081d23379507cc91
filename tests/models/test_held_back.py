"""A change held back ("don't add anything yet, just tell me…") reads, and never writes."""

from __future__ import annotations

from assistant.fakes.world import play


async def test_a_refused_change_with_a_question_reads_the_listing_it_names() -> None:
    """ "don't add anything…, just tell me what's on it" reads the to-do list, holds nothing."""
    turn = await play("dont add anything to my list yet, just tell me whats on it")
    assert turn.tools == ["crm.listTasks"]
    assert turn.held is None
    assert "Buy groceries" in turn.answer


async def test_asking_whether_a_change_was_made_reads_the_history() -> None:
    """ "I haven't cancelled anything, have I" reads past appointments and cancels nothing."""
    turn = await play("I haven't cancelled anything have I")
    assert turn.tools == ["crm.listAppointments"]
    assert turn.held is None


async def test_a_history_ask_beside_a_write_reads_the_history_and_writes_only_what_was_asked() -> (
    None
):
    """ "remind me … and show me my past appointments" adds the task and reads past visits."""
    turn = await play("remind me to pick up the kids on friday and show me my past appointments")
    assert sorted(turn.tools) == ["crm.addTask", "crm.listAppointments"]
    assert turn.held is None


async def test_asking_whether_anyone_got_back_reads_the_support_cases() -> None:
    """ "has anyone got back to me about my invoice question" reads open cases, not bills."""
    turn = await play("has anyone got back to me about my invoice question")
    assert turn.tools == ["crm.listOpenTickets"]
    assert "Question about my last invoice" in turn.answer
