"""Conversations said with words around their turns that change nothing
(tests/data/conversations_said_around.jsonl): a full stop, a thanks, "so yeah", "hi
there,", double spaces, capitals, "for me".

FIRST RUN on the session's start (ff963c1): 1 of 12 (the thirteenth, a correction said as a
sentence, lost its change there and at 38bf6c1). Found by saying every turn of the
multi-turn sets so (8,385 variants, then 6,708 more): each session here but one WROTE
WRONGLY on the code before (0914ae9's parent for the first four, fbb958a's parent for
"so yeah", 3ea29e8's parent for "hi there"): the massage booked under "hang on" with a
full stop; both visits cancelled under "actually just the cleaning, thanks"; the
cleaning moved for "the first one" of two to-dos asked with a full stop; a double-spaced
"change my haircut to a massage" read as a move; a delete and a phone change made on "so
yeah hmm what do i owe" and "so yeah actually keep the old one"; a 2:30 AM booking made
on "hi there, ok then sunday at 10am"; a cleaning booked at 10 for "nine no ten no
actually nine for me"; a to-do completed by the CRM's order in capitals.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

SAID_AROUND: Path = DATA / "conversations_said_around.jsonl"


async def test_words_said_around_a_turn_change_nothing_it_writes(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Each turn is read as if said plainly; no held change is made by a filler."""
    assert len(read_cases(SAID_AROUND)) == 13
    share, failed = await score(make_assistant, crm_admin, SAID_AROUND, capsys)
    assert share == 1.0, failed
