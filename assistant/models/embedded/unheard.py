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

from collections.abc import Callable

from assistant.language import Intent
from assistant.language.unheard import as_said, asks_something
from assistant.models.embedded.scene import Scene
from assistant.resolve import NoMatch


def not_understood(
    scene: Scene, confirming: bool, told: Callable[[str], bool] | None = None
) -> list[str]:
    """One sentence naming every part of the request no decision came of (or none);
    `told` picks the parts the answer already speaks to (a limit said plainly)."""
    parts = unheard_in(scene.intents)
    for intent in scene.intents:
        if (words := _named_to_no_end(intent, scene, confirming)) and words not in parts:
            parts.append(words)
    if told is not None:
        parts = [words for words in parts if not told(words)]
    return said_not_understood(parts)


def unheard_in(intents: list[Intent]) -> list[str]:
    """The asks no rule read, kept with the intents read beside them, once each."""
    parts: list[str] = []
    for intent in intents:
        parts += [words for words in intent.unheard if words not in parts]
    return parts


def said_not_understood(parts: list[str]) -> list[str]:
    """The sentence naming `parts` as not understood and not acted on (none for none)."""
    if not parts:
        return []
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
