"""Every written conversation played through a voice platform's path, meaning the same: the
chat completions endpoint as Vapi calls it, and Retell's LLM websocket
(tests/e2e/via_platform.py), with the real engine and the real CRM stub.

Each request carries the history so far as the platform keeps it: its system prompt, the
customer's turns, the replies as it heard them (the text the service streamed); Vapi's
call id in the body, Retell's transcript in `response_required`. A case must write what
it writes through the websocket (the writes the stub applied, turn by turn), leave the
CRM as its checks say, and its streamed reply (acknowledgement and answer) must hold the
case's words. Where the customer asks for a person, a platform hands the call over
(PLATFORMS.md) where the websocket offers a support case: the session ends there
(HANDS_OFF_AT).

Then the history as a platform keeps it after barge-ins (`completions_cut`, `retell_cut`):
every reply cut after its first sentence. The CRM may fall behind the case there (a yes
to a question not heard is no yes), so its checks are: no write the case's turn does not
make (one the case made earlier is fair in reply to a question heard in full, asked
again), and after a question cut short, neither what it asked for nor anything on a bare
yes.

FIRST RUN, every case (1,429) on each of the four ways (5,716 sessions), on the code as it
was. The harness's own mistakes first: "i want to speak to a human" was handed to a person,
as a platform should (the case's "support case" is the websocket's answer), and in the cut
way two cases asked again after a withheld yes, heard in full, were held to the first
run's turns (a yes said a turn later is fair). Corrected, 20 sessions failed, 5 cases on
every way, no write wrong but writes lost: "could you put me down for a haircut on saturday
at quarter past ten", "um put me in for a haircut…", "put me on the waitlist…" and "sorry,
what time did you put me down for?" were taken as asking for a person: the call was
transferred and nothing booked ("put me" was a handoff whatever followed; now only "put me
through" or "put me on to a person"). The check of a bare yes after a question cut short
was added next (on that code), and found WRONG WRITES on both paths (14 sessions, 7 cases):
"yes please" to the support case offered at the end of a cut reply ("…Would you like me to
open a support case?") OPENED A CASE the caller never heard offered. A yes to a change
waiting for one was already asked again (assistant/heard.py); a question of the dialogue
(a case offered, which visit, a move asked) is now one too: the dialogue keeps the
sentence that asked it, and a reply answers it only when it was heard in full. Read while
sorting these: "so it's definitely cancelled?" to "are you sure you want to cancel…?"
CANCELLED the visit (on the websocket too): asking whether it is done is no yes now.
After: 0 on the four ways.

Written after those fixes, not tuned on, two more ways. `unnamed`: the completions
endpoint with no call id, as LiveKit's and Pipecat's OpenAI services call it (the customer
in the metadata; the conversation known by the caller and its first words). FIRST RUN:
13 of 1,429 failed, 4 with WRONG WRITES, all a call going on with the thread of the
previous one that opened the same way: "and the first one?" after "when's the second one
due" COMPLETED a task, "push it back by two days" moved the cleaning to 2 PM, "move it to
saturday at the same time" to 2:00 (not 2:30), a task's due day set wrong and the other's
lost; and "I already added 'Buy stamps' a few minutes ago" for a call's first words. A
request with no earlier words of the customer's, to such a conversation that went on past
them, is another call now. Its next run found one more: "Done" said and nothing moved,
the last one-turn call's answer given again as a platform's retry; the same words are a
retry only within a minute now. And its turns are numbered on from the last call's, so
its writes have keys of their own (with the first call's, the CRM answered the second's
change as done already: the test below). After: 0.
(Each call of this way carries instructions of its own, as an agent's often name the call's
moment: played milliseconds apart with the same ones, a call saying just what the last
one-turn call said is, within a platform's retry time, that call's retry, answered as
before; no platform can tell the two apart without a call id.)
`two_instances`: every second request to another instance of the service sharing no
store (each rebuilds what it did not answer from the history sent), held to no wrong
write as the cut way is. FIRST RUN: 4 of 1,429 failed, all WRONG WRITES: "push the second
one to the ninth", "the second one you listed, push it to friday", "push the first one to
next wednesday" after a task list the other instance read out rescheduled a visit (a place in a
list with nothing listed was counted among the visits on the calendar), and "move the first
appointment you told me about to thursday at 11am" with only tasks read out changed a
TASK's due day. A place in a list is now counted in a list read out in this conversation,
of the kind named, else which one is asked. Then, main having added sets: "4" to "what time
in the morning?" (asked by the other instance) answered this one's older "what time?" and
BOOKED 4 PM: an instance whose last words of the customer's are not the platform's last
now rebuilds the history from the platform's, with none of its older dialogue state.
Main then added a set of replies to questions: on the cut ways, "yes but make it 4" and
"no, make it 4:30 instead" to "…overlaps your haircut; book it anyway?" talked over MOVED
the haircut already booked (the yes was no yes to a question not heard, and the rest was
read as a request about the visit in view); a reply that opens as a yes or a no and goes
on has the question asked again now, as a bare yes had (not one that narrows the
customer's own ask, "no wait, just the task": its first run so CANCELLED the haircut too,
on the yes to the whole question asked again).
After, every case on every way (1,587 with the sets main added since): 0.

A sample by each case's stable number (tests/e2e/conversations.stable_number): about one
case in 48 (about 32), each on one of the ways in turn (the file takes ~3 s).
VIA_PLATFORM=ALL plays every case on every way (OUT=FILE notes each failure; WAYS=a,b
plays some ways only).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from typing import Any

import pytest
from openai import AsyncOpenAI

from assistant.transports import platform_calls
from tests.e2e.conversations import (
    NOW,
    in_share,
    note_exploring,
    play_case,
    shared_cases,
    stable_number,
)
from tests.e2e.test_conversations import CATALOG, DATA, crm_app  # noqa: F401  (the fixture)
from tests.e2e.via_platform import (
    MARIA_PHONE,
    PLATFORM_KEY,
    RETELL_KEY,
    first_sentence,
    play_via_platform,
)
from tests.fixtures.app import AssistantHarness, MakeAssistant
from tests.fixtures.crm import CrmAdmin

_SETS = sorted(DATA.glob("conversations*.jsonl"))
# (path, cut at every barge-in)
WAYS: dict[str, tuple[str, bool]] = {
    "completions": ("completions", False),
    "retell": ("retell", False),
    "completions_cut": ("completions", True),
    "retell_cut": ("retell", True),
    "unnamed": ("unnamed", False),
    "two_instances": ("two_instances", False),
}
KNOWN_OPEN: list[str] = []
# Where the customer asks for a person: a platform hands the call over there (PLATFORMS.md)
# where the websocket offers a support case; the session ends with the handoff.
HANDS_OFF_AT = {"conversations/want-human": 1}
_STRIDE = 48
_EVERY = os.environ.get("VIA_PLATFORM") == "ALL"
if os.environ.get("WAYS"):  # exploring some ways only: WAYS=retell,completions_cut
    WAYS = {way: WAYS[way] for way in os.environ["WAYS"].split(",")}


@pytest.fixture
async def harness(make_assistant: MakeAssistant) -> AssistantHarness:
    return await make_assistant(
        customer_messages_per_minute=100_000,
        clock=lambda: NOW,
        platform_keys=PLATFORM_KEY,
        retell_key=RETELL_KEY,
    )


@pytest.fixture
async def client(harness: AssistantHarness) -> AsyncIterator[AsyncOpenAI]:
    base_url = str(harness.client.make_url("/v1"))
    client = AsyncOpenAI(base_url=base_url, api_key=PLATFORM_KEY, max_retries=0, timeout=20)
    yield client
    await client.close()


@pytest.fixture
async def other(make_assistant: MakeAssistant) -> AsyncIterator[AsyncOpenAI]:
    """A second instance of the service, sharing the CRM and nothing else."""
    harness = await make_assistant(
        customer_messages_per_minute=100_000,
        clock=lambda: NOW,
        platform_keys=PLATFORM_KEY,
        retell_key=RETELL_KEY,
    )
    base_url = str(harness.client.make_url("/v1"))
    client = AsyncOpenAI(base_url=base_url, api_key=PLATFORM_KEY, max_retries=0, timeout=20)
    yield client
    await client.close()


def _cases() -> list[tuple[str, dict[str, Any]]]:
    return [(path.stem, case) for path in _SETS for case in shared_cases(path)]


@pytest.mark.parametrize("way", sorted(WAYS))
async def test_a_conversation_through_a_platform_writes_the_same(
    way: str,
    harness: AssistantHarness,
    client: AsyncOpenAI,
    other: AsyncOpenAI,
    crm_admin: CrmAdmin,
) -> None:
    """Each case played through `way` writes and answers as it does on the websocket."""
    path, cut = WAYS[way]
    ways = sorted(WAYS)
    failed: list[str] = []
    played = 0
    for stem, case in _cases():
        number = stable_number(f"{stem}/{case['id']}")
        if not _EVERY and (
            number % _STRIDE
            or ways[(number // _STRIDE) % len(ways)] != way
            or not in_share(f"{stem}/{case['id']}")
        ):
            continue
        played += 1
        key = f"{stem}/{case['id']}"
        verdict = await play_via_platform(
            harness,
            client,
            crm_admin,
            case,
            path,
            cut=cut,
            hand_off_at=HANDS_OFF_AT.get(key, 0),
            other=other if path == "two_instances" else None,
        )
        if verdict.passed:
            continue
        if not (await play_case(harness, crm_admin, case, CATALOG)).passed:
            continue  # fails as written too: its own set's test says so
        failed.append(key)
        print(way, failed[-1], verdict.wrong_writes, verdict.problems[:4])
        if _EVERY:
            note_exploring([way, failed[-1], verdict.wrong_writes, verdict.problems])
    assert played >= 1  # a way with its share of cases
    assert [f for f in failed if f not in KNOWN_OPEN] == []


async def _said(client: AsyncOpenAI, messages: list[dict[str, str]], body: dict[str, Any]) -> str:
    """One streamed request; the reply is added to `messages` as the platform heard it."""
    stream = await client.chat.completions.create(
        model="gpt-4o",
        messages=messages,  # type: ignore[arg-type]
        stream=True,
        extra_body=body,
    )
    reply = "".join([c.choices[0].delta.content or "" async for c in stream if c.choices])
    messages.append({"role": "assistant", "content": reply})
    return reply


async def test_a_second_call_opening_the_same_way_is_not_the_first_calls_thread(
    harness: AssistantHarness, client: AsyncOpenAI, crm_admin: CrmAdmin
) -> None:
    """With no call id (LiveKit, Pipecat), a call is known by its caller and first words:
    a second call opening with them is another conversation. Was: it went on with the
    first's thread, and "and the first one?" after "when's the second one due" COMPLETED a
    task (the first call's last action was a completion)."""
    body = {"metadata": {"customer_id": "cust_001"}}
    first = [{"role": "system", "content": "Front desk."}]
    for text in ("read me my to do list", "complete the second one"):
        first.append({"role": "user", "content": text})
        await _said(client, first, body)
    await crm_admin.reset()  # the tasks as they were: only the thread is the first call's
    second = [{"role": "system", "content": "Front desk."}]
    for text in ("read me my to do list", "when's the second one due", "and the first one?"):
        second.append({"role": "user", "content": text})
        reply = await _said(client, second, body)
    written = (await crm_admin.stats())["writes_applied"]
    assert written == {}, (written, reply)
    assert "tomorrow" in reply.lower() or "15" in reply, reply


async def test_a_second_call_asking_the_same_change_has_it_made(
    harness: AssistantHarness,
    client: AsyncOpenAI,
    crm_admin: CrmAdmin,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The second call opening the same way (no call id) is numbered on from the first: its
    change is made, not answered with the first call's. Was: its write had the key of the
    first call's, the CRM answered it as done already, and "Done" was said of a change
    not made. (Since attacks15 the same first words within a platform's retry time are a
    late copy of the first request, answered as before: the second call comes later.)"""
    monkeypatch.setattr(platform_calls, "RETRY_WITHIN_S", 0.0)
    body = {"metadata": {"customer_id": "cust_001"}}
    _, listed = await crm_admin.get("/v1/customers/cust_001/appointments?status=upcoming")
    haircut = next(a for a in listed["appointments"] if a["service"] == "Haircut")
    asked = {"role": "user", "content": "move my haircut to saturday at 11am"}
    first = [asked]
    await _said(client, first, body)
    first.append({"role": "user", "content": "thanks"})
    await _said(client, first, body)
    # Put back where it was by the front desk: the second call moves it again.
    status, _ = await crm_admin.patch(
        f"/v1/customers/cust_001/appointments/{haircut['id']}",
        {"starts_at": haircut["starts_at"]},
    )
    assert status == 200
    applied = (await crm_admin.stats())["writes_applied"]
    reply = await _said(client, [asked], body)
    assert (await crm_admin.stats())["writes_applied"] != applied, reply


async def test_a_yes_to_an_offer_the_caller_talked_over_opens_no_case(
    harness: AssistantHarness, client: AsyncOpenAI, crm_admin: CrmAdmin
) -> None:
    """The offer of a support case cut by a barge-in (the platform's history holds the
    answer's first sentence only): "yes" is no yes to it. Was: it OPENED a case the caller
    never heard offered (a yes to a pending change was asked again; an offer was not)."""
    body = {"call": {"id": "call-offer-cut", "customer": {"number": MARIA_PHONE}}}
    messages = [{"role": "system", "content": "Front desk."}]
    messages.append({"role": "user", "content": "the charge on my account is wrong"})
    offer = await _said(client, messages, body)
    assert "support case?" in offer, offer
    messages[-1]["content"] = first_sentence(offer)  # all the caller heard
    messages.append({"role": "user", "content": "yes please"})
    await _said(client, messages, body)
    assert (await crm_admin.stats())["writes_applied"] == {}
    # Heard in full, the same offer is taken up.
    messages.append({"role": "user", "content": "the charge on my account is wrong"})
    await _said(client, messages, body)
    messages.append({"role": "user", "content": "yes please"})
    reply = await _said(client, messages, body)
    assert "opened a support case" in reply, reply


async def test_an_instance_behind_the_platforms_history_answers_from_it(
    harness: AssistantHarness, client: AsyncOpenAI, other: AsyncOpenAI, crm_admin: CrmAdmin
) -> None:
    """Requests balanced over two instances sharing no store: the one that answered turn
    1 gets turn 3, the history holding turn 2 it never saw. Was: "4" answered its own
    "what time?" and BOOKED 4 PM, where the caller had said "in the morning" (and heard
    "what time in the morning?"); now it goes on from the platform's history."""
    body = {"call": {"id": "call-two-instances", "customer": {"number": MARIA_PHONE}}}
    messages = [{"role": "system", "content": "Front desk."}]
    for text, instance in (
        ("book a consultation for friday", client),
        ("in the morning", other),
        ("4", client),
    ):
        messages.append({"role": "user", "content": text})
        reply = await _said(instance, messages, body)
    assert (await crm_admin.stats())["writes_applied"] == {}, reply


async def test_yes_with_a_change_to_a_question_talked_over_changes_nothing(
    harness: AssistantHarness, client: AsyncOpenAI, crm_admin: CrmAdmin
) -> None:
    """ "book a haircut sunday at 2:30" asks whether to book one overlapping the haircut
    then; the caller talks over it (hearing the first sentence only) and says "yes but make
    it 4". Was: the haircut ALREADY BOOKED was moved to 4; now the question is asked again."""
    body = {"call": {"id": "call-overlap-cut", "customer": {"number": MARIA_PHONE}}}
    messages = [{"role": "system", "content": "Front desk."}]
    messages.append({"role": "user", "content": "book a haircut sunday at 2:30"})
    asked = await _said(client, messages, body)
    assert "overlap" in asked, asked
    messages[-1]["content"] = first_sentence(asked)  # all the caller heard
    messages.append({"role": "user", "content": "yes but make it 4"})
    reply = await _said(client, messages, body)
    assert (await crm_admin.stats())["writes_applied"] == {}, reply
