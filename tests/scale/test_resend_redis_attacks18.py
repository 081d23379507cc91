"""tests/integrity/test_resend_attacks18.py's resends across two app instances sharing a
real redis-server: a shift resent on the other instance in a new session (its first one
gone after the resume window), and Retell reconnecting to the other instance and asking
again for a response it already had. Embedded models, the real CRM stub.

Written after that file's fixes, first run: see its docstring and CHANGELOG.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import HOME, answer, appointments, titles, writes_applied
from tests.platforms.conftest import RETELL_KEY, retell_calls, said

MOVES = "PATCH /v1/customers/{cid}/appointments/{aid}"
DELETES = "DELETE /v1/customers/{cid}/tasks/{tid}"
RETELL_PATH = f"/v1/retell/{RETELL_KEY}/call_attack_0018_redis"


async def _haircut(crm: CrmAdmin) -> datetime:
    visit = next(a for a in await appointments(crm) if a["service"] == "Haircut")
    return datetime.fromisoformat(visit["starts_at"].replace("Z", "+00:00")).astimezone(HOME)


async def test_a_shift_resent_in_a_new_session_on_the_other_instance_is_asked_about(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, redis_url: str
) -> None:
    """'push my haircut back an hour' (id s1) on instance 1; the client comes back after
    the resume window to instance 2 (a new session) and resends s1: asked before a
    second hour, and the haircut is one hour later."""
    before = await _haircut(crm_admin)
    one = await make_assistant(redis_url=redis_url, resume_window_s=0.5)
    two = await make_assistant(redis_url=redis_url, resume_window_s=0.5)
    first = await one.connect()
    await first.say("push my haircut back an hour", id="s1")
    await first.close()
    await asyncio.sleep(1.0)
    again = await two.resume(first.session_id)
    assert again.ready is not None and again.ready["resumed"] is False
    events = await again.say("push my haircut back an hour", id="s1")
    assert events[-1]["awaiting_confirmation"] is not None, answer(events)
    await again.say("no")
    assert await _haircut(crm_admin) == before + timedelta(hours=1), answer(events)
    assert (await writes_applied(crm_admin)).get(MOVES, 0) == 1, answer(events)


async def test_retell_reconnecting_to_the_other_instance_is_answered_as_before(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, redis_url: str
) -> None:
    """Response 2 ('yes') deletes the groceries task on instance 1; Retell reconnects to
    instance 2 and asks response 2 again with the same transcript: one delete, and the
    repeat hears the delete, not that nothing waits."""
    one = await make_assistant(redis_url=redis_url, retell_key=RETELL_KEY)
    two = await make_assistant(redis_url=redis_url, retell_key=RETELL_KEY)
    async with retell_calls(RETELL_PATH) as open_call:
        first = await open_call(one)
        await first.response_required(1, "delete the buy groceries task")
        asked = said(await first.response(1), 1)
        await first.response_required(2, "delete the buy groceries task", asked, "yes")
        done = said(await first.response(2), 2)
        await first.ws.close()
        second = await open_call(two)
        await second.response_required(2, "delete the buy groceries task", asked, "yes")
        again = said(await second.response(2), 2)
    assert "Buy groceries" not in await titles(crm_admin), (done, again)
    assert (await writes_applied(crm_admin)).get(DELETES, 0) == 1, (done, again)
    assert "nothing waiting" not in again.lower() and "deleted" in again.lower(), again
