"""A voice platform's call answered turn by turn by two instances sharing Redis: the
caller heard every answer, whichever instance gave it, so "undo that" on one instance
refers to what the other just did (the websocket's per-connection reading of "that",
assistant/heard_here.py, is not for a call: it is one listener).

Written with that reading, before it was kept to the websocket: it failed ("I didn't
catch what you meant by 'undo that'", the plumber task left), and holds since.
"""

from __future__ import annotations

from typing import Any

from openai import AsyncOpenAI

from tests.fixtures.app import AssistantHarness, MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import titles
from tests.platforms.conftest import MARIA_PHONE, PLATFORM_KEY, assistant, user, vapi_body

CALL = "heard-redis-1"


def _platform(harness: AssistantHarness) -> AsyncOpenAI:
    base_url = str(harness.client.make_url("/v1"))
    return AsyncOpenAI(base_url=base_url, api_key=PLATFORM_KEY, max_retries=0)


async def _ask(client: AsyncOpenAI, messages: list[Any]) -> str:
    completion = await client.chat.completions.create(
        model="a", messages=messages, extra_body=vapi_body(MARIA_PHONE, CALL)
    )
    return completion.choices[0].message.content or ""


async def test_undo_on_one_instance_undoes_what_the_other_just_did(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, redis_url: str
) -> None:
    """Instance 2 reads the tasks out, instance 1 adds 'call the plumber', and instance 2
    is asked 'undo that': the plumber task is removed (after a yes if asked)."""
    one = await make_assistant(redis_url=redis_url, platform_keys=PLATFORM_KEY)
    two = await make_assistant(redis_url=redis_url, platform_keys=PLATFORM_KEY)
    first, second = _platform(one), _platform(two)
    try:
        said = [user("what are my tasks?")]
        said += [assistant(await _ask(second, said)), user("add a task to call the plumber")]
        said += [assistant(await _ask(first, said)), user("undo that")]
        undone = await _ask(second, said)
        if "?" in undone:
            said += [assistant(undone), user("yes")]
            undone = await _ask(second, said)
        assert "Call the plumber" not in await titles(crm_admin), undone
    finally:
        await first.close()
        await second.close()
