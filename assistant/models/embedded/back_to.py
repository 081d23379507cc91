""" "ok so back to the haircut saturday at one": an ask left waiting for its day or hour
("i need to move my haircut" → "When would you like to move it to?"), come back to after
other questions in between, with what it lacked. Said on the phone there is no comma after
the thing come back to, so the words after it are read as the answer to that ask; said
alone ("ok back to the haircut"), what the ask lacks is asked again, and the next message
("saturday at one") answers it."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime

from assistant.language import Intent, detect_intents
from assistant.language.patterns import rx
from assistant.models.embedded.user_turns import last_user
from assistant.models.embedded.write_tools import WRITE_TOOLS
from assistant.schema import Message, ToolExchange, UserTurn

_BACK_TO = rx(
    r"^(?:(?:ok|okay|so|and|now|um|uh|right|anyway|alright)\W+)*"
    r"(?:(?:going|getting|coming) )?back to (?:the |my |that )?(?P<rest>[a-z].*?)[.!]*$"
)
# Words that stand for the thing itself, beside its own words.
_ITSELF = frozenset({"one", "appointment", "visit", "booking", "task", "thing", "about", "on"})
# How far back the ask left waiting may be (the customer's own messages).
_LOOK_BACK = 6


def back_to_ask(
    conversation: Sequence[Message], message: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """The ask come back to, made whole with what this message adds, or None."""
    said = message.lower()
    if "back to" in said:
        back = _BACK_TO.match(said)
        if back is None:
            return None
        earlier = _said_since_a_change(conversation)
        return _made_whole(earlier, back.group("rest").split(), message, now, timezone)
    # (only the message before is looked at first: most are no "back to")
    latest = _said_since_a_change(conversation, most=1)
    if not latest or "back to" not in latest[0].lower():
        return None
    earlier = _said_since_a_change(conversation)
    # "ok back to the haircut" (what it lacks asked again) → "saturday at one"
    back = _BACK_TO.match(earlier[0].lower())
    if back is None:
        return None
    rest = [*back.group("rest").split(), *said.strip(" .!?").split()]
    return _made_whole(earlier[1:], rest, message, now, timezone, alone=False)


def _said_since_a_change(conversation: Sequence[Message], most: int = _LOOK_BACK) -> list[str]:
    """The customer's `most` messages before the last one, newest first, back to the last
    change made (an ask before it may have been made already)."""
    last = last_user(conversation)
    earlier: list[str] = []
    # (before the last message: in a later round the lookups of this turn follow it)
    for at in range(-1 if last is None else last - 1, -1, -1):
        said_before = conversation[at]
        if isinstance(said_before, ToolExchange) and any(
            r.ok and r.call.tool_name in WRITE_TOOLS for r in said_before.results
        ):
            break
        if isinstance(said_before, UserTurn):
            earlier.append(said_before.text)
            if len(earlier) == most:
                break
    return earlier


def _made_whole(
    earlier: Sequence[str],
    rest: Sequence[str],
    message: str,
    now: datetime,
    timezone: str,
    *,
    alone: bool = True,
) -> list[Intent] | None:
    """The latest ask of `earlier` that lacked something, about the thing `rest` opens
    with, made whole with the words after it (asked again when `alone` and none follow)."""
    for asked in earlier:
        lacking = [
            i for i in detect_intents(asked, now, timezone) if i.writes and i.missing and _of(i)
        ]
        if len(lacking) != 1:
            continue
        own = _of(lacking[0]) | _ITSELF
        named = 0
        while named < len(rest) and rest[named] in own:
            named += 1
        if named == 0:
            return None  # not the thing that ask was about
        if named == len(rest):
            # "ok back to the haircut": that ask again, what it lacks asked again
            return [dataclasses.replace(lacking[0], clause=message)] if alone else None
        found = detect_intents(f"{asked.rstrip(' .!?')} {' '.join(rest[named:])}", now, timezone)
        if len(found) == 1 and found[0].kind == lacking[0].kind and found[0].complete:
            return [dataclasses.replace(found[0], clause=message)]
        return None
    return None


def _of(intent: Intent) -> frozenset[str]:
    """The words of what an ask is about: the item changed, or the service booked."""
    if intent.target is not None:
        return frozenset() if intent.target.vague else frozenset(intent.target.words)
    service = intent.arguments.get("service")
    return frozenset(service.lower().split()) if isinstance(service, str) else frozenset()


__all__ = ["back_to_ask"]
