"""A bare "no, don't" said right after a change was made and told: "cancel my haircut" yes
"Your haircut … is cancelled." "no, don't". The change is made; "Okay, no problem" would
tell the caller the opposite. A change that can be made the other way is (an add
deleted after a yes, a move put back); one that cannot is said to be made. And "undo
that" after a cancel is told that a cancel cannot be undone here, in those words. On
/v1/ws with the embedded models and the real CRM stub.

FIRST RUN (written before the code they exercise was read): 12 probes, 3 held (the two
controls, and "no, don't mark it done" told it was already complete), 9 broke, each
telling the caller the opposite of what the CRM held or nothing true: "no, don't" after
a cancel, "no wait, don't" after a delete, "no, don't" after an add and after a move,
"no, stop" after a completion, "no, don't delete it" after the delete were all answered
"Okay, no problem. Is there anything else I can do?" over the change made; "no wait,
don't cancel it" after the cancel, and "no wait, don't cancel my haircut" a turn after
it, "Okay, I won't change anything"; and "undo that" after a cancel said "Sorry, I
haven't made every change I mentioned…" (its answer, "I can't bring back something
once it's cancelled…", was read as a claim of a cancel and replaced).
Fixed (models/embedded/undo.py): such a no, right after a change with no question asked
since, takes it back as "undo that" does (an add deleted after a yes, a move put back; a
cancel, delete or completion said to stay, naming it); "don't cancel/delete <it>" of the
change just made likewise; "don't cancel my haircut" of a cancel of this conversation
is told it stays cancelled; the words for what cannot be undone claim no change.
Written after the fix, a control: booked again since, "don't cancel my haircut" is not
told it stays cancelled.
"""

from __future__ import annotations

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, haircuts, tasks, titles

PLUMBER = "Call the plumber"
GROCERIES = "Buy groceries"


def _not_okay(said: str) -> None:
    lowered = said.lower()
    assert not lowered.startswith("okay, no problem"), said
    assert "haven't made every change" not in lowered, said


async def test_no_dont_right_after_a_cancel_is_told_the_cancel_is_made(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    chat = await (await make_assistant()).connect()
    await chat.say("cancel my haircut")
    await chat.say("yes")
    said = answer(await chat.say("no, don't"))
    assert not await haircuts(crm_admin), said
    _not_okay(said)
    assert "cancel" in said.lower(), said


async def test_no_wait_dont_right_after_a_delete_is_told_the_delete_is_made(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    chat = await (await make_assistant()).connect()
    await chat.say("delete the buy groceries task")
    await chat.say("yes")
    said = answer(await chat.say("no wait, don't"))
    assert GROCERIES not in await titles(crm_admin), said
    _not_okay(said)
    assert "delet" in said.lower(), said


async def test_no_dont_right_after_an_add_takes_it_off_after_a_yes(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    chat = await (await make_assistant()).connect()
    await chat.say("add a task to call the plumber")
    back = await chat.say("no, don't")
    _not_okay(answer(back))
    held = back[-1]["awaiting_confirmation"]
    assert held is not None and PLUMBER in held["prompt"], answer(back)
    await chat.say("yes")
    assert PLUMBER not in await titles(crm_admin)


async def test_no_dont_right_after_a_move_puts_it_back(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    before = await haircuts(crm_admin)
    chat = await (await make_assistant()).connect()
    await chat.say("move my haircut to friday at 3pm")
    said = answer(await chat.say("no, don't"))
    _not_okay(said)
    assert await haircuts(crm_admin) == before, said


async def test_no_stop_right_after_a_completion_is_told_it_stays_complete(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    chat = await (await make_assistant()).connect()
    await chat.say("mark buy groceries as done")
    said = answer(await chat.say("no, stop"))
    _not_okay(said)
    assert (await tasks(crm_admin))[GROCERIES]["status"] == "completed"
    assert "complete" in said.lower(), said


async def test_undo_that_after_a_cancel_is_told_it_cannot_be_brought_back(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    chat = await (await make_assistant()).connect()
    await chat.say("cancel my haircut")
    await chat.say("yes")
    said = answer(await chat.say("undo that"))
    _not_okay(said)
    assert "can't" in said.lower() and "again" in said.lower(), said


async def test_no_dont_to_the_question_before_a_delete_declines_it(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The control: "no, don't" to the question (nothing made yet) declines it."""
    chat = await (await make_assistant()).connect()
    await chat.say("delete the buy groceries task")
    said = answer(await chat.say("no, don't"))
    assert GROCERIES in await titles(crm_admin), said


async def test_no_after_a_question_answered_is_nothing_to_take_back(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The control: 'what's my balance?' answered, then 'no': nothing changes."""
    chat = await (await make_assistant()).connect()
    await chat.say("what's my balance?")
    events = await chat.say("no")
    assert events[-1]["awaiting_confirmation"] is None, answer(events)
    assert GROCERIES in await titles(crm_admin)


async def _made_then(make_assistant: MakeAssistant, *said: str) -> str:
    chat = await (await make_assistant()).connect()
    for text in said[:-1]:
        await chat.say(text)
    return answer(await chat.say(said[-1]))


async def test_no_wait_dont_cancel_it_after_the_cancel_is_told_it_is_cancelled(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    said = await _made_then(make_assistant, "cancel my haircut", "yes", "no wait, don't cancel it")
    assert not await haircuts(crm_admin), said
    _not_okay(said)
    assert "won't change anything" not in said.lower() and "cancel" in said.lower(), said


async def test_no_dont_delete_it_after_the_delete_is_told_it_is_deleted(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    said = await _made_then(
        make_assistant, "delete the buy groceries task", "yes", "no, don't delete it"
    )
    assert GROCERIES not in await titles(crm_admin), said
    _not_okay(said)
    assert "delet" in said.lower(), said


async def test_dont_cancel_my_haircut_a_turn_after_it_was_cancelled_is_told_it_is(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    said = await _made_then(
        make_assistant,
        "cancel my haircut",
        "yes",
        "what's my balance?",
        "no wait, don't cancel my haircut",
    )
    assert not await haircuts(crm_admin), said
    lowered = said.lower()
    assert "won't change anything" not in lowered and "no problem" not in lowered, said
    assert "haircut" in lowered and "cancel" in lowered, said


async def test_no_dont_mark_it_done_after_the_completion_is_told_it_is_complete(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    said = await _made_then(make_assistant, "mark buy groceries as done", "no, don't mark it done")
    _not_okay(said)
    assert "complete" in said.lower(), said


async def test_dont_cancel_my_haircut_after_it_was_booked_again_says_no_stays_cancelled(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written after the fix, a control.) Cancelled, then booked again for Friday: "don't
    cancel my haircut" is not told the haircut stays cancelled, and the new one stays."""
    said = await _made_then(
        make_assistant,
        "cancel my haircut",
        "yes",
        "book a haircut friday at 3pm",
        "no wait, don't cancel my haircut",
    )
    assert len(await haircuts(crm_admin)) == 1, said
    assert "stays cancelled" not in said.lower(), said
