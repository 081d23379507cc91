""" "Remind me about it", said of a to-do or a visit, through the websocket and the real CRM
stub (tests/data/conversations_remind_about_it.jsonl).

Found by probing: "add a task to buy a gift and remind me about it on friday" added a
SECOND TASK "Remind me about the task", due Friday; "add buy a gift to my list and remind
me about it friday" and, after a booking, "remind me about it on thursday" added a TASK
TITLED "It"; "add a task to buy a gift, remind me on friday" LOST THE DAY; "…and remind
me to buy flowers on friday" titled the second to-do "Remind me to buy flowers".

FIRST RUN of the 7 sessions (the probed sentences, and "…remind me of that tomorrow" and
"remind me about it" alone in words not tried), on the code as it was: 1 of 7 passed (2
of 8 turns), with a wrong write in five: the probed ones, and "put pick up the dry
cleaning on my to-do list and remind me of that tomorrow" added a task "Of that". Now a
to-do whose title would only point at something ("it", "that", "the task") is asked what
it should say, and after a to-do added in the same message "remind me about it <day>"
(or "remind me on <day>") is that to-do's due day (language/intents.py
_reminded_of_the_one_added); "remind me to" is no words of a title. All 7 pass;
`bench.decisions --dump` gives the same 3,854 decisions.

Two more from a probe (ri-b-), first run 0/2: "add a task to return the library books by
thursday and remind me wednesday" and "…buy a gift and remind me friday" each ADDED A
SECOND TASK TITLED "Remind me". A bare "remind me <day>" now gives the day of the to-do
just added; when that to-do is due another day, the reminder's day goes in its note and
the answer says so (language/slots.py reminder_note).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

REMIND: Path = DATA / "conversations_remind_about_it.jsonl"


async def test_a_reminder_about_it_is_the_day_of_the_to_do_meant(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: no to-do titled "It" or "Remind me…", no day lost."""
    assert len(read_cases(REMIND)) == 9
    share, failed = await score(make_assistant, crm_admin, REMIND, capsys)
    assert share == 1.0, failed
