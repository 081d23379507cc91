"""A change just made, taken back in words that say it is not wanted (tests/data/
conversations_taken_back.jsonl): "no wait, I don't need that", "forget about the
plumber", "I changed my mind, keep it on sunday", "actually I don't want it anymore",
"wait, I didn't mean that", "never mind, leave it as it was", "scrap that", "actually,
don't bother", "I'd rather keep the original time", "I don't want that booking after
all". The change is made the other way (a delete or cancel asked first), or what cannot
be undone is said plainly; never "Okay, no problem" over a change the CRM holds.

FIRST RUN (written before the rules were read): 2/10 sessions (12/21 turns), with one
WRONG WRITE: "no, I changed my mind, keep it on sunday" after a move to Friday at 3 PM
moved the haircut to Sunday at 3 PM (it was at 2:30). Told the opposite of what the CRM
held: "actually, don't bother" after an add and "never mind, leave it as it was" after a
priority change were answered "Okay, no problem"; "no wait, I don't need that", "forget
about the plumber", "actually I don't want it anymore", "wait, I didn't mean that" and "I'd
rather keep the original time" were answered "Sorry, I can't help with that".
Fixed as rules (models/embedded/undo.py): right after a change (the dialogue's new
`since_change` is 0), a message that says it is not wanted ("I don't need/want that", "don't
bother", "forget it", "forget about the <item>", "keep the original time", "I changed my
mind", "leave it as it was", "keep it on <the day it had>") takes it back as "undo that"
does; a completion, which cannot be reopened, is said plainly with its title.
`bench.decisions --dump`: no decision changed. Two written after the fix (tb-b-, "forget
it" after another answer or after a question of ours) keep the change: both held. Four
more (tb-c-) after that, first run 2/4: "I don't need that reminder anymore" listed the
tasks and "sorry, I don't want that booking after all" asked which visit to cancel (the
facial just booked among three); "that reminder/task/booking/appointment" is "that" now.
Held: "I changed my mind, make it saturday instead" moves it, "I didn't mean that one"
after a priority change puts it back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

TAKEN_BACK: Path = DATA / "conversations_taken_back.jsonl"


async def test_a_change_said_as_not_wanted_is_taken_back(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session takes the change back (or asks to), and never tells it as not made."""
    assert len(read_cases(TAKEN_BACK)) == 16
    share, failed = await score(make_assistant, crm_admin, TAKEN_BACK, capsys)
    assert share == 1.0, failed
