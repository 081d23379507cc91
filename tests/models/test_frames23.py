"""Frames that ask for nothing, and frames that ask, said with every change.

Twenty-six frames that ask for nothing, as customers tell them (a story: "so last week the
salon moved …"; a complaint: "i can't believe you booked …"; a question about another:
"does my wife usually cancel …?"; a quote: "the email said 'cancel …'"; a past
conditional: "if i had cancelled …"; a plan: "next month we'll probably move …"; reported
speech: "she told me she'd cancelled …"; sarcasm: "oh great, so now i have to … myself";
refusals: "nobody asked you to …", "i didn't say to …", "let's not …") said with the 32
changes of test_not_asked (820 messages), and fifteen frames that ask ("would you be a
star and …", "do me a favour and …", "i'm ringing because i need to …", "if you could …
that'd be great", "need to … asap", "…, cheers") with the same changes, plus three said
as a booking ("i'm after a massage on saturday at 3pm"; 468 messages), were written
before the rules were read.

FIRST RUN: 88 of 820 not-asked messages were wrong: 67 CHANGES MADE and 21 held for a yes,
all from three frames and one story:
  - "does my wife usually {v} {o}?" 18 made, 7 held (moved the haircut, booked a
    massage, added "Buy milk", opened a case, changed the phone number and email);
  - "oh great, so now i have to {v} {o} myself" 24 made, 7 held (added the task
    "Buy milk myself", opened a case "My bill myself", ticked the groceries task off);
  - "let's not {v} {o}" 23 made, 7 held (every move, booking, task, case, contact change);
  - "so last week the salon scheduled / made a massage appointment on saturday at 3pm"
    BOOKED A MASSAGE (2 made; "booked" and "set up" were read as told).
19 of 468 asked were lost (nothing made, nothing held; the task looked up by the words
left over): "need to {v} {o} asap" 12 (the haircut moved or the groceries task asked of
with "asap" read as a task's name: "I couldn't find a task matching 'haircut saturday'"),
"if you could {v} {o} that'd be great" 7 (the groceries task looked up as "groceries
that'd great").

The causes, fixed as rules of any verb of a change (no decision of bench.decisions changed):
  - "let's not …" was no refusal: clause.NEGATED reads "let's not" before any verb of a
    change ("let's not forget to book it" still asks);
  - "I have to / need to … myself" was read as a need put to the assistant: not_asked.py
    reads "myself", "ourselves", "on my own" after a change the customer has to make as
    their own act, wherever it stands ("great, so now…" was read whole for a booking;
    "book a massage for myself" names who it is for, and is asked);
  - "does my wife (usually) …?" was read as asked: not_asked.py reads "does/do" with
    another person, and adverbs of habit, as a question of what they do;
  - "last week the salon scheduled …": asked_frame.py reads a named doer after when it
    was ("last week", "a few days ago", "recently", "the other day");
  - "asap" (read "urgent") said last was read as a task's level: after "move", "change",
    "bump"… a level is one only with "to", "as" or "priority" ("make the eye exam task
    urgent" still sets it; "make a massage appointment … asap" sets none), and a task
    named before it is not looked up by level (targets._HOW_SOON);
  - "… that'd be great", "… if that's ok" said last were words of the task's name
    (targets._THANKS_LAST).
After the fixes: none made, none held, none lost.

Then eleven more frames that ask for nothing and ten that ask were written (NOT_ASKED_AFTER,
ASKED_AFTER: 346 and 310 messages). FIRST RUN: 2 CHANGES MADE, none held: "yeah right,
like i'd ever update my phone number to …" / "… change my email to …" CHANGED THEM ("yeah
right" read as a yes, and the detail named after it changed with no change held); 16 asks
lost: "{v} {o} for me when you get a sec" 11 ("when get sec" looked up as words of the
name, or "get a sec" read as a booking), "hoping to {v} {o} today" 5. Fixed: a contact
detail named after a yes is changed only when a change is held (said_before.new_contact);
"when you get a sec", "whenever you can" said last are no words of a name (targets). Left
open (KNOWN_OPEN, each writes nothing: it asks which, or says none is found): "hoping to
cancel my haircut today" looks for a haircut today (the day is read as the visit's, which
"cancel my haircut today" also says), and "tick off / cross off the groceries task for me
when you get a sec" is cut before "the groceries task" and "get a sec" refused as a service.

Last, three more of each (NOT_ASKED_LAST, ASKED_LAST: 96 and 93 messages). FIRST RUN: 19
CHANGES MADE and 7 held, all by "honestly, who in their right mind would {v} {o}" (moved
the haircut, booked a massage, changed the phone number…); 33 asks lost: "gonna need you
to {v} {o}" 31 (read as not asked: a request with its "I" left out), "can ya cross off /
tick off the groceries task for us" 2. Fixed in asked_frame.py: "who … would" before a
change asks who would, of no one; "(going to) need/want you to" with no subject asks.
Left open (KNOWN_OPEN, writes nothing: the tasks are listed): "can ya cross off …" ("ya"
is read "yeah", and the clause is cut after "cross off").

leftopen15: "cross off" / "tick off" said right before what they are done to no longer
ends an order ("the groceries task for us/me" was cut off as a second order with its verb
left unsaid): the four asks of the groceries pass and are out of KNOWN_OPEN. "hoping to …
my haircut today" is still left open (it asks which, naming both visits: nothing written).
"""

from __future__ import annotations

import pytest

from assistant.fakes.world import Turn, play
from assistant.models.embedded.write_tools import WRITE_TOOLS
from tests.models.test_not_asked import CHANGES

# Told, complained of, quoted, wondered about, planned or refused: nothing is asked.
NOT_ASKED = (
    "so last week the salon {p} {o}",
    "i can't believe you {p} {o}",
    "does my wife usually {v} {o}?",
    "the email said '{v} {o}'",
    "if i had {p} {o} would it have cost more?",
    "next month we'll probably {v} {o}",
    "she told me she'd {p} {o}",
    "oh great, so now i have to {v} {o} myself",
    "nobody asked you to {v} {o}",
    "i didn't say to {v} {o}",
    "my sister keeps telling me to {v} {o}",
    "i was thinking about {g} {o} but i'll leave it",
    "back in march i {p} {o} and it was fine",
    "what happens if someone {p} {o} by mistake?",
    "my daughter {p} {o} for me yesterday",
    "i heard you can {v} {o} online",
    "the lady on the phone said she would {v} {o}",
    "i'm not asking you to {v} {o}, just curious",
    "who {p} {o}? it wasn't me",
    "my husband and i were arguing about whether to {v} {o}",
    "thank god i didn't {v} {o}",
    "maybe one day i'll {v} {o}, not today",
    "the app says i {p} {o}, is that right?",
    "let's not {v} {o}",
    "you lot {p} {o} without telling me last time",
    "my mum always says i should {v} {o}",
)
# Said by a customer that asks the assistant for the change: made, or held for a yes.
ASKED = (
    "would you be a star and {v} {o}",
    "i'd like to go ahead and {v} {o}",
    "do me a favour and {v} {o}",
    "right, let's {v} {o}",
    "i'm ringing because i need to {v} {o}",
    "if you could {v} {o} that'd be great",
    "need to {v} {o} asap",
    "{v} {o}, cheers",
    "be a love and {v} {o}",
    "i want you to {v} {o}",
    "go on then, {v} {o}",
    "hiya, just wanting to {v} {o} please",
    "sort me out and {v} {o}",
    "hi there, so i need you to {v} {o} for me",
    "ok so basically can you {v} {o}",
)
ASKED_PLAIN = (
    "i'm after a massage on saturday at 3pm",
    "sort me out with a massage on saturday at 3pm",
    "right, let's get a massage booked for saturday at 3pm",
)
# Written after the fixes, before they were run (their first run is in the docstring).
NOT_ASKED_AFTER = (
    "my neighbour reckons i should {v} {o}",
    "i nearly {p} {o} by accident yesterday",
    "the text message said you'd {p} {o}",
    "just so you know, my husband {p} {o} this morning",
    "had i known, i would have {p} {o}",
    "we might {v} {o} at some point, we'll see",
    "apparently someone {p} {o} last night",
    "yeah right, like i'd ever {v} {o}",
    "no one told you to {v} {o}",
    "i never said you could {v} {o}",
    "my boss wants me to {v} {o} but i'm not going to",
)
ASKED_AFTER = (
    "could i get you to {v} {o}",
    "would it be ok to {v} {o}",
    "i'd love it if you could {v} {o}",
    "just ringing to {v} {o}",
    "hoping to {v} {o} today",
    "pls {v} {o} thx",
    "you can go ahead and {v} {o}",
    "can i {v} {o} please",
    "{v} {o} for me when you get a sec",
    "lovely, and could you also {v} {o}",
)
# The last few, written after the fixes above and before they were run.
NOT_ASKED_LAST = (
    "honestly, who in their right mind would {v} {o}",
    "my colleague {p} {o} and regretted it",
    "i'd have {p} {o} if i'd known about the fee",
)
ASKED_LAST = (
    "can ya {v} {o} for us",
    "gonna need you to {v} {o}",
    "{v} {o} - ta",
)
# Asks still not made; each writes nothing (the visit looked for today, none found: which
# one is asked).
KNOWN_OPEN = frozenset(
    {
        "hoping to cancel my haircut today",
        "hoping to call off my haircut today",
        "hoping to scrap my haircut today",
        "hoping to drop my haircut today",
        "hoping to push back my haircut an hour today",
    }
)
# "I finished the groceries task" tells a to-do done, which ticks it off.
_SAID_DONE = frozenset({"finish", "complete", "mark", "tick off", "cross off", "clear"})
_FIRST_PERSON_DONE = ("back in march i {p}", "the app says i {p}", "i nearly {p}")
# Verbs asked of only the haircut (as in test_not_asked).
_HAIRCUT_ONLY = frozenset({"clear", "scrap", "drop", "call off"})


def _said(frames: tuple[str, ...]) -> list[str]:
    return [
        frame.format(v=verb, g=doing, p=done, o=thing)
        for verb, doing, done, thing in CHANGES
        for frame in frames
        if not (verb in _SAID_DONE and any(frame.startswith(f) for f in _FIRST_PERSON_DONE))
    ]


def _asked(frames: tuple[str, ...] = ASKED) -> list[str]:
    said = [
        frame.format(v=verb, o=thing)
        for verb, _, _, thing in CHANGES
        for frame in frames
        if not (verb in _HAIRCUT_ONLY and "haircut" not in thing)
    ]
    return said + (list(ASKED_PLAIN) if frames is ASKED else [])


def _made(turn: Turn) -> list[str]:
    return [
        f"{c.tool_name} {c.arguments}"
        for cs in turn.rounds
        for c in cs
        if c.tool_name in WRITE_TOOLS
    ]


@pytest.mark.parametrize("said", _said(NOT_ASKED + NOT_ASKED_AFTER + NOT_ASKED_LAST))
async def test_a_change_told_not_asked_is_neither_made_nor_held(said: str) -> None:
    turn = await play(said)
    assert not _made(turn), f"{said!r} wrote {_made(turn)}"
    assert turn.held is None, f"{said!r} held {turn.held.tool_name} for a yes"


@pytest.mark.parametrize(
    "said", [s for s in _asked() + _asked(ASKED_AFTER) + _asked(ASKED_LAST) if s not in KNOWN_OPEN]
)
async def test_a_change_asked_is_made_or_held(said: str) -> None:
    turn = await play(said)
    assert _made(turn) or turn.held is not None, f"nothing made for {said!r}"


@pytest.mark.parametrize("said", sorted(KNOWN_OPEN))
async def test_known_open_asks_write_nothing_wrong(said: str) -> None:
    """Still not made (KNOWN_OPEN): nothing is written, and something is said."""
    turn = await play(said)
    assert not _made(turn) and turn.held is None and (turn.final or turn.answer)
