""" "And another to call the plumber" right after a task was added adds one more task,
through the websocket and the real CRM stub; said with nothing added before it, it
writes nothing (first run: refused both times)."""

from __future__ import annotations

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import titles


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
