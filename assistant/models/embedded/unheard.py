"""The parts of a message that were not understood, said plainly after what was done.

"Move my haircut to friday at 3pm and also sort out the thing with my card": the move is
told, and then "I didn't catch what you meant by 'sort out the thing with my card', so I
haven't done anything about it." A customer who is not told believes it was done.

Two kinds of part: the asks the grammar read no decision from (`Intent.unheard`, see
language/unheard.py), and a thing named after an ask as another target of it ("delete the
eye exam task and the other thing too", "move the dentist to thursday and also the blue
thing") that fits nothing on the account while the ask itself went ahead: its call was
made, or it is the one confirmation asked, so nothing else would say so.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from assistant.language import Intent
from assistant.language.scope import asks_to_pay
from assistant.language.slots import service
from assistant.language.unheard import as_said, asks_something
from assistant.models.embedded.scene import Scene
from assistant.resolve import NoMatch


def not_understood(
    scene: Scene, confirming: bool, told: Callable[[str], bool] | None = None
) -> list[str]:
    """One sentence naming every part of the request no decision came of (or none);
    `told` picks the parts the answer already speaks to (a limit said plainly)."""
    parts = unheard_in(scene.intents)
    if len(scene.intents) > 1:
        parts += [words for words in _unknown_visits_asked(scene.intents) if words not in parts]
    for intent in scene.intents:
        if (words := _named_to_no_end(intent, scene, confirming)) and words not in parts:
            parts.append(words)
    if told is not None:
        parts = [words for words in parts if not told(words)]
    # "cancel my haircut and refund me": a payment asked is answered as one (no payment is
    # taken here), not called not understood beside that answer
    parts = [words for words in parts if not asks_to_pay(words.lower())]
    return said_not_understood(parts)


# "…and when is my pilates session?": a visit of a kind no service is, asked after beside
# another ask (the visits were read out, and nothing said of it).
_ASKED_OF_UNKNOWN = re.compile(
    r"\b(?:when(?:'s| is| are)|what time(?:'s| is)|what day(?:'s| is)) (?:my|our|the)"
    r" (?P<s>(?!next\b|last\b|first\b|other\b|new\b|upcoming\b)[a-z]+(?: [a-z]+)?)"
    r" (?P<n>class|session|lesson)\b"
)


def _unknown_visits_asked(intents: list[Intent]) -> list[str]:
    """ "my pilates session" for a look at the visits asking after one of no service's kind."""
    found = []
    for intent in intents:
        clause = intent.clause.lower()
        if intent.kind != "appointments" or not (
            "class" in clause or "session" in clause or "lesson" in clause
        ):
            continue
        if (asked := _ASKED_OF_UNKNOWN.search(clause)) and not service(
            asked.group("s"), asked.group("s")
        ):
            found.append(f"my {asked.group('s')} {asked.group('n')}")
    return found


def unheard_in(intents: list[Intent]) -> list[str]:
    """The asks no rule read, kept with the intents read beside them, once each."""
    parts: list[str] = []
    for intent in intents:
        parts += [words for words in intent.unheard if words not in parts]
    return parts


# "…and also my spin class": a visit of a kind no service of the house's is, so none is
# booked (it was "I didn't catch what you meant by 'my spin class'").
_UNKNOWN_VISIT = re.compile(
    r"^(?:(?:and|also|plus)\s+)*(?:my|the|our)\s+(?P<s>(?!next\b|last\b|first\b|other\b"
    r"|new\b)[a-z]+(?: [a-z]+)?)\s+(?P<n>class|session|lesson)\W*$"
)


def said_not_understood(parts: list[str]) -> list[str]:
    """The sentence naming `parts` as not understood and not acted on (none for none)."""
    if not parts:
        return []
    if any("class" in p or "session" in p or "lesson" in p for p in parts):
        visits = [found for p in parts if (found := _UNKNOWN_VISIT.match(p.lower()))]
        if visits and not service(visits[0].group("s"), visits[0].group("s")):
            rest = said_not_understood([p for p in parts if not _UNKNOWN_VISIT.match(p.lower())])
            visit = f"{visits[0].group('s')} {visits[0].group('n')}"
            return [f"You don't have {'an' if visit[0] in 'aeiou' else 'a'} {visit} booked.", *rest]
    said = " or ".join(f"'{words}'" for words in parts[:3])
    return [f"I didn't catch what you meant by {said}, so I haven't done anything about it."]


def _named_to_no_end(intent: Intent, scene: Scene, confirming: bool) -> str | None:
    """A target said after another of the same ask that fits nothing and names nothing the
    grammar knows, when the ask went ahead for the other: its words, else None."""
    if not intent.needs_target or intent.target is None or intent.missing:
        return None
    siblings = [i for i in scene.intents if i.kind == intent.kind]
    if len(siblings) < 2 or siblings[0] is intent:
        return None
    went_ahead = confirming or any(r.call.tool_name == intent.tool for r in scene.results)
    if not went_ahead or not isinstance(scene.resolution(intent), NoMatch):
        return None
    words = as_said(intent.clause)
    return words if asks_something(words, scene.now) else None
