"""What no tool does, told apart from the requests beside it that a tool does: each rule of
assistant/models/embedded/limits.py for a visit or an invoice, and the lookalikes it must
leave to the grammar."""

from __future__ import annotations

import pytest

from assistant.models.embedded import limits


@pytest.mark.parametrize(
    ("said", "reply_has"),
    [
        ("i'm going to be 15 minutes late to my haircut", "running late"),
        ("running a bit behind for the dentist", "running late"),
        ("change my haircut to a massage instead", "which service"),
        ("swap my dental cleaning for a whitening", "which service"),
        ("please cancel the dental cleaning invoice", "invoice"),
        ("take the dental cleaning off my bill", "invoice"),
        ("add a note to my dentist appointment that I have a sensitive tooth", "notes"),
        ("tell the stylist I want it shorter this time", "notes"),
        ("can you make my haircut an hour longer", "how long"),
        ("close my account please", "account"),
        ("my daughter will take my haircut slot instead of me", "name but yours"),
        ("put me on the waitlist for a sooner dentist appointment", "waiting list"),
        ("call me the day before my haircut to remind me", "calls or texts"),
    ],
)
def test_what_no_tool_does_is_said_so(said: str, reply_has: str) -> None:
    """Each is answered plainly (and no tool call is planned for it)."""
    reply = limits.cannot_do(said)
    assert reply is not None and reply_has in reply


@pytest.mark.parametrize(
    "said",
    [
        "please get my next appointment canceled",
        "can you have my appointment moved to friday",
        "i will be paying late",
        "i was late for my appointment last time",
        "extend the deadline on my insurance task",
        "change my haircut to a later time",
        "switch my dentist to an afternoon slot",
        "add a note to my tasks to buy milk",
        "cancel my appointment and pay my bill",
        "remind me to call the dentist",
        "what's my balance",
    ],
)
def test_what_a_tool_does_is_left_to_the_grammar(said: str) -> None:
    """A lookalike of those is not answered by them: a tool does it."""
    assert limits.cannot_do(said) is None
