"""Contact details as they were when a change to them was asked about, and as they are.

"Shall I change your email to maria.new@example.com?" is a question about the email on
file at that moment. When the office (or another tab, or a call) changes it before the
yes, the yes would overwrite a change the customer never heard of, so the question is
asked again, naming what is on file now. The profile is read when the question is
asked (a check of that turn, kept in the history) and again before the yes runs.

    was = last_profile(results_newest_first)      # the profile read at the question
    why = contact_changed(held_calls, was, now)   # "Your email has changed since I asked
                                                  #  (it's now a@b.example)" or None

A yes never writes blind: when the profile cannot be read before it (UNREAD), or was not
read at the question, so that a change since cannot be told (contact_unknown), the
question is asked again, naming what is on file now where it can be read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from assistant.schema import ToolCall, ToolResult
from assistant.speech import join_and, phone

CONTACT_CHANGE = "crm.updateContactInfo"
PROFILE_READ = "crm.getCustomerProfile"

# The fields a contact change sets, and how each is named and said.
_FIELDS: dict[str, tuple[str, Callable[[str], str]]] = {
    "email": ("email", str),
    "phone": ("phone number", phone),
}


UNREAD = "I couldn't check the details on file just now, so nothing is changed yet:"


def changes_contact(calls: Iterable[ToolCall]) -> bool:
    return any(call.tool_name == CONTACT_CHANGE for call in calls)


def last_profile(results: Iterable[ToolResult]) -> Mapping[str, Any] | None:
    """The first readable profile among `results` (give them newest first)."""
    for result in results:
        if result.call.tool_name == PROFILE_READ and result.ok and isinstance(result.result, dict):
            return result.result
    return None


def contact_changed(
    calls: Sequence[ToolCall], was: Mapping[str, Any], now: Mapping[str, Any]
) -> str | None:
    """Why the held contact changes are asked about again: a field they set is not on
    file as it was when asked (and not already what they would set it to). None: as it
    was, or unknown (the yes runs)."""
    changed: list[tuple[str, str]] = []
    for call in calls:
        if call.tool_name != CONTACT_CHANGE:
            continue
        for field, (name, say) in _FIELDS.items():
            wanted, before, after = call.arguments.get(field), was.get(field), now.get(field)
            if wanted is None or before is None or after is None:
                continue
            if after != before and after != wanted and (name, say(str(after))) not in changed:
                changed.append((name, say(str(after))))
    if not changed:
        return None
    names = join_and([name for name, _ in changed])
    values = join_and([value for _, value in changed])
    has = "has" if len(changed) == 1 else "have"
    its = "it's" if len(changed) == 1 else "they're"
    return (
        f"Your {names} {has} changed since I asked ({its} now {values}), so nothing is changed yet:"
    )


def contact_unknown(calls: Sequence[ToolCall], now: Mapping[str, Any]) -> str | None:
    """Why the held contact changes are asked about again when the profile could not be
    read at the question: what is on file now, for each field they set that is not
    already what they would set it to. None when every field already is (nothing to
    overwrite)."""
    on_file: list[tuple[str, str]] = []
    for call in calls:
        if call.tool_name != CONTACT_CHANGE:
            continue
        for field, (name, say) in _FIELDS.items():
            wanted, after = call.arguments.get(field), now.get(field)
            if wanted is None or after is None or after == wanted:
                continue
            if (name, say(str(after))) not in on_file:
                on_file.append((name, say(str(after))))
    if not on_file:
        return None
    names = join_and([name for name, _ in on_file])
    values = join_and([value for _, value in on_file])
    its = "it's" if len(on_file) == 1 else "they're"
    return (
        f"I couldn't check your {names} on file when I asked ({its} {values} now), "
        "so nothing is changed yet:"
    )
