"""A take-back waiting for its change to land (left open by attacks14): "never mind, don't
add it" said while the CRM was still making the add, told it was sent and may still land;
the add lands; the customer's next turn is not "ok" or "did it go through?" but another
question or another change, or the same words again. Any next turn looks again: the
customer's wish is not left behind because the next thing they said was of another kind.
On /v1/ws with the embedded models and the real CRM stub (the add made slow by its
faults).

FIRST RUN (written before the code they exercise was read, on ff963c1): 3 probes, all
broke: "what's my balance?", "mark buy groceries as done" and "what's on my to-do list?"
once the add had landed were answered, and the plumber task the customer had taken back
stayed, unsaid (read out in the list as though wanted). A fourth, found while fixing
them, broke on the base too: "thanks bye" ("You're welcome. Have a great day!").
Fixed (models/embedded/retries.py `beside_another`): the lookup goes beside any other
request's calls (not read out), and if the change landed it is made the other way with
that request's answer (an add deleted after a yes, a move put back), saying why; a
goodbye looks again as "thanks" does.
"""

from __future__ import annotations

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, titles

FAST = {"turn_deadline_s": 1.3, "turn_tool_reserve_s": 0.2, "turn_answer_reserve_s": 0.2}
PLUMBER = "Call the plumber"


async def _taken_back_then_landed(make_assistant: MakeAssistant, crm_admin: CrmAdmin) -> object:
    # The add is held past the deadline, and lands once the take-back has been answered.
    held = await crm_admin.add_fault(
        method="POST", path="/v1/customers/*/tasks", hold=True, times=1
    )
    chat = await (await make_assistant(**FAST)).connect()
    await chat.say("add a task to call the plumber")
    await chat.say("never mind, don't add it")
    await crm_admin.release(held)
    await crm_admin.wait_until_settled()
    assert PLUMBER in await titles(crm_admin)
    return chat


async def test_a_question_after_the_take_back_landed_also_raises_the_landed_add(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'what's my balance?' once the add has landed: answered (150), and the plumber task
    is raised with it (asked to take it off); the yes takes it off."""
    chat = await _taken_back_then_landed(make_assistant, crm_admin)
    events = await chat.say("what's my balance?")  # type: ignore[attr-defined]
    said = answer(events)
    assert "150" in said, said
    held = events[-1]["awaiting_confirmation"]
    assert held is not None and PLUMBER in held["prompt"], said
    # (Written after the fix: the question says why it is asked.)
    assert "went through after all" in said, said
    await chat.say("yes")  # type: ignore[attr-defined]
    assert PLUMBER not in await titles(crm_admin)


async def test_another_change_after_the_take_back_landed_also_raises_the_landed_add(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'mark buy groceries as done' once the add has landed: the groceries are marked
    done, and the plumber task is raised (said to be there, asked to take it off)."""
    chat = await _taken_back_then_landed(make_assistant, crm_admin)
    events = await chat.say("mark buy groceries as done")  # type: ignore[attr-defined]
    said = answer(events)
    assert "plumber" in said.lower(), said
    held = events[-1]["awaiting_confirmation"]
    if held is not None:
        assert PLUMBER in held["prompt"], said
        await chat.say("yes")  # type: ignore[attr-defined]
        assert PLUMBER not in await titles(crm_admin)


async def test_whats_on_my_list_after_the_take_back_landed_does_not_leave_it_unsaid(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'what's on my list?' once the add has landed: the plumber task is read out with
    the rest, and the taken-back add is raised (asked to take it off)."""
    chat = await _taken_back_then_landed(make_assistant, crm_admin)
    events = await chat.say("what's on my to-do list?")  # type: ignore[attr-defined]
    held = events[-1]["awaiting_confirmation"]
    assert held is not None and PLUMBER in held["prompt"], answer(events)


async def test_thanks_bye_after_the_take_back_landed_raises_the_landed_add(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Found while fixing the three above.) 'thanks, bye' once the add has landed: the
    customer is leaving, so the plumber task is raised now (was: "You're welcome. Have a
    great day!" with the task there)."""
    chat = await _taken_back_then_landed(make_assistant, crm_admin)
    events = await chat.say("thanks bye")  # type: ignore[attr-defined]
    held = events[-1]["awaiting_confirmation"]
    assert held is not None and PLUMBER in held["prompt"], answer(events)
