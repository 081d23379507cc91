"""Items named in words that only partly fit one on file: "call the bank" when the only
call on the list is "Call the pharmacy", "the car registration task" beside "Renew car
insurance". A shared word ("call", "car") is not a name: the customer's other words say
another item, so nothing is written and the list on file is offered. The controls name
an item in other words of its own ("the grocery shopping task", "my insurance renewal
task") and are written. Through the websocket and the real CRM stub.

tests/data/conversations_names.jsonl: written before the resolver was read. First run
7/13, all five controls right and six wrong: three pending tasks completed that were not
named ("the car registration task" and "my home insurance task" completed "Renew car
insurance", "the eye drops task" completed "Schedule eye exam"), "postpone call the bank
by a day" moved the due day of "Call the pharmacy", "mark call the bank as done" answered
for it, and "delete the call the bank task" offered to delete it. (That run already read
"postpone … by a day" past a verb's object of several words; before, it asked when.)

Cause: a task was taken as named when half the words said fit its title, whatever the
other half said. Now a title and a description that each hold a word the other lacks,
not a doing word ("call", "buy", "shopping"), name two items (resolve._names_another).
13/13.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

NAMES: Path = DATA / "conversations_names.jsonl"

KNOWN_OPEN: list[str] = []


async def test_an_item_is_changed_only_when_the_words_name_it(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: a word shared with another item never picks it for a write,
    and an item named in other words of its own is changed."""
    assert len(read_cases(NAMES)) == 13
    _, failed = await score(make_assistant, crm_admin, NAMES, capsys)
    assert failed == KNOWN_OPEN
