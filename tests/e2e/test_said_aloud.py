"""Every written conversation as a voice platform's speech-to-text delivers the customer's
turns, meaning the same (tests/e2e/said_aloud.py): numbers and times in words ("three p
m", "half past two", "the twenty fifth", "forty dollars"), a word said twice or a start
said again ("move my my haircut", "can you can you cancel it"), a filler inside the
sentence ("book a uh haircut", "to like friday", "cancel you know my haircut"), and
contractions written out or their apostrophes dropped ("what is", "whats"). Through the
websocket, the real engine and the real CRM stub.

Each case is played with every turn rewritten one way, and must pass the checks it passes
as written: the same writes (none unasked), the same questions held, the same facts in
the answer. Every sixth case is played in the suite, each with one of the ways in turn
(one that leaves the case as written is passed over); SAID_ALOUD=ALL plays every case
every way (OUT=FILE notes each failure).

FIRST RUN, every case every way, on the code as it was (5,750 sessions; five of the ways'
own faults were corrected first, each changing the meaning: "quarter to like 5", "do you
know the same for…", "did you know my…", "if you know an earlier…", "to to morrow", "ten a
a m"): 72 sessions of 53 cases failed, 11 of them with WRONG WRITES. A time said "p m."
before a full stop lost the stop (the recogniser's "p m" was joined with it), so what was
said after it was no longer a correction: "book a massage on friday at three p m. hmm,
never mind that" BOOKED the massage; "…at noon. Actually make that one p m." booked noon;
"…at ten a m. actually, quarter past ten" moved the haircut to 10:00; "…at two p m. make
it two thirty" booked 2:00; "…at one p m. can you make it half an hour later?" booked 1:00;
"…on tuesday at nine a m. actually the next day, same time" booked Tuesday. "could you put
a consultation on it at nine" (after "have I got anything on the 23rd") booked TOMORROW at
9, and "ok then just book one for the third at 9" booked tomorrow too; "add one to renew my
passport by the first" added a task titled "Renew my passport by the first" with no due
date, and "remind me to pay the bill the day before its due" one titled "Pay the bill the
day before its due". The misses, by way: times read ("three p m", "two thirty") 26 of 267,
times told ("three in the afternoon", "half past two") 15 of 267, apostrophes dropped 9 of
233, numbers ("the twenty fifth", "task two", "one hundred and fifty") 6 of 56, "like"
before a time 5 of 392, a word repeated 5 of 1,176, a start said again 3 of 1,064, written
out 2 of 233, "uh" inside 1 of 1,166, "you know" 0 of 896. Most were an hour said in words
where the rules read it in digits: "move my haircut to three", "can it be nine instead",
"sorry, five not four", "twelve is fine", "my two thirty on sunday, can that be four
instead" asked the time again; "a a" was no restart ("book a a new one" looked for a
service called "a new one", "is there a a fee to cancel?" could not be helped with);
"whats the new number youve got", "thats all", "if thats okay", "ill probably be 10 mins
late" and "ok that is right" were not read as their contractions; "to like 3" lost its
hour to a pause written before "like"; "what's the uh other appointment" did not name the
other appointment, so "cancel that one instead" asked which.

The causes fixed, as general rules: a recogniser's "p m." keeps the full stop it ends on
(language/heard_numbers.py); a number said in words is written in digits where only a
number of that kind can stand (language/said_numbers.py: an hour after a word that puts a
time and with nothing after it that it could count, an hour with its minutes or its part
of the day, a day of the month up to the twelfth after "on the", "by the", "for the", a
task's number, an amount with "hundred" or "dollars", a shift by "thirty minutes"); "a a"
and "add two add two" are restarts, letters and digits said in a row are not; "like"
after "to" or "at" is a filler before the hour; a contraction without its apostrophe is
read as the contraction where the word could not be meant ("thats", "youre"; "ill" before
a verb, "its" before "due" but not "its due date"); "that is" and "it is" are read as
"that's" and "it's"; what a turn names ("the other appointment") is read from the message
as meant (the engine passes it to dialogue.advance). After: 1 left open (KNOWN_OPEN, no
write), and no wrong write. Two of the first fixes were narrowed when the written sets
caught them: "give it one for the 25th" is no hour ("one" is an hour only after a word that
cannot point at an item), "make it two hours later" stays in words.

Three more ways were written after those fixes and not tuned on (said_aloud.WRITTEN_LATER:
"three o'clock in the afternoon", "noon", "at eleven o'clock"; "a quarter to three";
"friday the twenty fifth"). Their first run, every case every way: 56 of 266 sessions
failed; 2 were the way's own fault, corrected after ("the 28th" said after "february
30th" is February's, not "monday the twenty eighth": a way that fits only some
conversations is told from all their turns, said_aloud.FITS). Of the other 54, 12 were
WRONG WRITES: "sunday the third" was read as the next Sunday and the date went into the
title ("remind me to pay the water bill on sunday the third" added "Pay the water bill the
third" due Sunday the 20th; "can i get an eye exam on sunday the third at 2pm" booked the
20th); "on sunday the twentieth actually tuesday the twenty second" added "Pay the gas bill
actually tuesday the 22nd"; "at nine o'clock" was read as an hour not read whole (its "o"
taken for more of it), so the time was asked, and the next turn ("actually the next day,
same time", "no wait wednesday") booked where the first should have been moved. Fixed: a
day of the month said after its weekday is that date (main's transcript rule, met in the
merge, reads "sunday the third"; language/spoken.py puts right a day with its date said
again with another), "o'clock" is written as the hour on the hour ("10:00"), and the "o"
of "o'clock" is no more of an hour. After: 0. A correction met once on the way ("tomorrow
at ten o'clock no hang on 11" booked 10:00 while "o'clock" stood between the hour and the
correction) is fixed by the same.

The sample was once every sixth case by its place among all the sets, its way the one
played least so far, so adding a set changed which cases were played and how; each case,
and its way of those that change it, is now picked by a stable hash of its id
(tests/e2e/conversations.stable_number), about as many as before (218 against 221). The
new sample's first run: nothing new failed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conversations import (
    NOW,
    REPLAY_SHARE,
    failing_variants,
    in_share,
    shared_cases,
    stable_number,
)
from tests.e2e.said_aloud import FITS, SPOKEN, WRITTEN_LATER, aloud, kept_words
from tests.e2e.test_conversations import CATALOG, DATA, crm_app  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

_SETS = sorted(DATA.glob("conversations*.jsonl"))
KNOWN_OPEN: list[str] = [
    # "ok that is right, leave it" after the phone number was read out: "I can't help with
    # that" (typed "that's right, leave it" is understood; nothing is written either way)
    "conversations_unseen7/u7b-number-read-leave-it [written_out]",
    # "four one five, five five five, zero one nine nine" said with its start said twice
    # ("four one four one five, …"): eleven digits are no number to read back; the number
    # is asked for again and nothing is written
    "conversations_replies/rp-phone-asked-said-in-words [restarted]",
]
_WAYS = {**SPOKEN, **WRITTEN_LATER}
if os.environ.get("WAYS"):  # exploring some ways only: WAYS=times_read,liked
    _WAYS = {way: _WAYS[way] for way in os.environ["WAYS"].split(",")}
# Every sixth case, in two groups on two test workers; SAID_ALOUD=ALL: every case every way,
# in more groups (a test of minutes outlives the CRM stub's connection).
_STRIDE = 8
_EVERY = os.environ.get("SAID_ALOUD") == "ALL"
_GROUPS = 24 if _EVERY else 2


def said_aloud(
    case: dict[str, Any], way: str, kept: list[list[str]] | None = None
) -> dict[str, Any]:
    """The case with every turn said `way`, what must stay as written kept (`kept`: each
    turn's kept words, when worked out already)."""
    rewrite = _WAYS[way]
    if way in FITS and not FITS[way]([turn["say"] for turn in case["turns"]]):
        return case
    kept = kept or [kept_words(turn) for turn in case["turns"]]
    turns = [
        {**turn, "say": aloud(turn["say"], rewrite, words)}
        for turn, words in zip(case["turns"], kept, strict=True)
    ]
    return {**case, "id": f"{case['id']} [{way}]", "turns": turns}


def _variants() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Exploring, every case every way; else every `_STRIDE`th case, said the way played
    least so far of those that change it."""
    cases = [(Path(path).stem, case) for path in _SETS for case in shared_cases(path)]
    found = []
    for stem, case in cases:
        # Every sixth case by its id's stable number (adding a set changes no other's
        # pick), and of the ways that change it, one by the same number.
        number = stable_number(f"{stem}/{case['id']}")
        if not _EVERY and (number % _STRIDE or not in_share(f"{stem}/{case['id']}")):
            continue
        kept = [kept_words(turn) for turn in case["turns"]]
        variants = [(way, said_aloud(case, way, kept)) for way in sorted(_WAYS)]
        changed = [(way, v) for way, v in variants if v["turns"] != case["turns"]]
        if not _EVERY and changed:
            changed = [changed[(number // _STRIDE) % len(changed)]]
        found += [(stem, case, variant) for _, variant in changed]
    return found


@pytest.mark.parametrize("group", range(_GROUPS))
async def test_a_conversation_said_aloud_is_understood_the_same(
    group: int, make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Each case passes as speech-to-text writes it as it passes written: no write differs,
    nothing is lost."""
    assistant = await make_assistant(customer_messages_per_minute=100_000, clock=lambda: NOW)
    mine = [
        variant
        for variant in _variants()
        if stable_number(f"{variant[0]}/{variant[2]['id']}") % _GROUPS == group
    ]
    failed = await failing_variants(assistant, crm_admin, mine, CATALOG, exploring=_EVERY)
    assert _EVERY or len(mine) > 60 // REPLAY_SHARE
    assert [f for f in failed if f not in KNOWN_OPEN] == []
