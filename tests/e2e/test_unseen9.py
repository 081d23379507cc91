"""Conversations nobody tuned for: a ninth set, written before the language rules were read.

Through the websocket and the real CRM stub.

tests/data/conversations_unseen9.jsonl (33 sessions, 83 turns as first written), leaning
on what the earlier sets said less: several asks in one message, each with its own object
and change ("cancel the haircut, move the cleaning to friday and tell me what I owe"),
and asks that refer to each other ("an eye exam the day after my cleaning", "the haircut
to the same day as the eye exam, an hour later", "a task … due the same day as the car
insurance"); a thing just made, then named ("add a task to call the bank" then "make it
high priority", "actually it's due friday", "delete that"; "open a case about my bill"
then "what's its number?", "add a note to it"); questions about the past and about this
conversation ("what did I have last month?", "did that go through?", "what have you
changed so far?"); the customer's own details changed, read back and changed again, the
old value said by mistake; asks to refuse or ask about (a facial, not offered; a task for
an assistant; "the 31st of february"; "last friday"; a new postal address; paying now) and
push back ("no, I said thursday"); voice transcripts and terse, cross customers. Each
turn carries the CRM it must hold: both seeded visits and how many of each service are
booked, the four tasks and any new one (and how many new tasks in all); the tickets,
phone and email on the turns that touch them and after each session's last turn.

FIRST RUN, on the code as it was: 20/33 sessions (62/83 turns), with 4 WRONG WRITES:
"can I book a facial for thursday at 2" booked a Facial (not a service offered here);
"hmm, change maria.garcia@example.com to maria.g@proton.me instead" (the email on file
was by then maria.g@gmail.com) asked "change your email to maria.garcia@example.com?" and
"yep" wrote the old address back, the new one lost; "add a task to renew my passport,
due the same day as the car insurance" added "Renew my passport, due the same day as the
car insurance" with no due date; "book me another haircut for saturday at that same
time", after "when was my last haircut?" (November 15, at 11), booked Saturday at 2:30 PM,
the hour of the haircut ahead.
Reading every answer then showed wrong words the checks let through (tightened before
any fix): "book an eye exam the day after my cleaning, 3pm if you can" booked 3 PM and
then said "I didn't catch what you meant by '3pm', so I haven't done anything about it";
booking an eye exam and moving the cleaning in one message read out "You have two
upcoming appointments" twice, the second time after the third was booked; "open a case
about my bill please, …" opened "My bill please, I think …"; "add a note to it" (the
case) answered "I can't add notes to a booking"; "give my assistant jenna a task …" read
the task list out and said nothing of Jenna; "what time is the cleaning again?" after
the haircut was moved to the day before it said "You have one more after it" (there was
none); "what do I owe and can I pay it now?" said the balance and nothing of paying. One
check was unfair: "book a haircut for last friday at 10" answered "That time has already
passed. When would you like it instead?" (the check wanted "haircut"; now "passed").
After that: 17/33 sessions (56/83 turns).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN9: Path = DATA / "conversations_unseen9.jsonl"

KNOWN_OPEN: list[str] = [
    "u9-eye-exam-day-after-cleaning-then-haircut-same-day",
    "u9-eye-exam-same-day-as-haircut-and-cleaning-back-a-week",
    "u9-case-about-bill-then-number-then-note",
    "u9-last-month-then-last-haircut-then-another",
    "u9-phone-changed-read-back-changed-again",
    "u9-email-old-value-said-by-mistake",
    "u9-facial-not-offered-then-what-then-pt",
    "u9-task-for-assistant-jenna",
    "u9-terse-cleaning-thursday-haircut-cancel",
    "u9-haircut-day-before-cleaning-then-time",
    "u9-cancel-cleaning-went-through-whats-left",
    "u9-passport-same-day-as-car-insurance",
    "u9-what-changed-so-far",
    "u9-half-past-two-then-haircut-straight-after",
    "u9-owe-and-pay-now",
    "u9-cancelled-consultation-rebook",
]


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the ninth unseen set passes: nothing is written unasked or wrong."""
    assert len(read_cases(UNSEEN9)) == 33
    _, failed = await score(make_assistant, crm_admin, UNSEEN9, capsys)
    assert failed == KNOWN_OPEN
