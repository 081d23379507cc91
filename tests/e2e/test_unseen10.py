"""Conversations nobody tuned for: a tenth set, written before the language rules were read.

Through the websocket and the real CRM stub.

tests/data/conversations_unseen10.jsonl (45 sessions, 100 turns), leaning on what the
earlier sets said less: windows and vague times ("sometime next week in the morning",
"after lunch on friday", "any day but tuesday", "the earliest you have", "first thing
tomorrow", "the end of the month, the last day"), a booking whose time is asked and given
turns later, with a pause between ("hang on, let me check my calendar"); a change said
turns later about something earlier ("wait, the task I added before should be due
tuesday, not monday", "the rent one should be due on the 1st", "the second one you
listed"); conditions and partial yeses ("yes but only the first one", "do the cancel but
not the delete", "only if it's free", "if my cleaning is in the morning, move it to 2pm");
polite, rambling and non-native asks and a chat widget's typos ("cancle my apointment for
tommorow", "appointment for cut hair next friday 5 o clock afternoon"), chit-chat around
them; reads mixed with writes ("what do I owe, and pay... no, just tell me", "so what's on
friday now?"); and asks to refuse or ask about (a husband's haircut, another customer's
task, a husband's phone, "february 30th", 10am today at noon, a refund) with pushback ("come
on, he's my husband", "no I mean it, just put it in"). Every turn checks the CRM it must
hold: both seeded visits and how many of each service are booked, the four tasks, how many
new ones and their days; the tickets, phone and email after the turns that write or may
ask to write them and after each session's last turn (any other turn that wrote one would
fail its exact `writes`).

FIRST RUN, on the code as it was: 21/35 sessions (61/80 turns), with 6 WRONG WRITES. "what
day of the week is that?" (asked after "can I book a consultation for the end of the month,
the last day, 11am" was answered "When would you like your consultation?") BOOKED a
consultation tomorrow at 11 AM; "no I mean it, just put it in" (after "book me a haircut
today at 10am" was told that time had passed) BOOKED a haircut tomorrow at 10 AM: a reply
with no time of its own was filled with the hour said before and no day. "wait, the rent
one should be due on the 1st, not the end of the month" moved "Book the vet" (the task
added last) to February 1, and "wait, the task I added before should be due tuesday, not
monday" moved the dry-cleaning task (added last), not "Call the insurance company". Two
tasks were added with garbled titles: "also add pick up the dry cleaning, no rush on that
one" added "Pick up the dry cleaning on that cleaning" ("that one" was read as the dental
cleaning), "add a reminder to floss lol" added "Floss lol". Reading every answer showed
wrong words the checks let through (tightened before any fix: the titles' words, "didn't
catch", "your haircut is"; 20/35 sessions, 59/80 turns with them): "what do I owe, and
pay... no, just tell me" told the balance and then "I didn't catch what you meant by 'tell
me'"; "can you tell me when my husband james smith's haircut is?" told the customer's own
haircut as if it were his. One check was
unfair and corrected: after "if my cleaning is in the morning, move it to 2pm the same day"
moved it, "yes please" was told it had gone through without the hour said (the check
wanted "2"; the move had been told in full the turn before).

Misses in that run: "what's the earliest you have for a consultation?" read the visits
out; "hmm hang on let me check my calendar" (while a time was asked) read the visits out,
and then "ok 4:15 works" was not understood; the last day of the month was no day for a
booking; "do the cancel but not the delete" asked about the cancel again; "if my cleaning
is in the morning, move it to 2pm" asked "would you like me to move it?" and then which;
"cut hair" was no service and "where is the place please?" no question; "then open a
complaint about it" (after a refund was refused) asked what the problem was; the pushbacks
("come on, he's my husband, he asked me to check", "it's on his account, he's my son. just
do it", "no, his. on his account") met "I can't help with that".

Fixed (general rules, see CHANGELOG). Wrong writes: a reply to a question about a time that
says no day, hour or half of the day and is no yes fills nothing (models/embedded/
followup.py); a correction that names another task added in the conversation ("the rent
one", "the task I added before") changes that one, its day said and the one denied left
out (corrections.py); "that one" is never a chore's "cleaning" ("dry", "house" cleaning);
a laugh typed after a title is no part of it. Wrong words: "just tell me" asks nothing of
its own; another person's visits, bill or list asked about, and "he's my husband" or "it's
on his account" said after, are answered that only the customer's own account is seen and
changed (language/others.py, limits.py). Misses: the first free time asked for a service
offered is read as its booking, and asked when with "I can't see which times are free"
(language/earliest.py); "the last day of the month" (and "the end of the month, the last
day") is one day, not a window; a pause while a time is asked keeps the question, and the
time said after it answers it; "do the X but not the Y" is a yes; a condition on the part
of the day names the visit ("if my cleaning is in the morning, move it…"); "cut hair" is a
haircut; "where is the place?" asks where the visit in view is; a case "about it" is about
what the customer said just before. Kept phrasings read the same: `bench.decisions --dump`
before and after, no decision changed. Now 35/35 (80/80 turns).

Ten sessions (ids u10b-, 20 turns) were then written after those fixes and not tuned on.
FIRST RUN: 7/10 sessions (17/20 turns), no wrong write. Misses: "and buy a birthday card"
just after a task was added was not understood, and "the bank one should be thursday, not
tomorrow" met "I can't help with that"; "move the cleaning to friday at 11 and what's the
address there?" moved it and left the address unsaid. Fixed: an errand said with "and"
just after a task was added, that nothing else reads, is a task of its own; "the X one
should be <day>" sets that task's due day (never a visit's words); a move asked with where
tells the place. Now 45/45 (100/100 turns). Played with two turns said as one message
(tests/e2e/test_said_at_once.py), one WRONG WRITE showed: "add call the bank for tomorrow.
And buy a birthday card" added one task, "Call the bank and buy a birthday card", due
tomorrow; a sentence opening with "and" and an errand's verb after an ask to add a to-do,
that reads as no ask alone, is now a to-do of its own.

Adding this set moved the ways tests/e2e/test_said_otherwise.py deals to the sets after it:
"the one with no date give it the 25th" written with no pause then asked which task (the
described one, then "give it", is now read as with the pause).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN10: Path = DATA / "conversations_unseen10.jsonl"

KNOWN_OPEN: list[str] = []


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the tenth unseen set passes: nothing is written unasked or wrong."""
    assert len(read_cases(UNSEEN10)) == 45
    _, failed = await score(make_assistant, crm_admin, UNSEEN10, capsys)
    assert failed == KNOWN_OPEN
