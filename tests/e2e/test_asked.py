"""Questions about the customer's own data, answered with the fact asked for.

Through the websocket and the real CRM stub.

tests/data/conversations_asked.jsonl (47 sessions, 63 turns) asks Maria (cust_001, the
pinned Monday 2030-01-14 noon in Los Angeles) about what the seed holds: her cleaning on
Wednesday at 10, the haircut on Sunday at 2:30, the consultation cancelled on Friday, the
checkup had on December 15 and the haircut on November 15; the open $150 cleaning invoice
(due February 3) and the paid $95 checkup and $45 haircut ones; her tasks, case, email and
phone. One fact asked ("what time is the haircut?", "is my haircut paid?", "which is
earlier, the haircut or the cleaning?", "am I free thursday afternoon?", "when was I last
in?"), two joined ("what time is the cleaning and where is it?", "when did I last get a
haircut and how much was it?"), yes or no ("is my cleaning still on?", "did you cancel
it?" after a cancel), a thing there is none of ("when is my pedicure?": none, and never
another visit's day), and questions after writes of the same session, whose answers must
show them. Each turn's words must hold the fact (`has`) and not what would mislead
(`not`: another item's day or amount, a listing), and every turn checks the CRM: a
question writes nothing.

FIRST RUN, on the code as it was (37 sessions then, 49 turns): 26/37 sessions (38/49
turns). Reading every answer showed two the checks let through, tightened before any fix:
"how much was my last invoice?" was answered with the balance (the same $150 by chance),
and "which is earlier…" with a listing of both. That gave 24/37 (36/49).

WRONG ANSWERS in that run:
- "is my consultation on friday still on?" was told "I don't see a consultation on your
  account" (it is there, cancelled), and "when's my next checkup?" "I don't see an annual
  checkup on your account" (she had one on December 15): only what is coming up was read.
- "is my haircut paid?" was answered with the dental cleaning's open $150 (another item's
  amount, and no word of the haircut).
- "when did I last get a haircut and how much was it?" (the complaint's own question)
  read out every visit and invoice, starting with the checkup, and "Cancelled: a
  consultation…" as if just done.
Dumps that buried the fact: "what time is the cleaning and where is it?" listed both
visits and no place; "which is earlier, …" listed both and said neither; "did I finish
the call the pharmacy task?" read the pending list; "is my cleaning still on?" gave its day
and no yes; "what time is my massage?", "when is my pedicure?" said none, then both
visits' days. Refusals: "when was I last in?" and "did you cancel it?" (after the cancel)
met "I can't help with that".

Fixed (general rules, models/embedded/questions.py, question_words.py, yes_no.py,
answers.py): a visit asked about with none of it coming up is looked for in the past
(a second read) before "none", and "none" names what is coming up by service only; "is X
still on?" is yes or no, read from the past too when it is not coming up; "which is
earlier/later, X or Y" says which; "when was I last in" is the last visit alone; "how much
was my last invoice" is the one issued last; "is my haircut paid" is that invoice; "did I
finish the X task" is that task; "did you cancel it?" is what became of the visit in focus;
two questions joined by "and" are each answered, the second of the first's visit when it
says "it" (one answer where one says both: the time is said with the place). Now 37/37.

Ten sessions (ids as-b-, 14 turns) were then written after those fixes and not tuned on.
FIRST RUN: 6/10 sessions (10/14 turns). One check was unfair and corrected: "when was my
checkup and what did it cost?" barred "wednesday" (meant as the cleaning's day), but the
checkup's invoice was issued on Wednesday, December 5, said truly. WRONG ANSWER: "is the
eye exam task still on my list?" after deleting it was answered about an eye exam VISIT
("I don't see an eye exam on your account"), not the task. Dumps and thin answers: "my
haircut isn't cancelled is it?" listed both visits; "did that go through?" after a move said
"moved" and not where to. Fixed: "is the X task still on my list?" is about that task
(yes, done, or none such); "my X isn't cancelled, is it?" is what became of it; a change
said to have gone through is said with the time it went to (write_memory keeps it). And
"could you go through my tasks with me" (a kept phrasing) was answered "Yes, that went
through…": "go through my/all/…" now reads them out. Now 47/47.

Kept phrasings decide the same (`bench.decisions --dump` before and after) but for: "is my
dental cleaning still on?" (now "Yes, your dental cleaning … is still on."), the answers to
a visit with none booked ("when was my last checkup", "what happened to my eye exam?": the
other visits by service, not their days; "wheres my physio on the 4th": the past is read
before "none"), and "could you possibly go through my tasks with me" (the tasks read out).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

ASKED: Path = DATA / "conversations_asked.jsonl"

KNOWN_OPEN: list[str] = []


async def test_questions_are_answered_with_what_was_asked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: the fact asked is said, nothing misleading, nothing written."""
    assert len(read_cases(ASKED)) == 47
    _, failed = await score(make_assistant, crm_admin, ASKED, capsys)
    assert failed == KNOWN_OPEN
