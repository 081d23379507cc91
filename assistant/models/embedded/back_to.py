""" "ok so back to the haircut saturday at one": an ask left waiting for its day or hour
("i need to move my haircut" → "When would you like to move it to?"), come back to after
other questions in between, with what it lacked. Said on the phone there is no comma after
the thing come back to, so the words after it are read as the answer to that ask."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from assistant.language import Intent, detect_intents
from assistant.language.patterns import rx
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
    if "back to" not in said or (back := _BACK_TO.match(said)) is None:
        return None
    rest = back.group("rest").split()
    earlier: list[str] = []
    for said_before in reversed(conversation[:-1]):
        if isinstance(said_before, ToolExchange) and any(
            r.ok and r.call.tool_name in WRITE_TOOLS for r in said_before.results
        ):
            break  # a change made since: the ask before it may have been made already
        if isinstance(said_before, UserTurn):
            earlier.append(said_before.text)
    for asked in earlier[:_LOOK_BACK]:
        lacking = [
            i
            for i in detect_intents(asked, now, timezone)
            if i.writes and i.missing and i.target is not None and not i.target.vague
        ]
        if len(lacking) != 1:
            continue
        own = set(lacking[0].target.words) | _ITSELF  # type: ignore[union-attr]
        named = 0
        while named < len(rest) and rest[named] in own:
            named += 1
        if named == 0 or named == len(rest):
            return None  # not the thing that ask was about, or nothing added to it
        found = detect_intents(f"{asked.rstrip(' .!?')} {' '.join(rest[named:])}", now, timezone)
        if len(found) == 1 and found[0].kind == lacking[0].kind and found[0].complete:
            return found
        return None
    return None


__all__ = ["back_to_ask"]
