"""One of a question's changes kept out of it (tests/data/conversations_kept_out.jsonl):
"cancel both my appointments" then "actually keep the haircut".

Found by probing: that ASKED TO CANCEL THE HAIRCUT, the one to keep, and a yes cancelled
it; "no not the insurance one" to a question deleting three to-dos dropped the question.
The others were written before the rules were read. FIRST RUN, on the code before
(b00f44c): 0 of 8 (ko-b- came after), with THREE WRONG WRITES: "keep the haircut" also
asked to cancel the haircut and the yes cancelled it; "hold on, don't cancel the cleaning"
to "cancel all my appointments" let the yes cancel the CLEANING; "leave the eye exam" to a
two-task delete let the yes delete the eye exam, not the groceries. "no keep the haircut"
and "no not the insurance one" dropped the whole question; "wait not the eye exam", after
every to-do was marked done, marked it done again ("was already marked complete").

Fixed: a reply that keeps some of a question's changes out ("keep the haircut", "not the
insurance one", "don't cancel the cleaning", "except groceries") with no yes said asks
again about the rest (language/narrowed.py); "not the X" just after a turn that changed
several takes back that one, or says it stays when it can't be made the other way
(models/embedded/undo.py); "both" names every one, not a visit called "both"
(resolve.py). `bench.decisions --dump`: no decision changed. 8/8.

One more (ko-b-), found after: "book a haircut friday at 3 and a massage saturday at 4"
then "wait not the massage" was told "There's nothing waiting for a yes" after the yes, the
massage kept. 9/9.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

KEPT_OUT: Path = DATA / "conversations_kept_out.jsonl"


async def test_what_is_kept_out_of_a_question_is_never_changed(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """A change kept out of a question is never made; the rest are asked about again."""
    assert len(read_cases(KEPT_OUT)) == 9
    share, failed = await score(make_assistant, crm_admin, KEPT_OUT, capsys)
    assert share == 1.0, failed
