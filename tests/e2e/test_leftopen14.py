"""The cases the last session left open, played through the websocket and the real CRM stub.

tests/data/conversations_leftopen14.jsonl: each case as it was reported (ids lo14a-), then
sessions in other words (lo14b-), written before the rules they exercise were read: (1) a
change refused with "not" beside a question ("I'm not making a massage appointment this week,
but what do I owe", "I'm not updating my phone number to 415 555 0100, just checking what you
have", nine in all) writes nothing, and a report said with "not" ("I'm not making it to the
cleaning, cancel it", "my address is not updating, open a case", six in all) is still done;
(2) a request said to come first while a cancel waits for its yes ("hang on, first schedule
me a haircut saturday at 2") is made, and the cancel is asked again after it: not done, not
lost; (3) "…and when is my yoga class" says there is none; (4) "the groceries are almost
sorted" writes nothing and says where the to-do stands; (5) "no, 10" to a night hour asked
back books at 10 AM; (6) "if we owe more than $100 on the checkup" reads the checkup's bill.

FIRST RUN, on the code as it was: 14/31 sessions (25/47 turns). WRONG WRITES: "one sec,
first arrange a facial for thursday at 11am" while the haircut's cancel waited held THE
CANCEL OF THE DENTAL CLEANING instead ("first" read as the first visit listed) and the "yes"
after CANCELLED THE CLEANING, never asked for; "i'm almost finished with the groceries"
MARKED BUY GROCERIES COMPLETE; "I'm not updating my phone number to 415 555 0100, just
checking what you have" held the change for a yes ("Are you sure you want to change your
phone number to 415-555-0100…?"). Misses: "wait, before that set me up a massage friday at
3pm" booked and let the cancel go (the "yes" after found nothing waiting); "hang on, first
schedule me a haircut saturday at 2", "hold on, first put down a task to call the bank"
asked the cancel again and did nothing; "no, 10", "nope, 9", "no, make it 11" to a night hour
were "Okay, I haven't changed anything"; "…when is my yoga class" / "…my pilates session?"
said nothing of it; "the groceries are almost sorted", "no need to mark the groceries done,
when is that one due?" were "I can't help with that"; "I don't want to delete the eye exam
task, just checking it's still there" was "Okay, I won't change anything"; the checkup's and
the haircut's bills (paid) were answered with the $150 cleaning bill, and "Pay the checkup"
offered; "ok, now they're done" after the groceries: "I couldn't find a task matching
they're".

Checks of mine put right after the first run, before any rule was read: "i can't make the
cleaning on wednesday, move it to friday at 10am" moved it at once (a move is not asked
first: the house's way; my check wanted a yes), and "I'm not making a massage appointment
this week, but what do I owe" passed while it asked "When would you like your massage?" (now
checked against); "hold on, first put down a task to call the bank" counted the new task
twice. Played on the code as it was, still 14/31 (24/46 turns). After the fixes
(CHANGELOG): 31/31.

Fourteen sessions written after the fixes (lo14c-), eight of what was fixed in
FAILS_AS_WRITTEN ("which ones are left?" after a to-do was done, "thank you, that's all" to
"What's the problem…?", "what's the insurance thing on my list" then "when's that due", a
bill named with an amount) and six of the six cases above: first run 13/14 (21/22 turns):
"what's the grocery thing on my list" was told "No, there's no task like 'grocery' on your
list" (Buy groceries is: a word of a title said in another number now names it). Then 14/14
(on the code as it was, 015fca3: 5/14). Two more after two more fixes ("hang on, tell me
when my haircut is first" while a booking's time is asked; "i renewed the car insurance
already mark it done" said without a pause): first run 2/2.
`python -m bench.said_around --sets …leftopen14.jsonl`: 234 variants (of the first 45), none
wrote more; 11 wrote less at first ("no, 10, thanks", "so yeah no, 10", "so yeah before that,
add…": now read), then none; with --answers 124, and --ways verbs,nouns,in_full,this_day 72:
none more or less. Of all 47: 247, 124 and 76 variants, none more or less.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

LEFT_OPEN: Path = DATA / "conversations_leftopen14.jsonl"
# (none left open in this set)
KNOWN_OPEN: list[str] = []
# Played in parts side by side, to keep each test short.
_PARTS = 3


@pytest.mark.parametrize("part", range(_PARTS))
async def test_the_fourteenth_cases_left_open_are_answered_as_asked(
    part: int, make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any, tmp_path: Path
) -> None:
    """Each case: what was said is done, nothing near is done instead."""
    cases = read_cases(LEFT_OPEN)
    assert len(cases) == 47
    mine = tmp_path / LEFT_OPEN.name
    mine.write_text("".join(json.dumps(case) + "\n" for case in cases[part::_PARTS]))
    _, failed = await score(make_assistant, crm_admin, mine, capsys)
    assert failed == [case["id"] for case in cases[part::_PARTS] if case["id"] in KNOWN_OPEN]
