"""A second booking of a service, then "no, move the one I have instead": the visit there
before is moved to the time just booked, and the one just booked is cancelled, both under
one question (the cancel is asked about; the move waits for the same yes, integrity.py).
Was: "When would you like to move it to?", the new booking left beside the old one."""

from __future__ import annotations

from assistant.dialogue_state import Dialogue
from assistant.language import Intent
from assistant.language.patterns import rx
from assistant.language.targets import TargetRef
from assistant.language.text import normalize
from assistant.models.embedded.pinning import pinned

# "move the one I have instead", "I meant move my current one there", "just move the old
# one to that time": the visit had before the booking, moved to where the new one is.
_THE_ONE_HAD = rx(
    r"\b(?:move|shift|reschedule|switch|put)\b.*\b(?:the one i(?:'ve)? (?:have|had|got|already"
    r" have|booked before)|(?:my|the) (?:current|old|existing|original|first|other|earlier)"
    r" one|the one (?:already )?(?:there|booked)|mine)\b"
)
# …to the new one's time, said or implied ("instead", "there", "to that time").
_NO_OTHER_TIME = rx(r"\b(?:\d|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow)")


def kept_instead(state: Dialogue, message: str) -> list[Intent] | None:
    """The cancel of the visit just booked and the move of the one had before to its time;
    None when this is not that."""
    action = state.last_action
    if action is None or action.tool != "crm.bookAppointment" or action.after is None:
        return None
    said = normalize(message).text
    if _THE_ONE_HAD.search(said) is None or _NO_OTHER_TIME.search(said) is not None:
        return None
    new = action.after
    service = str(new.get("service") or "")
    starts = new.get("starts_at")
    if not service or not isinstance(starts, str) or not new.get("id"):
        return None
    just_booked = pinned(new, "service")
    had = TargetRef(
        phrase=f"my {service.lower()}",
        words=tuple(service.lower().split()),
        excluded=just_booked,
    )
    return [
        Intent("cancel_appointment", target=just_booked, clause=said),
        Intent("reschedule_appointment", {"starts_at": starts}, target=had, clause=said),
    ]


__all__ = ["kept_instead"]
