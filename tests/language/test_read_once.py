"""A reading marked `read_once` is worked out once per text within a decision, and its
answers are not kept from one decision to the next."""

from __future__ import annotations

from assistant.fakes.world import CATALOG, CUSTOMER, NOW
from assistant.language import read_once as module
from assistant.language.confirm import is_affirmative
from assistant.language.read_once import one_decision, read_once
from assistant.models.embedded import EmbeddedPlanner
from assistant.schema import PlanRequest, UserTurn


def test_within_a_decision_each_text_is_read_once() -> None:
    asked: list[str] = []

    @read_once
    def shouted(text: str) -> str:
        asked.append(text)
        return text.upper()

    with one_decision:
        assert shouted("yes") == "YES"
        assert shouted("yes") == "YES"
        assert shouted("no") == "NO"
        with one_decision:  # (a decision asked for within one keeps what was read)
            assert shouted("yes") == "YES"
    assert asked == ["yes", "no"]
    # Outside a decision, and in the next one, each call reads the text again.
    assert shouted("yes") == "YES"
    with one_decision:
        assert shouted("yes") == "YES"
    assert asked == ["yes", "no", "yes", "yes"]


def test_a_decision_leaves_nothing_kept() -> None:
    request = PlanRequest(
        conversation=(UserTurn(text="yes please, go ahead"),),
        tools=CATALOG.tools,
        customer=CUSTOMER,
        now=NOW,
    )
    EmbeddedPlanner().plan(request)
    assert not module._deciding
    assert all(not kept for kept in module._KEPT)
    assert is_affirmative("yes please, go ahead")
