"""A platform that delivers the caller's yes twice at once, when the yes first reads
again what its question named (a visit to cancel), on /v1/chat/completions with the
real `openai` client, the embedded models and the real CRM stub.

Written after the fixes of tests/integrity/test_model_attacks8.py (a check read before a
task's yes, since left out, made tests/platforms/test_platform_attacks7.py's twice-yes
delete nothing). First run: 1 probe, failed: the visit was never cancelled, and the
second answer was "There's nothing waiting for a yes just now." The first yes was
stopped by the second (the platform's newer request) while it read the visits again,
and the question went with it. After the fix (engine.py: a yes stopped before it ran
anything leaves its question waiting) it holds.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from openai import AsyncOpenAI

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import appointments, writes_applied
from tests.platforms.conftest import MARIA_PHONE, PLATFORM_KEY, assistant, user, vapi_body

CANCELS = "POST /v1/customers/{cid}/appointments/{aid}/cancel"


async def _ask(client: AsyncOpenAI, messages: list[Any], call_id: str) -> str:
    completion = await client.chat.completions.create(
        model="a", messages=messages, extra_body=vapi_body(MARIA_PHONE, call_id)
    )
    return completion.choices[0].message.content or ""


@pytest.fixture
async def client(make_assistant: MakeAssistant) -> AsyncIterator[AsyncOpenAI]:
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    platform = AsyncOpenAI(
        base_url=str(harness.client.make_url("/v1")), api_key=PLATFORM_KEY, max_retries=0
    )
    yield platform
    await platform.close()


async def test_the_same_yes_to_a_cancel_delivered_twice_at_once_cancels_once(
    client: AsyncOpenAI, crm_admin: CrmAdmin
) -> None:
    """'cancel my haircut?' asked; the platform delivers 'yes' twice at the same moment
    while the visits are slow to read: the haircut is cancelled once, and no answer
    says nothing was waiting or that it could not be done."""
    first = [user("cancel my haircut")]
    asked = await _ask(client, first, "twice-cancel-1")
    assert "haircut" in asked.lower(), asked
    await crm_admin.add_fault(
        method="GET", path="/v1/customers/*/appointments", latency_ms=150, times=1
    )
    history = [*first, assistant(asked), user("yes")]
    heard = await asyncio.gather(
        _ask(client, history, "twice-cancel-1"),
        _ask(client, history, "twice-cancel-1"),
        return_exceptions=True,
    )
    await crm_admin.wait_until_settled()
    assert "Haircut" not in [a["service"] for a in await appointments(crm_admin)], heard
    assert (await writes_applied(crm_admin)).get(CANCELS) == 1, heard
    for said_now in heard:
        if isinstance(said_now, str):
            assert "nothing waiting" not in said_now.lower(), heard
            assert "couldn't" not in said_now.lower(), heard
