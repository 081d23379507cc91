"""Whole conversations through the websocket, the real engine, the embedded models and the
real CRM stub, scored (tests/e2e/conversations.py says how a case is written and checked).

tests/data/conversations.jsonl: 125 sessions of 2 or 3 turns (262 turns) (follow-ups with pronouns,
corrections, changes of mind during a confirmation, qualified questions, complaints,
small talk, help, voice transcripts, typos, British wording), written before the
dialogue state was built. First run, on the code before it: 29/125 sessions = 23.2 %
(137/261 turns). It then guided the dialogue work (so it is a development set): 119/125
sessions = 95.2 % (254/261 turns) at the end; 121/125 (256/261 turns) after the work
the unseen set below guided. Still failing: pending-delete-then-read-then-yes expects a
question to keep a pending delete, which PROTOCOL.md says is dropped by any other message.

Every session is played at one pinned moment (tests/e2e/conversations.NOW), the CRM stub
and the engine sharing the clock, so that a score does not move with the weekday.
"""

from __future__ import annotations

from datetime import UTC
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from assistant.tools.catalog import load_catalog
from crm_stub.app import create_app
from tests.e2e.conversations import NOW, play_case, read_cases
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

DATA = Path(__file__).resolve().parents[1] / "data"
CATALOG = load_catalog(Path(__file__).resolve().parents[2] / "config" / "tools.yaml")
CONVERSATIONS = DATA / "conversations.jsonl"
HELDOUT = DATA / "conversations_heldout.jsonl"
UNSEEN = DATA / "conversations_unseen.jsonl"
# Pinned at the last measured score: a regression fails the build.
REQUIRED_SHARE = 121 / 125
# tests/data/conversations_heldout.jsonl (40 sessions, 84 turns) was written mid-way and
# first run once the dialogue work was done: 35/40 sessions = 87.5 % (79/84 turns); after
# fixing what it showed (a help wording, "was it paid", a named haircut among two asks,
# "can it be thursday instead" after "an appointment soon"): 40/40.
REQUIRED_HELDOUT_SHARE = 40 / 40


@pytest.fixture
def crm_app(crm_token: str) -> web.Application:
    """The CRM stub seeded for, and living at, the pinned moment the sessions are played at."""
    return create_app(token=crm_token, today=NOW.astimezone(UTC).date(), clock=lambda: NOW)


async def score(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    path: Path,
    capsys: Any,
    *,
    own_moments: bool = False,
) -> tuple[float, list[str]]:
    """The share of sessions of `path` passed in full, printed with what went wrong.
    `own_moments`: with the sessions that add rows of their own (`read_cases`)."""
    # One customer says all of it within minutes: the per-customer rate limit is not tested.
    assistant = await make_assistant(customer_messages_per_minute=100_000, clock=lambda: NOW)
    cases = read_cases(path, own_moments=own_moments)
    failed: list[str] = []
    turns = turns_failed = 0
    with capsys.disabled():
        for case in cases:
            verdict = await play_case(assistant, crm_admin, case, CATALOG)
            turns, turns_failed = turns + verdict.turns, turns_failed + verdict.turns_failed
            if not verdict.passed:
                failed.append(verdict.case_id)
                print(f"\n  failed {verdict.case_id}:")
                for problem in verdict.problems:
                    print(f"    {problem}")
        share = 1 - len(failed) / len(cases)
        print(
            f"\n{path.stem}: {len(cases) - len(failed)}/{len(cases)} sessions = {share:.1%}"
            f" ({turns - turns_failed}/{turns} turns)"
        )
    return share, failed


# tests/data/conversations_unseen.jsonl (43 sessions, 92 turns) was written from what
# customers say, without reading the language rules, and first run on the code as it was:
# 19/43 sessions = 44.2 % (59/92 turns). Two of its own checks were then corrected (a "not"
# that matched "I don't see a physical therapy on your account"; a support case offered
# before it is opened is fair): still 19/43 (61/92 turns). After fixing the causes it
# showed (general rules in assistant/language and models/embedded, see CHANGELOG): 43/43
# (92/92 turns). Like the held-out set, it is now a development set too.
REQUIRED_UNSEEN_SHARE = 43 / 43


UNSEEN2 = DATA / "conversations_unseen2.jsonl"
# tests/data/conversations_unseen2.jsonl (40 sessions, 85 turns), a second set written from
# what customers say without reading the language rules (corrections mid-sentence, vague
# times that must be asked about, replies during a pending confirmation, pronouns across
# turns), first run on the code as it was: 26/40 sessions = 65.0 % (65/85 turns).
# Two of its own checks were then corrected, before any rule changed: "When would you
# like to move it to?" asks for the time as well as "what time" does; and a consultation
# on Wednesday at 10:30 rightly meets an overlap question (the dental cleaning is then),
# so that case books Thursday. On the code as it was: 27/40 (66/85 turns).
# (u2-hang-on-during-cancel's "hang on" was pinned as letting the held cancel go; a pause
# now keeps a held change waiting for its yes, as "hmm, not sure" does, saying nothing was
# done, so that turn expects the cancel still asked about: tests/e2e/test_leftopen7.py.)
# The causes then fixed (general rules, see CHANGELOG): a corrected email blended into the
# one taken back; "at 10 no hang on 11", "the 20th actually the 22nd" kept the first;
# a move to "thursday afternoon" wrote 2 PM, and "friday at 7" 7 PM, without asking;
# a time given after "what time?" dropped the day said before it (a Wednesday booking
# landed on Tuesday); "don't cancel my haircut just move it…" was refused whole; "3
# oclock", "three thirty" were no time; "sorry not two thirty three thirty" was refused;
# "what's due tomorrow" read out the week; "when is the car insurance due", "is it still
# at the same place", "the wednesday one", "open another one", "ok leave it as it is"
# were refused; "dry cleaning" was a dental cleaning; a task added while the list was in
# view could not be named. Final: 40/40 (85/85 turns). Nothing still fails; being tuned
# on now, it is a development set too.
REQUIRED_UNSEEN2_SHARE = 40 / 40


UNSEEN3 = DATA / "conversations_unseen3.jsonl"
# tests/data/conversations_unseen3.jsonl (40 sessions, 107 turns), a third set written from
# what customers say without reading the language rules (billing, support cases, the
# profile, task priorities and due dates, third turns that refer back two turns, reads and
# writes in one message, a customer contradicting the assistant), first run on the code as
# it was: 15/40 sessions = 37.5 % (65/107 turns). One of its own checks was then corrected
# before any rule changed: "Okay, I'll leave your contact details as they are" does say
# that nothing was changed; and a phone number in one session, 415 555 0111, is another
# customer's in the seed (found after the first rule change; re-measured on the code as it
# was). On the code as it was: 17/40 (67/107 turns).
# The causes then fixed (general rules, see CHANGELOG). Wrong or unasked writes: "and what
# else is due this week" moved the task in view to Friday; "set groceries to low and car
# insurance to normal" set both low; "drop it to normal priority" was a delete; "it's not
# that urgent" was high priority; "never mind the second one, just the groceries" asked
# to delete the second listed task; "wait, what's the other appointment I have" turned a
# pending cancel onto it; "ok, can you at least update my mobile" opened the offered case;
# "remind me to pay it the day before" wrote a task titled "…the day before", undated.
# Misheard: "415 555 0123, sorry, 415 555 0132" blended into one number; "I already paid
# that", "I paid the dental bill this morning" completed a task or booked a visit; a
# number on another account was said to have "clashed with another change". Not
# understood: "do the same for the eye exam one", "when's the second one due", "and the
# first one?", "what priority is the eye exam one", "give it one for the 25th", "no it
# shouldn't be" (now asks normal or low), "when is the dental invoice due" (answered the
# visit), "that's not right, it was due end of january", the invoice "from december" and
# "the november one", "were both of them paid", "the one before that", "wen is it due",
# "mark it as paid", "reopen it", "add that to my case", a rude receptionist, "have any
# of my tickets been closed", "what's the status of it" after a case was opened.
# Final: 40/40 (107/107 turns). Nothing still fails; now tuned on, it is a development
# set too.
REQUIRED_UNSEEN3_SHARE = 40 / 40


UNSEEN4 = DATA / "conversations_unseen4.jsonl"
# tests/data/conversations_unseen4.jsonl (31 sessions, appointments only), a fourth set written
# from what customers say without reading the language rules (relative dates, shifts and named
# slots, one of two similar visits, overlaps, what is free or open, recurring asks, changes of
# mind, questions during a pending cancel, times in words, voice transcripts and typos), first
# run on the code as it was: 19/31 sessions = 61.3 % (47/65 turns). Three of its own checks
# were then corrected before any rule changed: "actually cancel the haircut" with two haircuts
# booked rightly asks which (the next turn names one); "tomorrow noonish" rightly asks the time
# (the next turn now answers it, "12 is fine"); a booking that overlaps another visit may ask
# before booking. On the code as it was: 20/31 (51/65 turns).
# The causes then fixed (general rules, see CHANGELOG). Wrong or unasked writes: "ten past
# nine" was read as 10:00 (minutes said before the hour now read as said: "twenty-five to
# four", "20 past 4"); "book me physio every monday at 8am" booked the first of a series
# (a repeating ask now asks which visit to book); "ok make it 2pm instead" while a booking
# was held for a yes booked it at 10:00 and moved the overlapped dental cleaning to 2pm
# (now the held booking at the new time; "instead" after an ok is not a yes); "book me in
# at 11am friday" booked a service called "Me" (now asks which service). Not understood:
# "12 is fine" after "what time?" (a bare hour answering a time question is the hour);
# "whats the address for that", "what day is that now" after a write (the one in focus);
# "can my haircut be half an hour earlier" (a move by a shift said without a moving verb);
# "what about wednesday" after "have i got anything booked tomorrow" (the same lookup for
# the other day; reads only). Final: 27/31 (60/65 turns).
# Then 28/31: a booking "tomorrow morning" asks the hour, as a move already did (the
# usual hour of a part of the day was a guess written to the CRM; the five phrasings that
# expected it now expect the question). Then 29/31: "how long will it take" after a
# booking tells its length (a question about the length of a visit was refused). Then
# 30/31: "same time yeah?" after a move says the time of the one moved. Then 31/31:
# "book me in at 11am friday then" after asking what is free for a haircut books the
# haircut (the service was asked again).
REQUIRED_UNSEEN4_SHARE = 31 / 31


LONG = DATA / "conversations_long.jsonl"
# tests/data/conversations_long.jsonl (25 sessions of 5 to 7 turns, 151 turns), a set of long
# conversations written from what customers say without reading the language rules: topic
# switches and returns ("ok back to the dentist thing, move it to 3"), references two to five
# turns back ("the first task you mentioned", "that other appointment", "the invoice from
# before"), fragments ("and the week after?", "and the other ones?"), changes of mind, a
# pending confirmation followed by a question and then "yes" (the question drops it, as
# PROTOCOL.md says), and seven sessions where "it" after two candidates must be asked about.
# First run on the code as it was: 4/25 sessions = 16.0 % (99/151 turns). One of its own
# checks was then corrected before any rule changed ("I didn't change your email to
# maria@garcia.dev" names the dropped address rightly): 4/25 (100/151 turns).
# The causes then fixed (general rules, see CHANGELOG). Wrong or unasked writes: "hmm,
# cancel the friday one" moved the haircut to 1 PM; "remind me to pay the bill the day
# before it's due" moved the visit in view; "make the task friday" after "dry cleaning",
# and "and the task, make it due wednesday", moved the dental cleaning; "and move the car
# insurance one to friday" after completing a task completed it; "move it to 11" and
# "make it due friday" after two bookings or two tasks changed the last; "push that to 11"
# after asking about the dental cleaning moved the haircut; "what's due soonest" then
# "mark that done" completed the task just kept; "ok. what email do you have" opened an
# offered case. Told wrong: "did the cancel go through" (the booking did), "has it been
# paid" (about a task). Lost threads: the reply to "which one?", the one named over the
# one in focus, questions that name nothing, the first task mentioned before another
# listing, "that other appointment", "the new one", "the week after", and more.
# Final: 24/25 (150/151 turns). Still failing: "and make the other one low priority" after
# "when are my groceries and car insurance tasks due" / "mark it as done" / "the
# groceries" (the other of the two named three turns back; the which-question offered all
# three tasks, so "the other" is not one). Now tuned on, it is a development set too.
REQUIRED_LONG_SHARE = 24 / 25


VOICE = DATA / "conversations_voice.jsonl"
# tests/data/conversations_voice.jsonl (45 sessions, 66 turns): what phone callers' words look
# like once a speech recogniser has written them down (lowercase, no punctuation, fillers,
# restarts, self-corrections, times, dates, digits and emails in words, homophones such as
# "two book", "to morrow", run-on asks joined by "and also", "oh and", confirmations by voice),
# written without reading the language rules, and first run on the code as it was: 35/45
# sessions = 77.8 % (52/66 turns). Two kinds of its own checks were then corrected before any
# rule changed: new tasks are checked by their whole title ("Uh to call the bank", "Buy flowers
# and oh" had passed a check by words), and "a consultation on friday afternoon" may be booked
# at the house's afternoon hour as well as asked about (phrasings.jsonl pins the first). On the
# code as it was: 32/45 (50/66 turns).
# The causes then fixed (one normalising step at the front of the reading,
# assistant/language/transcript.py, and general rules, see CHANGELOG). Wrong writes: "for the
# twenty second at eleven", "tuesday the twenty second" booked tomorrow; "remind me to call
# my mom to morrow" wrote an undated task "...to morrow"; "add a reminder uh to call the bank",
# "...buy flowers and oh and what do i owe", "...by the end of the month" wrote titles with
# "Uh", "and oh", "by the" in them. Misheard: "...zero one four four no wait zero one four
# seven" lost the number; "cancel my haircut oh wait no actually don't" asked to confirm the
# cancel. Not understood: "uh huh"; "i uh i bought the groceries"; "perfect and where is that
# again"; "the dentist was like really late last time you know". Final: 44/45 (65/66 turns).
# The one left failing: "uh three o clock" right after a consultation was booked at the
# house's afternoon hour was refused; it is now asked about ("Should I move your
# consultation on Friday, January 18 to 3:00 PM?", moved on a yes: tests/e2e/
# test_bare_time.py), the set expecting the move at once (a move on a time said alone would
# be a more eager write than the house makes, so the check was left as written). Since
# "a consultation on friday afternoon" asks the time instead of booking 2 PM (merged from
# main), the time said next books it: 45/45 (66/66 turns).
REQUIRED_VOICE_SHARE = 45 / 45


# Each set, its pinned share, and the fewest sessions it may have (a set cut short by
# accident must not pass by scoring fewer cases).
SCORED_SETS = [
    (CONVERSATIONS, REQUIRED_SHARE, 100),
    (HELDOUT, REQUIRED_HELDOUT_SHARE, 40),
    (UNSEEN, REQUIRED_UNSEEN_SHARE, 40),
    (UNSEEN2, REQUIRED_UNSEEN2_SHARE, 40),
    (UNSEEN3, REQUIRED_UNSEEN3_SHARE, 40),
    (UNSEEN4, REQUIRED_UNSEEN4_SHARE, 30),
    (LONG, REQUIRED_LONG_SHARE, 25),
    (VOICE, REQUIRED_VOICE_SHARE, 40),
]


@pytest.mark.parametrize(
    ("path", "required", "least"), SCORED_SETS, ids=[path.stem for path, _, _ in SCORED_SETS]
)
async def test_the_written_conversations_are_understood(
    make_assistant: MakeAssistant,
    crm_admin: CrmAdmin,
    capsys: Any,
    path: Path,
    required: float,
    least: int,
) -> None:
    """At least the pinned share of each set's sessions pass every turn (share reported)."""
    assert len(read_cases(path)) >= least
    share, failed = await score(make_assistant, crm_admin, path, capsys)
    assert share >= required - 1e-9, failed
