""" "When's the second one due?", "and the first one?": one item of the list just heard,
named, so that a question about it reads like one about it by name."""

from __future__ import annotations

import re

from assistant.dialogue_state import Dialogue
from assistant.language.patterns import rx
from assistant.language.slots import services_named
from assistant.models.embedded.pinning import ORDINALS

# "when's the second one due?", "and the first one?": a question about one listed item.
_ASKED_OF_ONE = rx(
    r"^(?:and |so |ok |okay |what about |how about )*(?:the )?(?:first|second|third|fourth"
    r"|fifth|last) one\W*$|\b(?:what|what's|when|when's|which|how|is|was|has)\b"
)
_ORDINAL_ONE = rx(r"\bthe (?P<o>first|second|third|fourth|fifth|last) one\b")


# "and the plumber one, what day is that?": a task named by a word, then asked when.
_NAMED_THEN_WHEN = rx(
    r"^(?:(?:and|so|ok|okay|what about)\b\W*)*the (?P<w>[a-z]+(?: [a-z]+)?) (?:one|task)"
    r"\W+(?:what day|when)(?:'s| is| was)? (?:that|it)(?: due)?\W*$"
)


def ordinal_named(state: Dialogue, message: str) -> str:
    """ "when's the second one due?" after a list: the second one listed, named (questions
    only; an action counted in a list is read by its own rule). "the plumber one, what day
    is that?": when that task is due (a visit named so is asked about as it is)."""
    lowered = message.lower()
    if "one" in lowered or "task" in lowered:
        asked_when = _NAMED_THEN_WHEN.match(lowered)
        if asked_when is not None and not services_named(asked_when.group("w")):
            return f"when is the {asked_when.group('w')} one due?"
    one = _ORDINAL_ONE.search(lowered)
    if one is None or state.listed_kind not in ("task", "appointment") or len(state.listed) < 2:
        return message
    if not _ASKED_OF_ONE.search(lowered):
        return message
    index = ORDINALS[one.group("o")]
    if not -len(state.listed) <= index < len(state.listed):
        return message
    item = state.listed[index]
    label = str(item.get("service") or item.get("title") or "").lower()
    if not label:
        return message
    named = f"the {label}" if state.listed_kind == "appointment" else f"the {label} task"
    # "the first one, what time is that?": "that" is the one named.
    after = re.sub(
        r"\b(is|was|'s) (?:that|it|this)\b", rf"\1 {named}", lowered[one.end() :], count=1
    )
    return lowered[: one.start()] + named + after


__all__ = ["ordinal_named"]
