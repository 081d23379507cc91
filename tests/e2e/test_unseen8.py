"""Conversations nobody tuned for: an eighth set, written before the language rules were read.

Through the websocket and the real CRM stub.

tests/data/conversations_unseen8.jsonl (33 sessions, 72 turns as first written), leaning
on what the earlier sets said less: threads of 3–4 turns (a list read out and its items
then named by position, "the second one", "the last one", or by detail, "the one with no
date", "the high priority one"; "the other one", "that one", "both of them"; a change of
mind two turns later, "actually, leave the haircut where it was"); several things pending
at once (a delete awaiting a yes and then a question, "yes to the first, no to the
second", "no wait, just the task", a yes said twice, a yes after the subject changed);
times said loosely ("in two hours", "end of the month", "sometime next week, whatever's
free", "the day after tomorrow in the evening", "same time next week", "the first monday
of next month", "by the end of the year", "the last day of the month"); voice transcripts
("uh can you can you move my my cleaning … a quarter past ten", "three thirty", "half
nine", "the twenty seventh at two"); and customers who are cross or terse ("ugh … just
cancel it", "nah", "yep go ahead but make it 4", "the usual", "same as before").
Each turn carries the whole CRM it must hold: both seeded visits and how many of each
service are booked, the four tasks, the tickets, phone and email.

FIRST RUN, on the code as it was: 22/33 sessions (60/72 turns), with 1 WRONG WRITE: "add
a task to renew my passport by the end of the year" added a task titled "Renew my
passport by the end of the year", with no due date (the date left in the title, lost
from the task). Reading every answer then showed a wrong word the checks let through,
and one check that was unfair: "book me the usual" answered "Sorry, a the usual isn't one
of the services offered here, so I haven't booked anything" (the check `not "booked"`
matched "haven't booked", unfair; now it is `not "a the usual"` and `not "you're
booked"`); "…add a task call the vet tomorrow and and also what time is my dentist thing"
read out both visits, the haircut too (tightened: not "haircut"). After that: 21/33
sessions (59/72 turns).

Misses in that first run: "yes to the first, no to the second" and "no wait, just the
task" to a cancel and a delete asked about together did neither ("I didn't cancel … or
delete …"); "yes delete it" after a question had dropped the pending delete asked again
(while "ok yes go ahead and delete it" in the same place deleted); "the one with no date,
give it the 25th", "actually leave groceries where it was" (two turns after it was
moved), "keep it, what's the address there" and "and same as before for the week after"
met "Sorry, I can't help with that"; "six o'clock" to "what time on Wednesday evening?"
was not caught; "book me another one same time next week" after the haircut's time was
said asked when.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN8: Path = DATA / "conversations_unseen8.jsonl"

KNOWN_OPEN: list[str] = []


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the eighth unseen set passes: nothing is written unasked or wrong."""
    assert len(read_cases(UNSEEN8)) == 33
    _, failed = await score(make_assistant, crm_admin, UNSEEN8, capsys)
    assert failed == KNOWN_OPEN
