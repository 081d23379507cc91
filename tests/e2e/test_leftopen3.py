"""The cases the eleventh session left open, played through the websocket and the real CRM stub.

tests/data/conversations_leftopen3.jsonl (ids lo3a-, 34 sessions, 54 turns), two or three
sessions for each kind, in words other than those the cases were reported in: two asks in
one message where the second leans on the first ("…. The eye exam one is finished as
well", "…. Same for the dental cleaning", "…. And a consultation at the same time on
wednesday", "…. The remaining two as well"); a delete or cancel waiting for a yes, turned
into another change, with an add after it; the answer to "which task?" naming two, a change
each; a to-do to follow up on a support case just opened; an ask taken back in the same
message; past visits asked after, and "same as last time" said with no verb; a to-do whose
words are two deeds; and the kinds tests/e2e/test_said_at_once.py and test_said_in_two.py
listed as open (a change and another to "it" in the next sentence, "back to the haircut,
…. And the task, …", "…. Actually keep the cleaning where it was", "the same again the
following week").

FIRST RUN, on the code as it was: 5/34 sessions (24/54 turns). WRONG WRITES (a change asked
for, silently not made, the answer saying only the other): "schedule a physical therapy
session for tuesday at 11am. And a consultation at the same time on wednesday" and "…eye
exam on thursday at 2pm. Then a haircut, same hour, but saturday" booked only the first;
"mark the second one you listed as finished. And push the groceries one to thursday"
completed only; "bump the groceries one up to high. And give it a due date of friday" set
only the date; "going back to the haircut, could it be 3 instead. And the task, make it due
friday" moved only the task; "on second thought just mark it as done. And put collect the
parcel on my list for sunday" (a delete waiting) added nothing; "and add a task to buy
floss. Actually, keep the cleaning where it was" added nothing. "hmm no, don't delete it,
complete it instead. Also add …" asked again whether to delete the task. "remind me to
return the rental car and pay the parking ticket" was one task of both. Misses, each said
plainly: "do that to my other appointment as well", "the remaining two as well", "both of
the others too", "move it to saturday at the same time" (a cancel waiting), "the same again
the following week" ("I didn't catch …"); "the landlord one. And the plants one sunday" and
"the vet one, and the ink one on wednesday" (to "which task?") refused; "add a task to
follow up on it" / "remind me to check on it friday" after a case was opened titled
"Follow up on it" / "Check on it", and "and a to-do to chase that up" said a case cannot
be chased; "book an eye exam on thursday at 10am. no wait, forget it" (and "…scratch that",
"…actually never mind") answered "Okay, no problem." without saying what was left; "what
appointment did i have most recently?" read the upcoming ones, "what did i come in for the
last time" refused, "i'll have what i had last time" / "same thing as my previous visit,
please" read the upcoming ones; "put the car insurance task on that day. And the eye exam
task the same day too" listed the tasks; "move groceries to thursday" was not understood;
"actually put the cleaning back where it was" (a task added since) read the visits out.
One check was corrected as unfair after the first run: to "same as last time" with no
verb, "Sure. When would you like your annual checkup?" asks to book it as well as "book"
would ("when would you like" added to its fair words); and a to-do "to follow up on it" said
in the same message as the case ("…charged twice. And add a task to follow up on it", the
joined form tests/e2e/test_said_at_once.py plays) titled "Follow up on the invoice" names
the case's subject as well: the title must hold "invoice", not "charged".

Fixed as rules for their kinds (see CHANGELOG): a follow-up reading that took two sentences
as one ask, or a message read whole with a sentence not understood, is read sentence by
sentence, the thing the first changed in focus for the next and its change the last one
made (models/embedded/references.py); "same time" takes the hour said before it in the
message; a last sentence leaving one thing "where it was" takes back only the ask that named
it (language/put_right.py), and a thing named as put back is put back though its change was
the last made; "don't delete it", "wait no, just tick it off" never ask to delete, and
"tick it off" is no other task to delete; a take-back in the same message ("…. no wait,
forget it", "…actually undo that" unpunctuated) says what was left as it was; "the landlord
one. And the plants one sunday" to "which task?" is the question's change for the first
and the same change, with its own day, for the second (a three-letter name, "the vet one",
is a name); "…. The remaining two as well" after a completion is every other task; "what
appointment did I have most recently", "what did I come in for last time" read the past
visits; "same as last time" with no verb asks when to book that service; a to-do to follow
up on "it" or "that" just after a case was opened, or in the same message, is titled by the
case's subject, and "and a to-do to …" is an add; a to-do whose words are two deeds, each a
verb and what it is done to, is two to-dos; "move groceries to thursday" moves a task's due
day as "push" did. After: 31/34 sessions (51/54 turns).

Thirteen sessions (ids lo3b-, 17 turns) were then written in new words for the same kinds,
not tuned on. First run: 8/13 sessions (12/17 turns). WRONG WRITE (a change silently
lost): "finish off the groceries task. Oh, and the insurance one's done too" completed only
the groceries ("task's" was read as a word of its name). Misses: "the passport one. The
garage one on monday" (to "which task?", no "and") refused; "what was the last thing i came
in for?" refused; "wait no, just tick it off. And add …" (a delete waiting) looked for a task
named "tick it off" to delete, and added only. One check was unfair and corrected: the title
'Follow up about the support case "My last bill had the wrong amount on it"' names the case
("it" is a word of its subject; it must hold "bill"). Fixed as the same rules widened: a
possessive "'s" is taken off a word before the filler words are; "the X one <day>" after a
change is the same change with no "and"; "the last thing I came in for"; a held delete is
retargeted only when nothing else is asked. Now 44/47 sessions (68/71 turns).

Also found on the way, by the sets the new file shifted into play, two wrong writes of the
code as it was, now fixed: "move my haircut to saturday actually undo that" (unpunctuated)
moved it, and "move the dentist to thursday at 9am sorry friday at 10" moved it to
Thursday at 10 (a correction after a day or an hour, said without a pause, is read as
after a full stop).

Then, as the same rules widened: a message read as one ask whose words run on into its next
sentence ("…. And the same again the following week") is read sentence by sentence, a visit
just booked in view for the next; now 45/47 sessions (69/71 turns).

The two left open were closed later (tests/e2e/test_leftopen4.py): "…. Do that to my other
appointment as well" after a move by a shift is that move made to the visit not named, and
"…. And the eye exam task the same day too" after a task's due day was set is that task
given the day; now 47/47.
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

LEFT_OPEN: Path = DATA / "conversations_leftopen3.jsonl"
KNOWN_OPEN: list[str] = []
# Played in two halves side by side (every other session), to keep each test short.
_HALVES = 2


@pytest.mark.parametrize("half", range(_HALVES))
async def test_the_third_cases_left_open_are_answered_as_asked(
    half: int, make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any, tmp_path: Path
) -> None:
    """Each case: what was said is done, nothing near is done instead."""
    cases = read_cases(LEFT_OPEN)
    assert len(cases) == 47
    mine = tmp_path / LEFT_OPEN.name
    mine.write_text("".join(json.dumps(case) + "\n" for case in cases[half::_HALVES]))
    _, failed = await score(make_assistant, crm_admin, mine, capsys)
    assert failed == [case["id"] for case in cases[half::_HALVES] if case["id"] in KNOWN_OPEN]
