"""Something of the business's the customer cannot do, told ("I can't log in", "and I
can't sign in either"): a case offered about it, as "the app won't load" is.

Found by probing (first run 0 of 3: each was told "Sorry, I can't help with that", also
right after a case was opened about another problem)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.language import detect_intents

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))


@pytest.mark.parametrize(
    "said", ["I can't log in", "and I can't sign in either", "i cannot access my account"]
)
def test_a_thing_that_cannot_be_done_is_offered_a_case(said: str) -> None:
    found = detect_intents(said, NOW, TZ)
    assert [(i.kind, i.missing) for i in found] == [("create_ticket", ("consent",))]


@pytest.mark.parametrize("said", ["I can't make friday", "i can't come on tuesday"])
def test_a_visit_the_customer_cannot_make_is_no_case(said: str) -> None:
    assert not [i for i in detect_intents(said, NOW, TZ) if i.kind == "create_ticket"]
