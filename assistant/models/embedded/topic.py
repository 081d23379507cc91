"""A question that names nothing, asked about the topic in view: the listing again.

"ok what have I got now" after a move, "what's my week looking like now" after a
booking, "how many are open now" after a case was opened, "and the other ones?" after
the high-priority task, "do I not already have one" after a booking, "what else is on
there?" after a task was added: each asks about what the conversation is on, so the
listing of that kind is read again (reads only). "What's the number now" reads the
profile. A question that names a topic of its own is read as it stands
(assistant.language), and one that leans on nothing in view gets the usual reply.
"""

from __future__ import annotations

import re

from assistant.dialogue_state import Dialogue
from assistant.language.patterns import rx
from assistant.language.text import normalize

# The listing that shows each kind of item again.
_LISTING = {
    "appointment": "crm.listUpcomingAppointments",
    "task": "crm.listTasks",
    "invoice": "crm.getOpenInvoices",
    "ticket": "crm.listOpenTickets",
}

# Questions that ask about "what there is" without naming it.
_AGAIN = rx(
    r"\bwhat (?:have|do) i (?:got|have)(?: now| left| booked| on| coming up)?"
    r"(?: then| now| still| anymore)?$"
    r"|\bwhat(?:'s| is| does) (?:my|the) (?:week|day|month|list|schedule|diary|calendar)"
    r" (?:look|looking) like\b"
    r"|\bhow many (?:are|is|do i have|have i got)(?: (?:there|left|open|still open|pending"
    r"|booked|now))*$"
    r"|^(?:and |what about |how about )?(?:the other ones|the others|the rest)$"
    r"|\b(?:do|don't|dont|didn't|didnt) i (?:not )?(?:already|still) have (?:one|it|that)\b"
    r"|\bwhat(?:'s| is) (?:left )?on (?:the|my) (?:list|to-?do list)\b"
    r"|\bwhat(?:'s| is) left\b"
    # "what else is on there", "what else have I got": the rest of the list in view.
    r"|\bwhat(?: else)?(?:'s| is)? (?:on|in) (?:there|it)$"
    r"|\bwhat else (?:have i got|do i have|is there)(?: (?:on|in) (?:there|it))?$"
    # "and anything still open?", "what else is open for me?": what is still open of the
    # kind in view (the cases, the bills)
    r"|^(?:(?:and|so|ok|okay|fine)[ ,.]+)*(?:is there )?(?:anything|what)(?: else)?(?: is)?"
    r"(?: still)? (?:open|outstanding|unpaid)(?: for me| on my account)?$"
)
# Words of the profile: the contact details on file.
_PROFILE = rx(
    r"^(?:and |so |ok |okay )?(?:what'?s|what is) (?:the|my)(?: phone| mobile| new)?"
    r" (?:number|phone|mobile|email|e-mail)(?: address)?(?: (?:now|on file|you have))?$"
)


def listing_again(text: str, state: Dialogue) -> str | None:
    """The read for a question about the topic in view, or None."""
    said = normalize(text).text.strip(" ?!.")
    if len(said.split()) > 10:
        return None
    if _PROFILE.search(said):
        return "crm.getCustomerProfile"  # "what's the number now"
    if not _AGAIN.search(said):
        return None
    if re.search(r"\b(?:list|to-?do)\b", said):
        return "crm.listTasks"
    kind = state.listed_kind or state.focus_kind
    return _LISTING.get(kind or "")


__all__ = ["listing_again"]
