"""A reply that puts off its answer: "hmm, let me think", "I'm not sure yet", "well, it's
hard to explain", or asks for a moment: "hold on a sec", "hang on", "one moment please". It
gives nothing (no title, no time, no yes or no) and asks nothing, so whatever was asked is
still open (a question, or a change waiting for its yes): asked again, never answered with
those words, never let go by them. A pause said with a request ("hang on, first book me a
haircut", "hold on, what else is on my list") is that request.
"""

from __future__ import annotations

import re

from assistant.language.patterns import rx

# A reply that asks for a moment before it answers.
PAUSE = rx(
    r"\b(?:hang on|hold on|one sec(?:ond)?|just a (?:sec(?:ond)?|minute|moment)"
    r"|give me a (?:sec(?:ond)?|minute|moment)|let me (?:find|check|look|get|grab|dig))\b"
)


# Words that put off an answer without giving it: "hmm, let me think", "it's hard to
# explain", "I'm not sure yet"; and the fillers around them.
_HESITATION = rx(
    r"\b(?:let me (?:think|see)|(?:i'm|i am|not) (?:not )?(?:sure|certain)(?: yet)?"
    r"|(?:it's |it is |that's |that is )?(?:hard|difficult|tricky) to (?:explain|say|describe|put)"
    r"|how (?:do|should|can|shall) i (?:put|say|explain|describe) (?:it|this|that)"
    r"|good question|thinking)\b"
)
_FILLERS = rx(
    r"\b(?:hmm+|hm+|um+|uh+|erm+|er|well|so|ok|okay|oh|ah|right|it's|it is|that's|that is"
    r"|actually|honestly|i mean|like|just|really|bit|a|kind of|sort of)\b"
)


# What a pause asked for may say besides: "hold on a sec", "one moment please", "wait a
# minute" (alone: "no wait, the other one" is a correction, not a pause).
_PAUSE_WORDS = rx(
    r"\b(?:wait|(?:one|a|just a|give me a|gimme a) (?:sec(?:ond)?s?|moment|minute|tick|mo)"
    r"|please|for me|let me think|thanks|sorry)\b"
)


def only_pauses(reply: str) -> bool:
    """The reply asks for a moment and says nothing else ("hold on a sec", "hang on a
    second", "one moment please"): whatever was asked is still waiting for its answer."""
    said = reply.lower()
    if "?" in said or (PAUSE.search(said) is None and _MOMENT.search(said) is None):
        return False
    left = _FILLERS.sub(" ", _PAUSE_WORDS.sub(" ", PAUSE.sub(" ", said)))
    return re.sub(r"[\W_]+", "", left) == ""


_MOMENT = rx(r"^\W*(?:(?:one|just a|give me a) moment|wait a (?:sec(?:ond)?|moment|minute))\b")


# A sound made while thinking, said alone ("uh", "hmm...", "erm"): it puts off the answer.
_SOUND = rx(r"\b(?:hmm+|hm+|um+|uh+|erm+|er|ah+m*)\b")


def only_hesitates(reply: str) -> bool:
    """The reply puts off its answer and says nothing else ("hmm, let me think", "well,
    it's hard to explain", a bare "uh"): it is no title, no problem, no time, and asks
    nothing."""
    said = reply.lower()
    if "?" in said or (_HESITATION.search(said) is None and _SOUND.search(said) is None):
        return False
    left = _FILLERS.sub(" ", _HESITATION.sub(" ", PAUSE.sub(" ", said)))
    return re.sub(r"[\W_]+", "", left) == ""


__all__ = ["PAUSE", "only_hesitates", "only_pauses"]
