"""The rules the seventeenth unseen set (tests/e2e/test_unseen17.py) showed missing, each
read alone: a sound said while thinking, a question after "wait", a no naming the thing kept,
a day said as the better one, a second thing asked the same, "the one you mentioned first",
and what was done asked back."""

from __future__ import annotations

import pytest

from assistant.confirmation import back_to, is_negative
from assistant.language.as_meant import as_meant
from assistant.language.confirm import is_affirmative
from assistant.language.hesitation import only_hesitates


@pytest.mark.parametrize("said", ["uh", "hmm", "um...", "erm, hmm", "umm"])
def test_a_sound_said_alone_puts_the_answer_off(said: str) -> None:
    assert only_hesitates(said)


@pytest.mark.parametrize("said", ["hmm ok fine", "uh yes", "hmm no", "ok", "so", "oh"])
def test_a_sound_with_an_answer_is_that_answer(said: str) -> None:
    assert not only_hesitates(said)


@pytest.mark.parametrize(
    "said", ["wait, what's my balance?", "wait, when is it?", "hang on, which one is that?"]
)
def test_a_question_after_wait_is_no_bare_no(said: str) -> None:
    assert not is_negative(said)


@pytest.mark.parametrize(
    "said",
    ["wait", "no wait", "hang on, keep it", "actually no, keep the task",
     "no forget it, leave the eye exam one"],
)  # fmt: skip
def test_a_no_naming_what_is_kept_is_a_no(said: str) -> None:
    assert is_negative(said)


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("ugh sorry, friday was better after all", "actually, friday"),
        ("thursday works better", "actually, thursday"),
        ("sorry, 4 was better", "actually, 4"),
        ("the weather was better", "the weather was better"),
        ("late morning, say 11", "11am"),
        ("afternoon, maybe 3", "3pm"),
        ("morning", "morning"),
        (
            "move the groceries to January 20, high priority",
            "move the groceries task to January 20, high priority",
        ),
        ("move the haircut to friday, high priority", "move the haircut to friday, high priority"),
        ("what I owe and whatever's due this week", "what I owe and what's due this week"),
        (
            "when's the groceries thing due, and the insurance one?",
            "when's the groceries thing due and when's the insurance one due?",
        ),
        (
            "what's the address of the one you mentioned first?",
            "what's the address of the first one?",
        ),
    ],
)
def test_said_as_meant(said: str, meant: str) -> None:
    assert as_meant(said) == meant


@pytest.mark.parametrize(
    "said", ["and you only cancelled the haircut, yeah?", "so you deleted it, right?"]
)
def test_what_was_done_asked_back_is_no_yes(said: str) -> None:
    assert not is_affirmative(said)


@pytest.mark.parametrize(
    ("said", "back"),
    [
        ("ok, back to the groceries, yes delete it", (("groceries",), "yes delete it")),
        ("going back to the haircut one: cancel it", (("haircut",), "cancel it")),
        ("yes delete it", None),
    ],
)
def test_the_thing_gone_back_to(said: str, back: tuple[tuple[str, ...], str] | None) -> None:
    assert back_to(said) == back
