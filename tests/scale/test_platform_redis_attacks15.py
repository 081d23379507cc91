"""A voice platform's call served by two instances sharing Redis (a load balancer in front
of `assistant serve --workers 2`), and a platform's late or retried copy of a request
landing on the OTHER instance (left open by attacks14: the call set aside for a late copy
lived in one process). With the embedded models and the real CRM stub. A retry of a change
never makes it twice, and a late copy never drops the question asked since.

FIRST RUN (written before the code they exercise was read; the same on ff963c1): 5
probes, 1 held (an unnamed move retried on the other instance moved once), 4 broke, each
telling the caller what the CRM did not hold or dropping what was asked:
- a "yes" retried on the other instance after its cancel was made: "There's nothing
  waiting for a yes just now." (the haircut cancelled);
- an add retried on the other instance: "I already added 'Call the plumber' a few minutes
  ago. Do you want me to add it again anyway?" (a yes would add it twice);
- a late copy of an unnamed call's first request on the other instance ran again there,
  the history rebuilt from it, and our question about the haircut dropped (twice: the
  yes on either instance).
Written after, on one instance (it broke on the base): WRONG WRITE, an unnamed call's late
copy of its first request "push my haircut back an hour" after "thanks" moved the haircut
a second hour (the copy was answered by a fresh call, which ran it again).
Fixed: a platform call's answers are kept in its session (assistant/answers_kept.py), so
in the store; a copy of an unnamed call's first request within a retry's time is answered
as before, on any worker (transports/platform_calls.py, completions.py).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from openai import AsyncOpenAI

from tests.fixtures.app import AssistantHarness, MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import appointments, titles, writes_applied
from tests.platforms.conftest import MARIA_PHONE, PLATFORM_KEY, assistant, user, vapi_body

MOVES = "PATCH /v1/customers/{cid}/appointments/{aid}"
CANCELS = "POST /v1/customers/{cid}/appointments/{aid}/cancel"
ADDS = "POST /v1/customers/{cid}/tasks"
# No call id, no conversation id, no user: LiveKit's and Pipecat's plain requests.
UNNAMED: dict[str, Any] = {"metadata": {"customer_id": "cust_001"}}


def _client(harness: AssistantHarness) -> AsyncOpenAI:
    base_url = str(harness.client.make_url("/v1"))
    return AsyncOpenAI(base_url=base_url, api_key=PLATFORM_KEY, max_retries=0)


async def _ask(client: AsyncOpenAI, messages: list[Any], extra: dict[str, Any]) -> str:
    completion = await client.chat.completions.create(
        model="a", messages=messages, extra_body=extra
    )
    return completion.choices[0].message.content or ""


def system(clock: str) -> dict[str, str]:
    return {"role": "system", "content": f"You are the front desk. The time is {clock}."}


async def _two(make_assistant: MakeAssistant, redis_url: str) -> tuple[AsyncOpenAI, AsyncOpenAI]:
    one = await make_assistant(redis_url=redis_url, platform_keys=PLATFORM_KEY)
    two = await make_assistant(redis_url=redis_url, platform_keys=PLATFORM_KEY)
    return _client(one), _client(two)


async def _haircut(crm: CrmAdmin) -> datetime | None:
    visit = next((a for a in await appointments(crm) if a["service"] == "Haircut"), None)
    return None if visit is None else datetime.fromisoformat(visit["starts_at"])


async def test_an_unnamed_move_retried_on_the_other_instance_moves_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, redis_url: str
) -> None:
    """No call id: 'push my haircut back an hour' answered by instance 1; the platform's
    retry (its clock rendered again) lands on instance 2: the haircut moves one hour."""
    first, second = await _two(make_assistant, redis_url)
    before = await _haircut(crm_admin)
    assert before is not None
    said = await _ask(first, [system("12:00:01"), user("push my haircut back an hour")], UNNAMED)
    again = await _ask(second, [system("12:00:31"), user("push my haircut back an hour")], UNNAMED)
    await first.close()
    await second.close()
    assert await _haircut(crm_admin) == before + timedelta(hours=1), (said, again)
    assert (await writes_applied(crm_admin)).get(MOVES, 0) == 1, (said, again)


async def test_a_named_add_retried_on_the_other_instance_adds_once_and_asks_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, redis_url: str
) -> None:
    """Vapi's call id: 'add a task to call the plumber' answered by instance 1; the same
    request again (a retry after a timeout) on instance 2: one task, and the caller is not
    asked whether to add it again."""
    first, second = await _two(make_assistant, redis_url)
    extra = vapi_body(MARIA_PHONE, call_id="redis-a15-add")
    said = await _ask(first, [user("add a task to call the plumber")], extra)
    again = await _ask(second, [user("add a task to call the plumber")], extra)
    await first.close()
    await second.close()
    assert (await titles(crm_admin)).count("Call the plumber") == 1, (said, again)
    assert "again" not in again.lower() or again == said, again


async def test_a_late_copy_of_an_unnamed_calls_first_request_on_the_other_instance(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, redis_url: str
) -> None:
    """No call id: 'what's my balance?' and 'cancel my haircut' (asked about) on instance
    1; a late copy of the first request lands on instance 2; the caller's 'yes', with the
    whole thread, goes to instance 1: the copy is answered as before and the yes cancels
    the haircut once (or asks again naming it)."""
    first, second = await _two(make_assistant, redis_url)
    opening = [user("what's my balance?")]
    balance = await _ask(first, opening, UNNAMED)
    asking = [*opening, assistant(balance), user("cancel my haircut")]
    question = await _ask(first, asking, UNNAMED)
    assert "haircut" in question.lower(), question
    late = await _ask(second, opening, UNNAMED)
    yes = await _ask(first, [*asking, assistant(question), user("yes")], UNNAMED)
    await first.close()
    await second.close()
    cancelled = await _haircut(crm_admin) is None
    asked_again = "haircut" in yes.lower() and "?" in yes
    assert late == balance, (balance, late)
    assert cancelled or asked_again, (late, yes)
    assert (await writes_applied(crm_admin)).get(CANCELS, 0) == (1 if cancelled else 0)


async def test_the_yes_after_a_late_copy_on_the_other_instance_goes_there_too(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, redis_url: str
) -> None:
    """As above, but the 'yes' also lands on instance 2, where the late copy went: the
    question asked on instance 1 is not lost ("nothing is waiting for a yes")."""
    first, second = await _two(make_assistant, redis_url)
    opening = [user("what's my balance?")]
    balance = await _ask(first, opening, UNNAMED)
    asking = [*opening, assistant(balance), user("cancel my haircut")]
    question = await _ask(first, asking, UNNAMED)
    late = await _ask(second, opening, UNNAMED)
    yes = await _ask(second, [*asking, assistant(question), user("yes")], UNNAMED)
    await first.close()
    await second.close()
    cancelled = await _haircut(crm_admin) is None
    asked_again = "haircut" in yes.lower() and "?" in yes
    assert late == balance, (balance, late)
    assert cancelled or asked_again, (late, yes)
    assert "nothing" not in yes.lower() or cancelled, yes


async def test_a_yes_retried_on_the_other_instance_cancels_once_and_is_told_done(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, redis_url: str
) -> None:
    """Vapi's call id: 'cancel my haircut' asked, 'yes' answered by instance 1; the same
    'yes' request again on instance 2 (the platform never got the first answer): one
    cancel, and the caller hears it was done, not "nothing is waiting for a yes"."""
    first, second = await _two(make_assistant, redis_url)
    extra = vapi_body(MARIA_PHONE, call_id="redis-a15-yes")
    asking = [user("cancel my haircut")]
    question = await _ask(first, asking, extra)
    confirming = [*asking, assistant(question), user("yes")]
    done = await _ask(first, confirming, extra)
    again = await _ask(second, confirming, extra)
    await first.close()
    await second.close()
    assert await _haircut(crm_admin) is None, (done, again)
    assert (await writes_applied(crm_admin)).get(CANCELS, 0) == 1, (done, again)
    assert "nothing" not in again.lower(), (done, again)


async def test_a_late_copy_of_an_unnamed_calls_first_write_on_one_instance_writes_once(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """One instance, no store: no call id; 'push my haircut back an hour' answered, then
    'thanks'; a late copy of the first request (the platform's duplicate delivery): the
    haircut is moved one hour, not two, and the copy is answered as before."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = _client(harness)
    before = await _haircut(crm_admin)
    assert before is not None
    opening = [user("push my haircut back an hour")]
    moved = await _ask(client, opening, UNNAMED)
    await _ask(client, [*opening, assistant(moved), user("thanks")], UNNAMED)
    late = await _ask(client, opening, UNNAMED)
    await client.close()
    assert await _haircut(crm_admin) == before + timedelta(hours=1), (moved, late)
    assert (await writes_applied(crm_admin)).get(MOVES, 0) == 1, (moved, late)
