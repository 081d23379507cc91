""" "And another to call the plumber" right after a task was added adds one more task,
through the websocket and the real CRM stub; said with nothing added before it, it
writes nothing (first run: refused both times)."""

from __future__ import annotations

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import tasks, titles


async def test_one_more_after_an_added_task_adds_another(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The second message adds the task it names, titled as said, once."""
    chat = await (await make_assistant()).connect()
    await chat.say("add a task to buy milk")
    await chat.say("and another to call the plumber")
    assert (await titles(crm_admin)).count("Call the plumber") == 1


async def test_one_more_with_nothing_added_before_writes_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Without an added task before it, "another" names nothing to make more of."""
    before = await titles(crm_admin)
    chat = await (await make_assistant()).connect()
    await chat.say("and another to call the plumber")
    assert await titles(crm_admin) == before


async def test_a_word_of_the_title_said_again_renames_the_task_just_added(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """ "Buy milk", then "actually make that oat milk": one task, "Buy oat milk"."""
    chat = await (await make_assistant()).connect()
    await chat.say("add a task to buy milk")
    await chat.say("actually make that oat milk")
    names = await titles(crm_admin)
    assert "Buy oat milk" in names
    assert "Buy milk" not in names


async def test_a_day_said_after_adding_a_task_is_its_due_day_not_its_title(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """ "Actually make it friday" gives "Buy milk" a due day and keeps its title."""
    chat = await (await make_assistant()).connect()
    await chat.say("add a task to buy milk")
    await chat.say("actually make it friday")
    milk = (await tasks(crm_admin))["Buy milk"]
    assert milk["due_on"] is not None
