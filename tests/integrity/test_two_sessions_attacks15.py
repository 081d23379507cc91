"""Two sessions of the SAME customer at once (two browser tabs, or the phone and the
widget), each a session of its own on /v1/ws (not one session resumed twice), with the
embedded models and the real CRM stub: a question held in one and "yes" in the other; a
change made in one and changed again or cancelled in the other, then "undo that" in the
first; a cancel asked in one while the other moves the visit. Neither session writes what
its own customer did not ask of it, and an undo never overwrites what the other did since.

FIRST RUN (written before the code they exercise was read, on ff963c1): 6 probes, 5 held
(one after a check of mine was corrected, quoted below), 1 broke:
- WRONG WRITE: tab A moved the haircut to Friday 3 PM, tab B to Saturday 10 AM, and tab
  A's "undo that" put it back to its old time over B's move ("Done. Your haircut is now on
  Tuesday … moved from Saturday …").
- held, but read: tab A's "undo that" after tab B cancelled the haircut booked nothing,
  and answered "I don't see an upcoming haircut on your account. You have your dental
  cleaning on … Which one should I move?" (a "the cleaning" would have moved it to the
  haircut's old time). Now said plainly.
- held: a yes in one tab answers nothing asked in the other; a yes to a cancel after the
  other tab moved the visit cancels nothing unasked; an undo of an add after the other
  tab changed the to-do; the same visit cancelled from both tabs is cancelled once and
  the second told "it's already gone".
Fixed (models/embedded/undo.py `changed_since`): an undo's move knows where our move put
the visit; found elsewhere or gone, it is not moved back, and the customer is told where
it is now.
"""

from __future__ import annotations

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, haircuts, titles, writes_applied

GROCERIES = "Buy groceries"
PLUMBER = "Call the plumber"


async def test_a_yes_in_one_tab_does_not_answer_the_question_held_in_the_other(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    harness = await make_assistant()
    tab, phone = await harness.connect(), await harness.connect()
    asked = await tab.say("delete the buy groceries task")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    yes = await phone.say("yes")
    assert GROCERIES in await titles(crm_admin), answer(yes)
    assert await writes_applied(crm_admin) == {}, answer(yes)


async def test_undo_of_a_move_after_the_other_tab_moved_it_again_keeps_the_later_move(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Tab A moves the haircut to Friday 3 PM; tab B then moves it to Saturday 10 AM; tab
    A says 'undo that': the haircut is not put back over B's move without a word (it
    stays on Saturday, or A is asked first), and A is not told it is back where it was."""
    harness = await make_assistant()
    tab, other = await harness.connect(), await harness.connect()
    await tab.say("move my haircut to friday at 3pm")
    await other.say("move my haircut to saturday at 10am")
    saturday = await haircuts(crm_admin)
    undo = await tab.say("undo that")
    await crm_admin.wait_until_settled()
    said = answer(undo)
    if undo[-1]["awaiting_confirmation"] is None:
        assert await haircuts(crm_admin) == saturday, said
        assert "back" not in said.lower() or "n't" in said.lower(), said
        assert "saturday" in said.lower(), said  # where it is now


async def test_undo_of_a_move_after_the_other_tab_cancelled_the_visit_books_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Tab A moves the haircut; tab B cancels it (yes); tab A says 'undo that': the
    haircut stays cancelled (no visit comes back from the dead) and A is told so, not
    that it is back at its old time."""
    harness = await make_assistant()
    tab, other = await harness.connect(), await harness.connect()
    await tab.say("move my haircut to friday at 3pm")
    await other.say("cancel my haircut")
    await other.say("yes")
    assert not await haircuts(crm_admin)
    undo = await tab.say("undo that")
    await crm_admin.wait_until_settled()
    said = answer(undo)
    if undo[-1]["awaiting_confirmation"] is None:
        assert not await haircuts(crm_admin), said
        assert "back" not in said.lower() or "n't" in said.lower(), said
        # Held on the first run as written; its answer, read, was "I don't see an upcoming
        # haircut on your account. You have your dental cleaning on … Which one should I
        # move?", offering to move the cleaning to the haircut's old time.
        assert "which one" not in said.lower() and "isn't booked" in said.lower(), said


async def test_a_yes_to_a_cancel_after_the_other_tab_moved_the_visit_asks_again(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Tab A asks to cancel the haircut (Sunday 2:30); tab B moves it to Friday 3 PM;
    tab A says 'yes': the visit asked about is not where it was, so A is asked again
    (naming its new time) or told, and the moved haircut stays."""
    harness = await make_assistant()
    tab, other = await harness.connect(), await harness.connect()
    await tab.say("cancel my haircut")
    await other.say("move my haircut to friday at 3pm")
    moved = await haircuts(crm_admin)
    yes = await tab.say("yes")
    await crm_admin.wait_until_settled()
    assert await haircuts(crm_admin) == moved, answer(yes)


async def test_undo_of_an_add_after_the_other_tab_changed_it_asks_before_deleting(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Tab A adds 'Call the plumber'; tab B makes it high priority; tab A says 'undo that':
    the to-do B changed is not deleted without a question (or a yes)."""
    harness = await make_assistant()
    tab, other = await harness.connect(), await harness.connect()
    await tab.say("add a task to call the plumber")
    await other.say("make the call the plumber task high priority")
    assert PLUMBER in await titles(crm_admin)
    undo = await tab.say("undo that")
    await crm_admin.wait_until_settled()
    held = undo[-1]["awaiting_confirmation"]
    if held is None:
        assert PLUMBER in await titles(crm_admin), answer(undo)


async def test_the_same_visit_cancelled_from_both_tabs_is_cancelled_once_and_told_truly(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    harness = await make_assistant()
    tab, other = await harness.connect(), await harness.connect()
    await tab.say("cancel my haircut")
    await other.say("cancel my haircut")
    first = answer(await tab.say("yes"))
    second = answer(await other.say("yes"))
    await crm_admin.wait_until_settled()
    assert not await haircuts(crm_admin), (first, second)
    applied = await writes_applied(crm_admin)
    assert applied.get("POST /v1/customers/{cid}/appointments/{aid}/cancel") == 1, applied
    # The probe's first check refused "sorry" too; "Sorry, I didn't need to cancel your
    # haircut: it's already gone, so nothing was changed." is true, and held.
    assert "couldn't" not in second.lower() and "already" in second.lower(), second
