"""A customer who says they paid and asks whether it arrived, in their own words
(tests/data/conversations_paid.jsonl): the answer reads the bills, never the to-dos.

Found by probing: "I paid the 150 yesterday, can you check" answered "I couldn't find a
task matching "pay" … I couldn't find a task matching "check"". The twelve first sessions
were written before the rules were read. FIRST RUN: 4 of 12 sessions (5/13 turns). TOLD
THE OPPOSITE: "it's definitely paid, can you have someone look into it" (after the charge
was explained) opened the case, and said "I don't see any open charges on your account
right now. … Would you like me to open a support case?" (the complaint's answer was made
in a round where no bill was read). Wrong words: "did my payment from monday show up, and
when's my haircut" said "You have nothing booked on Monday, January 21" (the day of the
payment taken for the visits'). Misses: a payment told with an amount or "money",
"online", "for the cleaning" was a to-do "pay the 150" looked for; "can you check" after
it a second to-do "check"; "has my bank transfer cleared yet" not understood; "what's
left" after a payment read the to-dos.

Fixed as rules: money told paid or sent is a question for the bills
(language/bill_told_paid.py `_MONEY_TOLD`, lookups.py); "can you check / could you
confirm …" names no target and joins no title (clause.py `asks_to_look`); "what's left"
beside a payment is the bill's (intents.py `_WHATS_LEFT`); an answer is made only from a
listing read this turn (models/embedded/questions.py `_LISTING_READ`); with other asks
beside it, a listing's day is the one said in the visits' own words
(models/embedded/appointments.py `_day_asked`, which also passes unseen15's "before I
come in Wednesday, run me through everything"). `bench.decisions --dump`: no decision
changed. Five written after the fixes (pd-b-), first run 4 of 5: "I sent the 150 by post
on thursday, did you get it? and …" read only the visit (money "sent", asked after with a
question, was no to-do and no read): fixed in lookups.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

PAID: Path = DATA / "conversations_paid.jsonl"


async def test_a_payment_said_is_checked_against_the_bills(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session reads the bills and says what is still owed; nothing is written
    but what was asked."""
    assert len(read_cases(PAID)) == 17
    share, failed = await score(make_assistant, crm_admin, PAID, capsys)
    assert share == 1.0, failed
