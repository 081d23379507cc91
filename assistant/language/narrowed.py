""" "Yes to the first, no to the second", "no wait, just the task": a reply to a question
about several changes that picks some of them.

The question named its changes in an order ("cancel your haircut … and delete the task
'Buy groceries'"). The reply is read in parts (split at its commas and before each yes,
no, not, but, and, except), and each part that names changes says yes or no to them:

- a change is named by its place in the question ("the first", "the second one", "the
  last"), by its kind ("the task", "the appointment", "the number"), by its verb ("just
  delete it", of a question holding one delete) or by a word of it ("just the haircut",
  "only the groceries one");
- a part says yes with "yes", "just", "only", "go ahead", "do", or the change's verb, and
  no with "no", "not", "don't", "leave", "keep", "except", "skip"; "just" or "only" say yes
  to what they name even after a "no" ("no wait, just the task").

The changes said yes to, less those said no to, are what the customer picked; "yes but
not the task" picks all but the task. A pick with a yes said ("yes", "go ahead") goes
ahead; without one ("no wait, just the task", "keep the haircut") it is a no that narrows
the question, which is asked again about what is left. Only a strict part of the question
is a pick: a part that names a change with no yes or no said ("the haircut is fine"), a name that
matches nothing, or a pick of all or none is not read here (the reply is then heard as
before: anything but a clear yes drops the question).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from assistant.language.slots import services_named
from assistant.language.spelling import words

# Cheap gate: a reply that picks says one of these (most replies are a bare yes or no).
_PICKING = re.compile(
    r"\b(?:just|only|first|second|third|last|1st|2nd|3rd|except|but|not|no to|yes to"
    r"|leave|keep|skip|don't|dont|do not)\b"
    # "the haircut yes, the task no": a yes or a no said after what it is said of
    r"|[a-z],? +(?:yes|yeah|yep|no|nope|nah)\b"
)
_PARTS = re.compile(r"[,;.!?]+|\s+(?=(?:yes|yeah|yep|no|nope|nah|not|but|and|except)\b)")
# "no wait a second": a pause, not the second change.
_PAUSE = re.compile(r"\b(?:a|one|just a) sec(?:ond)?\b")
_ONLY = re.compile(r"\b(?:just|only)\b")
_NO = re.compile(
    r"\b(?:no|nope|nah|not|don't|dont|do not|leave|keep|except|skip|never ?mind|forget)\b"
)
_YES = re.compile(
    r"\b(?:yes|yeah|yep|yup|sure|go ahead|do|please do|cancel|delete|remove|change|update"
    r"|confirm|proceed)\b"
)
# A yes said outright: without one, a reply that picks narrows the question.
# ("do the cancel but not the delete": "do" and the change named is a yes too)
_AGREED = re.compile(
    # ("so yeah only the first": "so yeah" opens what is said, as "um" does, and is no yes:
    # the pick is asked again, as "only the first" is)
    r"\b(?:yes|(?<!\bso )yeah|yep|yup|sure|go ahead|please do|confirm|proceed"
    r"|do (?:the|that|it))\b"
)
_LEAD_YES_NO = re.compile(r"(yes|yeah|yep|no|nope|nah)\b[\s,]*")
_PLACES = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2}
_FEW = re.compile(r"\b(?P<end>first|last|top|bottom) (?P<n>two|three|2|3)\b")
_KINDS = {
    "task": "task",
    "tasks": "task",
    "todo": "task",
    "to-do": "task",
    "reminder": "task",
    "appointment": "appointment",
    "appointments": "appointment",
    "appt": "appointment",
    "booking": "appointment",
    "visit": "appointment",
    "number": "contact",
    "phone": "contact",
    "email": "contact",
}
_VERB_KINDS = {"delete": "task", "remove": "task", "cancel": "appointment"}
_NOT_NAMES = words(
    """
    the a an to one ones please wait yes yeah yep yup no nope nah just only that this it
    those them go ahead do delete cancel remove my your with on for thanks ok okay actually
    sorry oh uh um fine but and not keep leave except skip sure of is are i me you want
    thing then so well change update confirm proceed dont don't all rest other
    cheers thank ta much great perfect lovely brilliant appreciated appreciate mate
    hold hang
    """
)
_WORD = re.compile(r"[a-z0-9'-]+")


def agreed(reply: str) -> bool:
    """Whether a reply that picks says yes outright ("yes to the first")."""
    return _AGREED.search(reply.lower()) is not None


def picked(reply: str, kinds: Sequence[str], names: Sequence[str]) -> frozenset[int] | None:
    """The places (in the question's order) of the changes `reply` says yes to, when it
    picks a strict part of them; None when it does not read as such a pick.

    `kinds[i]` is "task", "appointment" or "contact"; `names[i]` the change as the
    question said it ("delete the task 'Buy groceries'")."""
    count = len(names)
    text = reply.lower().strip()
    if count < 2 or not _PICKING.search(text):
        return None
    text = _PAUSE.sub(" ", text)
    yes: set[int] = set()
    no: set[int] = set()
    yes_said = False
    # A part that names changes and says nothing of them, until a bare yes or no follows
    # ("the haircut yes, the task no": each said of the name before it)
    waiting: set[int] | None = None
    for part in filter(None, (p.strip() for p in _PARTS.split(text))):
        if waiting is not None and (lead := _LEAD_YES_NO.match(part)) and part[lead.end() :]:
            # "the task yes the haircut no", unpunctuated: the yes is the name's before it
            (yes if lead.group(1) in ("yes", "yeah", "yep") else no).update(waiting)
            waiting = None
            part = part[lead.end() :]
        named = _named(part, kinds, [name.lower() for name in names])
        if named is None:
            return None  # a word naming nothing of the question: not read here
        if _ONLY.search(part):
            polarity = True
        elif _NO.search(part):
            polarity = False
        elif _YES.search(part):
            polarity = True
        else:
            polarity = None
        if not named:
            if waiting is not None and polarity is not None:
                (yes if polarity else no).update(waiting)
                waiting = None
            yes_said = yes_said or polarity is True
            continue
        if waiting is not None:
            return None  # a name with nothing said of it, then another
        if polarity is None:
            # "the haircut is fine": named, but neither yes nor no is said (unless a bare
            # yes or no follows it)
            waiting = named
            continue
        (yes if polarity else no).update(named)
    if waiting is not None:
        return None
    if not yes and no:
        # "yes, but not the task": all the others, gone ahead with; "keep the haircut",
        # "no, not the insurance one" (no yes said): all the others, asked about again
        # (was: the question dropped, or aimed at the very one to keep)
        yes = set(range(count))
    chosen = yes - no
    if not chosen or len(chosen) == count:
        return None
    return frozenset(chosen)


def _named(part: str, kinds: Sequence[str], names: Sequence[str]) -> set[int] | None:
    """The places a part of the reply names (empty: none), or None if a word of it looks
    like a name but matches no change of the question."""
    count = len(names)
    found: set[int] = set()
    if (few := _FEW.search(part)) is not None:
        # "only the first two", "just the last two": those places (was read as the first)
        many = {"two": 2, "three": 3}.get(few.group("n")) or int(few.group("n"))
        if many >= count:
            return None
        first = few.group("end") in ("first", "top")
        found |= set(range(many)) if first else set(range(count - many, count))
        part = f"{part[: few.start()]} {part[few.end() :]}"
    words = _WORD.findall(part)
    for word in words:
        if word in _PLACES and _PLACES[word] < count:
            found.add(_PLACES[word])
        elif word == "last":
            found.add(count - 1)
        elif word in _KINDS:
            found |= {i for i, kind in enumerate(kinds) if kind == _KINDS[word]}
    for service in services_named(part):
        found |= {i for i, name in enumerate(names) if service.lower() in name}
    verbs = {_VERB_KINDS[word] for word in words if word in _VERB_KINDS}
    if not found and len(verbs) == 1:
        # "no, just delete it": the verb names the changes of its kind, if not all are.
        of_kind = {i for i, kind in enumerate(kinds) if kind in verbs}
        if len(of_kind) < count:
            found |= of_kind
    for word in words:
        if word in _NOT_NAMES or word in _PLACES or word in _KINDS or word == "last":
            continue
        if len(word) < 3 or services_named(word):
            continue
        matches = {i for i, name in enumerate(names) if re.search(rf"\b{re.escape(word)}\b", name)}
        if not matches:
            return None
        found |= matches
    return found


__all__ = ["agreed", "picked"]
