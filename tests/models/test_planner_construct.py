"""The planner's decisions built without validation equal the validated ones."""

from __future__ import annotations

from assistant.fakes.world import CATALOG, CUSTOMER, NOW
from assistant.models.embedded import EmbeddedPlanner
from assistant.schema import FinalDecision, PlanRequest, ToolCallsDecision, UserTurn
from tests.fixtures.phrasings import kept_phrasings


def test_every_first_round_decision_equals_its_validated_copy() -> None:
    """Over every kept phrasing, a decision's calls are what validating them would make."""
    planner = EmbeddedPlanner()
    checked = 0
    for text in kept_phrasings():
        request = PlanRequest(
            conversation=(UserTurn(text=text),), tools=CATALOG.tools, customer=CUSTOMER, now=NOW
        )
        decision = planner.plan(request)
        validated = type(decision).model_validate(decision.model_dump(exclude_unset=True))
        assert decision == validated, text
        assert decision.model_fields_set == validated.model_fields_set, text
        if isinstance(decision, ToolCallsDecision):
            checked += 1
            for call in decision.calls:
                assert type(call.arguments) is dict and all(type(k) is str for k in call.arguments)
        else:
            assert isinstance(decision, FinalDecision)
    assert checked > 500, "the kept phrasings make calls"
