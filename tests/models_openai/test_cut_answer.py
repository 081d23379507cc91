"""The model's answer cut mid-sentence (its connection dropped), finished by the fallback
narrator `serve` wires with the openai backend: the customer is told the results, and the
answer of record (answer.done, which the history keeps and a chat client shows) holds the
sentences the model finished and the fallback's answer, never the half sentence it broke
off in. What was streamed already is not unsaid: after it, a pause ("… ") marks the break,
so that the fallback's first sentence does not run on from the broken one.

FIRST RUN (written before the code was read): 8 of 9 held. A cut inside a sentence of
ordinary length leaves nothing to drop (the sentence grouper lets out only whole
sentences); one check of my own was unfair ("Sch", the broken-off word, is also in the
fallback's "Schedule eye exam": the check now names the words before it). Failed: a
sentence longer than the grouper's limit (240 characters), let out in part between words,
then cut: "…and is marked as high You have three pending tasks: …" in answer.done and in
what was streamed. After the fix (answering.py: the words after the last finished
sentence are dropped from the answer of record, and a pause is streamed before the
fallback's answer) all hold.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from assistant.fakes.openai_server import Drop, OpenAIServer, content, text_reply, tool_calls_reply
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, call, titles


def _spoken(events: list[dict[str, Any]]) -> str:
    return "".join(e["text"] for e in events if e["type"] == "answer.delta")


def _no_broken_off_words(events: list[dict[str, Any]], half: str) -> None:
    """answer.done holds none of the words broken off; streamed already, they are
    followed by the pause that marks the break, not run into the next sentence."""
    text, spoken = answer(events), _spoken(events)
    assert half not in text, text
    if half in spoken:
        assert re.search(rf"{re.escape(half)}\S*\s*… ", spoken), spoken


@pytest.mark.parametrize(
    ("said", "half"),
    [
        ("All right, here's where things stand. I've put the milk on your li", "put the milk on"),
        ("Done! Your new task, Buy milk, is now on your to-do", "is now on your"),
        ("I've added a task to buy", "added a task to buy"),
    ],
)
async def test_a_half_sentence_of_a_cut_answer_is_not_kept_before_the_fallbacks(
    said: str,
    half: str,
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The task is added; the model's answer drops in the middle of a sentence: the answer
    tells the task was added, and holds no broken-off words (neither in answer.done nor in
    what was streamed)."""
    monkeypatch.setenv("OPENAI_BASE_URL", openai_server.base_url)
    openai_server.stream(tool_calls_reply(call("c1", "crm_addTask", title="Buy milk")))
    openai_server.stream(text_reply(""))
    openai_server.stream([content("", role=True), content(said), Drop()])
    harness = await make_assistant(backend="openai", openai_max_retries=0, openai_model="m")
    events = await (await harness.connect()).say("add a task to buy milk")
    text = answer(events)
    await crm_admin.wait_until_settled()
    assert (await titles(crm_admin)).count("Buy milk") == 1, text
    assert "milk" in text.lower(), text
    _no_broken_off_words(events, half)


@pytest.mark.parametrize(
    ("said", "half"),
    [
        (
            "You have three tasks waiting, the first is Buy groceries, which is due tomorrow, "
            "and the second one is Renew car insur",
            "the second one is",
        ),
        (
            "Here's your list: Buy groceries (due tomorrow), Renew car insurance (due the "
            "21st), Sch",
            "21st), Sch",
        ),
        ("Sure thing. Your tasks are Buy groceries and Renew car", "Your tasks are Buy"),
        (
            "Sure, so right now on your list you have Buy groceries which is due tomorrow, "
            "Tuesday the fifteenth of January and is of normal priority, then you have Renew "
            "car insurance which is due next Monday the twenty-first and is marked as high "
            "priority, and finally you have Schedule eye exam which has no due date set and "
            "is low prio",
            "is marked as high",
        ),
    ],
)
async def test_a_listing_cut_mid_sentence_keeps_no_broken_off_words(
    said: str,
    half: str,
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    openai_server: OpenAIServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tasks are read; the model's answer drops mid-sentence, after a long clause: the
    answer tells the tasks, and holds no broken-off words."""
    monkeypatch.setenv("OPENAI_BASE_URL", openai_server.base_url)
    openai_server.stream(tool_calls_reply(call("c1", "crm_listTasks")))
    openai_server.stream(text_reply(""))
    openai_server.stream([content("", role=True), content(said), Drop()])
    harness = await make_assistant(backend="openai", openai_max_retries=0, openai_model="m")
    events = await (await harness.connect()).say("what's on my list")
    text = answer(events)
    assert "groceries" in text.lower(), text
    _no_broken_off_words(events, half)


@pytest.mark.parametrize(
    ("said", "half"),
    [
        (
            "Hi Maria! I can look at your appointments, bills and tasks. What would you li",
            "would you li",
        ),
        ("Hello there, how can I he", "how can I he"),
    ],
)
async def test_a_reply_of_the_planners_own_cut_mid_sentence_keeps_no_broken_off_words(
    said: str,
    half: str,
    make_assistant: MakeAssistant,
    openai_server: OpenAIServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No tool called: the model's own reply drops mid-sentence. What the customer gets
    holds no broken-off words."""
    monkeypatch.setenv("OPENAI_BASE_URL", openai_server.base_url)
    openai_server.stream([content("", role=True), content(said), Drop()])
    harness = await make_assistant(backend="openai", openai_max_retries=0, openai_model="m")
    events = await (await harness.connect()).say("hello")
    text = answer(events)
    assert text.strip(), events[-1]
    _no_broken_off_words(events, half)
