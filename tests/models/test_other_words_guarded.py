"""A change asked for in other words is held back by the same guards as in the plain ones.

Every guard that reads a change as not asked for (said not to be done, advice asked, a
deadline asked, a change the customer may make later) named its own few verbs: "cancel",
"move", "book", "delete". Said with another word for the same change, the guard did not
see it and the change was made or held for a yes. Each write verb and its other words
(39) under twelve such guards, 468 messages, were written before any rule was changed.
First run: 110 wrote or held, among them "don't bump my haircut to saturday, what do I
owe" MOVED it, "should I push my haircut to saturday?" MOVED it, "never get rid of the
groceries task without asking me" held its DELETE, "should I pencil in a massage on
saturday at 3pm?" BOOKED one, "don't call off the haircut" and "should I drop my haircut?"
held its CANCEL, "how late can I update my phone number to …" CHANGED the number.

Ten more guards, over the same changes said of other items (390 messages), were written
at the same time and kept back until those fixes were in (`HELD_BACK`). Their first run
then: 105 wrote or held. Three guards of their own were missed for every verb, plain ones
too: "I wasn't planning to cancel my cleaning" and "would you advise me to delete the
insurance task?" held or made the change, "can you tell me whether I can move my cleaning
to saturday" MOVED it. Now a refusal said as a plan ("wasn't planning to", "not going
to"), advice asked of the assistant, and "whether I can" are read as such (the last offers
the change: a yes makes it).

The causes: a shared list of the other words (language/lexicon.OTHER_CHANGE_VERBS) that
every guard reads, a cancel said another way read as "cancel" (language/said_plainly.py),
and a change leaned to ("I'm thinking of booking…") offered rather than made.
"""

from __future__ import annotations

import pytest

from assistant.fakes.world import play
from assistant.models.embedded.write_tools import WRITE_TOOLS as _WRITES

CHANGES = (
    ("cancel", "cancelling", "my haircut"),
    ("call off", "calling off", "my haircut"),
    ("scrap", "scrapping", "my haircut"),
    ("drop", "dropping", "my haircut"),
    ("move", "moving", "my haircut to saturday"),
    ("push", "pushing", "my haircut to saturday"),
    ("shift", "shifting", "my haircut to saturday"),
    ("bump", "bumping", "my haircut to saturday"),
    ("postpone", "postponing", "my haircut to saturday"),
    ("reschedule", "rescheduling", "my haircut to saturday"),
    ("bring forward", "bringing forward", "my haircut to thursday"),
    ("rebook", "rebooking", "my haircut for saturday"),
    ("switch", "switching", "my haircut to saturday"),
    ("change", "changing", "my haircut to saturday"),
    ("push back", "pushing back", "my haircut an hour"),
    ("move up", "moving up", "my haircut an hour"),
    ("delete", "deleting", "the groceries task"),
    ("remove", "removing", "the groceries task"),
    ("get rid of", "getting rid of", "the groceries task"),
    ("cross off", "crossing off", "the groceries task"),
    ("tick off", "ticking off", "the groceries task"),
    ("check off", "checking off", "the groceries task"),
    ("complete", "completing", "the groceries task"),
    ("finish", "finishing", "the groceries task"),
    ("mark", "marking", "the groceries task done"),
    ("clear", "clearing", "the groceries task"),
    ("scratch", "scratching", "the groceries task"),
    ("drop", "dropping", "the groceries task"),
    ("push", "pushing", "the groceries task to friday"),
    ("move", "moving", "the groceries task to friday"),
    ("book", "booking", "a massage on saturday at 3pm"),
    ("schedule", "scheduling", "a massage on saturday at 3pm"),
    ("set up", "setting up", "a massage on saturday at 3pm"),
    ("pencil in", "pencilling in", "a massage on saturday at 3pm"),
    ("make", "making", "a massage appointment on saturday at 3pm"),
    ("add", "adding", "a task to buy milk"),
    ("open", "opening", "a support case about my bill"),
    ("update", "updating", "my phone number to 415 555 0199"),
    ("change", "changing", "my email to a@b.com"),
)
GUARDS = (
    "don't {v} {o}, what do i owe",
    "should i {v} {o}?",
    "i might {v} {o} later",
    "how late can i {v} {o}",
    "i'm thinking about {g} {o}",
    "what happens if i {v} {o}",
    "do i need to {v} {o}?",
    "no need to {v} {o}",
    "i don't want to {v} {o}",
    "i'm not {g} {o}",
    "never {v} {o} without asking me",
    # (whether it must be done elsewhere: it can be done here, and is offered)
    "can i {v} {o} online?",
)
# Left as they are: "making" and "updating" after "not" are mostly no refusal ("I'm not
# making it to the cleaning, cancel it", "my address is not updating, open a case").
KNOWN_OPEN = frozenset(
    {
        "i'm not making a massage appointment on saturday at 3pm",
        "i'm not updating my phone number to 415 555 0199",
    }
)
HELD_BACK = (
    "is it ok if i {v} {o} next week?",
    "i wasn't planning to {v} {o}",
    "would you advise me to {v} {o}?",
    "please don't {v} {o}",
    "i'd rather not {v} {o}",
    "what's the policy if i {v} {o}",
    "can you tell me whether i can {v} {o}",
    "i may have to {v} {o}, i'll let you know",
    "i'm considering {g} {o}",
    "do you recommend {g} {o}?",
)
_OF_OTHERS = {
    "my haircut": "my cleaning",
    "the groceries task": "the insurance task",
    "a massage on saturday at 3pm": "a facial on friday at 11am",
    "a massage appointment on saturday at 3pm": "a facial appointment on friday at 11am",
}


def _other(thing: str) -> str:
    for said, other in _OF_OTHERS.items():
        if thing.startswith(said):
            return other + thing[len(said) :]
    return thing


SAID = [
    guard.format(v=verb, g=doing, o=thing)
    for verb, doing, thing in CHANGES
    for guard in GUARDS
    if guard.format(v=verb, g=doing, o=thing) not in KNOWN_OPEN
] + [
    guard.format(v=verb, g=doing, o=_other(thing))
    for verb, doing, thing in CHANGES
    for guard in HELD_BACK
]


@pytest.mark.parametrize("said", SAID)
async def test_a_change_said_in_other_words_is_held_back_as_in_plain_ones(said: str) -> None:
    turn = await play(said)
    made = [call for calls in turn.rounds for call in calls if call.tool_name in _WRITES]
    assert not made, f"{said!r} wrote {[(c.tool_name, c.arguments) for c in made]}"
    assert turn.held is None, f"{said!r} held {turn.held.tool_name} for a yes"


async def test_asked_plainly_in_those_words_the_change_is_made() -> None:
    """The same words asking for it: each still makes (or holds) the change."""
    for verb, _, thing in CHANGES:
        if verb in ("scratch", "move up", "clear"):
            continue  # not read as a change of a to-do or a visit alone
        turn = await play(f"please {verb} {thing}")
        made = [call for calls in turn.rounds for call in calls if call.tool_name in _WRITES]
        assert made or turn.held is not None, f"nothing made for {verb!r} {thing!r}"
