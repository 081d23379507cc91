"""Words about people other than the customer, and what they said.

"book a checkup for my son", "my sister wants a haircut on friday", "cancel my husband's
haircut": the account is the customer's own, so a visit for someone else is never booked,
moved or cancelled in the customer's name; the customer is told so and asked.
"my husband said to cancel the dentist", "the receptionist told me to move it": what
another person said is reported, not asked for; the change is asked about first.
"""

from __future__ import annotations

import re

from assistant.language.patterns import rx

# Someone the customer may book for, ask about, or quote.
PERSON = (
    r"(?:son|sons|daughter|daughters|husband|wife|partner|spouse|kid|kids|child|children"
    r"|boy|girl|baby|mom|mum|mother|dad|father|parents?|sister|brother|sibling|friend"
    r"|boyfriend|girlfriend|fiance|fiancee|fiancé|fiancée|grandma|grandmother|grandpa"
    r"|grandfather|grandson|granddaughter|aunt|uncle|niece|nephew|cousin|roommate|flatmate"
    r"|neighbou?r|colleague|coworker|co-worker|boss|mother-in-law|father-in-law|family"
    r"|little one)"
)
# Every way of naming someone else above says "my <person>" or "our <person>": looked for
# first, so that a request naming no one costs one quick search.
_NAMES_A_PERSON = re.compile(rf"\b(?:my|our) {PERSON}\b")
_FOR_SOMEONE_ELSE = rx(
    # "for my son", "for my wife and me" (not "for my son's school run": a task)
    rf"\bfor (?:my|our) {PERSON}\b(?!'s)"
    # "for me and my son": the other one's is asked about too (only hers was booked)
    rf"|\bfor (?:me|myself|us) and (?:my|our) {PERSON}\b"
    # "my husband's haircut", "my daughter's checkup" (typed in a hurry: "my husbands haircut")
    rf"|\b(?:my|our) {PERSON}(?:'s|s) (?:\w+ )?(?:appointment|booking|visit|session|haircut"
    r"|cleaning|checkup|check-up|consultation|exam|therapy|physio)"
    # "my sister wants a haircut", "my son needs a checkup"
    rf"|^(?:and |but |so |also |oh )*(?:my|our) {PERSON} (?:wants|needs|would like|'d like"
    r"|is after|is hoping for|has to have|should get)\b"
    # "book my son in", "get my mum a haircut"
    rf"|\b(?:book|get|schedule|fit|squeeze|put) (?:my|our) {PERSON} (?:in|a|an|for|down)\b"
)
# Another person's words, reported: "my husband said to cancel", "the clinic told me to".
_REPORTED = rx(
    rf"^(?:and |but |so |well |um |uh |oh )*(?:(?:my|our) {PERSON}|(?:my|the|our) (?:doctor"
    r"|dentist|receptionist|stylist|hairdresser|barber|therapist|nurse|clinic|salon|office"
    r"|front desk|assistant|secretary)|he|she|they|someone|somebody)"
    r" (?:said|says|told me|tells me|keeps telling me|wants me|wanted me|asked me|thinks|thought"
    r"|reckons|suggested|suggests|insists|insisted|keeps saying)\b"
    r"|^(?:i was|i've been|i have been|i got) (?:told|asked) to\b"
    # "my neighbour wants to complain about your parking lot": another's wish, relayed
    # (a case was opened in the customer's name)
    rf"|^(?:and |but |so |well |um |uh |oh )*(?:my|our) {PERSON}"
    r" (?:wants|would like|wanted|needs|is going|was going|plans|is planning) to\b"
)


# Asked about another person's account, or pushing back on being told it is not theirs:
# "when is my husband james smith's haircut?", "what does my son owe?", "come on, he's
# my husband, he asked me to check", "it's on his account, just do it".
SOMEONE_ELSES_ACCOUNT = rx(
    rf"\b(?:when|what|where|which|how much|how many|tell me|show me|check|look up|see)\b"
    rf".*\b(?:my|our) {PERSON}(?: [a-z]+){{0,2}}'s (?:\w+ )?(?:appointments?|bookings?|visits?"
    r"|haircut|cleaning|checkup|check-up|consultation|exam|therapy|bills?|invoices?|balance"
    r"|tasks?|list|account|details|number|email)\b"
    rf"|\b(?:when|what|where|how much)\b.*\b(?:does|do|is|are) (?:my|our) {PERSON}"
    r"(?: [a-z]+){0,2} (?:owe|booked|have|got|due)\b"
    r"|\b(?:on|it's on|its on|in|under) (?:his|her|their) (?:account|name|list|profile)\b"
    rf"|\b(?:he|she)(?:'s| is) my {PERSON}\b|\b(?:he|she) asked me to\b"
    # "my sister Ana has a ticket open with you too, can you check it for her?"
    rf"|\b(?:my|our) {PERSON}(?: [a-z]+)? (?:has|had|got|'s got) (?:a|an|some) (?:\w+ )?"
    r"(?:tickets?|cases?|appointments?|bookings?|bills?|invoices?)\b"
    r".*\b(?:for (?:her|him|them)|her|his|their)\b"
    # "I'm calling for my mother, she wants to know what she owes"
    rf"|\b(?:calling|ringing|phoning|asking|checking) (?:for|on behalf of) (?:my|our) {PERSON}\b"
    r".*\b(?:what|when|how much)\b.*\b(?:he|she|they) (?:owes?|has|have|is|are|booked)\b"
)


# "for both of us", "for 2 people": more people than the customer, none named.
_FOR_SEVERAL = rx(
    r"\bfor (?:both of us|us both|the (?:two|both) of us|all of us|(?:2|two|3|three|4|four)"
    r" (?:people|persons|of us|adults))\b"
)


# "a massage for two on friday at 3", "a facial for 2 thursday at 4": a count after "for",
# with the hour said apart ("at 3"), is of people (alone, "for two" may be the hour).
_FOR_A_COUNT = rx(
    r"\bfor (?:2|two|3|three|4|four)\b(?!:|\.\d|/\d|-\d| ?(?:hours?|hrs?|minutes?|mins?|pm|am"
    r"|p m|a m|o ?clock|thirty|fifteen|forty|weeks?|days?|months?|nights?|years?)\b)(?=.*\bat \S)"
)


def people_counted(said: str) -> re.Match[str] | None:
    """Where the normalized clause counts the people a visit is for by a bare number
    ("for two … at 3"): no time of day, though said as one."""
    return _FOR_A_COUNT.search(said) if " for " in said and " at " in said else None


# "two haircuts saturday 10am", "book 2 massages at 3": more than one visit at one time,
# none said apart ("two massages, one saturday and one sunday" are two bookings, each
# with its time). One was booked and said as if that was the ask. (Read normalized: one
# noun, "two haircut".)
_COUNTED = re.compile(r"\b(?:2|two|3|three|4|four|couple of|pair of) ")
_SEVERAL_VISITS = rx(
    r"\b(?:2|two|3|three|4|four|couple of|pair of) (?:[a-z-]+ )?(?:haircut|hair cut|cleaning"
    r"|massage|facial|check-?up|consultation|consult|exam|trim|appointment|visit|session"
    r"|booking|slot|spot)s?\b(?!,? (?:one|the first)\b)"
)


def for_someone_else(said: str) -> bool:
    """The normalized clause asks for a visit for another person ("for my son"), or for
    more people than the customer ("for both of us": one was booked, said as all)."""
    if " for " in said and (_FOR_SEVERAL.search(said) or people_counted(said)) is not None:
        return True
    return _NAMES_A_PERSON.search(said) is not None and bool(_FOR_SOMEONE_ELSE.search(said))


# The words that say whom else it is for, when they can be left out ("for my son").
_FOR_WHOM = rx(
    rf"\bfor (?:(?:me|myself|us) and )?(?:my|our) {PERSON}\b(?!'s)|{_FOR_SEVERAL.pattern}"
    rf"|{_FOR_A_COUNT.pattern}"
)


def as_her_own(said: str) -> str | None:
    """The clause without the words that say whom else it is for ("book a checkup for my
    son" → "book a checkup"), once she says it is hers; None when they cannot be left out."""
    left = " ".join(_FOR_WHOM.sub(" ", said).split())
    return None if left == " ".join(said.split()) or for_someone_else(left) else left


def several_visits(said: str) -> bool:
    """The normalized clause books more than one visit at the time it says ("two haircuts
    saturday 10am"): asked about as a visit for others is."""
    return _COUNTED.search(said) is not None and _SEVERAL_VISITS.search(said) is not None


def reported(said: str) -> bool:
    """The normalized clause reports what another person said or wants of the customer."""
    return bool(_REPORTED.search(said))


__all__ = [
    "SOMEONE_ELSES_ACCOUNT",
    "as_her_own",
    "for_someone_else",
    "people_counted",
    "reported",
    "several_visits",
]
