"""A conversation said in other words writes what it writes in plain ones
(tests/data/conversations_other_words.jsonl).

Found by saying every written conversation again with one kind of word swapped inside
each turn (`python -m bench.said_around --ways verbs,nouns,dotted_hours,this_day`: "call
off" for "cancel", "to-do" for "task", "schedule me" for "book me", "3 p.m." for "3pm",
"this sunday" for "sunday"). First run of the probe, 6,748 variants: 14 wrote something
else. "…call off the cleaning and the haircut, actually just the cleaning" then "yes"
CANCELLED BOTH; "mark the eye exam to-do done, then delete the groceries one" then "yes"
DELETED THE EYE EXAM TO-DO; "make the car insurance to-do due friday" moved the to-do just
added; "no, I changed my mind, keep it on this sunday" moved the haircut to the new HOUR on
sunday; "and the one on this sunday, push it back an hour" MOVED THE CLEANING to sunday;
"schedule me a new haircut … instead" MOVED the haircut; "and schedule me an eye exam for
tuesday…" just after the "Schedule eye exam" to-do was done completed it again and booked
nothing. With them, what tests/models/test_other_words_guarded.py holds (guards that named
only their own verbs).

These 16 sessions were written from what the probe found, in other words again. Their
first run on the code before the fixes (1427dac): 0/16, 12 with a wrong write (both visits
cancelled for "just the cleaning", a haircut or a cleaning MOVED on "don't bump…", "should
I push…", "how late can I reschedule…", a massage and a facial BOOKED on "should I pencil
in…" and "I'm thinking of booking…", a cancel and a delete DONE on the "yes" after "don't
call off…" and "never get rid of…", the eye exam to-do DELETED for "the groceries one", the
haircut moved to Sunday at the new hour, the cleaning moved for "the one on this sunday",
the haircut MOVED for "schedule me a new one"); the rest asked, or answered "Sorry, I
can't help with that" ("what else is on friday", "ok good to know"). Now 16/16.

Three more (ow-b-), from a second run of the probe after those fixes (6,748 variants, none
wrote more, some asked again): "ok yes call off the haircut" after a question in between
asked the cancel again, "schedule me another one same time next week" and "set me up with
one more…" asked what to book. First run of the three: 0/3 on 1427dac, 2/3 on the code
then ("set me up with" was no booking verb). Now 19/19.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

OTHER_WORDS: Path = DATA / "conversations_other_words.jsonl"


async def test_a_conversation_in_other_words_writes_what_it_does_in_plain_ones(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Each change as asked, to the item named, once; nothing asked against is written."""
    assert len(read_cases(OTHER_WORDS)) == 19
    share, failed = await score(make_assistant, crm_admin, OTHER_WORDS, capsys)
    assert share == 1.0, failed
