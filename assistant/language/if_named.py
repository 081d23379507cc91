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

from assistant.language.lexicon import SERVICES
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


# "is my cleaning still on monday? if so push it an hour later": the same condition, asked
# first and then leaned on ("if so", "if yes", "if it is").
_ASKED_THEN_IF_SO = rx(
    r"\b(?:is|are) (?P<np>(?:the |my )?(?!it\b|that\b|this\b|there\b)[a-z][a-z' -]{1,40}?)"
    r" (?:still )?(?:there|on (?:my|the) (?:list|tasks?|to-?do list)|pending|open|booked"
    rf"|scheduled|on (?P<day>{_DAY}|the weekend|a weekend)|in the (?P<part>morning|afternoon"
    r"|evening))(?: still)?\s*[?.,]\s*(?:and |ok |okay |so )?if (?:so|yes|it is|it's|they are)"
    r",? (?:then )?(?:please )?(?:can you |could you |just |go ahead and )?"
    r"(?P<verb>mark|tick|cross|complete|finish|delete|remove|cancel|move|reschedule|push"
    r"|change|set|make) (?:it|that|that one)\b"
)
# "cancel the cleaning if it's before noon", "move the haircut to 4 if it's on friday": the
# condition said after the ask, of the thing it names ("before noon" is its morning). Only
# said last: whatever follows may be another condition.
_VERB_THEN_IF = rx(
    r"\b(?P<verb>cancel|delete|remove|move|reschedule|push|mark|complete) (?P<np>(?:the |my )"
    r"(?!one\b)[a-z][a-z' -]{1,40}?)(?P<rest>(?: (?:to|by|back|forward|earlier|later)\b[^,]*?)?)"
    r",? (?:but )?(?:only )?if (?:it's|it is|its|it falls|that's|that is) (?:still )?"
    rf"(?:on (?P<day>{_DAY})|in the (?P<part>morning|afternoon|evening)"
    r"|(?P<am>before (?:noon|midday|lunch|12(?: ?pm| o'?clock)?)))[.!]*$"
)


# "cancel my friday appointment but only if it's the haircut": the visit named by its day
# (or hour), the condition its service (it was read and asked about, the haircut not found
# for "if it's the haircut" alone). Read as "cancel my friday haircut": not found, which is
# asked, and nothing cancelled.
_VERB_THEN_IF_SERVICE = rx(
    r"\b(?P<verb>cancel|delete|remove|move|reschedule|push) (?P<np>(?:the |my )[a-z0-9:' -]{0,40}?)"
    r"(?P<noun>appointment|booking|visit|one)(?P<rest>(?: (?:to|by|back|forward|earlier|later)"
    r"\b[^,]*?)?),? (?:but )?(?:only )?if (?:it's|it is|its|that's|that is) (?:the |my |a |an )?"
    r"(?P<service>[a-z][a-z' -]{1,30}?)(?: one| appointment)?[.!]*$"
)


# "if the eye exam task has no due date, set it for the 10th", "give the eye exam task a
# due date of the 25th if it doesn't have one": the to-do with no due date is the one
# named ("the eye exam task without a due date"): finding it checks the condition, and a
# to-do that has one is not found, and nothing is written (was: a question a yes answered
# without the to-do ever read).
_IF_UNDATED = rx(
    r"\bif (?P<np>(?:the |my )?(?!it\b|that\b|this\b)[a-z][a-z' -]{1,40}?)"
    r"(?: (?:task|to-?do|reminder|one))? (?:has no|doesn't have a|does not have a|doesnt have a"
    r"|hasn't got a|has not got a|doesn't have any|doesnt have any|is without a) (?:due )?"
    r"(?:date|deadline)(?: yet| set)?,? (?:then )?(?:please )?(?:can you |could you |just "
    r"|go ahead and )?(?P<verb>set|make|put|move|give|change) (?:it|that)\b"
)
_UNDATED_AFTER = rx(
    r",? (?:but )?(?:only )?if (?:it|that) (?:(?:doesn't|does not|doesnt|hasn't|has not|hasnt)"
    r" (?:have|got) (?:one|a (?:due )?date|any (?:due )?date|a deadline)|has no (?:due )?"
    r"(?:date|deadline))(?: yet| already| set)?[.!]*$"
)
_TASK_WORD = rx(r"\b(?:task|to-?do|reminder)\b")


_ARTICLE = rx(r"\b(?:the|my) ")
_SAID_HOW = rx(r"\s*(?:due|for|to|on|by|high|low|normal|a |an )")


def _undated_named(text: str) -> str:
    """ "set the undated eye exam task for the 10th" ("undated" is read with the name)."""
    if (said := _IF_UNDATED.search(text)) is not None:
        np = said.group("np")
        core = np.removeprefix("the ").removeprefix("my ")
        noun = "" if _TASK_WORD.search(np) else " task"
        rest = text[said.end() :]
        if said.group("verb") == "make" and not _SAID_HOW.match(rest):
            rest = f" due{rest}"  # "…, make it friday": its due day
        return f"{text[: said.start()]}{said.group('verb')} the undated {core}{noun}{rest}"
    if (after := _UNDATED_AFTER.search(text)) is not None and (
        noun_at := _TASK_WORD.search(text, 0, after.start())
    ) is not None:
        articles = list(_ARTICLE.finditer(text, 0, noun_at.start()))
        if not articles:
            return text
        at = articles[-1].end()
        return f"{text[:at]}undated {text[at : after.start()]}"
    return text


def condition_named(text: str) -> str:
    """`text` (lower-cased) with such a condition read as the thing it names."""
    if ("date" in text or "one" in text or "deadline" in text) and (
        " no " in text or "n't" in text or "not " in text or "nt " in text
    ):
        undated = _undated_named(text)
        if undated != text:
            return undated
    if ("if it" in text or "if that" in text) and (
        of := _VERB_THEN_IF_SERVICE.search(text)
    ) is not None:
        service = of.group("service")
        if SERVICES.get(service) or SERVICES.get(service.replace(" ", "")):
            said = f"{of.group('verb')} {of.group('np')}{service}{of.group('rest')}"
            return f"{text[: of.start()]}{said}"
    match = _IF_NAMED.search(text) or _ASKED_THEN_IF_SO.search(text)
    if match is None and (after := _VERB_THEN_IF.search(text)) is not None:
        day = f" on {after.group('day')}" if after.group("day") else ""
        part = after.group("part") or ("morning" if after.group("am") else "")
        said = f"{after.group('verb')} {after.group('np')}{day}"
        said += f" in the {part}" if part else ""
        return f"{text[: after.start()]}{said}{after.group('rest')}"
    if match is None:
        return text
    day = match.group("day") or ""
    day = f" on {'the weekend' if day.endswith('weekend') else day}" if day else ""
    part = f" in the {match.group('part')}" if match.group("part") else ""
    said = f"{match.group('verb')} {match.group('np')}{day}{part}"
    return f"{text[: match.start()]}{said}{text[match.end() :]}"
