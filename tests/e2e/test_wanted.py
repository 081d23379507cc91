"""A change said as what the customer wants, not as a command, through the websocket and
the real CRM stub (tests/data/conversations_wanted.jsonl): "make my haircut an hour
later", "could I get my cleaning half an hour earlier", "I don't want the cleaning
anymore", "we no longer need the haircut".

FIRST RUN (the probed sentences and seven more in words not tried, before the rules were
read), on the code as it was: 1 of 11 passed (2 of 14 turns). No wrong write, but every
shift was answered with the list of visits, "I don't want the cleaning anymore" and "I
don't want the cleaning moved" with "Sorry, I can't help with that", and "honestly I
don't need my haircut any longer" was told the team could change a visit's length; its
"yes please" then OPENED A SUPPORT CASE nobody wanted. Now a shift asked with "make", "get", "have",
"I'd like" or "I want" is a move by that shift (language/appointment_rules.py
_MADE_SHIFTED); a visit no longer wanted or needed is a cancel, asked about as every
cancel is (NO_LONGER_WANTED; read before it was a "don't" that asked nothing, and "no
longer" was a visit's length the limits refused); "I don't want the cleaning moved"
stays a hold-back, answered "Okay, no problem" as "don't move it" is. All 11 pass;
`bench.decisions --dump` gives the same 3,854 decisions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

WANTED: Path = DATA / "conversations_wanted.jsonl"


async def test_a_change_said_as_wanted_is_made_or_asked_about(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: each shift made once, each cancel only on a yes, nothing
    moved that was said not to be."""
    assert len(read_cases(WANTED)) == 11
    share, failed = await score(make_assistant, crm_admin, WANTED, capsys)
    assert share == 1.0, failed
