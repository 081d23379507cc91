"""What the customer heard: the words of a question, and history aligned to a platform's."""

from __future__ import annotations

from assistant.dialogue_state import Dialogue
from assistant.heard import align_said, said_before_reply, was_heard
from assistant.schema import AssistantTurn, UserTurn
from assistant.session import Session

QUESTION = "Are you sure you want to cancel your haircut on Sunday, November 29 at 2:30 PM?"


def test_a_question_is_heard_in_another_spelling_or_among_other_words() -> None:
    """Case, spacing and punctuation differ, an ack or a keypad hint around it: heard."""
    assert was_heard(QUESTION, QUESTION.upper().replace(",", ""))
    assert was_heard(QUESTION, f"Sure. {QUESTION} You can also press 1 for yes.")


def test_a_question_cut_short_or_replaced_is_not_heard() -> None:
    """The first words only, the question missing its time, or nothing: not heard."""
    assert not was_heard(QUESTION, "Are you sure you want to")
    assert not was_heard(QUESTION, QUESTION.replace(" at 2:30 PM", ""))
    assert not was_heard(QUESTION, "")


def test_history_takes_what_the_platform_says_was_heard() -> None:
    """Our question cut to the platform's words; the same words change nothing."""
    session = Session(customer=None, tools=())
    session.remember(
        UserTurn(text="Cancel my haircut"), AssistantTurn(kind="answer", text=QUESTION)
    )

    unchanged = align_said(session, f"  {QUESTION.lower()} ")
    changed = align_said(session, "Are you")
    session.remember(UserTurn(text="yes"))

    assert unchanged is False and changed is True
    assert said_before_reply(session) == "Are you"
    assert [m.role for m in session.history] == ["user", "assistant", "user"]


def test_untold_writes_survive_the_session_store() -> None:
    """The writes a stopped turn never told are kept in the stored dialogue state."""
    dialogue = Dialogue(untold=("your haircut is cancelled",), untold_asked="yes")

    assert Dialogue.from_json(dialogue.to_json()) == dialogue


def test_a_yes_answers_the_last_question_asked() -> None:
    """Another question after ours ('Are you still there?'): ours is not what a yes answers."""
    assert not was_heard(QUESTION, f"{QUESTION} Are you still there?")
    assert was_heard(QUESTION, f"{QUESTION} Take your time.")
