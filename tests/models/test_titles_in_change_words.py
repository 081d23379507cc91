"""A to-do whose words are a change's words is added as said, and nothing else is written.

Twenty-two errands said with a change's verbs ("cancel my gym membership", "move the car
before 8", "call off the party planner", "schedule the car service") under ten ways of
asking for a to-do ("remind me to…", "add … to my to-do list", "jot down…", "new task:…"),
220 messages, were written before any rule was read. First run: no other change made, but
NINE TURNS FAILED ("I'm sorry, something went wrong on my side") for "…move the car before
8" (an hour said and not read left a day-less reading the title code indexed), TEN TITLES
WERE REWORDED ("call off the party planner" saved as "Cancel the party planner": the
cancel said another way was read as "cancel" inside a title too), and "set a reminder to
schedule the car service on friday" saved "Move the car service to friday" with no due day.
Now a to-do's words are its own: "call off" is read as "cancel" in them only before a
visit named ("…and call off my haircut"), and "schedule the … on friday" is a to-do's due
day only when no to-do is being asked for.
"""

from __future__ import annotations

import pytest

from assistant.fakes.world import play

THINGS = (
    "cancel my gym membership", "move the car before 8", "book a table at luigi's",
    "delete the old photos", "update my passport details", "change the smoke alarm batteries",
    "open a savings account", "reschedule the plumber", "push the sofa back against the wall",
    "clear the gutters", "set up the new printer", "call off the party planner",
    "schedule the car service", "remove the old shelves", "cancel the newspaper",
    "book flights to boston",
)  # fmt: skip
LEADS = (
    "remind me to {t}", "add a task to {t}", "can you put '{t}' on my list",
    "make a note to {t}", "don't let me forget to {t}", "set a reminder to {t} on friday",
    "i need to remember to {t}", "new task: {t}", "jot down {t}",
)  # fmt: skip


@pytest.mark.parametrize(
    ("said", "thing"), [(lead.format(t=t), t) for lead in LEADS for t in THINGS]
)
async def test_one_to_do_is_added_in_the_words_said(said: str, thing: str) -> None:
    turn = await play(said)
    written = [
        c for cs in turn.rounds for c in cs if c.tool_name.split(".")[-1][:4] not in ("list", "get")
    ]
    assert turn.held is None, f"{said!r} held {turn.held}"
    assert [c.tool_name for c in written] == ["crm.addTask"], (said, written, turn.answer)
    title = written[0].arguments["title"].lower()
    words = thing.split()
    # (the title keeps the change's own verb and its object's last word)
    assert words[0] in title and words[-1].replace("'", "") in title.replace("'", ""), (said, title)
    if "on friday" in said:
        assert written[0].arguments.get("due_on") == "2025-03-07", written[0].arguments
