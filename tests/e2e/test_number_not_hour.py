"""A phone number said after "at" is no hour (tests/data/conversations_number_not_hour.jsonl).

Found by probing: "can you text me at 415-555-0199 instead of calling" was read as "at 4:15",
a move of "calling" to 4:15 today, and CHANGED THE DUE DAY of the done to-do "Call the
pharmacy" to today, told as if it were on the list. The others were written before the
rules were read. FIRST RUN, on the code before (b00f44c): 2 of 6, with ONE WRONG WRITE (the
one found). "you can reach me at 628-555-0110 on friday" was "I didn't catch … 'reach me at
6:28-555-0110…'", and no number said to reach the customer was offered as the number on
file. Each turn here holds that change for a yes (a number is the customer's identity, asked
before it is changed), and writes nothing else.

Fixed: three digits after "at" are an hour only when no more digits follow after a dash
(language/heard_forms.py); a change to the day or level of a done to-do is told with "It's
already marked done, though" (models/embedded/tasks.py). `bench.decisions --dump`: no
decision changed. 6/6.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

NUMBER_NOT_HOUR: Path = DATA / "conversations_number_not_hour.jsonl"


async def test_a_phone_number_is_never_an_hour(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """No number said to reach the customer moves, books or dates anything."""
    assert len(read_cases(NUMBER_NOT_HOUR)) == 6
    share, failed = await score(make_assistant, crm_admin, NUMBER_NOT_HOUR, capsys)
    assert share == 1.0, failed
