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
would ("when would you like" added to its fair words).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

LEFT_OPEN: Path = DATA / "conversations_leftopen3.jsonl"
# Each does less than asked and says so; none writes what was not asked.
KNOWN_OPEN: list[str] = [
    # "…. Do that to my other appointment as well": the haircut is not moved ("I didn't catch…")
    "lo3a-half-hour-earlier-other-one-too",
    # "…. The remaining two as well please": only the one named ("I didn't catch…")
    "lo3a-insurance-done-remaining-two",
    # "…. Both of the others too": only the one named ("I didn't catch…")
    "lo3a-eye-exam-done-both-others",
    # "no actually, move it to saturday at the same time" (a cancel waiting): not moved
    "lo3a-cancel-then-move-and-add",
    # "the landlord one. And the plants one sunday" (to "which task?"): refused
    "lo3a-which-landlord-and-plants",
    # "the vet one, and the ink one on wednesday" (to "which task?"): refused
    "lo3a-which-vet-and-ink",
    # "…. And the eye exam task the same day too": the tasks are listed, not moved
    "lo3a-haircut-day-for-two-tasks",
    # "…. And the same again the following week": one booked ("I didn't catch…")
    "lo3a-consult-and-same-again-next-week",
]


async def test_the_third_cases_left_open_are_answered_as_asked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Each case: what was said is done, nothing near is done instead."""
    assert len(read_cases(LEFT_OPEN)) == 34
    _, failed = await score(make_assistant, crm_admin, LEFT_OPEN, capsys)
    assert failed == KNOWN_OPEN
