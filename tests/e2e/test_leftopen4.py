"""The cases the twelfth session left open, played through the websocket and the real CRM stub.

tests/data/conversations_leftopen4.jsonl (ids lo4a-, 39 sessions, 52 turns), two to four
sessions for each kind, in words other than those the cases were reported in, most said as
speech-to-text writes them (no pause written): a phone number put right in part ("…0178 no
sorry 0187"); a visit named by its day or hour first, its change after ("the wednesday
appointment move it to thursday same time"); "no, I only wanted to hear it" to a question
about changing a detail; a remark about a to-do after it ("…they're for my sister", "…my
tooth has been hurting"); a cancel with its reason after it ("…im moving out of town next
week"); three asks, the last none of ours ("…and walk my dog for me"); a task named by a
detail, its change after ("the one without a due date set it for friday"); a take-back
after a question and a change ("how much do i owe and push my cleaning to thursday actually
never mind that"); a to-do's day said by a visit ("three days before my haircut"), as two
days ("thursday or friday") or as "before" ("before the 19th"); "any chance i could get a
consultation on saturday the nineteenth at 3", "…so that it's due on the ninth"; and the same
change to another thing in the next sentence ("…. And my other booking as well").

FIRST RUN, on the code as it was: 10/39 sessions (19/52 turns). WRONG WRITES: a second
change lost without a word ("push my haircut an hour later. Do the same with my other
appointment", "move the dental cleaning half an hour later. And my other booking as well",
"make the insurance task due that day. And the eye exam one the same day too": the first
made, the answer silent on the second); "cancel the dental cleaning add a task to buy floss
and walk my dog for me" added "Buy floss and walk my dog" and dropped the cancel unsaid;
"can you change my number to 415 555 0190 actually make that 0199" asked to confirm 0190
(saying it did not catch "make that 0199") and wrote 0190 on the yes; "remind me to send the
invoice before friday" was due Friday and "…library card before the 19th" the 19th; "remind
me to buy hair dye three days before my haircut" had no due day and those words in its
title. Titles holding words not of the to-do: "Call the dentist my tooth has been hurting",
"Ring the plumber or friday" (due Thursday), "Water the plants or the 23rd" (due the 22nd).
Misses, nothing written: "…0178 no sorry 0187" and "…0162 oops i mean 0126" asked for the
digits again; "the wednesday appointment move it to thursday same time" and "the 10am on
wednesday bump it to saturday…" asked which; "my sunday 2:30 one can you make it 4 instead"
asked what time; "no i dont want to change it just tell me what it is" and "no leave it i
only wanted to check it just say it back to me" read nothing out; "cancel my dental cleaning
im moving out of town next week" looked for a visit next week, "please cancel the haircut
i've decided to grow my hair out" found no haircut; "delete the groceries task add one to
pay rent and file my tax return" did nothing; "the high priority one make it due the 23rd"
and "the low priority one give it a due date of the 28th" asked which, "the one without a
due date set it for friday" was refused; the three take-backs answered "Okay, no problem."
with nothing of the question; "…so that it's due on the ninth" and "…so its due on the
tenth" listed the tasks.

Fixed as rules for their kinds (see CHANGELOG): a later sentence that changed nothing of
the ask read is read in its turn, and "my other appointment" after a change of one visit
by a shift (or a cancel) is the one not named (models/embedded/references.py); "the eye
exam one the same day too" after a task's due day was set is that task given the day
(language/grammar.py); a cancel, delete or completion of a thing named in full is an order
ended, so an order said after it with no pause is its own (language/intents.py); the last
digits of a phone number put right after a full stop, with "make that" or "oops I mean"
(language/spoken.py); a day with "before" is due the day before it, two days offered are
asked about, a visit named after "days before" is no words of the title, and a remark said
after the day a to-do is due is none of its title (language/task_rules.py,
relative_days.py); a take-back takes back only the ask it follows, though joined to another
by "and" (language/put_right.py); "just tell me what it is" after the rest with no pause
reads the detail out (models/embedded/said_before.py); a reason said after the visit to
cancel with no pause ("i've decided…", "i'm moving…") is no words of it
(language/targets.py); the thing named first, then "move it", "make it", "give it",
"could we do" is read with a pause between (language/transcript.py, appointment_rules.py);
"set it for friday", "change X so it's due on the ninth" are due changes, "add one to pay
rent" after a task was named adds a task, and "is there any chance of an eye exam on … at
11" books. After: 39/39 sessions (52/52 turns). Every kept phrasing (bench.decisions --dump,
1,173 texts, 3,854 decisions) decides as before: the dumps before the first rule change and
after differ in two decisions only, both made by a change merged from main (a support case's
subject no longer begins "S about…"); against main as merged, none differs.

Sixteen sessions (ids lo4b-, 19 turns) were then written in new words for the same kinds,
not tuned on. FIRST RUN: 14/16 sessions (17/19 turns), no wrong write. "add a task to book
a plumber the kitchen sink is leaking" kept the remark in the title (no day between them);
"the one due tomorrow push it to thursday" (a task named by its due day) asked which
appointment. The second is now read as a task's due day changed (a task named by its due
day, then "push it to thursday", is never a visit looked for; language/grammar.py): 15/16.
The first was left open; it is now read (a remark after the to-do with no day between
them: tests/e2e/test_leftopen5.py), and every session passes.
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

LEFT_OPEN: Path = DATA / "conversations_leftopen4.jsonl"
KNOWN_OPEN: list[str] = []
# Played in two halves side by side (every other session), to keep each test short.
_HALVES = 2


@pytest.mark.parametrize("half", range(_HALVES))
async def test_the_fourth_cases_left_open_are_answered_as_asked(
    half: int, make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any, tmp_path: Path
) -> None:
    """Each case: what was said is done, nothing near is done instead."""
    cases = read_cases(LEFT_OPEN)
    assert len(cases) == 55
    mine = tmp_path / LEFT_OPEN.name
    mine.write_text("".join(json.dumps(case) + "\n" for case in cases[half::_HALVES]))
    _, failed = await score(make_assistant, crm_admin, mine, capsys)
    assert failed == [case["id"] for case in cases[half::_HALVES] if case["id"] in KNOWN_OPEN]
