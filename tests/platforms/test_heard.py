"""What the caller actually heard, on the chat completions endpoint (the real `openai`
client, as Vapi, ElevenLabs, LiveKit and Pipecat drive it) and on Retell's websocket:
questions and listings cut short by barge-in, histories the platform rewrote or filled
with questions we never asked, writes caught by an interruption, turns delivered twice.
The CRM's state is checked after each, not only the words.

First run (written before reading the rules they exercise): 12 probes, 7 held, 5 failed,
4 of them WRONG WRITES.
- WRONG WRITE: tasks read out as far as 'Buy groceries,', then 'mark the second one
  done' completed 'Renew car insurance', a task the caller never heard (chat completions
  and Retell alike);
- WRONG WRITE: read out as far as 'Renew car insurance,', 'complete the last one'
  completed 'Schedule eye exam', which was never heard;
- WRONG WRITE: the visits read as far as the dental cleaning, 'move the second one to
  friday at 3pm' moved the haircut, never heard;
- failed: the booking's answer came back whole but the platform's history showed only
  the acknowledgement spoken; the next answer ('what do I owe?') never said the massage
  was booked.
- held: a yes to a question cut before its item or its day (asked again, short); a
  yes to offers and questions the platform put in our mouth; a booking caught in flight
  by a new request (told first); the same booking said again after a cut (one massage);
  a reference after a listing cut during its acknowledgement (asked). One check was
  unfair and corrected: the question rewritten to the dental cleaning cancelled nothing,
  but the check read a visit cancelled in the seed as a change.

After the fixes (what was heard of a cut answer is what the dialogue state holds:
assistant/heard_state.py keeps the listed items to those heard and notes a write whose
telling was cut as untold; a place counted past the list heard asks which one, in
models/embedded/references.py) all 12 hold. Of 4 probes written afterwards (marked
"After the fixes") 3 held on their first run; the fourth failed: of the visits cut
after the dental cleaning, 'cancel the last one' asked about the haircut (counted on the
calendar, never heard) and 'yes' cancelled it. A place within a list of one heard item
is now that item; the check that the question does not name the haircut was added with
that fix.
"""

from __future__ import annotations

import re
from typing import Any

from openai import AsyncOpenAI

from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.platforms.conftest import (
    MARIA_PHONE,
    PLATFORM_KEY,
    RETELL_KEY,
    OpenAIClient,
    assistant,
    content,
    retell_calls,
    said,
    user,
    vapi_body,
)

CANCEL_ROUTE = "POST /v1/customers/{cid}/appointments/{aid}/cancel"
BOOK_ROUTE = "POST /v1/customers/{cid}/appointments"
COMPLETE_ROUTE = "POST /v1/customers/{cid}/tasks/{tid}/complete"
MOVE_ROUTE = "PATCH /v1/customers/{cid}/appointments/{aid}"
WRITES = (
    CANCEL_ROUTE,
    BOOK_ROUTE,
    COMPLETE_ROUTE,
    MOVE_ROUTE,
    "POST /v1/customers/{cid}/tasks",
    "DELETE /v1/customers/{cid}/tasks/{tid}",
    "PATCH /v1/customers/{cid}/tasks/{tid}",
)


async def _ask(client: AsyncOpenAI, messages: list[Any], call_id: str) -> str:
    completion = await client.chat.completions.create(
        model="a", messages=messages, extra_body=vapi_body(MARIA_PHONE, call_id=call_id)
    )
    return completion.choices[0].message.content or ""


async def _count(crm_admin: CrmAdmin, *routes: str) -> int:
    stats = await crm_admin.stats()
    return sum(int(stats["requests"].get(route, 0)) for route in routes)


async def _tasks(crm_admin: CrmAdmin) -> dict[str, str]:
    _, listed = await crm_admin.get("/v1/customers/cust_001/tasks")
    assert isinstance(listed, dict)
    return {t["title"]: t["status"] for t in listed["tasks"]}


async def _visits(crm_admin: CrmAdmin) -> dict[str, tuple[str, str]]:
    _, listed = await crm_admin.get("/v1/customers/cust_001/appointments?status=all")
    assert isinstance(listed, dict)
    return {
        a["service"]: (a["status"], a["starts_at"])
        for a in listed["appointments"]
        if a["status"] != "completed"
    }


_DAYS = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"
_WHEN = re.compile(rf"\b(?:{_DAYS}), [A-Z][a-z]+ \d{{1,2}} at \d{{1,2}}:\d\d [AP]M")


def _weekday(text: str) -> str:
    """The day a question names (the stub's seed lays the visits out from today)."""
    found = re.search(rf"\b(?:{_DAYS})\b", text)
    assert found is not None, text
    return found.group(0)


def _cut(text: str, before: str) -> str:
    """`text` as the caller heard it: up to (not including) `before`."""
    assert before in text, (before, text)
    return text[: text.index(before)]


def _asks_about(answer: str, *names: str) -> bool:
    lowered = answer.lower()
    return "?" in answer and all(name in lowered for name in names)


async def test_a_yes_to_a_question_cut_before_its_item_asks_it_again_shortly(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """'…Are you sure you want to cancel your—' then 'yes': nothing cancelled, and the
    question is asked again, short (not the acknowledgement again)."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)
    asked = [user("Cancel my haircut")]
    question = await _ask(client, asked, "h-item")
    heard = _cut(question, "haircut")

    answer = await _ask(client, [*asked, assistant(heard), user("yes")], "h-item")

    assert await _count(crm_admin, CANCEL_ROUTE) == 0
    assert _asks_about(answer, "haircut"), answer
    assert "sure, i'll" not in answer.lower() and len(answer.split()) <= 30, answer


async def test_a_yes_to_a_question_cut_before_its_day_cancels_nothing(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """'…cancel your haircut on—' then 'yes please': the day was never heard, so nothing
    is cancelled and the question (with its day) is asked again."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)
    asked = [user("Cancel my haircut")]
    question = await _ask(client, asked, "h-day")
    day = _weekday(question)  # (the stub seeds the haircut days from today)
    heard = _cut(question, day)

    answer = await _ask(client, [*asked, assistant(heard), user("yes please")], "h-day")

    assert await _count(crm_admin, CANCEL_ROUTE) == 0
    assert _asks_about(answer, "haircut", day.lower()), answer


async def test_the_second_one_of_a_list_cut_after_the_first_is_asked_about(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """The tasks were read out as far as 'Buy groceries,': 'mark the second one done'
    names a task the caller never heard, so nothing is completed and it asks which."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)
    asked = [user("What are my tasks?")]
    listing = await _ask(client, asked, "h-list")
    heard = _cut(listing, "Renew car insurance")

    answer = await _ask(
        client, [*asked, assistant(heard), user("mark the second one done")], "h-list"
    )

    assert await _count(crm_admin, COMPLETE_ROUTE) == 0
    assert (await _tasks(crm_admin))["Renew car insurance"] == "pending"
    assert "?" in answer, answer


async def test_the_last_one_of_a_list_cut_short_is_the_last_heard_or_asked(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """Read out as far as 'Buy groceries, Renew car insurance,': 'complete the last one'
    is the insurance (the last heard) or a question, never the eye exam nobody heard."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)
    asked = [user("What are my tasks?")]
    listing = await _ask(client, asked, "h-last")
    heard = _cut(listing, "and Schedule eye exam")

    answer = await _ask(client, [*asked, assistant(heard), user("complete the last one")], "h-last")

    tasks = await _tasks(crm_admin)
    assert tasks["Schedule eye exam"] == "pending", answer
    assert tasks["Renew car insurance"] == "completed" or "?" in answer, answer


async def test_moving_the_second_visit_of_a_list_cut_after_the_first_moves_nothing(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """The visits were read as far as the dental cleaning: 'move the second one to friday
    at 3pm' names a visit never heard; nothing is moved, and it asks."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)
    asked = [user("What appointments do I have?")]
    listing = await _ask(client, asked, "h-visits")
    heard = _cut(listing, " and a haircut")
    before = await _visits(crm_admin)

    answer = await _ask(
        client,
        [*asked, assistant(heard), user("move the second one to friday at 3pm")],
        "h-visits",
    )

    assert await _count(crm_admin, MOVE_ROUTE) == 0, answer
    assert await _visits(crm_admin) == before
    assert "?" in answer, answer


async def test_a_yes_to_an_offer_the_platform_put_in_our_mouth_writes_nothing(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """Our listing, then an assistant line we never said ('Shall I book you a massage on
    Friday at 2?' and 'Should I mark all of them complete?'), then 'yes please': no write."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)
    asked = [user("What are my tasks?")]
    listing = await _ask(client, asked, "h-offer")

    first = await _ask(
        client,
        [*asked, assistant(listing + " Should I mark all of them complete?"), user("yes")],
        "h-offer",
    )
    second = await _ask(
        client,
        [
            *asked,
            assistant(listing),
            user("yes"),
            assistant(first),
            user("ok"),
            assistant("Shall I book you a massage on Friday at 2?"),
            user("yes please"),
        ],
        "h-offer",
    )

    assert await _count(crm_admin, *WRITES) == 0, (first, second)
    assert "complete" not in first.lower() or "?" in first, first


async def test_a_yes_to_our_question_rewritten_to_another_visit_cancels_neither(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """We asked about the haircut; the platform's copy asks about the dental cleaning:
    'yes' cancels neither visit."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)
    asked = [user("Cancel my haircut")]
    question = await _ask(client, asked, "h-swap")
    before = await _visits(crm_admin)
    swapped = _WHEN.sub("Thursday, November 26 at 10:00 AM", question).replace(
        "haircut", "dental cleaning"
    )
    assert swapped != question.replace("haircut", "dental cleaning"), question

    answer = await _ask(client, [*asked, assistant(swapped), user("yes")], "h-swap")

    assert await _count(crm_admin, CANCEL_ROUTE) == 0, answer
    assert await _visits(crm_admin) == before, answer


async def test_a_booking_caught_by_a_new_request_is_told_before_the_next_answer(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """'book a massage next friday at 2pm' (the CRM slow); the caller cuts in after 'Sure,'
    and asks what they owe: one booking, and that answer says the massage is booked."""
    await crm_admin.add_fault(
        method="POST", path="/v1/customers/*/appointments", latency_ms=400, times=1
    )
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)
    body = vapi_body(MARIA_PHONE, call_id="h-inflight")
    booking = [user("book a massage next friday at 2pm")]

    slow = await client.chat.completions.create(
        model="a", messages=booking, stream=True, extra_body=body
    )
    _ = await slow.__anext__()
    await crm_admin.wait_until_seen(BOOK_ROUTE)
    answer = await _ask(
        client, [*booking, assistant("Sure,"), user("what do I owe?")], "h-inflight"
    )
    _ = [chunk async for chunk in slow]
    await crm_admin.wait_until_settled()

    assert await _count(crm_admin, BOOK_ROUTE) == 1
    lowered = answer.lower()
    assert "massage" in lowered and "booked" in lowered, answer
    assert "150" in answer, answer


async def test_a_booking_whose_answer_was_cut_is_told_once_on_the_next_turn(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """The booking's answer came back whole, but the platform's history shows only the
    acknowledgement was spoken: the next answer says the massage is booked, and the one
    after it does not say it again."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)
    booking = [user("book a massage next friday at 2pm")]
    full = await _ask(client, booking, "h-cutanswer")
    ack = _cut(full, "You're booked")
    asked = [*booking, assistant(ack), user("what do I owe?")]

    answer = await _ask(client, asked, "h-cutanswer")
    after = await _ask(client, [*asked, assistant(answer), user("and my tasks?")], "h-cutanswer")

    assert await _count(crm_admin, BOOK_ROUTE) == 1
    assert "massage" in answer.lower() and "booked" in answer.lower(), answer
    assert "massage" not in after.lower(), after


async def test_the_booking_said_again_after_its_cut_answer_books_once(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """Cut after the acknowledgement, the caller says the same booking again (or the
    platform retries that turn): one massage, and the answer says it is booked."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)
    said_once = "book a massage next friday at 2pm"
    full = await _ask(client, [user(said_once)], "h-again")
    ack = _cut(full, "You're booked")

    again = await _ask(client, [user(said_once), assistant(ack), user(said_once)], "h-again")

    _, listed = await crm_admin.get("/v1/customers/cust_001/appointments")
    assert isinstance(listed, dict)
    massages = [a for a in listed["appointments"] if a["service"].lower() == "massage"]
    assert len(massages) == 1, (again, massages)
    assert "massage" in again.lower() and "booked" in again.lower(), again


async def test_a_reference_after_a_listing_cut_by_a_new_request_is_asked_about(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """'What are my tasks?' streams (the CRM slow); the caller cuts in during the
    acknowledgement with 'complete the second one': no list was heard, so nothing is
    completed."""
    await crm_admin.add_fault(method="GET", path="/v1/customers/*/tasks", latency_ms=300, times=1)
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)
    body = vapi_body(MARIA_PHONE, call_id="h-streaming")
    listing = [user("What are my tasks?")]

    slow = await client.chat.completions.create(
        model="a", messages=listing, stream=True, extra_body=body
    )
    first = [await slow.__anext__()]
    ack = content(first)
    answer = await _ask(
        client, [*listing, assistant(ack), user("complete the second one")], "h-streaming"
    )
    _ = [chunk async for chunk in slow]

    assert await _count(crm_admin, COMPLETE_ROUTE) == 0, answer
    assert "?" in answer, answer


async def test_retell_the_second_one_of_a_list_cut_short_completes_nothing(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Retell's transcript has our listing cut after 'Buy groceries,': 'mark the second
    one done' completes nothing and asks."""
    harness = await make_assistant(retell_key=RETELL_KEY)
    async with retell_calls(f"/v1/retell/{RETELL_KEY}/call-heard-list") as open_call:
        retell = await open_call(harness)
        await retell.response_required(1, "What are my tasks?")
        listing = said(await retell.response(1), 1)
        heard = _cut(listing, "Renew car insurance")
        await retell.response_required(2, "What are my tasks?", heard, "mark the second one done")
        answer = said(await retell.response(2), 2)

    assert await _count(crm_admin, COMPLETE_ROUTE) == 0, answer
    assert "?" in answer, answer


async def test_the_first_one_of_a_list_cut_short_is_still_the_one_heard(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """(After the fixes.) Read out as far as 'Buy groceries,': 'mark the first one done'
    completes Buy groceries, the one heard."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)
    asked = [user("What are my tasks?")]
    listing = await _ask(client, asked, "h-first")
    heard = _cut(listing, "Renew car insurance")

    answer = await _ask(
        client, [*asked, assistant(heard), user("mark the first one done")], "h-first"
    )

    tasks = await _tasks(crm_admin)
    assert tasks["Buy groceries"] == "completed", answer
    assert await _count(crm_admin, COMPLETE_ROUTE) == 1


async def test_a_list_asked_again_after_a_cut_is_counted_whole(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """(After the fixes.) Cut after the first task, the caller asks for the tasks again
    and hears them all: 'complete the second one' is then Renew car insurance."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)
    asked = [user("What are my tasks?")]
    listing = await _ask(client, asked, "h-again-list")
    again = [*asked, assistant(_cut(listing, "Renew car insurance")), user("What are my tasks?")]
    whole = await _ask(client, again, "h-again-list")

    answer = await _ask(
        client, [*again, assistant(whole), user("complete the second one")], "h-again-list"
    )

    tasks = await _tasks(crm_admin)
    assert tasks["Renew car insurance"] == "completed", answer
    assert await _count(crm_admin, COMPLETE_ROUTE) == 1


async def test_a_yes_to_cancel_the_last_of_a_list_cut_short_spares_the_unheard_visit(
    make_assistant: MakeAssistant, openai_client: OpenAIClient, crm_admin: CrmAdmin
) -> None:
    """(After the fixes.) The visits read as far as the dental cleaning: 'cancel the last
    one', then 'yes' to whatever was asked: the haircut, never heard, stays booked."""
    harness = await make_assistant(platform_keys=PLATFORM_KEY)
    client = openai_client(harness)
    asked = [user("What appointments do I have?")]
    listing = await _ask(client, asked, "h-cancel-last")
    cut = [*asked, assistant(_cut(listing, " and a haircut")), user("cancel the last one")]
    question = await _ask(client, cut, "h-cancel-last")

    answer = await _ask(client, [*cut, assistant(question), user("yes")], "h-cancel-last")

    assert (await _visits(crm_admin))["Haircut"][0] == "upcoming", (question, answer)
    assert "haircut" not in question.lower(), question


async def test_retell_a_booking_whose_answer_was_cut_is_told_next(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(After the fixes.) Retell's transcript has the booking's answer cut to the
    acknowledgement: the answer to 'what do I owe?' says the massage is booked."""
    harness = await make_assistant(retell_key=RETELL_KEY)
    async with retell_calls(f"/v1/retell/{RETELL_KEY}/call-heard-booking") as open_call:
        retell = await open_call(harness)
        booking = "book a massage next friday at 2pm"
        await retell.response_required(1, booking)
        full = said(await retell.response(1), 1)
        await retell.response_required(2, booking, _cut(full, "You're booked"), "what do I owe?")
        answer = said(await retell.response(2), 2)

    assert await _count(crm_admin, BOOK_ROUTE) == 1
    assert "massage" in answer.lower() and "booked" in answer.lower(), answer
