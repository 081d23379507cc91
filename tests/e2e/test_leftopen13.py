"""The cases the last session left open, played through the websocket and the real CRM stub.

tests/data/conversations_leftopen13.jsonl: each case as it was reported (ids lo13a-), then
two sessions in other words for each (lo13b-), written before the rules they exercise were
read; the eighth kind (a take-back waiting to land, beside small talk) is played under a
slow CRM below, as tests/integrity/test_crm_attacks14.py plays it.

As decided: (1) a night hour asked back ("That's 2:30 AM on Sunday… Do you want me to book
it for then?") answered with a new hour ("ok then sunday at 10am", "no, 10am") books at the
new hour, as a fresh request would be; (2) "change my haircut to a massage instead" holds
the swap, and a time said next holds it again at that time, naming the cancel and the new
booking: no cancel without a yes; (3) "a table for two", "for two people", "for 2" are
never 2 PM: an hour needs "at", "am/pm", "o'clock" or a clock form, or it is asked; (4)
understood now: "i'd like to put down X for friday", "add X, first monday of next month",
"itd be great if you could cancel the haircut", "youd better move it to 3", "cn u mve my
appt to fri @ 3", and "the other 2" with three left asks which; (5) "can I cancel online?"
is told plainly the assistant can do it now, and offered; "call the pharmacy for me" is
told plainly no call can be placed, and a to-do offered; nothing written; (6) "same as
before" for a haircut's hour asks, naming both hours it could be; (7) "12 hours before my
cleaning" is counted; "if we owe over $50" reads only what is owed; (8) a take-back waiting
to land is looked at again beside small talk that reads nothing.

FIRST RUN, on the code as it was: 16/50 sessions (40/79 turns), and 0/3 of the take-back
sessions. WRONG WRITES: after "change my haircut to a massage instead", "swap my haircut for
a facial please", "id rather have a massage than the haircut" were held, a time said next
("friday at 3pm", "saturday at 11am", "make it thursday at 4pm") CANCELLED THE HAIRCUT AND
BOOKED THE NEW SERVICE with no yes (the "no" after the last found it done). Misses: the
night hour asked back, "no, 10am" / "nah, 1pm" / "no make it 12:30pm" were "Okay, I haven't
changed anything" and "ok then sunday at 10am" / "ok then thursday at 4pm" "I didn't make
that change. What would you like on Sunday…"; "at 11am" after "for 2 people" was "didn't
catch"; "i'd like to put down renew passport for friday" was "I can't help with that", "i
want to jot down pay the gardener…" "I can't take payments"; "add picking up the dry
cleaning, first monday of next month", "pls chng my clning to thu @ 9", "call the pharmacy
for me", "can you phone the garage for me", "and the other 2 too", "the other two as well"
were "I didn't catch what you meant"; "i wouldnt mind if you cancelled my cleaning", "do i
have to call to cancel my appointment" read the visits out; "cn u mve my appt to fri @ 3",
"can u mv the haircut 2 sat @ 11" said nothing is booked on that day; "is there a way to
reschedule on the website?" asked "When would you like to move it to?"; "same as before",
"the usual time", "same hour as before" were "didn't catch"; "12 hours before my cleaning"
and "24 hours before my haircut" were "I can't work out a day from another appointment
yet", "30 hours before the haircut" "I can't help with that"; "if we owe over $50" read the
paid $95 checkup among "Your invoices over $50.00", and "if we still owe more than 100
dollars on the checkup" (paid) offered to add "Pay the checkup"; the small talk after a
take-back ("what can you do?", "how are you today?", "you're a lifesaver honestly") looked
nothing up, and the plumber task stayed, unsaid (the last was "I can't help with that").

Checks of mine put right after the first run, before any rule was read: "for two people",
"for 2 persons", "for two of us" were answered "I can only book appointments for you, on
your own account… Would you like me to book a massage for yourself?" (fair: never 2 PM, and
one's own account is the house's rule; the hour is asked next); "ring my dentist and tell
them im running late" was answered "I can't pass on a message…, but if you'd like the visit
moved, tell me the new time" (as plain, and a move is the fitting offer). Then: 20/50
(44/79 turns). One check of mine was too weak, found while fixing: "I can" / "for you" for
"can I cancel online?" matched "…Which one should I cancel?" (it passed on "I couldn't find
an appointment like that"); the three ask "I can cancel…", "right here" now.

After the fixes (CHANGELOG): 49/50, and 3/3 of the take-back sessions (a control added:
small talk beside a take-back that never landed is answered as small talk). Left open, and
pinned: KNOWN_OPEN below. The sets that pinned the old reading of a time said after a swap
(conversations_outside.jsonl haircut-to-massage, conversations_replace.jsonl
rp-change-my-haircut-to-a-massage-then-a-time) now say the yes; conversations_unseen20.jsonl's
u20-haircut-saturday-same-as-before expects the question naming both hours.

Nine sessions written after the fixes (lo13c-): a night hour "no, 4pm", a swap re-timed by
"thursday 9am" then a yes, "for 2", "give the pharmacy a ring for me" then "yes please",
"do i need to go online to cancel", "delete the other 2 as well" of three, "6 hours before
my haircut", "same time as last time", "if we owe anything over $100": first run 9/9 (16/16
turns). `python -m bench.said_around --sets …leftopen13.jsonl`: 224 variants, none wrote
more; 4 wrote less at first ("no, 10am for me": "for me" after the hour; now read), then
none; with --answers 124 variants, none more or less.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assistant.models.embedded.write_tools import WRITE_TOOLS
from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer, titles

LEFT_OPEN: Path = DATA / "conversations_leftopen13.jsonl"
# ("if we still owe more than 100 dollars on the checkup, remind me to pay it", the checkup's
# bill paid, read every bill over $100 and offered the to-do: now the checkup's bill alone,
# told paid, and nothing offered: tests/e2e/test_leftopen14.py)
KNOWN_OPEN: list[str] = []
# Played in parts side by side, to keep each test short.
_PARTS = 3


@pytest.mark.parametrize("part", range(_PARTS))
async def test_the_thirteenth_cases_left_open_are_answered_as_asked(
    part: int, make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any, tmp_path: Path
) -> None:
    """Each case: what was said is done, nothing near is done instead."""
    cases = read_cases(LEFT_OPEN)
    assert len(cases) == 59
    mine = tmp_path / LEFT_OPEN.name
    mine.write_text("".join(json.dumps(case) + "\n" for case in cases[part::_PARTS]))
    _, failed = await score(make_assistant, crm_admin, mine, capsys)
    assert failed == [case["id"] for case in cases[part::_PARTS] if case["id"] in KNOWN_OPEN]


# (8) A take-back told "it was sent and may still go through", then small talk that reads
# nothing: the CRM is looked at again beside it, and the add that landed is offered to be
# taken off.
FAST = {"turn_deadline_s": 1.3, "turn_tool_reserve_s": 0.2, "turn_answer_reserve_s": 0.2}
PLUMBER = "Call the plumber"
WRITES = WRITE_TOOLS
SMALL_TALK = [
    ("lo13a-take-back-then-what-can-you-do", "what can you do?"),
    ("lo13b-take-back-then-how-are-you-today", "how are you today?"),
    ("lo13b-take-back-then-youre-a-lifesaver", "you're a lifesaver honestly"),
]
KNOWN_OPEN_TAKE_BACK: list[str] = []


@pytest.mark.parametrize("said", [s for _, s in SMALL_TALK], ids=[i for i, _ in SMALL_TALK])
async def test_a_take_back_waiting_to_land_is_looked_at_beside_small_talk(
    said: str, make_assistant: MakeAssistant, crm_admin: CrmAdmin, request: Any
) -> None:
    # The add is held past the deadline, and lands once the take-back has been answered.
    held = await crm_admin.add_fault(
        method="POST", path="/v1/customers/*/tasks", hold=True, times=1
    )
    chat = await (await make_assistant(**FAST)).connect()
    await chat.say("add a task to call the plumber")
    back = await chat.say("never mind, don't add it")
    await crm_admin.release(held)
    await crm_admin.wait_until_settled()
    assert PLUMBER in await titles(crm_admin), answer(back)
    events = await chat.say(said)
    held = events[-1]["awaiting_confirmation"]
    problems = []
    if held is None or PLUMBER not in held["prompt"]:
        problems.append(f"{said!r} did not ask to take the plumber task off: {answer(events)!r}")
    else:
        done = await chat.say("yes")
        if PLUMBER in await titles(crm_admin):
            problems.append(f"the yes left the plumber task: {answer(done)!r}")
    written = [c["tool"] for c in events[-1]["tool_calls"] if c["tool"] in WRITES]
    if written:
        problems.append(f"{said!r} called {written}")
    case_id = request.node.callspec.id
    if case_id in KNOWN_OPEN_TAKE_BACK:
        assert problems, f"{case_id} passes now: take it out of KNOWN_OPEN_TAKE_BACK"
        return
    assert not problems, "\n".join(problems)


async def test_small_talk_beside_a_take_back_that_never_lands_is_answered_as_small_talk(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """(Written with the fix, the control.) The add fails after the deadline (500): "how
    are you today?" looks, finds nothing to take off, asks nothing and is answered as small
    talk; nothing is deleted."""
    await crm_admin.add_fault(
        method="POST", path="/v1/customers/*/tasks", latency_ms=3000, status=500, times=5
    )
    chat = await (await make_assistant(**FAST)).connect()
    await chat.say("add a task to call the plumber")
    await chat.say("never mind, don't add it")
    await crm_admin.wait_until_settled()
    events = await chat.say("how are you today?")
    said = answer(events)
    assert events[-1]["awaiting_confirmation"] is None, said
    assert "doing well" in said.lower(), said
    assert PLUMBER not in await titles(crm_admin)
    assert not [c for c in events[-1]["tool_calls"] if c["tool"] in WRITES], said
