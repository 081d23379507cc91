"""Conversations nobody tuned for: a fifteenth set, calls about the account and support cases.

Through the websocket and the real CRM stub.

tests/data/conversations_unseen15.jsonl (27 sessions, 89 turns, 3-5 turns each) was written
from crm_stub/seed.py (Maria's cleaning on Wednesday at 10, her haircut on Sunday at 2:30,
her $150 open bill and two paid ones, her open invoice case and closed portal case, her
three pending tasks, her phone and email) before the rules were read, each session one
caller with a goal about the account and the cases as much as the visits: a charge disputed
that becomes a case, a part payment and what is left, a case to close or chase, phone and
email changed while booking, numbers read aloud in groups and put right, a refund, a
payment and another person's account asked for beside what can be done, a bad line, asks
needing two to four lookups at once, a cancel and a delete that wait for their yes. Every
turn checks every service's visits ahead and their times, every task's status, day and
priority, and the tasks added and their words; the cases opened and their words on every
turn of a call that talks of cases, the phone and email on every turn of a call that talks
of them, every invoice on every turn of a call about bills, and all of it on a call's last
turn (every turn's exact list of writes catches a write of any kind the turn it is made; no
tool changes a bill), so a write not asked for, a wrong date, a lost or doubled change
fails. The file plays in less CPU than the fourteenth set's.

FIRST RUN, on the code as it was (the first 21 sessions, 70 turns): 7/21 sessions (47/70
turns). Reading every answer, four checks were tightened before any fix, giving 5/21
(42/70): "Please open a case about it so someone in billing looks at it" opened a case
titled "It so someone in billing looks at it" (the check took "billing" for "bill"); "I
sent fifty dollars toward my bill … how much do I still owe?" also said "I couldn't find a
task matching 'send dollars toward bill' … Which one did you mean?"; "no wait, don't. keep
it." to the cancel held for a yes said it was not cancelled, then read out the tasks and
asked "Which one should I cancel?"; "My bill says one hundred fifty dollars and zero cents"
said "I didn't catch what you meant by 'zero cents'".

WRONG WRITES in that run:
- "Can you move mine to the same time on Thursday?" (after "OK, what about mine then?" met
  "I can't help with that") MOVED THE HAIRCUT to Thursday at 2:30: "mine" was matched, one
  letter off, to "Nine" of the haircut's place (Studio Nine).
- The case opened for "Please open a case about it so someone in billing looks at it" said
  nothing of the charge it was about (its words were "It so someone in billing looks at it").

Wrong words: "what time is the new haircut again", just after one was booked for Saturday the
26th at 10, told the other haircut's time (Sunday at 2:30); "so what's due and when?" after
two to-dos were changed read out the bill; "I paid seventy-five on the cleaning bill
yesterday, so there's half left, right?" looked for a to-do "pay seventy-five cleaning bill"
and asked which; "I'm calling for my mother, Rosa Garcia, she wants to know what she owes"
met "I can't help with that".

Misses: "OK, what about mine then?" after another's account met "I can't help with that";
"It's 415... 555... oh one four two" (and "415, 555, 0142") asked for the whole number;
"sorry, not four four one nine, four four one eight" let the change held for a yes go ("I
didn't change your phone number to 650-223-4419"), and "yep that's the one" found nothing
waiting; "I want to file a complaint. The front desk was really rude to me at my last
haircut." asked what happened; "That's not right, it should only be a hundred now" after the
bill was told, and "when did I open that?" after the cases were, met "I can't help with
that"; "the haircut on sunday... move it... move it to saturday" asked which visit and when;
"Before I come in Wednesday, run me through everything: my appointments, …" told only
Wednesday's visit; "and the checkup one, ninety-five dollars, that's all paid?" told the open
bill, not the paid one; "I still can't log into the portal. Did anyone ever deal with the
ticket I put in about that?" told the open cases only (the portal case is closed).

Fixed (general rules, see CHANGELOG): "mine" names no item (language/targets.py); "what
about mine?" after being told only her own account is seen reads her own of what was asked
(planner.py); "I'm calling for my mother … what she owes", "my sister has a ticket open …
check it for her" are another's account (language/others.py); "… a case about it so someone
in billing looks at it" is about what was said before (cases.py); "I want to file a
complaint. <what happened>" opens the case with what happened (cases.py); an amount paid
toward a bill is told of the bill, never a to-do done (language/bill_told_paid.py); "that's
not right, it should only be a hundred" of the bill in view, "how come I'm being billed …",
"… was supposed to cover it" dispute the charge (questions.py, question_words.py); "what time
is the new haircut?" tells the visit just booked (last_write.py); "what's due and when?" with
a to-do in view reads the to-dos, each with its day (topic.py, tasks.py); "when did I open
that?" of a case in view reads the cases (topic.py); a number said in groups of digits and
digit words is one number (language/spoken.py); "not 4419, 4418" puts that group of the
number held for a yes right (said_before.py); a no made only of the words of a no ("no wait,
don't. keep it.") is a no however long (confirmation.py); "log a ticket, say …" keeps the
say out of the case (account_rules.py). Kept phrasings decide the same (`bench.decisions
--dump` before and after: no decision changed). 17/21 sessions (64/70 turns).

Six sessions (ids u15b-, 19 turns) were then written after those fixes and not tuned on.
FIRST RUN: 4/6 sessions (17/19 turns); reading every answer, two checks were tightened
before any fix, giving 3/6 (15/19): "my sister Ana has a ticket open with you too, can you
check it for her?" read out Maria's own open case as the answer; "and add... add pick up
dry cleaning for thursday" added the to-do and said "I didn't catch what you meant by
'add'". No wrong write. Misses: "how come I'm being billed 150 bucks? My insurance was
supposed to cover the cleaning." read out the visits; "did the insurance one get ticked
off?" read out the pending to-dos without saying. Fixed: the sister's account and "how come
I'm being billed" (above). Now 22/27 sessions (81/89 turns); KNOWN_OPEN says what is left
(no write wrong: what is left writes nothing or asks). Later 23/27: "Before I come in
Wednesday, run me through everything: my appointments, …" read the visits of Wednesday
only; with other asks beside it, a listing's day is the one said in the visits' own words
(models/embedded/appointments.py `_day_asked`, found with tests/e2e/test_paid.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN15: Path = DATA / "conversations_unseen15.jsonl"

KNOWN_OPEN: list[str] = [
    # "I still can't log into the portal. Did anyone ever deal with the ticket I put in about
    # that?": the open cases are read, and the closed portal case is not told; nothing is
    # written
    "u15-portal-case-chased-and-email",
    # "the haircut on sunday... move it... move it to saturday": the half-sentences said again
    # are read as a visit not found, and which visit and when are asked; the move is made
    # when "saturday... same time" answers; nothing is written wrong
    "u15-bad-line-haircut",
    # "… one hundred fifty dollars and zero cents", "the checkup one, ninety-five dollars,
    # that's all paid?": an amount said aloud is not read as a bill's, and a paid bill asked
    # of by its amount is not told; reads only
    "u15-amounts-read-aloud",
    # "did the insurance one get ticked off?" reads out the pending to-dos without saying it
    # was; "add... add pick up dry cleaning" adds it and says "I didn't catch … 'add'"
    "u15b-bad-line-insurance-done-and-dry-cleaning",
]


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the fifteenth unseen set passes: nothing is written unasked, on a
    wrong day, lost or doubled."""
    assert len(read_cases(UNSEEN15)) == 27
    _, failed = await score(make_assistant, crm_admin, UNSEEN15, capsys)
    assert failed == KNOWN_OPEN
