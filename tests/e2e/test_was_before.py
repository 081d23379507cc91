"""What a change replaced, asked after it (tests/data/conversations_was_before.jsonl):
"my phone number is 415 555 0199" → "yes" → "wait what did you change it from".

Found by probing: that was answered "Yes, that went through: your contact details were
changed", and "what was my old number" read the NEW number as "the number on file"; "what
was it before?" after a move was refused ("Sorry, I can't help with that"). The others
were written before the rules were read. FIRST RUN, on the code before (b00f44c): 0 of 7
(10 of 17 turns), no wrong write.

Fixed: the details a change of contact replaced are kept from the profile read before it
(write_memory.py), and "what did you change it from?", "what was it before?", "what was my
old number?" are answered from what the last change replaced: the number or email, the
visit's time, the to-do's day, level or title (models/embedded/last_write.py). 7/7.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

WAS_BEFORE: Path = DATA / "conversations_was_before.jsonl"


async def test_what_a_change_replaced_is_told(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Each answer says what the last change replaced, from what was read before it."""
    assert len(read_cases(WAS_BEFORE)) == 7
    share, failed = await score(make_assistant, crm_admin, WAS_BEFORE, capsys)
    assert share == 1.0, failed
