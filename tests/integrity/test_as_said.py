"""The comparison of a model's write with the customer's words (assistant/as_said.py),
on the cases where a refusal would be wrong as well as right."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from assistant.as_said import Verdict, judge_contact, judge_times
from assistant.schema import ToolCall
from tests.models_openai.helpers import CATALOG

# 18:05 UTC is 11:05 in Los Angeles, on Tuesday, June 3, 2025.
NOW = datetime(2025, 6, 3, 18, 5, tzinfo=UTC)
ZONE = "America/Los_Angeles"
MOVE = CATALOG.get("crm.rescheduleAppointment")


def moved_to(starts_at: str) -> ToolCall:
    return ToolCall(
        call_id="c1",
        tool_name="crm.rescheduleAppointment",
        arguments={"appointment_id": "appt_1", "starts_at": starts_at},
    )


@pytest.mark.parametrize(
    ("said", "starts_at", "verdict"),
    [
        (["book a haircut tomorrow at 3pm"], "2025-06-04T15:00:00-07:00", Verdict.AGREES),
        (["book a haircut tomorrow at 3pm"], "2025-06-04T16:00:00-07:00", Verdict.CONTRADICTS),
        (["book a haircut tomorrow at 3pm"], "2025-06-04T15:00:00+00:00", Verdict.CONTRADICTS),
        (["book a haircut tomorrow at 3pm"], "2025-06-05T15:00:00-07:00", Verdict.CONTRADICTS),
        (["book a haircut"], "2025-06-04T10:00:00-07:00", Verdict.UNSAID),
        (["book a haircut tomorrow"], "2025-06-04T10:00:00-07:00", Verdict.UNSAID),
        (["move my 3pm haircut an hour later"], "2025-06-04T16:00:00-07:00", Verdict.AGREES),
        (["move it from monday to friday at 10am"], "2025-06-06T10:00:00-07:00", Verdict.AGREES),
        # A correction: the hour alone, the day where it was said the turn before.
        (
            ["actually make it 4", "book a haircut tomorrow at 3pm"],
            "2025-06-04T16:00:00-07:00",
            Verdict.AGREES,
        ),
        # A reply that says no time: the time said the turn before holds.
        (
            ["the downtown one", "book a haircut tomorrow at 3pm"],
            "2025-06-04T16:00:00-07:00",
            Verdict.CONTRADICTS,
        ),
    ],
)
def test_a_time_is_judged_against_the_words(
    said: list[str], starts_at: str, verdict: Verdict
) -> None:
    """Times said, shifted, corrected or not said at all get the verdict a person would give."""
    call = moved_to(starts_at)
    assert judge_times(MOVE, call, said, NOW, ZONE)[0] is verdict


@pytest.mark.parametrize(
    ("said", "arguments", "verdict"),
    [
        (["my new number is 415 555 0199"], {"phone": "+14155550199"}, Verdict.AGREES),
        (["change my phone number to 07700 900123"], {"phone": "+447700900123"}, Verdict.AGREES),
        (["my new number is 415 555 0199"], {"phone": "+14155550100"}, Verdict.CONTRADICTS),
        (["my email is maria at example dot org"], {"email": "maria@example.org"}, Verdict.AGREES),
        (
            ["my email is maria at example dot org"],
            {"email": "maria@example.com"},
            Verdict.CONTRADICTS,
        ),
    ],
)
def test_contact_data_is_only_what_was_said(
    said: list[str], arguments: dict[str, Any], verdict: Verdict
) -> None:
    """A phone or email is written only as the customer said it, in any spoken form."""
    call = ToolCall(call_id="c1", tool_name="crm.updateContactInfo", arguments=arguments)
    assert judge_contact(call, said)[0] is verdict
