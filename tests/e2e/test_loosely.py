"""Changes said loosely (tests/data/conversations_loosely.jsonl): a day that no longer
works, a visit a bit earlier "like 9", "this weekend", "3ish", "put it back an hour", the
first of what is due, "next sunday instead", a to-do for after a visit.

Found by probing ("I can't do wednesday anymore" was answered "I can't help with that";
"can I come in earlier for the cleaning, like 9?" read the visits out). The eleven
sessions were written before the rules were read. FIRST RUN: 1 of 11 sessions (1/11
turns), no wrong write: each was answered with a listing, a refusal or a question that
forgot what was said ("Sure. When would you like to move it to?" to "…next sunday
instead"), and "remind me to pick up the dry cleaning after my haircut" was titled with
"after my haircut" and no day.

Fixed as rules: "I can't do wednesday anymore", "wednesday doesn't work for me" read that
day's visit, as "I can't make friday anymore" does, and the one visit of that day is asked
about, move or cancel (language/indirect.py `day_let_go`, models/embedded/day_let_go.py);
"can I come in earlier for the cleaning, like 9?" and "could the haircut be a bit later, say
4?" move it to the hour offered, on its day, and "could my cleaning be earlier?" asks when
(appointment_rules.py); "put my haircut back an hour" moves it as "push" does; "3ish" is an
hour (dates.py); "book a haircut this weekend at 10" asks Saturday or Sunday, the hour
kept (replies.py); "…the haircut, can we do next sunday instead" is the time the move
lacked (intents.py). `bench.decisions --dump`: no decision changed. Now 9 of 11;
KNOWN_OPEN says what is left (nothing written wrongly). 11 of 11 since the eleventh
left-open set (tests/e2e/test_leftopen11.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

LOOSELY: Path = DATA / "conversations_loosely.jsonl"

KNOWN_OPEN: list[str] = [
    # (both put right by the eleventh left-open set, tests/e2e/test_leftopen11.py: "what's
    # due this week and mark the first one done" counts in the list read out with it;
    # "remind me to pick up the dry cleaning after my haircut" is due on the haircut's day)
]


async def test_changes_said_loosely_are_made_or_asked_as_meant(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session makes the change meant, or asks about it naming what is meant."""
    assert len(read_cases(LOOSELY)) == 11
    _, failed = await score(make_assistant, crm_admin, LOOSELY, capsys)
    assert failed == KNOWN_OPEN
