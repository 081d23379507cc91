"""A condition that only names the thing to act on: "if groceries is still there mark it
done", "if my dental cleaning is on wednesday move it to thursday".

Whether such a condition holds is exactly what finding the thing checks: the task is
there, the visit is on that day or in that part of it. So it is read as the target ("mark
groceries done", "move my dental cleaning on wednesday to thursday"): done when found,
and when not, the answer says what there is instead and nothing is written. Other
conditions ("if it's more than 100 dollars", "if I have nothing on friday") are left to
be asked about.
"""

from __future__ import annotations

from assistant.language.patterns import rx

_DAY = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow"
_IF_NAMED = rx(
    r"\bif (?P<np>(?:the |my )?(?!it\b|that\b|this\b|so\b|not\b)[a-z][a-z' -]{1,40}?)"
    r" (?:is|are|falls|fall|lands|land) (?:still )?"
    r"(?:there|on (?:my|the) (?:list|tasks?|to-?do list)|pending|open|not done(?: yet)?"
    rf"|not finished|booked|scheduled|on (?P<day>{_DAY}|the weekend|a weekend)"
    # "if my cleaning is in the morning, move it to 2pm": the visit of that part of the day
    r"|in the (?P<part>morning|afternoon|evening))(?: still)?,?"
    r" (?:then )?"
    r"(?:please )?(?:can you |could you |just |go ahead and )?"
    r"(?P<verb>mark|tick|cross|complete|finish|delete|remove|cancel|move|reschedule|push"
    r"|change|set|make) (?:it|that|that one)\b"
)


def condition_named(text: str) -> str:
    """`text` (lower-cased) with such a condition read as the thing it names."""
    match = _IF_NAMED.search(text)
    if match is None:
        return text
    day = match.group("day") or ""
    day = f" on {'the weekend' if day.endswith('weekend') else day}" if day else ""
    part = f" in the {match.group('part')}" if match.group("part") else ""
    said = f"{match.group('verb')} {match.group('np')}{day}{part}"
    return f"{text[: match.start()]}{said}{text[match.end() :]}"
