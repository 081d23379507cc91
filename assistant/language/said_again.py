"""A thing or a verb said over in the same breath, as a caller puts it right on the phone:
"book a massage for, uh, make it a facial, tuesday at 2", "mark groceries, actually the
insurance one, done", "the insurance is done, no wait, not the insurance, the groceries",
"cancel the haircut, I mean not cancel, move it to saturday same time"; and an ask begun
and dropped: "so I was going to cancel my cleaning but, um…".

What was said first is never written: the message is read as the customer settled on it
("book a facial tuesday at 2", "mark the insurance one done", "the groceries is done",
"move the haircut to saturday same time"), before the rules read it (put_right.py does
the same for a day, an hour or a priority put right). Only what is plainly said again is
replaced: a service by a service, a to-do named "the … one" after a to-do told done or
deleted, a thing said back after "not" (the very words said before), a verb by another
aimed at "it"; anything else is left as said. An ask begun with "I was going to…" and cut
off after its "but" is taken back (nothing is changed on a half-said ask).
"""

from __future__ import annotations

import re

from assistant.language.lexicon import SERVICES
from assistant.language.patterns import rx

# The words that mark what follows as said instead ("no" alone: said_over reads it too).
_CUE = r"(?:actually|sorry|no|nope|wait|oops|whoops|i mean|i meant|hang on|hold on)"
_CUES = rf"(?:{_CUE}[,.!]? )+"
# Most messages hold none of these: one look says whether to read further.
_GATE = ("actually", "sorry", "no", "wait", "oops", "i mean", "i meant", "make it", "make that")

_SERVICE = "|".join(sorted((re.escape(name) for name in SERVICES), key=len, reverse=True))
# A day or an hour said after the service, kept for the one said instead ("book a massage
# on tuesday at 2. actually make it a facial": a facial on tuesday at 2).
_WHEN_WORD = (
    r"(?:on|at|for|this|next|tomorrow|today|tonight|morning|afternoon|evening|am|pm|the"
    r"|\w+day|\d{1,2}(?::\d\d)?(?:am|pm)?|\d{1,2}(?:st|nd|rd|th))"
)
_MAKE_IT = r"(?:make|change) (?:it|that)(?: to)?[,.]? "
# "book a massage for, uh, make it a facial", "cancel the cleaning, sorry, the haircut": a
# service said, then another said in its place.
_SERVICE_SAID_OVER = rx(
    rf"\b(?P<det>a|an|the|my) (?P<old>{_SERVICE})(?: appointment)?(?P<when>(?: {_WHEN_WORD})*?)"
    rf"(?: (?:for|with))?[,.!]? (?:{_CUES}(?:{_MAKE_IT}(?:{_CUES})?)?|{_MAKE_IT}(?:{_CUES})?)"
    rf"(?P<det2>a|an|the|my) (?P<new>{_SERVICE})\b(?! (?:is|was|are|'s)\b)"
)
_WHEN_AFTER = rx(rf"(?: appointment)? {_WHEN_WORD}\b")
# "mark groceries, actually the insurance one, done", "mark the groceries done. sorry, the
# insurance one": a to-do named again as "the … one" after one told done or deleted.
_TASK_VERB = r"(?:mark|tick off|tick|cross off|check off|complete|finish|delete|remove)"
_TASK_NOUN = r"(?:one|task|thing|reminder|to-?do)"
_DONE = r"(?:(?: as)? (?:done|complete|completed|finished|off))?"
_TASK_SAID_OVER = rx(
    rf"\b(?P<verb>{_TASK_VERB}) (?P<det>(?:the|my) )?(?P<old>[a-z][a-z']*(?: [a-z][a-z']*){{0,2}}?)"
    rf"(?: (?P<noun>{_TASK_NOUN}))?(?P<after>{_DONE})[,.!]? {_CUES}"
    rf"(?P<det2>the|my) (?P<new>[a-z][a-z' ]*?) (?P<noun2>{_TASK_NOUN})"
    rf"(?P<tail>{_DONE})\s*(?=[.,!?]|$)"
)
# "the insurance is done, no wait, not the insurance, the groceries": the very words said
# before taken back by "not", and what is meant said after them.
_THING = r"(?:the|my|a|an) [a-z][a-z']*(?: [a-z][a-z']*)?"
_NOT_THE_SAME = rx(
    rf"\b(?P<old>{_THING})(?P<mid>\b[^.!?]*?)[,.!]? (?:{_CUES})?not (?P=old)[,.]? "
    rf"(?:(?:but|i mean|i meant)[,.]? )?(?P<new>{_THING})\b"
)
# "cancel the haircut, I mean not cancel, move it to saturday": one change said, then
# another aimed at the same thing ("it") in its place.
_CHANGE_VERB = r"(?:cancel|move|reschedule|push|delete|remove|mark|complete|tick off)"
_NOT_A_PLACE = r"(?!(?:to|on|at|for|from|by|until|till)\b)"
_VERB_SAID_OVER = rx(
    rf"\b(?P<v1>{_CHANGE_VERB}) (?P<obj>(?:the|my|that|this)(?: {_NOT_A_PLACE}[a-z']+){{1,4}}?)"
    rf"(?P<where>(?: (?:to|on|at|for|from) [^,.!?]*?)?)[,.!]? {_CUES}"
    rf"(?:not (?:to )?(?P=v1)[,.!]? (?:(?:but|just)[,.]? )?)?(?P<v2>{_CHANGE_VERB}) (?:it|that)\b"
)
# "mark the eye exam done, no wait, don't mark anything, just tell me what's on my list":
# the ask before the cue taken back whole, what follows it asked instead.
_TAKEN_BACK = rx(
    rf"[,.!]? {_CUES}(?:(?:don't|dont|do not) (?:do|mark|change|cancel|move|book|delete|remove"
    r"|touch|add|tick|complete|update) (?:that|it|anything|any of (?:that|it|them)|them)"
    # "…to friday, no wait, keep it where it is"
    r"|(?:keep|leave) (?:it|that|them) (?:where (?:it|they) (?:is|are)|as (?:it|they) (?:is|are)"
    r"|as is|alone)"
    # "cancel my haircut, actually don't, just tell me what time it is": a bare "don't"
    # (or "don't do that") after the cue, then a stop and the ask said instead
    r"|(?:don't|dont|do not)(?: do (?:it|that))?(?=[,.!;] ))(?: off| yet| for now| after all)?"
    r"[,.!;]?\s*"
    r"(?:(?:just|and|but|instead)[,.]?\s+)?(?P<rest>.*)$"
)
_ASKED = rx(
    r"\b(?:book|schedule|move|reschedule|push|cancel|delete|remove|mark|complete|tick|add"
    r"|change|update|make|set|put)\b"
)
_NAMED = rx(r"\b(?:the|my) [a-z' ]+?(?= (?:to|on|at|for|as|done|off|due|from|and)\b|$)")
_ASK_START = rx(r".*(?:[.!?;,]\s+|\band (?:also |then )?)")
# "…to saturday at 2, no wait, keep it on friday, just make it 4": the day kept, the hour
# put right (or the hour kept, the day put right).
_DAY = r"(?:on )?(?:\w+day|tomorrow|today|the \d{1,2}(?:st|nd|rd|th))"
_HOUR = r"at \d{1,2}(?::\d\d)?(?: ?[ap]m)?"
_KEEP_IT = rx(
    rf"\bkeep it (?P<kept>{_DAY}|{_HOUR})[,.]? (?:(?:just|but|and)[,.]? )?make it "
    rf"(?P<new>{_DAY}|(?:at )?\d{{1,2}}(?::\d\d)?(?: ?[ap]m)?)\b"
)
# "so I was going to cancel my cleaning but, um": an ask begun and dropped after "but".
_DROPPED = rx(
    r"^(?P<ask>i was (?:going to|gonna|about to|thinking of|planning to)\b.*?)[\s,]+but[\s,.!?-]*"
    # ("…but um, thanks": the thanks is no ask taken up again)
    r"(?:(?:thanks|thank you|thx|cheers|sorry)[\s,.!?]*)?$"
)


def _det(det: str, noun: str) -> str:
    if det not in ("a", "an"):
        return det
    return "an" if noun[:1] in "aeiou" else "a"


def _service(match: re.Match[str]) -> str:
    if match.group("old") == match.group("new") or SERVICES.get(match.group("old")) == SERVICES.get(
        match.group("new")
    ):
        return match.group(0)  # the same visit said twice: nothing put right
    new, when = match.group("new"), match.group("when")
    if _WHEN_AFTER.match(match.string, match.end()):
        when = ""  # "…the haircut on friday, no, the cleaning on monday": its own day
    return f"{_det(match.group('det2'), new)} {new}{when}"


def _task(match: re.Match[str]) -> str:
    """ "tick off the eye exam task, sorry, the groceries one": the groceries task."""
    det = match.group("det") or f"{match.group('det2')} "
    noun = match.group("noun") or match.group("noun2")
    done = match.group("after") or match.group("tail")
    return f"{match.group('verb')} {det}{match.group('new')} {noun}{done}"


def _not_the_same(match: re.Match[str]) -> str:
    return f"{match.group('new')}{match.group('mid')}"


def _verb(match: re.Match[str]) -> str:
    if match.group("v1") == match.group("v2"):
        return match.group(0)
    # "move my haircut to friday, no wait, cancel it": the new day goes with the move; "cancel
    # the haircut on friday, actually move it…": the day says which haircut
    where = "" if match.group("where").startswith(" to ") else match.group("where")
    return f"{match.group('v2')} {match.group('obj')}{where}"


def _taken_back(message: str) -> str:
    found = _TAKEN_BACK.search(message)
    if found is None:
        return message
    before = message[: found.start()]
    start = _ASK_START.match(before)
    if not _ASKED.search(before, start.end() if start else 0):
        return message  # ("no sorry, don't cancel it, just move it…": no ask said before)
    kept = before[: start.end()].rstrip(" ,;") if start else ""
    kept = re.sub(r"\s*\band(?: also| then)?$", "", kept)
    rest = found.group("rest").strip()
    named = _NAMED.search(before, start.end() if start else 0)
    if named is not None and " it" in f" {rest}":
        # "…, just tell me when it is": "it" is what the ask taken back named
        rest = re.sub(r"\bit\b", named.group(0), rest, count=1)
    said = " ".join(part for part in (kept, rest) if part)
    return said or "never mind"


def _keep_it(match: re.Match[str]) -> str:
    kept, new = match.group("kept"), match.group("new")
    if kept.startswith("at ") or kept[:1].isdigit():
        return f"make it {new} {kept}"  # "keep it at 2, make it sunday"
    return (
        f"make it {kept} {new if new.startswith('at ') or not new[:1].isdigit() else 'at ' + new}"
    )


def said_again(message: str) -> str:
    """`message` (lowercase) as the customer settled on it (see the module's docstring)."""
    if (
        " but" in message
        and any(word in message for word in ("going to", "gonna", " about to", "ing of", "ing to"))
        and (dropped := _DROPPED.match(message)) is not None
        and _ASKED.search(dropped.group("ask"))
    ):  # ("I was going to ask about my bill but…" asks still: it is read as said)
        return f"{dropped.group('ask')}. never mind"
    if not any(cue in message for cue in _GATE):
        return message
    if "don" in message or "do not" in message or "keep it" in message or "leave it" in message:
        message = _taken_back(message)
    if "keep it" in message:
        message = _KEEP_IT.sub(_keep_it, message)
    if " not " in message:
        message = _NOT_THE_SAME.sub(_not_the_same, message)
    message = _VERB_SAID_OVER.sub(_verb, message)
    message = _TASK_SAID_OVER.sub(_task, message)
    return _SERVICE_SAID_OVER.sub(_service, message)


__all__ = ["said_again"]
