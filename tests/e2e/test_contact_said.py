"""A phone number or an email said as the old one, or as one more: the question before a
change asks for what the customer meant, and says what a yes would replace. Through the
websocket and the real CRM stub.

Fourteen ways of saying a contact detail were tried on the code as it was, before the
rules were read. No change was made without a yes (each is asked first), but two kinds
of question were wrong: "my number isn't 415 555 0101 anymore" was asked "Are you sure
you want to change your phone number to 415-555-0101?", the number said to be gone; and
"add a second phone number …", "you can also reach me on …", "my work number is …", "a
new work email, …, but keep my personal one" were each asked to "change your phone
number to …", so that a yes would have replaced the one on file, which the customer had
asked to keep, without being told.

Now a detail said as gone ("isn't … anymore", "no longer …", "… is out of date") is the
old one, and the new one is asked; and every question before a change of contact details
says it is "in place of the one on file" (one phone number and one email are kept).
tests/data/conversations_contact_said.jsonl (written with the fix): 0/5 sessions (2/8 turns)
on the code before it, 5/5 now.

Since tests/data/heldout14.jsonl: a second detail told beside the one on file that is to
stay ("a new work email, …, but keep my personal one") is no longer asked to replace it:
nothing is changed, and the answer says only one of each is kept and that telling the new
one replaces it (the customer had said to keep it; the yes asked for went against that).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

CONTACT_SAID: Path = DATA / "conversations_contact_said.jsonl"


async def test_a_detail_said_as_old_or_as_one_more_is_asked_about_truly(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: the number said to be gone is never offered as the new one,
    and a yes is asked for knowing what it replaces."""
    assert len(read_cases(CONTACT_SAID)) == 5
    _, failed = await score(make_assistant, crm_admin, CONTACT_SAID, capsys)
    assert failed == []
