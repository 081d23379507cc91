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
    r"|booked|now|on there|on it|on the list|on my list))*$"
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
    # "what did I say the email was again?": the one on file now
    r"|^(?:and |so |ok |okay |sorry )?what did i (?:say|give you as) (?:the|my)(?: new)?"
    r" (?:number|phone|mobile|email|e-mail)(?: number| address)? (?:was|is)(?: again)?$"
)


# "and my phone number is still the same one, yeah?": the detail on file, asked after (a
# question, never a change of it).
_DETAIL_KEPT = rx(
    r"^(?:and |so |ok |okay )?(?:is )?my (?:phone|mobile|email|e-mail)(?: number| address)?"
    r" (?:is )?still the same(?: one| number| as before)?,?(?: (?:yeah|yes|right|isn't it"
    r"|is it|no|too))?$"
    # "and the email stays as it was?", "my phone stays the same, right?" (said after the
    # other detail was changed)
    r"|^(?:and |so |ok |okay |but )?(?:the|my) (?:phone|mobile|email|e-mail)(?: number| address)?"
    r" (?:stays|stayed|is staying|remains|hasn't changed|didn't change|is unchanged)"
    r"(?: (?:as it was|the same|as it is|as before|unchanged))?,?(?: (?:yeah|yes|right"
    r"|isn't it|is it|no|too|though|then))?$"
)


def detail_kept(text: str) -> bool:
    """Whether `text` asks if a contact detail on file is still the same."""
    said = text.lower()
    if "still" not in said and "stay" not in said and "remain" not in said and "chang" not in said:
        return False  # most messages
    return _DETAIL_KEPT.search(normalize(text).text.strip(" ?!.")) is not None


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


# "which of them still has no date on it?": the to-dos in view that have no due day.
NO_DATE = rx(
    r"\b(?:which|what)\b.*\b(?:has|have|got|with|is|are)\b.*\bno (?:due )?(?:date|deadline|day)\b"
    r"|\b(?:which|what)\b.*\bwithout (?:a |any )?(?:due )?(?:date|deadline)\b"
)


def due_again(text: str, state: Dialogue) -> str | None:
    """ "so what's due and when?" with a to-do in view (one just changed or listed): the
    to-dos, read again. A bill is due too: with no to-do in view, it is read as it stands.
    "which of them has no date?" with the to-dos in view: read again, to tell those."""
    lowered = text.lower()
    if (
        (" no " in lowered or "without" in lowered)
        and (state.listed_kind or state.focus_kind) == "task"
        and NO_DATE.search(lowered)
    ):
        return "crm.listTasks"
    if "due" not in lowered:
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


__all__ = ["NO_DATE", "detail_kept", "due_again", "listing_again", "opened_when"]
