"""A change named, but not asked of the assistant, is never made.

The write rules read a change by its verb and what it names wherever they stand in the
clause; each guard that reads a change as not asked named its own verbs. Twenty frames
that ask for nothing ("why did you … ?", "my husband will … himself", "I can … myself
later", "before I …, what do I owe", "you don't have to …", "hold off on …ing") and three
that tell of a change the customer could not make ("I tried to … on the website but it
failed", "the app won't let me …", "I wish I could …"), each said with 32 changes (736
messages), were written before any rule was changed. First run: 230 CHANGES MADE and 52
held for a yes. Among them "why did you cancel my haircut?" held its cancel, "did you push
my haircut to saturday?" MOVED it, "my husband will cancel my haircut himself", "i wish
i could move my haircut to saturday", "you don't have to cancel my haircut" and "before i
bump my haircut to saturday, what do i owe" made or held the change, "i already
scheduled a massage on saturday at 3pm" BOOKED A SECOND, "hold off on updating my phone
number to …" CHANGED IT, and "i tried to add a task to buy milk on the website but it
failed" added "Buy milk on the website but it failed".

The cause: the frame before the verb was read verb by verb. Now the words before a change
are read for every verb of a change at once (language/not_asked.py, lexicon.CHANGE_VERBS):
a change someone did or will do, or asked about as done, is looked up and not made; one the
customer could not make is offered, and a yes makes it.

Thirteen more frames (`SAID_OF_A_DOER`, 416 messages) were written after those fixes,
before any rule for them: 152 CHANGES MADE and 28 held ("my assistant is going to cancel
my haircut" held it, "I never asked you to update my phone number to …" CHANGED IT, "the
receptionist scheduled a massage on saturday at 3pm yesterday" BOOKED ONE, "I used to tick
off the groceries task every month" ticked it). A list of frames does not end; who is said
to do the change does (language/asked_frame.py): a person said before the verb, in words
that are not a request's, makes it a change not asked. None now.

A last round (`LAST_ROUND`, ten frames that ask for nothing and eight that ask, 568
messages), written after every fix above and frames23's: 46 made and 11 held of 320 ("my
old assistant used to book a massage…", "would you ever cancel my haircut without
asking?"), and 36 of 248 asks lost ("I've decided to cancel my haircut" read as a plan).
Now 2 and 5 (`KNOWN_OPEN`: a to-do said done, and "what I need is for you to tick off…",
which reads the list and writes nothing). Since leftopen15 none: words of regret before a
to-do told done tick nothing, and "what I need is for you to…" asks (a frame of its own
below).
"""

from __future__ import annotations

import pytest

from assistant.fakes.world import Turn, play
from assistant.models.embedded.write_tools import WRITE_TOOLS
from assistant.schema import Message

CHANGES = (
    ("cancel", "cancelling", "cancelled", "my haircut"),
    ("call off", "calling off", "called off", "my haircut"),
    ("scrap", "scrapping", "scrapped", "my haircut"),
    ("drop", "dropping", "dropped", "my haircut"),
    ("move", "moving", "moved", "my haircut to saturday"),
    ("push", "pushing", "pushed", "my haircut to saturday"),
    ("shift", "shifting", "shifted", "my haircut to saturday"),
    ("bump", "bumping", "bumped", "my haircut to saturday"),
    ("postpone", "postponing", "postponed", "my haircut to saturday"),
    ("reschedule", "rescheduling", "rescheduled", "my haircut to saturday"),
    ("bring forward", "bringing forward", "brought forward", "my haircut to thursday"),
    ("rebook", "rebooking", "rebooked", "my haircut for saturday"),
    ("change", "changing", "changed", "my haircut to saturday"),
    ("push back", "pushing back", "pushed back", "my haircut an hour"),
    ("delete", "deleting", "deleted", "the groceries task"),
    ("remove", "removing", "removed", "the groceries task"),
    ("get rid of", "getting rid of", "gotten rid of", "the groceries task"),
    ("cross off", "crossing off", "crossed off", "the groceries task"),
    ("tick off", "ticking off", "ticked off", "the groceries task"),
    ("complete", "completing", "completed", "the groceries task"),
    ("finish", "finishing", "finished", "the groceries task"),
    ("mark", "marking", "marked", "the groceries task done"),
    ("clear", "clearing", "cleared", "the groceries task"),
    ("move", "moving", "moved", "the groceries task to friday"),
    ("book", "booking", "booked", "a massage on saturday at 3pm"),
    ("schedule", "scheduling", "scheduled", "a massage on saturday at 3pm"),
    ("set up", "setting up", "set up", "a massage on saturday at 3pm"),
    ("make", "making", "made", "a massage appointment on saturday at 3pm"),
    ("add", "adding", "added", "a task to buy milk"),
    ("open", "opening", "opened", "a support case about my bill"),
    ("update", "updating", "updated", "my phone number to 415 555 0199"),
    ("change", "changing", "changed", "my email to a@b.com"),
)
NOT_ASKED = (
    "i already {p} {o}",
    "i've already {p} {o} myself",
    "my husband will {v} {o} himself",
    "my wife is going to {v} {o} later",
    "you don't have to {v} {o}",
    "please don't {v} {o}",
    "how do i {v} {o}?",
    "if i {v} {o} will i be charged?",
    "did you {v} {o}?",
    "did i {v} {o}?",
    "why did you {v} {o}?",
    "i wish i could {v} {o}",
    "wait, don't {v} {o} yet",
    "hold off on {g} {o}",
    "{v} {o}? no, forget it",
    "before i {v} {o}, what do i owe",
    "has anyone {p} {o}?",
    "i'd rather not {v} {o}",
    "i can {v} {o} myself later",
    "do you know if i can {v} {o}?",
)
SAID_OF_A_DOER = (
    "my assistant is going to {v} {o}",
    "i'll {v} {o} myself tomorrow",
    "who told you to {v} {o}?",
    "i never asked you to {v} {o}",
    "remember when you {p} {o}?",
    "last time i {p} {o} it cost me a fee",
    "i used to {v} {o} every month",
    "my sister always {p} {o} for me",
    "the receptionist {p} {o} yesterday",
    "apparently someone {p} {o}",
    "you were supposed to {v} {o}",
    "i keep trying to {v} {o} and it errors",
    "your website wouldn't let me {v} {o}",
)
LAST_ROUND = (
    "my mum reckons i should {v} {o}",
    "i'm not sure whether you {p} {o}",
    "didn't you already {v} {o}?",
    "they told me at the front desk they'd {v} {o}",
    "it looks like someone {p} {o}",
    "i hope nobody {p} {o}",
    "we were going to {v} {o} but then decided not to",
    "i kind of regret that i {p} {o}",
    "my old assistant used to {v} {o} for me",
    "would you ever {v} {o} without asking?",
)
# (none left open: a to-do said done after "regret that I" is no longer ticked off, and
# "what I need is for you to…" asks: leftopen15)
KNOWN_OPEN: frozenset[str] = frozenset()
# A change the customer could not make: offered ("Would you like me to…?"), never made.
OFFERED = (
    "i tried to {v} {o} on the website but it failed",
    "the app won't let me {v} {o}",
    "i wish i could {v} {o}",
)
# A to-do said done already is ticked off: "I already finished the groceries task".
_SAID_DONE = frozenset({"finish", "complete", "mark", "tick off", "cross off", "clear"})


def _said(frames: tuple[str, ...]) -> list[str]:
    return [
        frame.format(v=verb, g=doing, p=done, o=thing)
        for verb, doing, done, thing in CHANGES
        for frame in frames
        if not ("already" in frame and verb in _SAID_DONE)
    ]


def _made(turn: Turn) -> list[str]:
    return [
        f"{c.tool_name} {c.arguments}"
        for cs in turn.rounds
        for c in cs
        if c.tool_name in WRITE_TOOLS
    ]


@pytest.mark.parametrize(
    "said", [s for s in _said(NOT_ASKED + SAID_OF_A_DOER + LAST_ROUND) if s not in KNOWN_OPEN]
)
async def test_a_change_not_asked_of_the_assistant_is_neither_made_nor_held(said: str) -> None:
    turn = await play(said)
    assert not _made(turn), f"{said!r} wrote {_made(turn)}"
    assert turn.held is None, f"{said!r} held {turn.held.tool_name} for a yes"


@pytest.mark.parametrize("said", _said(OFFERED))
async def test_a_change_the_customer_could_not_make_is_not_made_unasked(said: str) -> None:
    turn = await play(said)
    assert not _made(turn), f"{said!r} wrote {_made(turn)}"


async def test_an_offered_change_is_made_on_a_yes() -> None:
    history: list[Message] = []
    first = await play("i tried to book a massage on saturday at 3pm on the website", history)
    assert not _made(first) and "?" in (first.final or "")
    second = await play("yes please", history)
    assert [c.tool_name for cs in second.rounds for c in cs if c.tool_name in WRITE_TOOLS] == [
        "crm.bookAppointment"
    ]


@pytest.mark.parametrize(
    "asked", ["did you do it?", "the app said it was done, did you do it?", "did you go ahead?"]
)
async def test_whether_an_offered_change_was_made_asked_makes_nothing(asked: str) -> None:
    """(Found after the fixes: "did you do it?" was read as the yes to the offer, and the
    haircut was moved.) A yes after it still makes the change once."""
    history: list[Message] = []
    await play("i tried to move my haircut to saturday on the app", history)
    question = await play(asked, history)
    assert not _made(question), question.answer
    yes = await play("yes please", history)
    assert [c.tool_name for cs in yes.rounds for c in cs if c.tool_name in WRITE_TOOLS] == [
        "crm.rescheduleAppointment"
    ]


@pytest.mark.parametrize(
    "frame",
    [
        "{v} {o}",
        "can you {v} {o}",
        "could you please {v} {o}",
        "i need to {v} {o}",
        "i'd like to {v} {o}",
        "i was hoping you could {v} {o}",
        "i'd be grateful if you could {v} {o}",
        "is it possible to {v} {o}",
        "i'm calling to {v} {o}",
        "any chance you could {v} {o}",
        "i think i need to {v} {o}",
        "we'd like to {v} {o}",
        "could you go ahead and {v} {o}",
        "i'd really appreciate it if you'd {v} {o}",
        "please can you {v} {o}",
        "right, {v} {o} please",
        "yeah just {v} {o}",
        "i've decided to {v} {o}",
        "let's go ahead and {v} {o}",
        "okay so what i need is for you to {v} {o}",
    ],
)
async def test_asked_in_a_request_frame_the_change_is_made(frame: str) -> None:
    """The same changes asked for: each is made, or held for a yes."""
    for verb, _, _, thing in CHANGES:
        if verb in ("clear", "scrap", "drop", "call off") and "haircut" not in thing:
            continue
        said = frame.format(v=verb, o=thing)
        turn = await play(said)
        assert _made(turn) or turn.held is not None, f"nothing made for {said!r}"
