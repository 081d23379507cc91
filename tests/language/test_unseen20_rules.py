"""The rules the twentieth unseen set (tests/e2e/test_unseen20.py) showed missing, each read
alone: a slow yes ("sure why not", "I guess"), a question opened before a yes word, "both"
to a question naming two, a pick said with its yes after it or with nothing but "just", what
a change would do asked, a change taken back before the next ask, and a question said while
a cancel or delete waits."""

from __future__ import annotations

import pytest

from assistant.confirmation import asks_what_it_does, says_yes_to, what_it_does, withdrawn_first
from assistant.language.confirm import is_affirmative, is_negative
from assistant.language.narrowed import agreed, picked
from assistant.models.embedded.corrections import _ASKED_YES_NO
from assistant.models.embedded.followup import _ASKS_ABOUT, _SAME_AS_ANOTHER
from assistant.schema import ToolCall

_CANCEL = ToolCall(call_id="c1", tool_name="crm.cancelAppointment", arguments={})
_DELETE = ToolCall(call_id="c2", tool_name="crm.deleteTask", arguments={})
_NAMES = ["cancel your haircut on Sunday, January 20 at 2:30 PM", "delete the task 'Buy groceries'"]
_KINDS = ["appointment", "task"]


@pytest.mark.parametrize(
    "said", ["sure why not", "why not", "sure, why not?", "hmm I guess", "I guess so",
             "i suppose so", "go for it", "do it", "ok"],
)  # fmt: skip
def test_a_slow_yes_is_a_yes(said: str) -> None:
    assert is_affirmative(said)
    assert not is_negative(said)


@pytest.mark.parametrize(
    "said", ["I guess not", "i guess?", "why not just move it", "I guess I'll keep it",
             "not sure", "yeah nah", "nope leave it", "maybe later"],
)  # fmt: skip
def test_a_guess_or_a_why_not_that_says_more_is_no_yes(said: str) -> None:
    assert not is_affirmative(said)


@pytest.mark.parametrize(
    "said", ["hmm what does that mean exactly", "ok what does that mean", "what? yes do it",
             "wait what will that do? ok"],
)  # fmt: skip
def test_a_question_opened_before_a_yes_word_is_no_yes(said: str) -> None:
    assert not is_affirmative(said)


@pytest.mark.parametrize("said", ["both", "yes both", "both please", "yes all of them", "do both"])
def test_both_said_to_two_changes_is_a_yes_to_both(said: str) -> None:
    assert says_yes_to(said, [_CANCEL, _DELETE])
    # (to one change, "both" alone says nothing; "yes both" is the yes)
    assert says_yes_to(said, [_CANCEL]) is is_affirmative(said)


@pytest.mark.parametrize("said", ["neither", "both of them? no", "not both"])
def test_neither_is_no_yes(said: str) -> None:
    assert not says_yes_to(said, [_CANCEL, _DELETE])


@pytest.mark.parametrize(
    ("said", "chosen", "yes"),
    [
        ("the haircut yes, the task no", {0}, True),
        ("the task yes the haircut no", {1}, True),
        ("the haircut no the task yes", {1}, True),
        ("just the task", {1}, False),
        ("only the haircut", {0}, False),
        ("no wait, just the task", {1}, False),
        ("only the haircut?", {0}, False),
        ("the task no", {0}, False),
    ],
)
def test_a_pick_with_its_yes_after_it_goes_ahead(said: str, chosen: set[int], yes: bool) -> None:
    assert picked(said, _KINDS, _NAMES) == frozenset(chosen)
    assert agreed(said) is yes


@pytest.mark.parametrize(
    "said", ["the haircut yes the task", "the haircut is fine", "no the haircut"]
)
def test_a_name_with_nothing_said_of_it_picks_nothing(said: str) -> None:
    assert picked(said, _KINDS, _NAMES) is None


@pytest.mark.parametrize(
    "said", ["wait what will that do?", "what happens if I do", "what does that mean",
             "hmm what does that mean exactly"],
)  # fmt: skip
def test_what_a_change_would_do_is_asked(said: str) -> None:
    assert asks_what_it_does(said)
    assert "Nothing changes until you say yes." in what_it_does([_CANCEL])


@pytest.mark.parametrize("said", ["what do I owe", "what time is it at", "yes"])
def test_other_questions_ask_nothing_of_the_change(said: str) -> None:
    assert not asks_what_it_does(said)


@pytest.mark.parametrize(
    "said", ["actually never mind, what's my next appointment", "forget it, when's my haircut",
             "no never mind. what do I owe?", "leave it, what's on my list"],
)  # fmt: skip
def test_a_change_taken_back_before_the_next_ask(said: str) -> None:
    assert withdrawn_first(said)


@pytest.mark.parametrize(
    "said", ["actually just tell me what I owe", "never mind", "what's my balance", "yes"]
)
def test_a_change_let_go_or_a_bare_no_is_not_taken_back_first(said: str) -> None:
    assert not withdrawn_first(said)


@pytest.mark.parametrize(
    "said", ["and is my haircut still on", "is my cleaning still on", "and do i owe anything"]
)
def test_a_question_while_a_cancel_waits_is_no_more_to_cancel(said: str) -> None:
    assert _ASKED_YES_NO.search(said)


@pytest.mark.parametrize("said", ["and the insurance one too", "the cleaning as well"])
def test_one_more_named_while_a_cancel_waits_is_read_so(said: str) -> None:
    assert not _ASKED_YES_NO.search(said)


@pytest.mark.parametrize(
    "said",
    ["forget it, when's my haircut", "never mind what's the other one", "no, is it the 2:30"],
)
def test_a_question_after_letting_go_names_no_target(said: str) -> None:
    assert _ASKS_ABOUT.search(said)


@pytest.mark.parametrize(
    ("said", "named"),
    [("same time as my sunday one", "sunday one"), ("same time as the haircut", "haircut")],
)
def test_the_hour_of_another_visit(said: str, named: str) -> None:
    found = _SAME_AS_ANOTHER.search(said)
    assert found is not None and found.group(1) == named
