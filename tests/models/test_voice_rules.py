"""Rules the voice-transcript set showed missing: read the way a caller says them."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.language import detect_intents
from assistant.language.text import normalize
from assistant.models.embedded import limits
from assistant.models.embedded.question_words import FOCUS_QUESTION
from assistant.models.embedded.replies import clarification

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))  # a Monday noon


@pytest.mark.parametrize(
    "said",
    [
        "perfect and where is that again",
        "lovely, what time is it",
        "thank you what day is that now",
    ],
)
def test_a_question_after_an_acknowledgement_is_about_the_one_in_focus(said: str) -> None:
    """ "perfect and where is that again" after a move asks where the moved visit is."""
    assert FOCUS_QUESTION.search(normalize(said).text)


def test_a_title_leaves_out_the_words_leading_into_its_due_date() -> None:
    """ "renew my passport by the end of the month" is "Renew my passport", due the 31st."""
    intents = detect_intents("add a task to renew my passport by the end of the month", NOW, TZ)
    assert [(i.arguments.get("title"), i.arguments.get("due_on")) for i in intents] == [
        ("Renew my passport", "2030-01-31")
    ]


@pytest.mark.parametrize(
    "said",
    [
        "the dentist was like really late last time you know it's not okay",
        "they kept me waiting an hour last time",
        "i waited over 40 minutes for my haircut",
    ],
)
def test_a_visit_that_ran_late_is_heard_and_a_case_offered(said: str) -> None:
    """A complaint about lateness gets an apology and the offer of a support case."""
    reply = limits.cannot_do(said)
    assert reply is not None and "support case" in reply


@pytest.mark.parametrize(
    "said", ["i was late for my appointment last time", "my payment was late, is there a fee"]
)
def test_the_customer_being_late_is_not_a_complaint(said: str) -> None:
    """ "I was late" is the customer's own lateness, not a complaint about the service."""
    assert limits.cannot_do(said) is None


def test_asking_to_change_the_number_without_one_asks_for_it_plainly() -> None:
    """ "I'd like to update my phone number" asks for the number, not about its country."""
    (intent,) = detect_intents("i'd like to update my phone number", NOW, TZ)
    assert clarification(intent) == "Sure. What's the new phone number?"
    (bad,) = detect_intents("change my number to 0612 345 678", NOW, TZ)
    assert "country" in (clarification(bad) or "")
