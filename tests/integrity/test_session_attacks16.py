"""Sessions and titles attacked on purpose: a session resumed after its resume window
with a delete held in it, a session id guessed from another (one character changed), a
session id resumed again after its window by a second client; a to-do title that is an
existing one with a zero-width space or a Cyrillic look-alike letter inside (the same to
the eye), and "the groceries one" said that way when asked to delete. On /v1/ws with the
embedded models and the real CRM stub. Nothing is written that the customer did not say
yes to in this session, nor a second copy of a to-do they would hear as the same.

FIRST RUN (written before the code they exercise was read): 6 probes, 5 held, 1 failed:
- DOUBLED: "add a task to buy grоceries" (a Cyrillic "о") added "Buy grоceries" beside
  the pending "Buy groceries", unasked ("add a task to buy groceries" is asked about).
- held: a delete held and resumed after the resume window (a new session, its yes deletes
  nothing); a session id one character off; another customer resuming the session in its
  window and after it; a zero-width space inside a title (asked about as the one there)
  and inside a delete's name.
Fixed by reading a look-alike letter inside a Latin word as the Latin one
(language/characters.py); the duplicate check then asks as it does for the same words.
Written after, first run: 1 probe, failed: a model's add of "Buy grоceries" (a Cyrillic
"о") or "Ｂｕｙ groceries" beside the pending "Buy groceries" was not asked about, and
was another write than the plain one (a model writes the title as it likes, or as a CRM
text put it). The duplicate checks read a title as it shows (guard.py `_words`).
"""

from __future__ import annotations

import asyncio
import unicodedata

from assistant import guard
from assistant.schema import ToolCall, ToolResult
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, called, titles


def plain(title: str) -> str:
    """A title as the ear hears it: look-alikes folded, invisible characters gone."""
    folded = unicodedata.normalize("NFKC", title).replace("\u0430", "a").replace("\u043e", "o")
    return "".join(c for c in folded if unicodedata.category(c) != "Cf").casefold()


async def test_a_held_delete_resumed_after_the_resume_window_deletes_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'delete the buy groceries task' is asked; the client comes back after the resume
    window: a new session, and its 'yes' deletes nothing."""
    assistant = await make_assistant(resume_window_s=0.2)
    tab = await assistant.connect()
    asked = await tab.say("delete the buy groceries task")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    session_id = tab.ready["session_id"]
    await tab.close()
    await asyncio.sleep(0.5)
    again = await assistant.resume(session_id)
    assert again.ready["resumed"] is False, again.ready
    events = await again.say("yes")
    assert "crm.deleteTask" not in called(events), answer(events)
    assert "Buy groceries" in await titles(crm_admin)


async def test_a_session_id_one_character_off_resumes_nothing_and_deletes_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """A guessed session id (the real one with its last character changed) is not
    resumed, and 'yes' there deletes nothing of the question held in the real one."""
    assistant = await make_assistant()
    tab = await assistant.connect()
    asked = await tab.say("delete the buy groceries task")
    assert asked[-1]["awaiting_confirmation"] is not None, answer(asked)
    real = tab.ready["session_id"]
    guessed = real[:-1] + ("0" if real[-1] != "0" else "1")
    other = await assistant.resume(guessed)
    assert other.ready["resumed"] is False, other.ready
    events = await other.say("yes")
    assert "crm.deleteTask" not in called(events), answer(events)
    assert "Buy groceries" in await titles(crm_admin)


async def test_another_customer_resuming_a_session_after_its_window_gets_none_of_it(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """cust_002 resumes cust_001's session id (a held delete) both inside the window and
    after it: never resumed, and cust_002's 'yes' deletes none of cust_001's tasks."""
    assistant = await make_assistant(resume_window_s=1.0)
    tab = await assistant.connect()
    await tab.say("delete the buy groceries task")
    session_id = tab.ready["session_id"]
    await tab.close()
    for wait in (0.0, 1.6):
        await asyncio.sleep(wait)
        other = await assistant.resume(session_id, customer_id="cust_002")
        assert other.ready["resumed"] is False, other.ready
        events = await other.say("yes")
        assert "crm.deleteTask" not in called(events), answer(events)
        await other.close()
    assert "Buy groceries" in await titles(crm_admin)


async def test_a_title_with_a_zero_width_space_is_not_a_second_groceries_unasked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'add a task to buy\\u200b groceries' (the same to the eye as the one pending):
    asked about as the one there is, and no title with an invisible character stored."""
    tab = await (await make_assistant()).connect()
    events = await tab.say("add a task to buy\u200b groceries")
    held = await titles(crm_admin)
    assert not any("\u200b" in t for t in held), held
    assert [plain(t) for t in held].count("buy groceries") == 1 or events[-1][
        "awaiting_confirmation"
    ] is not None, answer(events)
    assert [plain(t) for t in held].count("buy groceries") == 1, (held, answer(events))


async def test_a_title_with_a_cyrillic_look_alike_is_not_a_second_groceries_unasked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'add a task to buy gr\\u043eceries' (a Cyrillic o): the same to the eye and the
    ear as the one pending; not added beside it unasked."""
    tab = await (await make_assistant()).connect()
    events = await tab.say("add a task to buy gr\u043eceries")
    held = await titles(crm_admin)
    assert [plain(t) for t in held].count("buy groceries") == 1, (held, answer(events))


async def test_a_delete_named_with_a_zero_width_space_names_the_task_it_would_delete(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """'delete the buy\\u200b groceries task': the groceries to-do, asked about by its
    name (or not found); 'yes' deletes that one and nothing else."""
    tab = await (await make_assistant()).connect()
    before = await titles(crm_admin)
    asked = await tab.say("delete the buy\u200b groceries task")
    events = await tab.say("yes")
    after = await titles(crm_admin)
    gone = [t for t in before if t not in after]
    assert gone in ([], ["Buy groceries"]), (gone, answer(asked), answer(events))


def _add(title: str) -> ToolCall:
    return ToolCall(call_id="c1", tool_name="crm.addTask", arguments={"title": title})


def test_a_models_add_of_a_look_alike_title_is_asked_as_the_one_listed() -> None:
    """A model (not the grammar: it writes the title as it likes, or as a CRM's text put
    it) adds 'Buy grоceries' (a Cyrillic "о") or 'Buy\\u200bgroceries' while 'Buy
    groceries' is pending: asked about as that one, as the same words are; and the same
    add repeated in another spelling is the same write."""
    listing = ToolResult(
        call=ToolCall(call_id="c0", tool_name="crm.listTasks", arguments={}),
        status="ok",
        result={"tasks": [{"id": "t1", "title": "Buy groceries", "status": "pending"}]},
    )
    for title in ("Buy gr\u043eceries", "Buy \u200bgroceries", "Ｂｕｙ groceries"):
        held = guard.doubts([_add(title)], [listing], [], now=0.0, window_s=60.0)
        assert len(held) == 1 and "already on your list" in held[0].question, (title, held)
        assert guard.write_key(_add(title)) == guard.write_key(_add("Buy groceries")), title
