"""A booking asked with a detail the CRM cannot keep: who the customer sees ("with Sam",
"can I see dr lee"), how long it lasts ("a 60 minute massage", "for 90 minutes"), which
branch ("at the downtown location"). A booking holds a service and a start only
(CRM_API.md), so such a visit was booked as if the detail held, and the customer told
"You're booked…" for what they did not ask. It is asked about first, the detail named.
"""

from __future__ import annotations

from assistant.language.patterns import rx

_NOT_A_PERSON = (
    r"(?:me|my|him|her|them|us|you|it|this|that|the|a|an|some|extra|no|both|everyone"
    r"|everything|all|whoever|anyone|anybody|someone|somebody|whatever|details|thanks)"
)
_PERSON = rx(
    r"\b(?:with|see) (?:dr|doctor|nurse|mr|mrs|ms|miss)\.? [a-z]+"
    r"|\bwith (?:my usual|the same|a female|a male|a different|another|the senior|the junior)"
    r" (?:stylist|therapist|dentist|doctor|hairdresser|barber|person|one|practitioner|nurse)\b"
    # "with sam on friday", "…at 3 with anna": one word, then a day, an hour or the end
    rf"|\bwith (?!{_NOT_A_PERSON}\b)[a-z]+(?= (?:on|at|for|this|next|tomorrow|today|tonight"
    r"|please)\b|[,.!?]|$)"
)
# "in 2 hours", "within an hour", "an hour later" say when, not how long.
_LENGTH = rx(
    r"(?<!\bin )(?<!\bwithin )(?<!\bin about )\b(?:\d{2,3}|an|one|two|half an|thirty"
    r"|forty[- ]five|sixty|ninety)[ -]?(?:minutes?|mins?|hours?|hrs?)(?:[ -]long)?\b"
    # ("an hour later", "30 minutes earlier", "two hours from now": a shift or a time)
    r"(?! (?:later|earlier|before|after|back|forward|sooner|ahead|from|ago|early|late)\b)"
    r"|\b(?:extra[- ]long|long|short|quick|extended|double) (?:one|session|appointment|visit"
    r"|haircut|massage|facial|cut|treatment)\b"
)
_BRANCH = rx(
    r"\bat (?:the|your) [a-z]+ (?:location|branch|office|clinic|studio|site|store|salon)\b"
)
_WORDS = (
    "with ",
    "see ",
    "minute",
    "min",
    "hour",
    "hr",
    "long",
    "short",
    "quick",
    "extended",
    "double",
    "location",
    "branch",
    "office",
    "clinic",
    "studio",
    "site",
    "store",
    "salon",
)


def unkept_detail(clause: str) -> str | None:
    """The words of `clause` (normalized) that ask what a booking cannot hold, as said;
    None for most clauses."""
    if not any(word in clause for word in _WORDS):
        return None
    for pattern in (_PERSON, _LENGTH, _BRANCH):
        if (found := pattern.search(clause)) is not None:
            return found.group(0)
    return None


def without_length(clause: str) -> str:
    """`clause` without how long it is to last ("a 60 minute massage" is a massage)."""
    return (
        _LENGTH.sub(" ", clause)
        if "min" in clause or "hour" in clause or "hr" in clause
        else clause
    )


__all__ = ["unkept_detail", "without_length"]
