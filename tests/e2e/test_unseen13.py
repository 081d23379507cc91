"""Conversations nobody tuned for: a thirteenth set, about money, support cases and contact
details.

Through the websocket and the real CRM stub.

tests/data/conversations_unseen13.jsonl (35 sessions, 118 turns, 2-7 turns each) was
written from crm_stub/seed.py (Maria's one open $150 cleaning invoice, her two paid ones,
her open case about her last invoice, her phone and email) before the rules were read. It
has disputes that must open one case with the customer's words, never two and never one
unasked ("I think I was overcharged" → offered → "yes please"; "and add that it was for the
dental cleaning" → the same case, or said plainly it can't); questions about a case already
open ("any news on my ticket?"), asking for it to be closed or changed, a second complaint
in the same conversation; bills (what is owed, what a charge was for, paying, "I already
paid that", a refund); contact changes said across turns (a number in two parts, one digit
corrected, "use my work email for invoices but keep my personal one", an address spelled
letter by letter) and someone else's detail. Every turn checks the CRM: the cases opened
(how many, and their words as sent), the phone and email on file, and every invoice's
status and amount (conversations.py gained the "ticket_like" and "invoices" checks).

FIRST RUN, on the code as it was (29 sessions then): 11/29 sessions (67/97 turns). (A run
before it read a case's words from the CRM's list, which has no body; the check was made to
read the words the call sent.) Reading every answer showed wrong words the checks let
through, so they were tightened before any fix: "and add that it was for the dental
cleaning" must speak of the case (it read out the visits), "did anyone look at my invoice
question?" of a case (it read the balance), "that's wrong, I was told the cleaning would be
covered by my insurance" of a case or the billing team (it read the visits), "ugh, the
haircut place was so loud last time" must not say "didn't catch", "will I be charged for
it?" must speak of a bill. One check was unfair and was corrected: "I can only change your
own phone number and email" answers "change my husband's phone number" (the check wanted
"can't"). That gave 9/29 (63/97).

WRONG WRITES in that run:
- "and was my haircut bill paid?", said to "What's the problem you'd like me to report?"
  (after "yes open a case about it" with no case offered), OPENED A CASE titled "It and was
  my haircut bill paid".
- "yes, open a case about it", after "that's wrong, I was told the cleaning would be
  covered by my insurance", opened a case whose words were "Yes".
- "my new email is maria, m-a-r-i-a, underscore garcia at outlook dot com" asked to change
  the email to garcia@outlook.com, and "yes that's right" WROTE it.
And held for a yes, not written: "use my work email … for invoices but keep my personal
one" and "ok. and my email is still maria.garcia@example.com right?" each asked to change
the email. Found while fixing: "whatever, fine. when's it due?" after a case was offered
OPENED IT.

Misses: "and another one, the dental office billed me twice" after a case was opened, and
"I have another complaint, the eye doctor's office never called me back" offered or read
out the cases instead of opening one; "can you change my open ticket to say it's urgent?"
looked for a task; "sorry, the last digit is 3 not 2" let the held change go; "thanks. is
it still open?" and "did you open it?" after a case met "You're welcome" and "I can't help
with that"; "was I charged 150 for a cleaning? that seems like a lot" and "…will I be
charged for it?" read the visits; "and anything still open?" and "fine. what else is open
for me?" met "I can't help with that"; "is that overdue?" after the bills read the tasks.

Fixed (general rules, see CHANGELOG): "yes, open a case about it" takes the words said
before (models/embedded/cases.py); a question of the customer's own, said when a case's or
a task's words are asked, is answered and is never their words (followup.py); a word spelled
with dashes after it is said once, and a pause before "underscore" is none
(language/spoken.py); "… still X, right?" after an ok checks what is on file
(said_before.py); "whatever, fine. <question>" is no yes to an offered case; "I have
another complaint, X" and "and another one, X" after a case open a case about X, and "open
a case: X. And another one, Y" opens both; a change to a case (change, mark, update it) and
more words for one just opened are said plainly not to be done here, as is a second email
"for invoices" (models/embedded/limits.py); "the last digit is 3" puts right the held
number; "is it still open?", "did you open it?" after a case say its status
(questions.py); "was I / will I be charged" reads the bills (language/lookups.py); "did
anyone look at my invoice question?" reads the cases; being told I was told it would be
covered, or that it "seems like a lot", offers a case; a visit "so loud", "dirty" is heard
as a complaint; "anything still open?" reads the kind in view again (topic.py); "is that
overdue?" after the bills says when they are due. Kept phrasings decide the same
(`bench.decisions --dump` before and after: no decision changed).

Six sessions (ids u13b-, 21 turns) were then written after those fixes and not tuned on.
FIRST RUN: 4/6 sessions (19/21 turns), no wrong write. Misses: "how do I pay the dental
bill?" got the how-to help; "what about mine, what is it?" after being told a wife's email
is not changed met "I can't help with that". Both fixed: a how-to about paying says no
payment is taken here; "what about mine?" after an answer about a phone or an email reads
the profile. Now 30/35 sessions (111/118 turns); KNOWN_OPEN says what is left (no write
wrong: what is left writes nothing or asks again).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN13: Path = DATA / "conversations_unseen13.jsonl"

KNOWN_OPEN: list[str] = [
    # "and the 95 one?" after the open bill was told: a bill named only by its amount is
    # not read ("I can't help with that"); nothing is written
    "u13-what-was-the-charge-for",
    # "how much was that bill again?" after a refund was asked for the checkup: the balance
    # ($150, the cleaning) is read, not the checkup's $95 bill; nothing is written
    "u13-refund-asked-then-case",
    # ("it's 415 555" then "0199", u13-phone-in-two-parts, passes now: a number begun in one
    # reply and ended in the next is joined, read back before a yes; values26)
    # "ok, then just change it to the work one" two turns after the work email was said:
    # the address is not found again ("I can't help with that"); nothing is written
    "u13-work-email-for-invoices-keep-personal",
    # "what's it about again?" after being told the case can't be changed: "it" is not read
    # as the open case ("I can't help with that"); "then open a new case saying …" opens one
    "u13-change-my-ticket-to-urgent",
]


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the thirteenth unseen set passes: no case, detail or bill is
    written unasked or wrong."""
    assert len(read_cases(UNSEEN13)) == 35
    _, failed = await score(make_assistant, crm_admin, UNSEEN13, capsys)
    assert failed == KNOWN_OPEN
