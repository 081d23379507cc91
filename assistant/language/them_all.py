"""'Both', 'them': the things a message has just told, for one action to apply to each.

"I've done the groceries and booked the eye exam, so tick both off", "I don't need the
groceries or the eye exam reminders any more, delete both". Only what the clauses just
before told is taken; anything else is left for the resolver to ask about.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from assistant.language.intent import Intent
from assistant.language.patterns import rx
from assistant.language.targets import target_ref
from assistant.language.text import Normalized

_THEM_ALL = frozenset({"both", "both of them", "them both", "them", "the two", "both of those"})
# "I've done the groceries", "booked the eye exam": what a clause told was done.
_TOLD_DONE = rx(
    r"^(?:i've |i have |i |we've |we have |just |already |also )*(?:done|did|finished|sorted"
    r"|booked|paid|bought|sent|renewed|called|picked up|handled|dealt with"
    r"|(?:don't|do not|no longer) need|(?:don't|do not) want)\b"
)


_PAIR = rx(r"(?P<a>.+?) (?:and|or|nor) (?P<b>.+?)(?: (?:any ?more|anymore|now|either|as well))?")


def names_them_all(intent: Intent) -> bool:
    target = intent.target
    return (
        intent.kind in ("complete_task", "delete_task")
        and target is not None
        and target.phrase.lower() in _THEM_ALL
    )


def each_said(intent: Intent, said: list[str], norm: Normalized, now: datetime) -> list[Intent]:
    """ "I've done the groceries and booked the eye exam, tick both off": the action, once
    for each of the two things just told; anything else is left to ask about."""
    if not said:
        return []
    told_last = _TOLD_DONE.match(said[-1])
    pair = _PAIR.fullmatch(said[-1][told_last.end() :].strip()) if told_last else None
    if pair is not None:
        # "I don't need the groceries or the eye exam reminders any more, delete both"
        phrases = [pair.group("a"), pair.group("b")]
    elif len(said) >= 2:
        phrases = []
        for clause in said[-2:]:
            told = _TOLD_DONE.match(clause)
            if told is None:
                return []
            phrases.append(clause[told.end() :])
    else:
        return []
    targets = [target_ref(phrase, norm.original, now) for phrase in phrases]
    if any(target.vague for target in targets):
        return []
    return [dataclasses.replace(intent, target=target) for target in targets]


__all__ = ["each_said", "names_them_all"]
