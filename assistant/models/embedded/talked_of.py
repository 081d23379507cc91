"""A change talked of but not asked, pointing back at what was said: "who told you to do
that?", "I never asked you to move it", "you weren't supposed to book that", "why did you
move that one?", "the receptionist moved it yesterday", "my husband will move that one
himself".

The write rules find no change asked in these (language/asked_frame.py, not_asked.py), and
what they point at is named by no word of their own, so nothing was read in them at all:
the answer was "Sorry, I can't help with that". They are answered here instead, from the
dialogue state, and nothing is changed: after a change made in this conversation, that
change said as it stands, with how to have it undone (an "undo that" said next is an
ask); before any, that nothing was changed, and how the one pointed at stands on file.

Also "when's my next one" just after a service was named ("I used to book a haircut every
month"): the next of that service, not the next visit of any kind (a booking of "another
one" then made a visit of the wrong service).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from assistant.dialogue_state import Dialogue, Item
from assistant.language.asked_frame import frame_of
from assistant.language.not_asked import not_asked
from assistant.language.patterns import rx
from assistant.language.slots import services_named
from assistant.language.text import normalize
from assistant.models.embedded import last_write
from assistant.schema import Message, UserTurn
from assistant.speech import due_day, parse_day, parse_moment, spoken_datetime

# The cheap look first: a verb of a change, in the words customers complain with.
_CHANGE_WORD = re.compile(
    r"\b(?:mov|book|cancel|chang|push|reschedul|delet|remov|complet|mark|tick|shift|bump|updat"
    r"|set|put|add|do|did|done)"
)
# What points back at a thing said before: "it", "that", "that one", "the one you moved".
_POINTS_BACK = rx(r"\b(?:it|that|this|them|those|one)\b")
# A complaint that a change was not wanted, whoever is named as asking it.
_NOT_WANTED = rx(
    r"\b(?:was|were|is|are)(?:n't| not)? (?:supposed|meant) to\b"
    r"|\bnever (?:asked|told|said|wanted)\b"
    r"|\bdidn't (?:ask|tell|say|want)\b|\bwho (?:told|asked|said)\b|\bwhy (?:did|would|have)\b"
)
# The position of the one pointed at in a listing just read out.
_POSITION = {"first": 0, "second": 1, "third": 2, "last": -1}
_POSITION_SAID = rx(r"\bthe (first|second|third|last) one\b")

NOTHING_CHANGED = (
    "I haven't changed anything in this conversation, and I won't change anything unless "
    "you ask me to."
)
ON_FILE = "I can only see what's on file, not who made or changed it:"
NOTHING_ELSE = "Nothing else has been changed, and nothing more will be unless you ask."
UNDO_OFFER = f'{NOTHING_ELSE} If you\'d like it back the way it was, just say "undo that".'
# A change no tool takes back (a to-do ticked off or deleted): no undo is offered.
_NOT_UNDONE = frozenset({"crm.completeTask", "crm.deleteTask"})


def remark(state: Dialogue, message: str, now: datetime) -> str | None:
    """The answer to a change talked of but not asked, pointing back; None when the
    message is not one (it is read as before)."""
    lowered = message.lower()
    if _CHANGE_WORD.search(lowered) is None or _POINTS_BACK.search(lowered) is None:
        return None
    text = normalize(message).text
    if not (_NOT_WANTED.search(text) or not_asked(text) or frame_of(text) == "not asked"):
        return None
    if state.last_action is not None or state.done:
        last = state.last_action.tool if state.last_action is not None else ""
        offer = NOTHING_ELSE if last in _NOT_UNDONE else UNDO_OFFER
        return f"{last_write.told(state, now)} {offer}"
    item = _pointed_at(state, text)
    stands = _as_it_stands(item, now) if item is not None else None
    return f"{NOTHING_CHANGED} {ON_FILE} {stands}" if stands else NOTHING_CHANGED


def _pointed_at(state: Dialogue, text: str) -> Item | None:
    if (position := _POSITION_SAID.search(text)) is not None and state.listed:
        index = _POSITION[position.group(1)]
        if index < len(state.listed):
            return state.listed[index]
    if state.focus is not None:
        return state.focus
    if len(state.listed) == 1:
        return state.listed[0]
    return None


def _as_it_stands(item: Item, now: datetime) -> str | None:
    if item.get("service") and (start := parse_moment(item.get("starts_at"))) is not None:
        service = str(item.get("service")).lower()
        if item.get("status") == "cancelled":
            return f"your {service} on {spoken_datetime(start, now)} is cancelled."
        return f"your {service} is on {spoken_datetime(start, now)}."
    if item.get("title"):
        title = str(item.get("title"))
        if item.get("status") == "completed":
            return f"{title} is marked complete."
        due = parse_day(item.get("due_on"))
        if due is not None:
            return f"{title} is due {due_day(due, now.date(), now)}."
        return f"{title} is on your list."
    return None


_NEXT_ONE = re.compile(r"\bmy next one\b")


def next_one_named(conversation: Sequence[Message], said: str) -> str:
    """ "when's my next one" just after one service was named: the next of that service.
    Asked only ("move the next one to noon" after the cleaning was asked about is the one
    after it, asked which: never read here)."""
    lowered = said.lower()
    if "my next one" not in lowered or services_named(lowered) or _CHANGE_WORD.search(lowered):
        return said
    users = [m for m in conversation if isinstance(m, UserTurn)]
    if len(users) < 2:
        return said
    named = services_named(users[-2].text.lower())
    if len(named) != 1:
        return said
    service = next(iter(named)).lower()
    return _NEXT_ONE.sub(f"my next {service}", lowered, count=1)
