"""The rules for the account: open a support case, change the email or phone on file."""

from __future__ import annotations

from assistant.language import slots
from assistant.language.clause import CONTACT_NOUN, QUESTION_START, Clause, rx
from assistant.language.intent import Intent

_CREATE_TICKET = (
    rx(
        r"\b(?:open|create|file|raise|submit|log|start|make|put in|lodge|report)(?: up)?"
        r" (?:a |an |new |another )+(?:support |help )?(?:case|ticket|request|complaint"
        r"|issue report|issue|query|dispute|concern)(?P<rest>.*)$"
    ),
    rx(
        r"\b(?:report|flag) (?:a |an |that )?(?:problem|issue|bug|error|fault|mistake)(?P<rest>.*)$"
    ),
    rx(r"\b(?:complain about|complain that|make a complaint about)(?P<rest>\s.+)$"),
    rx(r"\breport that(?P<rest>\s.+)$"),
    # "the app keeps crashing when I open my invoices, please report it": the problem said first.
    rx(
        r"^(?P<rest>.{12,}?)[\s,.]+(?:so |please |can you |could you |would you |and )*"
        r"(?:report|flag|log|raise) (?:it|this|that)(?: for me)?(?: please)?$"
    ),
)
_IMPLICIT_PROBLEM = rx(
    r"\b(?:i have|i've got|i got|there's|there is|i'm having|i am having) (?:a |an |some )?"
    r"(?:problem|issue|trouble)s? (?:with )?(?P<rest>.+)$"
)
_BODY_LEAD = rx(
    r"^[\s,:;-]*(?:for me)?[\s,:;-]*(?:about|for|regarding|re|because|saying|that says|on"
    r"|with|that)?[\s,:;-]*"
)


def create_ticket(c: Clause) -> Intent | None:
    for pattern in _CREATE_TICKET:
        if match := pattern.search(c.text):
            return _ticket(c, _BODY_LEAD.sub("", match.group("rest"), count=1), consent=True)
    if match := _IMPLICIT_PROBLEM.search(c.text):
        # Describing a problem is not yet asking for a case: offer, do not guess a write.
        return _ticket(c, "problem with " + match.group("rest"), consent=False)
    return None


def _ticket(c: Clause, words: str, *, consent: bool) -> Intent:
    text = slots.ticket_text(words, c.original)
    if text is None:
        return Intent("create_ticket", missing=("problem",), clause=c.text)
    subject, body = text
    missing = () if consent else ("consent",)
    return Intent(
        "create_ticket", {"subject": subject, "body": body}, missing=missing, clause=c.text
    )


_CHANGE = rx(
    r"\b(?:update|change|set|switch|swap|correct|replace|new|edit|use|is now|should be|fix"
    r"|moved|from now on|text me|call me|reach me|contact me)\b"
)


# "is my number …", "do you have my email as …": a question about what is on file.
_ASKS_WHETHER = rx(
    r"^(?:is|are|was|do you have|have you got|does|did|is that|is this|is it)\b"
    r"|\b(?:on file|right|correct)\s*\??$"
)


def update_contact(c: Clause) -> Intent | None:
    found = slots.contact(c.text, c.norm)
    said = found.email or found.phone or found.bad_phone
    noun = CONTACT_NOUN.search(c.text)
    if said and _ASKS_WHETHER.search(c.text) and not _CHANGE.search(c.text):
        return None  # "is my phone number +1…?" checks what is on file; it changes nothing
    if said and (noun or _CHANGE.search(c.text)):
        arguments = {
            key: value for key, value in (("email", found.email), ("phone", found.phone)) if value
        }
        missing = ("phone",) if found.bad_phone and not arguments else ()
        return Intent("update_contact", arguments, missing=missing, clause=c.text)
    if noun and _CHANGE.search(c.text) and not QUESTION_START.search(c.text):
        wanted = "email" if "mail" in noun.group(0) else "phone"
        return Intent("update_contact", missing=(wanted,), clause=c.text)
    return None
