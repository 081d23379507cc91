"""Requests that hold a change back and only ask to be told.

"don't add anything to my list yet, just tell me what's on it", "I haven't cancelled
anything, have I", "did I already book a massage? don't book another one": the grammar
finds no ask in them (the change is refused or only asked about), yet the customer wants
the listing the change would have touched. Only a read is ever made here: a change held
back is never made, and one asked about is read from what the account shows.
"""

from __future__ import annotations

import re

from assistant.language.patterns import rx
from assistant.language.text import normalize

# The change is refused ("don't…", "not yet") or asked about ("have I cancelled…").
_HELD_BACK = rx(
    r"\b(?:don't|do not|haven't|didn't|not yet)\b|\b(?:have|did) i (?:already |ever )?\w+ed\b"
    r"|\b(?:did|have) i already\b|\bhave i\??$"
)
# …and something is to be told.
_TELL = rx(r"\b(?:tell me|show me|what's|what is|what are|what have|have i|did i|let me know)\b")
_TASKS = rx(r"\b(?:add|tick|mark|delete|remove)\b.*\b(?:list|tasks?|to-?dos?|it)\b")
_APPOINTMENTS = rx(r"\b(?:cancel|cancell?ed|book|booked|reschedule|rescheduled|move|moved)\b")


def held_back_read(text: str) -> str | None:
    """The listing to read for a request that holds its change back, or None."""
    said = normalize(text).text
    if not (_HELD_BACK.search(said) and _TELL.search(said)):
        return None
    if _TASKS.search(said):
        return "crm.listTasks"
    if _APPOINTMENTS.search(said):
        # "have I cancelled…": the history shows cancellations; "what's booked" is ahead.
        asked_back = re.search(r"\b(?:have|did|haven't|didn't) i\b|\bhave i\b", said)
        return "crm.listAppointments" if asked_back else "crm.listUpcomingAppointments"
    return None
