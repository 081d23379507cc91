"""Readings against the conversation that the sixth unseen set showed missing."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from assistant.models.embedded.advice_taken import advice_taken
from assistant.models.embedded.said_before import current_one_named
from assistant.schema import AssistantTurn, Message, UserTurn

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))  # a Monday
SHOULD_I = "should I move my haircut to saturday?"
READ_OUT = "You have nothing booked on Saturday, January 19."


def _after(*said: str) -> list[Message]:
    """The conversation: the advice question, its answer, then the customer's message."""
    conversation: list[Message] = [
        UserTurn(text=SHOULD_I),
        AssistantTurn(kind="answer", text=READ_OUT),
    ]
    return conversation + [UserTurn(text=text) for text in said]


def test_going_ahead_after_advice_makes_the_change_asked_about() -> None:
    """ "yeah go on then, same time" after "should I move my haircut to saturday?" moves it."""
    said = "yeah go on then, same time"
    (move,) = advice_taken(_after(said), said, NOW, TZ) or []
    assert move.kind == "reschedule_appointment" and move.target is not None
    assert move.target.words == ("haircut",)


def test_a_yes_with_an_ask_of_its_own_after_advice_changes_nothing() -> None:
    """ "yes, what do I owe" is read as the question it asks: the move is not inferred."""
    said = "yes, what do I owe"
    assert advice_taken(_after(said), said, NOW, TZ) is None


def test_my_current_one_is_the_service_named_before() -> None:
    """ "what time is my current one?" after asking for another haircut: my haircut."""
    said = "what time is my current one?"
    conversation: list[Message] = [UserTurn(text="can you book me a haircut for saturday")]
    conversation.append(UserTurn(text=said))
    assert current_one_named(conversation, said) == "what time is my haircut?"
