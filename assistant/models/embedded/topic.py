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
# "so what's due and when?", "what's due now": what falls due, of the to-dos in view.
_DUE_NOW = rx(
    r"^(?:(?:so|and|ok|okay|then)[ ,]+)*what(?:'s| is) (?:due|coming due)(?: now| then)?"
    r"(?: and (?:when|by when|what day))?(?: now| then)?$"
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


def due_again(text: str, state: Dialogue) -> str | None:
    """ "so what's due and when?" with a to-do in view (one just changed or listed): the
    to-dos, read again. A bill is due too: with no to-do in view, it is read as it stands."""
    if "due" not in text.lower():
        return None
    said = normalize(text).text.strip(" ?!.")
    if not _DUE_NOW.search(said):
        return None
    kind = state.listed_kind or state.focus_kind
    return "crm.listTasks" if kind == "task" else None


# "when did I open that?", "when was it raised?": of the case in view, its listing again
# (it says when each was opened).
_OPENED_WHEN = rx(
    r"^(?:(?:and|so|ok|okay)[ ,]+)*when (?:did|was|were) (?:i|we|it|that|this|that one|they)"
    r"(?: (?:one|case|ticket))? ?(?:open|opened|raise|raised|log|logged|file|filed|put in"
    r"|submit|submitted|report|reported|make|made)(?: (?:that|it|this|that one|them))?$"
)


def opened_when(text: str, state: Dialogue) -> str | None:
    """The cases' listing for "when did I open that?" with a case in view, else None."""
    if "when" not in text.lower() or (state.listed_kind or state.focus_kind) != "ticket":
        return None
    said = normalize(text).text.strip(" ?!.")
    return "crm.listOpenTickets" if _OPENED_WHEN.search(said) else None


__all__ = ["due_again", "listing_again", "opened_when"]
