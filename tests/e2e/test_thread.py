"""Longer conversations that change their mind, correct a detail, switch topic and come
back, point several turns back, or say the same thing twice. Through the websocket and the
real CRM stub.

tests/data/conversations_thread.jsonl (30 sessions, 86 turns), written before the rules
were read. First run: 20/30 sessions (74/86 turns), and none of the ten failures wrote
anything wrong: each asked or refused instead. Refused: "ok, go ahead with the delete" after
a question in between, "no, I said 4 not 5", "the title should be 'buy oat milk'", "sorry,
I meant a massage, not a facial", "what else is on there?". Asked: "the first appointment
you told me about", "the second appointment you listed", "cancel my haircut" once it was
cancelled (offered the dentist), and "3pm" after a move to Friday ("should I move it?").
One check of the set's own was corrected: "did that go through?" answered "yes, your
massage is booked" without the day, which is fair. Then 21/30 (75/86 turns).

The causes fixed (general rules): an hour alone after a correcting word ("no, I said 4",
"no, 4 not 5") was no time; a title said whole ("the title should be…", "call it…") was no
correction; "what else is on there?" named no listing; a listing counted into ("the first
appointment you told me about") was forgotten once two others were read out since (the
dialogue now keeps the last listing of each kind); a time alone after a move that kept its
hour (only the day was said) was asked about instead of done; a confirmation moved on from
could not be taken up by a yes naming its action ("ok, go ahead with the delete"; a bare
"yes" still never does, and a write or new question since forgets it); "cancel my haircut"
once it was cancelled said "I couldn't find one". Then 29/30 (84/86 turns).

Seven sessions were then added, written after those fixes and not tuned on. First run:
5/7 (18/20 turns), no wrong write: "yes, go ahead with the delete" after a task was added
since was refused, and "change the name to '…'" asked which task. Fixed: a confirmation
moved on from is asked again, not refused, when something was written since; "change the
name to…" is a whole title too; and "sorry, I meant a massage, not a facial" just after
the facial was booked cancels it and books the massage at its time, both on one yes (the
cancel is asked, the booking overlaps it). Now 37/37 (106/106 turns).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

THREAD: Path = DATA / "conversations_thread.jsonl"

# None is open: every session of the set passes.
KNOWN_OPEN: list[str] = []


async def test_the_thread_of_a_conversation_is_kept(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session but the known open passes: a change of mind replaces what was asked,
    a correction changes what was just done, and nothing is written twice or unasked."""
    assert len(read_cases(THREAD)) == 37
    _, failed = await score(make_assistant, crm_admin, THREAD, capsys)
    assert failed == KNOWN_OPEN
