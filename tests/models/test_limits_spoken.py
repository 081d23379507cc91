"""Every plain "I can't do that here" answer reaches the customer as written: none reads
to the truthfulness guard (assistant/claims.py) as a change claimed or promised now.

"remove the due date from the groceries task" was answered "I haven't changed anything on
your account.": the limit's own words ("…say which, and the task's name, and I'll change
it") read as a promise of a change no write made, and the guard replaced them."""

from __future__ import annotations

import pytest

from assistant.claims import unbacked_claim
from assistant.models.embedded import limits
from tests.integrity.test_claim_phrasings import WRITES

EVERY_WRITE = frozenset(WRITES)


def _limit_replies() -> list[str]:
    replies = [reply for _, reply in limits._CANNOT]
    replies += [reply for _, reply in limits._INSTEAD]
    return sorted(set(replies))


@pytest.mark.parametrize("reply", _limit_replies(), ids=lambda reply: reply[:40])
def test_a_limit_told_is_not_taken_for_a_change(reply: str) -> None:
    assert unbacked_claim(reply, [], EVERY_WRITE) is None
    assert unbacked_claim(f"{reply} {limits.OFFER}", [], EVERY_WRITE) is None


def test_no_due_date_wanted_is_told_plainly() -> None:
    said = limits.cannot_do("remove the due date from the groceries task")
    assert said is not None and "due date" in said
    assert unbacked_claim(said, [], EVERY_WRITE) is None
