"""After a write that failed: "did that go through?" and "try again", told from the CRM.

The dialogue keeps the writes of the last turn that did not go through
(`Dialogue.failed`). A question whether it went through is answered from a fresh
lookup, never from memory: a write whose outcome was unknown (its reply lost, the CRM
not confirming in time) may have been applied after all. "Try again" looks first too,
and sends again only what the lookup shows was not done, so nothing is applied twice;
a destructive write sent again is held for a yes like any other.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from assistant.dialogue_state import MAY_STILL_LAND, STILL_NOT_LANDED, Dialogue, Item
from assistant.language import slots
from assistant.language.patterns import rx
from assistant.language.smalltalk import classify_chat
from assistant.language.text import normalize
from assistant.models.embedded.undo import takes_back
from assistant.models.embedded.write_tools import WRITE_TOOLS
from assistant.schema import (
    FinalDecision,
    PlanRequest,
    ToolCall,
    ToolCallsDecision,
    ToolExchange,
    ToolResult,
    UserTurn,
)
from assistant.speech import due_day, local_now, parse_day, parse_moment, spoken_datetime
from assistant.write_memory import standing

_DID_YOU_VERB = (
    r"|\bdid you,? (?:actually |really |definitely )?(?:book|move|reschedule|add|change|update"
    r"|complete|finish|delete|remove|open|make|save|put)"
)
# "did that go through?", "did it work", "is it done now?", "has that happened"
# "what happened?" said alone: not a yes-or-no question, so its answer opens without one.
_WHAT_HAPPENED = (
    r"^(?:so |and |ok |okay |well |hm+ )?what(?: has| just)? happened(?: (?:then|there"
    r"|in the end|with (?:that|it|this)|to (?:that|it))| just now)?[ ?.!]*$"
)
_ASKS_WHAT_HAPPENED = rx(_WHAT_HAPPENED)
# "is that all set?", "is it gone?", "we're good?", "all good then?", "is everything
# sorted?": whether the change just made stands, in other words (asked, with its mark)
# (apart from the patterns above, and tried only on a text with a question mark: in them,
# its words, "is", "all", opened their quick test to most messages)
_ALL_SET = rx(
    r"^(?:so |ok |okay |and |right )?(?:(?:is|was) (?:that|it|this|everything)"
    r"(?: all| now| really)? (?:set|good|gone|sorted|fine|ok|okay|through|in|finished"
    r"|taken care of)|(?:are we|we're|we are|is everything|everything's|everything|all)"
    r"(?: all)? (?:good|set|sorted|fine|ok|okay|done))(?: then| now| there| to go)?[ ?]*\?"
    # ("all good then? many thanks": a thanks after it)
    r"(?:\s*(?:many thanks|thanks(?: a lot| so much)?|thank you(?: so much)?|cheers)[ .!]*)?$"
)
_ASKS_IF_DONE = rx(
    # ("go through my tasks with me" asks for them read out, not after a change)
    r"\b(?:go|gone|went|get|got|goes) through\b(?! (?:my|all|your|them|everything|each|every)\b)"
    r"|\b(?:did|has|have) (?:that|it|this|the \w+) (?:actually )?(?:work|worked|happen"
    r"|happened|succeed|succeeded|stick|stuck|save|saved|go ahead|gone ahead)\b"
    r"|\b(?:is|was|has) (?:that|it|this) (?:been )?(?:done|saved|sorted)(?: now)?\??$"
    # "did the case get opened?", "has my booking been made?" after a write that failed:
    # whether it went through (was: the open cases read out, an older one among them)
    # (a thing named, "did my haircut get cancelled", is asked of the CRM as it is now)
    r"|\b(?:did|has|have) (?:that|it|this|(?:the|my) (?:case|ticket|complaint|booking"
    r"|appointment|change|cancellation|request|task|reminder)) (?:actually )?(?:get|got|been)"
    r" (?:opened|made|booked|cancell?ed|moved|saved|created|changed|updated|logged|filed"
    r"|raised|sent)\b"
    r"|\bdid (?:you|it) (?:do|manage|get) (?:it|that)\b"
    # "can you check again?": looked at again (a read that failed is read again)
    r"|^(?:so |ok |okay )?(?:can you |could you |please )?(?:check|look)(?: it| that)? again\b"
    # "what happened?" said alone just after a write: how it went, from the CRM (was: "I
    # can't help with that" after a cancel the CRM had not confirmed). A thing named, "what
    # happened to my refund", is not asked of a write.
    r"|"
    + _WHAT_HAPPENED
    # "did you book it?", "did you add that?" just after the change: was it made
    + _DID_YOU_VERB
    + r"(?: it| that| that one| them)\b"
)
# "try again", "have another go", "can you retry", "give it another shot"
_ASKS_RETRY = rx(
    r"\b(?:try|trying) (?:it |that |this )?(?:again|once more|one more time)\b|\bretry\b"
    r"|\b(?:another|one more) (?:go|try|shot|attempt)\b|\bagain please\b|\bdo it again\b"
)
# The whole message is about "that" alone ("did that go through?", "did it work",
# "try again"): with no change made in the conversation, there is nothing it can mean.
_ABOUT_THAT = rx(
    r"^(?:so |and |ok |okay )?(?:(?:did|has|have) (?:that|it|this) (?:actually )?"
    r"(?:go|gone|went|work|worked|happen|happened|go ahead|gone ahead)(?: through)?"
    r"|(?:is|was) (?:that|it|this) (?:done|sorted)(?: now)?"
    r"|(?:can you |please )?(?:try (?:it |that )?again|retry)(?: please)?"
    r"|(?:can you |could you |please )?(?:check|look)(?: it| that)? again(?: please)?"
    r"|did you,? (?:actually |really |definitely )?(?:book|move|reschedule|add|change|update"
    r"|complete|finish|delete|remove|open|make|save|put) (?:it|that|that one|them))[ ?.!]*$"
)
# Words that ask for something else as well: read as a request of its own.
_OTHER_REQUEST = rx(r"\b(?:and|also|then) (?:book|cancel|add|move|delete|change|open)\b")

# The lookup that shows whether a write of each tool went through.
LOOKUP_OF = {
    "crm.bookAppointment": ("crm.listUpcomingAppointments", {}),
    "crm.rescheduleAppointment": ("crm.listUpcomingAppointments", {}),
    "crm.cancelAppointment": ("crm.listUpcomingAppointments", {}),
    "crm.addTask": ("crm.listTasks", {"status": "all"}),
    "crm.completeTask": ("crm.listTasks", {"status": "all"}),
    "crm.updateTask": ("crm.listTasks", {"status": "all"}),
    "crm.deleteTask": ("crm.listTasks", {"status": "all"}),
    "crm.createTicket": ("crm.listTickets", {"status": "all"}),
    "crm.updateContactInfo": ("crm.getCustomerProfile", {}),
}

_WHAT = {
    "crm.bookAppointment": "the booking",
    "crm.rescheduleAppointment": "the move of your appointment",
    "crm.cancelAppointment": "the cancellation",
    "crm.addTask": "the new task",
    "crm.completeTask": "marking the task done",
    "crm.updateTask": "the change to your task",
    "crm.deleteTask": "deleting the task",
    "crm.createTicket": "the support case",
    "crm.updateContactInfo": "the change to your contact details",
}


# Words without which neither is asked: most messages are passed over without reading.
_CUE = rx(
    r"through|work|happen|succe|stick|stuck|save|sorted|done|manage|go ahead|gone ahead"
    r"|get |got |been "
    r"|again|retry|another|one more|did you",
    re.IGNORECASE,
)
# The words of "is that all set?", "we're good?" (asked with a question mark only).
_SET_CUE = rx(r"\b(?:set|good|gone|fine|ok|okay|in|finished|taken care)\b")


def asked(text: str) -> str | None:
    """ "check" for a question whether it went through, "retry" for a retry, else None."""
    if not _CUE.search(text) and not ("?" in text and _SET_CUE.search(text)):
        return None
    said = normalize(text).text
    if _OTHER_REQUEST.search(said):
        return None
    if _ASKS_RETRY.search(said):
        return "retry"
    if _ASKS_IF_DONE.search(said):
        return "check"
    if "?" in said and _ALL_SET.search(said):
        return "check"  # "is that all set?", "we're good?", "all good then?"
    return None


def about_that(text: str) -> bool:
    """The whole message is about "that" alone ("did that go through?", "try again").
    Anchored, so it is answered at the text's first word: asked of every message of a
    conversation that has made no change yet, where `asked` would scan each one."""
    said = text.strip().lower()
    return _ABOUT_THAT.search(said) is not None or (
        "?" in said and _ALL_SET.search(said) is not None
    )


def lookups(failed: Sequence[Item]) -> list[tuple[str, dict[str, Any]]]:
    """The reads that show whether each failed write went through, each once."""
    found: list[tuple[str, dict[str, Any]]] = []
    for write in failed:
        lookup = LOOKUP_OF.get(str(write.get("tool")))
        if lookup is not None and lookup not in found:
            found.append(lookup)
    return found


def _items(results: Sequence[ToolResult]) -> list[Item] | None:
    """Every item the lookups returned, or None when a lookup failed."""
    items: list[Item] = []
    for result in results:
        if not result.ok or not isinstance(result.result, dict):
            return None
        body = result.result
        for key in ("appointments", "tasks", "tickets"):
            items += [i for i in body.get(key) or () if isinstance(i, dict)]
        if "email" in body or "phone" in body:
            items.append(body)
    return items


def _same_moment(a: object, b: object) -> bool:
    try:
        return datetime.fromisoformat(str(a)) == datetime.fromisoformat(str(b))
    except ValueError:
        return False


def went_through(write: Item, items: Sequence[Item]) -> bool:
    """Whether the CRM's items show the write as done."""
    tool, arguments = str(write.get("tool")), dict(write.get("arguments") or {})
    by_id = {str(i.get("id")): i for i in items}
    if tool == "crm.bookAppointment":
        return any(
            str(i.get("service", "")).lower() == str(arguments.get("service", "")).lower()
            and _same_moment(i.get("starts_at"), arguments.get("starts_at"))
            and i.get("status") != "cancelled"
            for i in items
        )
    if tool == "crm.rescheduleAppointment":
        item = by_id.get(str(arguments.get("appointment_id")))
        return item is not None and _same_moment(item.get("starts_at"), arguments.get("starts_at"))
    if tool == "crm.cancelAppointment":
        item = by_id.get(str(arguments.get("appointment_id")))
        return item is None or item.get("status") == "cancelled"
    if tool == "crm.addTask":
        title = str(arguments.get("title", "")).lower()
        return any(str(i.get("title", "")).lower() == title for i in items)
    if tool == "crm.completeTask":
        item = by_id.get(str(arguments.get("task_id")))
        return item is not None and item.get("status") == "completed"
    if tool == "crm.deleteTask":
        return str(arguments.get("task_id")) not in by_id
    if tool == "crm.updateTask":
        item = by_id.get(str(arguments.get("task_id")))
        fields = {k: v for k, v in arguments.items() if k != "task_id"}
        return item is not None and all(item.get(k) == v for k, v in fields.items())
    if tool == "crm.updateContactInfo":
        profile = next((i for i in items if "email" in i or "phone" in i), None)
        fields = {k: v for k, v in arguments.items() if k in ("email", "phone")}
        return profile is not None and all(profile.get(k) == v for k, v in fields.items())
    if tool == "crm.createTicket":
        subject = str(arguments.get("subject", "")).lower()
        return bool(subject) and any(str(i.get("subject", "")).lower() == subject for i in items)
    return False


def _name_of(write: Item) -> str:
    """What a write not confirmed was of: the title or service it was sent with, or its
    item's as last listed."""
    arguments = write.get("arguments") or {}
    return str(arguments.get("title") or arguments.get("service") or write.get("named") or "")


def verdict(failed: Sequence[Item], results: Sequence[ToolResult]) -> tuple[list[Item], str]:
    """The failed writes still not done, and what to say about the check."""
    items = _items(results)
    what = _spoken([str(w.get("tool")) for w in failed])
    if items is None:
        return list(failed), (
            f"I can't check right now: the system isn't answering. When I last tried, "
            f"{what} had not gone through."
        )
    pending = [w for w in failed if not went_through(w, items)]
    if not pending:
        # each item named as it now is: "…did go through after all; your haircut is
        # cancelled." (was: "the cancellation" alone, of a turn that may have made several)
        left = [told for w in failed if (told := outcome({**w, "label": _name_of(w)}))]
        named = f"; {' and '.join(left)}" if len(left) == len(failed) else ""
        return [], f"Yes: I've checked, and {what} did go through after all{named}."
    if all(_may_still_land(w) for w in pending):
        # Sent, and no answer came before the turn ended: not there yet is not "didn't go
        # through" (was said, and the task landed a moment later). The first look says it
        # may still land; a later one that it doesn't look like it did, never as a fact.
        # (Sent again, it goes under the first one's key: made once either way.)
        landing = _spoken([str(w.get("tool")) for w in pending])
        through = [str(w.get("tool")) for w in failed if w not in pending]
        made = f"{_spoken(through)} went through, but " if through else ""
        if any(w.get("later") for w in pending):
            return pending, (
                f"I've looked again: {made}{landing} still hasn't shown up, so it doesn't look "
                "like it went through. Would you like me to try again?"
            )
        return pending, (
            f"I've checked: {made}{landing} hadn't shown up yet when I looked just now, but "
            "it was sent and could still go through in a moment. Ask me again shortly and "
            "I'll look again."
        )
    if len(pending) < len(failed):
        done = _spoken([str(w.get("tool")) for w in failed if w not in pending])
        still = _spoken([str(w.get("tool")) for w in pending])
        return pending, (
            f"I've checked: {done} went through, but {still} did not. Would you like me to "
            "try that again?"
        )
    return pending, (
        f"No, {what} didn't go through, {_NOTHING_CHANGED}. Would you like me to try again?"
    )


def _may_still_land(write: Item) -> bool:
    """A write sent and never answered (it timed out, or the CRM said it was still making
    it): the CRM may still apply it."""
    return bool(write.get("unconfirmed")) and write.get("code") in ("timeout", "conflict")


_NOTHING_CHANGED = "so nothing was changed"
# (said when other writes of that turn went through)
_THAT_NOT_CHANGED = "so that wasn't changed (the rest of what you asked did go through)"


# Words that name which kind of write is asked about ("did the cancel go through").
_NAMES_WRITE = (
    (rx(r"\bcancel"), ("crm.cancelAppointment",)),
    (rx(r"\bbook"), ("crm.bookAppointment",)),
    (rx(r"\b(?:move|moved|reschedul|change of time)"), ("crm.rescheduleAppointment",)),
    (rx(r"\b(?:delet|remov)"), ("crm.deleteTask",)),
    (rx(r"\b(?:task|reminder)\b"), ("crm.addTask", "crm.updateTask", "crm.completeTask")),
    (rx(r"\b(?:case|ticket|complaint)\b"), ("crm.createTicket",)),
    (rx(r"\b(?:email|phone|number|details)\b"), ("crm.updateContactInfo",)),
)


NOTHING_DONE = (
    "No, I haven't changed anything in this conversation yet. Just ask again if you'd "
    "like me to do it."
)
NOTHING_TO_RETRY = (
    "There's nothing to try again: I haven't tried a change in this conversation yet. "
    "What would you like me to do?"
)


def nothing_held(done: Sequence[Item], now: datetime | None = None) -> str | None:
    """A yes with nothing waiting for it, after a change went through (a yes sent again
    by a client that lost its socket before hearing the answer): what became of it (with
    where it went, when `now` gives the customer's clock)."""
    if not done:
        return None
    told = _outcome(done[-1], now).removeprefix("Yes, ")
    return f"There's nothing waiting for a yes just now; {told}"


# What a write that went through left behind, said of the item it was about.
_OUTCOME = {
    "crm.bookAppointment": "your {} is booked",
    "crm.rescheduleAppointment": "your {} was moved",
    "crm.cancelAppointment": "your {} is cancelled",
    "crm.addTask": "{} is on your list",
    "crm.completeTask": "{} is marked done",
    "crm.updateTask": "{} was changed",
    "crm.deleteTask": "{} was deleted",
    "crm.createTicket": "your support case is open",
    "crm.updateContactInfo": "your contact details were changed",
}


def outcome(write: Item) -> str | None:
    """ "your dental cleaning is cancelled": what a write that went through left behind."""
    # (a delete answers no record: the one it was of, as last listed: "Schedule eye exam was
    # deleted", not "deleting the task went through")
    tool, label = str(write.get("tool")), str(write.get("label") or write.get("named") or "")
    template = _OUTCOME.get(tool)
    if template is None or ("{}" in template and not label):
        return None
    return template.format(label.lower() if "Appointment" in tool else label)


def outcome_at(write: Item, now: datetime) -> str | None:
    """ "your dental cleaning was moved to Thursday, January 17 at 10:00 AM": what a write
    left behind, a visit moved said with where it went."""
    if write.get("tool") != "crm.rescheduleAppointment":
        return outcome(write)  # (the others' words are as they were)
    said = _outcome(write, now)
    if not said.startswith(_WENT):
        return outcome(write)
    return said.removeprefix(_WENT).rstrip(".")


# A visit moved or booked: the time it went to, said after what became of it.
_TO_WHEN = {"crm.rescheduleAppointment": " to {}", "crm.bookAppointment": " for {}"}


def _outcome(write: Item, now: datetime | None = None) -> str:
    """ "Yes, that went through: your dental cleaning is cancelled." ("…was moved to Friday,
    January 18 at 2:00 PM": a visit moved or booked is said with its time, when `now` gives
    the customer's clock.)"""
    # (a delete answers no record: the one it was of, as last listed: "Schedule eye exam was
    # deleted", not "deleting the task went through")
    tool, label = str(write.get("tool")), str(write.get("label") or write.get("named") or "")
    template = _OUTCOME.get(tool)
    if template is None or ("{}" in template and not label):
        return f"Yes, {_spoken([tool])} went through."
    said = template.format(label.lower() if "Appointment" in tool else label)
    starts = parse_moment(write.get("starts_at"))
    if now is not None and starts is not None and tool in _TO_WHEN:
        said += _TO_WHEN[tool].format(spoken_datetime(starts, now))
    if now is not None and isinstance(given := write.get("set"), dict) and given:
        # "Renew car insurance is now due Friday, January 25": what the change set
        parts = []
        if (day := parse_day(given.get("due_on"))) is not None:
            parts.append(f"due {due_day(day, now.date())}")
        if given.get("priority"):
            parts.append(f"{given['priority']} priority")
        if parts:
            said = f"{label} is now {' and '.join(parts)}"
    made = write.get("made")
    if (
        now is not None
        and tool == "crm.addTask"
        and isinstance(made, dict)
        and (day := parse_day(made.get("due_on"))) is not None
    ):
        # "what day did you put it on?" after a reminder was added: its day with it
        said += f", due {due_day(day, now.date())}"
    return f"Yes, that went through: {said}."


_ALL_OF_IT = rx(r"\b(?:all (?:of )?(?:that|it|them|those|this)|everything|both(?: of them)?)\b")
_ALL_TOLD = 5  # the changes said at most, the latest
_WENT = "Yes, that went through: "


def _known_names(state: Dialogue) -> list[set[str]]:
    """The words of each task title and visit service the conversation has seen."""
    items = [*state.listed, *state.earlier_listed]
    items += [item for _, listed in state.listings for item in listed]
    if state.focus is not None:
        items.append(state.focus)
    names = []
    for item in items:
        name = str(item.get("title") or item.get("service") or "").lower()
        if words := {w for w in re.findall(r"[a-z]+", name) if len(w) > 3}:
            names.append(words)
    return names


def _names_another(write: Item, text: str, state: Dialogue) -> bool:
    """The question names a task or visit the write was not of: "did the groceries one go
    through?" after the eye exam was deleted (it was answered "Yes, deleting the task went
    through", of the delete, while the groceries' completion had not gone through)."""
    said = set(re.findall(r"[a-z]+", text))
    label = str(write.get("label") or "") + " " + str(write.get("named") or "")
    for kept in (write.get("made"), write.get("before")):
        if isinstance(kept, dict):
            label += " " + str(kept.get("title") or kept.get("service") or "")
    own = set(re.findall(r"[a-z]+", label.lower()))
    if not own - {""}:
        return False  # what it was of is not known: not judged
    names = _known_names(state)
    if service := slots.service(text, text):
        names.append({w for w in re.findall(r"[a-z]+", service.lower()) if len(w) > 3})
        said |= names[-1]  # "the dentist one": the dental cleaning
    return any(words & said and not words & own for words in names)


def _asked_about(state: Dialogue, message: str) -> tuple[Item, ...]:
    """The failed writes a question is about: those no write went through since, and one
    a write went through after when the question names it ("did the cancel go through?"
    after a task was added since: it was dropped, and a new cancel was asked which of)."""
    kept = standing(state.failed)
    if len(kept) == len(state.failed):
        return kept
    text = normalize(message).text
    named = {tool for words, tools in _NAMES_WRITE if words.search(text) for tool in tools}
    overtaken = tuple(
        write
        for write in state.failed
        if write.get("overtaken") and (write.get("tool") in named or _names_it(write, text))
    )
    return (*kept, *overtaken)


# "was the massage booked in the end?", "did the haircut get cancelled?": asked of a write
# not confirmed that another went through after (its item named).
_IF_DONE_NAMED = rx(
    r"\b(?:was|is|has|did|have)\b.*\b(?:booked|cancell?ed|moved|rescheduled|added|done"
    r"|completed|deleted|removed|made)\b"
)


def _named_overtaken(state: Dialogue, message: str) -> str | None:
    """ "check" when the message asks whether a write overtaken by another went through,
    naming its item; else None."""
    if not any(write.get("overtaken") for write in state.failed):
        return None
    text = normalize(message).text
    if _IF_DONE_NAMED.search(text) is None:
        return None
    named = any(write.get("overtaken") and _names_it(write, text) for write in state.failed)
    return "check" if named else None


def _names_it(write: Item, text: str) -> bool:
    """The question names the item the write was of ("is the haircut cancelled?")."""
    before = write.get("before")
    name = ""
    if isinstance(before, dict):
        name = str(before.get("title") or before.get("service") or "")
    arguments = write.get("arguments") or {}
    name += " " + str(arguments.get("title") or arguments.get("service") or "")
    words = {w for w in re.findall(r"[a-z]+", name.lower()) if len(w) > 3}
    return bool(words & set(re.findall(r"[a-z]+", text)))


def _asked_of(done: Sequence[Item], text: str, state: Dialogue | None = None) -> Item | None:
    """The latest write that went through of the kind the question names (any kind when
    it names none) and not of another item it names, or None."""
    named = [tools for words, tools in _NAMES_WRITE if words.search(text)]
    for write in reversed(done):
        if state is not None and _names_another(write, text, state):
            continue
        if not named or any(write.get("tool") in tools for tools in named):
            return write
    return None


def _spoken(tools: Sequence[str]) -> str:
    names = list(dict.fromkeys(_WHAT.get(tool, "that change") for tool in tools))
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _named_writes(writes: Sequence[Item], now: datetime) -> str:
    """ "adding the task 'Call the plumber'", "moving your appointment to Friday at 3 PM"."""
    named = []
    for write in writes:
        tool, arguments = str(write.get("tool")), dict(write.get("arguments") or {})
        moment = parse_moment(arguments.get("starts_at"))
        when = f" for {spoken_datetime(moment, now)}" if moment is not None else ""
        if tool == "crm.addTask" and arguments.get("title"):
            named.append(f"the task '{arguments['title']}'")
        elif tool == "crm.bookAppointment":
            named.append(f"the {str(arguments.get('service') or 'appointment').lower()}{when}")
        elif tool == "crm.rescheduleAppointment" and moment is not None:
            named.append(f"the move of your appointment to {spoken_datetime(moment, now)}")
        else:
            named.append(_WHAT.get(tool, "that change"))
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


_NOT_MADE_AS = {
    "crm.completeTask": "marking {} done",
    "crm.deleteTask": "deleting {}",
    "crm.updateTask": "the change to {}",
    "crm.cancelAppointment": "cancelling your {}",
}


def not_made_told(failed: Sequence[Item], now: datetime) -> str:
    """ "Marking Buy groceries done hasn't been confirmed, so it may not have gone through:
    ask me to check.": the writes of the last turn that did not go through, said after
    what did (a recap of that turn that told only what went through read as though the
    rest had not been asked, or was done)."""
    named = []
    for write in failed:
        tool, name = str(write.get("tool")), _name_of(write)
        template = _NOT_MADE_AS.get(tool)
        if template is not None and name:
            named.append(template.format(name.lower() if "Appointment" in tool else name))
        else:
            named.append(_named_writes([write], now))
    said = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    said = said[:1].upper() + said[1:]
    if any(write.get("unconfirmed") for write in failed):
        return f"{said} hasn't been confirmed, so it may not have gone through: ask me to check."
    return f"{said} didn't go through, so that wasn't changed."


def not_there_yet(failed: Sequence[Item], results: Sequence[ToolResult], now: datetime) -> str:
    """ "The massage … hadn't shown up yet …": the unconfirmed writes the lookups of this
    turn do not show as made, said beside the take-back of those that went through;
    empty when there is none or the lookups could not be read."""
    reads = [r for r in results if r.call.tool_name in _LOOKUP_TOOLS]
    items = _items(reads) if reads else None
    if items is None:
        return ""
    looked = {r.call.tool_name for r in reads}
    pending = [
        w
        for w in failed
        if w.get("unconfirmed")
        and (LOOKUP_OF.get(str(w.get("tool"))) or ("", {}))[0] in looked
        and not went_through(w, items)
    ]
    if not pending:
        return ""
    # (not MAY_STILL_LAND's words: the take-back asked beside it, once answered, lets go of
    # these writes, so no later look is promised; the customer is told what to ask)
    undo = {"crm.bookAppointment": "cancel it", "crm.addTask": "delete it"}
    asks = {undo.get(str(w.get("tool")), "put it back") for w in pending}
    ask = asks.pop() if len(asks) == 1 else "put it back"
    return (
        f"When I checked just now, {_named_writes(pending, now)} hadn't shown up yet, but it "
        f"was sent and could still go through in a moment: if it does, just ask me to {ask}."
    )


# "no, don't", "no", "stop", "no, keep it", "no don't cancel it": a bare no said right after
# a change the CRM did not confirm in time is that change taken back.
# ("never mind (then)" too: the request let go, said while it may have landed; was "Okay,
# no problem." over a massage the CRM had booked)
_NO_TO_IT = rx(
    r"^(?:(?:oh|no|nope|wait|actually|sorry|hang on|hold on|stop|ok|okay)[, ]+)*"
    r"(?:no|nope|stop|never ?mind(?: then)?|don't|do not|dont|(?:keep|leave) (?:it|that|my \w+))"
    r"(?:[, ]+(?:don't|do not|dont|stop)(?: do (?:it|that))?)?"
    r"(?:[, ]+(?:keep|leave) (?:it|that|my \w+)(?: please)?"
    r"|[, ]+(?:don't |do not |dont )?(?:cancel|delete|add|book|move|change|do) (?:it|that))?"
    r"(?: please)?[.!]*$"
)
# Words that leave the turn to a take-back waiting for a change to land: thanks, "ok".
# (attacks15: "thanks, bye" too: a customer leaving is the last chance to say it landed.)
_NOTHING_ASKED = frozenset({"thanks", "acknowledgement", "goodbye"})


def _unconfirmed_taken_back(request: PlanRequest) -> bool:
    """ "never mind, don't add it", "leave it where it was" just after a change the CRM
    did not confirm in time: whether it went through is looked at first (was: "Okay, I
    won't change anything" over the task added meanwhile, "I can't help with that" over
    the visit moved). A bare "no, don't" too, said just after it (was: "Okay, no
    problem." with the haircut cancelled a moment later). And once a take-back was told
    the change may still land, the next "ok, thanks" or "did it go through?" looks again
    and takes it back if it did (was: the task added after that stayed, unsaid)."""
    failed = standing(request.dialogue.failed)
    if not failed or not all(write.get("unconfirmed") for write in failed):
        return False
    said = normalize(request.user_message).text
    if takes_back(said):
        return True
    if not any(write.get("later") for write in failed) and _NO_TO_IT.match(said):
        return True
    if not any(write.get("taken_back") for write in failed) or ("?" in said and not asked(said)):
        return False
    return asked(said) is not None or (
        len(said.split()) <= 5 and classify_chat(said) in _NOTHING_ASKED
    )


# The changes `_put_back` can make the other way.
_PUT_BACK_TOOLS = frozenset({"crm.addTask", "crm.bookAppointment", "crm.rescheduleAppointment"})


def _put_back(write: Item, items: Sequence[Item], call_id: str) -> ToolCall | None:
    """The call that makes a write that went through the other way, or None."""
    tool, arguments = str(write.get("tool")), dict(write.get("arguments") or {})
    if tool == "crm.addTask":
        title = str(arguments.get("title", "")).lower()
        made = [i for i in items if str(i.get("title", "")).lower() == title]
        if len(made) == 1:
            return ToolCall(
                call_id=call_id,
                tool_name="crm.deleteTask",
                arguments={"task_id": made[0].get("id")},
            )
    if tool == "crm.bookAppointment":
        made = [
            i
            for i in items
            if str(i.get("service", "")).lower() == str(arguments.get("service", "")).lower()
            and _same_moment(i.get("starts_at"), arguments.get("starts_at"))
            and i.get("status") != "cancelled"
        ]
        if len(made) == 1:
            return ToolCall(
                call_id=call_id,
                tool_name="crm.cancelAppointment",
                arguments={"appointment_id": made[0]["id"]},
            )
    before = write.get("before")
    if (
        tool == "crm.rescheduleAppointment"
        and isinstance(before, dict)
        and isinstance(before.get("starts_at"), str)
    ):
        return ToolCall(
            call_id=call_id,
            tool_name="crm.rescheduleAppointment",
            arguments={
                "appointment_id": arguments.get("appointment_id"),
                "starts_at": before["starts_at"],
            },
        )
    return None


def _made_beside(request: PlanRequest) -> list[Item]:
    """The writes that went through in the turn of the unconfirmed ones, as failed writes
    are kept ({"tool", "arguments", "before"}): "undo that" is of them too ("add a task to
    call the bank and book a massage" with the booking unconfirmed: the task stayed,
    untold, while only the massage was looked at)."""
    state = request.dialogue
    if state.since_change != 0:
        return []  # the last change was made in an earlier turn than the failed writes
    return [
        {"tool": action.tool, "arguments": dict(action.arguments), "before": action.before}
        for action in state.last_turn_actions
    ]


def _take_back(request: PlanRequest) -> FinalDecision | ToolCallsDecision | None:
    """The lookup, then the change made the other way where it went through (a delete or a
    cancel held for a yes as any is), and what could not be said as not done."""
    failed, results = standing(request.dialogue.failed), request.turn_results
    beside = _made_beside(request)
    available = {tool.name for tool in request.tools}
    if not results:
        reads = [(t, a) for t, a in lookups([*failed, *beside]) if t in available]
        if not reads:
            return None
        return ToolCallsDecision(
            calls=tuple(
                ToolCall(call_id=f"c_{request.round}_{n}", tool_name=tool, arguments=arguments)
                for n, (tool, arguments) in enumerate(reads, start=1)
            )
        )
    if any(r.call.tool_name not in _LOOKUP_TOOLS for r in results):
        return FinalDecision(text="")  # made the other way: the narrator tells how it went
    items = _items(results)
    what = _spoken([str(w.get("tool")) for w in failed])
    if items is None:
        return FinalDecision(
            text=f"I can't check right now whether {what} went through: the system isn't "
            "answering. Ask me again in a moment and I'll look, and take it back if it did."
        )
    made = [w for w in failed if went_through(w, items)]
    if not made and beside:
        # The ones made beside them are taken back; the unconfirmed ones not there yet are
        # told beside it by the narrator (`not_there_yet`).
        made = [w for w in beside if went_through(w, items)]
    elif made:
        made += [w for w in beside if went_through(w, items)]
    if not made:
        # Not there yet is not "not done": the CRM may still apply what was sent (it
        # did, a moment after "nothing has changed" was said).
        zone = request.customer.timezone if request.customer else None
        named = _named_writes(failed, local_now(request.now, zone))
        if any(write.get("taken_back") for write in failed):
            # Looked at a second time: said once more, plainly, and not again after.
            undone = all(str(w.get("tool")) in _PUT_BACK_TOOLS for w in failed)
            return FinalDecision(
                text=f"I've looked again, and {named} {STILL_NOT_LANDED}, so it doesn't look "
                "like it went through. If it shows up later, tell me and I'll "
                + ("take it back." if undone else "help you set it up again.")
            )
        return FinalDecision(
            text=f"When I checked just now, {named} hadn't shown up yet, but {MAY_STILL_LAND} "
            "in a moment. "
            + (
                "I'll look again when you next say something, and take it back if it did."
                if all(str(w.get("tool")) in _PUT_BACK_TOOLS for w in failed)
                else "I'll look again when you next say something; if it did, I can't "
                "take it back from here, but I can help you set it up again."
            )
        )
    calls = [
        call
        for n, write in enumerate(made, start=1)
        if (call := _put_back(write, items, f"c_{request.round}_{n}")) is not None
        and call.tool_name in available
    ]
    if len(calls) < len(made):
        done = _spoken([str(w.get("tool")) for w in made])
        return FinalDecision(
            text=f"I've checked, and {done} did go through after all, so it has been made. "
            "I can't simply take it back from here; tell me what you'd like instead."
        )
    return ToolCallsDecision(calls=tuple(calls))


# The call ids of the lookups made beside another request, for a take-back waiting for its
# change to land, and of the change made the other way (the narrator reads neither out as
# asked: narrator.py `_quiet_listings`).
LOOK_AGAIN_ID = "_look"
PUT_BACK_ID = "_back"
LAST_ID = "_last"


def _waiting(request: PlanRequest) -> list[Item]:
    """The changes taken back while the CRM was still making them, that can be made the
    other way once they land (told "it was sent and may still go through")."""
    failed = request.dialogue.failed
    if not failed or not all(write.get("unconfirmed") for write in failed):
        return []
    return [w for w in failed if w.get("taken_back") and str(w.get("tool")) in _PUT_BACK_TOOLS]


def decided_here(request: PlanRequest) -> bool:
    """Whether `decide` takes the message itself (a take-back, "ok", "did it go through?")."""
    return (
        _unconfirmed_taken_back(request)
        or asked(request.user_message) is not None
        or again_of_failed(request.dialogue, request.user_message)
    )


# "book it again", "ok add it again then": the write that did not go through, sent again
# by its own verb (was: "When would you like your massage?" after a booking the CRM had
# made but not confirmed, towards a second one). Only of a write that failed: after one
# that went through, "book it again" is another.
_AGAIN_SAID = rx(
    r"^(?:(?:ok|okay|so|then|well|fine|right|alright|hmm)[, ]+)*(?:please |can you |could you "
    r"|just |go ahead and )*(?P<verb>book|add|put|cancel|move|reschedule|delete|remove|mark"
    r"|complete|open|send|submit|file|change|update|do) (?:it|that|this)(?: one)?"
    r"(?: (?:in|down|through|done|as done))? (?:again|once more|one more time)"
    r"(?: then| please| for me| now)*[.!?]*$"
)
_AGAIN_OF = {
    "book": ("crm.bookAppointment",),
    "add": ("crm.addTask",),
    "put": ("crm.addTask",),
    "cancel": ("crm.cancelAppointment",),
    "move": ("crm.rescheduleAppointment", "crm.updateTask"),
    "reschedule": ("crm.rescheduleAppointment",),
    "delete": ("crm.deleteTask",),
    "remove": ("crm.deleteTask",),
    "mark": ("crm.completeTask",),
    "complete": ("crm.completeTask",),
    "open": ("crm.createTicket",),
    "send": ("crm.createTicket",),
    "submit": ("crm.createTicket",),
    "file": ("crm.createTicket",),
    "change": ("crm.rescheduleAppointment", "crm.updateTask", "crm.updateContactInfo"),
    "update": ("crm.updateTask", "crm.updateContactInfo"),
}


def again_of_failed(state: Dialogue, message: str) -> bool:
    """The message sends again, by its verb, a write of the last that did not go through
    (the narrator reads it as "try again" too: no booking of its own asked after)."""
    failed = standing(state.failed)
    lowered = message.lower()
    if not failed or ("again" not in lowered and "more" not in lowered):
        return False
    said = _AGAIN_SAID.search(normalize(message).text)
    if said is None:
        return False
    tools = _AGAIN_OF.get(said.group("verb"))
    return tools is None or any(str(write.get("tool")) in tools for write in failed)


def beside_another(
    request: PlanRequest, decision: FinalDecision | ToolCallsDecision
) -> FinalDecision | ToolCallsDecision:
    """`decision` for a request of another kind said while a take-back waits for its change
    to land: the lookup that shows whether it landed goes beside the request's own calls,
    and if it did, it is made the other way (an add deleted after a yes, a move put back)
    with the request's answer. Was: looked at again only on "ok", "thanks", "did it go
    through?" or another take-back; "what's my balance?" or "mark the groceries done" said
    in between left the plumber task there, unsaid (attacks15)."""
    waiting = _waiting(request)
    if not waiting:
        return decision
    available = {tool.name for tool in request.tools}
    results = request.turn_results
    if isinstance(decision, ToolCallsDecision):
        if decision.last_round and not any(PUT_BACK_ID in r.call.call_id for r in results):
            # Asked again after these calls, to make the change the other way if it landed
            # (`after_the_last`), the calls marked as the planner's last.
            decision = ToolCallsDecision(
                calls=tuple(
                    c.model_copy(update={"call_id": c.call_id + LAST_ID}) for c in decision.calls
                )
            )
        if results:
            return decision
        planned = {(c.tool_name, repr(sorted(c.arguments.items()))) for c in decision.calls}
        extra = [
            ToolCall(
                call_id=f"c_{request.round}{LOOK_AGAIN_ID}{n}",
                tool_name=tool,
                arguments=arguments,
            )
            for n, (tool, arguments) in enumerate(lookups(waiting), start=1)
            if tool in available and (tool, repr(sorted(arguments.items()))) not in planned
        ]
        return ToolCallsDecision(calls=(*decision.calls, *extra)) if extra else decision
    if not results and request.round == 1:
        # Small talk, "what can you do?": answered with no call at all, the lookup goes
        # alone, and the answer is planned again beside its results (was: not looked at
        # until the next turn, and "you're a lifesaver" left the plumber task, unsaid).
        looks = tuple(
            ToolCall(call_id=f"c_1{LOOK_AGAIN_ID}{n}", tool_name=tool, arguments=arguments)
            for n, (tool, arguments) in enumerate(lookups(waiting), start=1)
            if tool in available
        )
        return ToolCallsDecision(calls=looks) if looks else decision
    if not results or any(PUT_BACK_ID in r.call.call_id for r in results):
        return decision
    only_looked = all(LOOK_AGAIN_ID in r.call.call_id for r in results)
    if (
        decision.text
        and not only_looked
        and not any(r.ok and r.call.tool_name in WRITE_TOOLS for r in results)
    ):
        return decision  # its own words ("which one?"): the next turn looks again
    calls = _put_backs(request, waiting)
    # (After a change made, the narrator tells it with the question; the planner's own
    # words of it are not kept.)
    return ToolCallsDecision(calls=tuple(calls), last_round=True) if calls else decision


def landed_after_all(state: Dialogue, results: Sequence[ToolResult], now: datetime) -> str:
    """Why a change made the other way is asked about beside another request: "The task
    'Call the plumber' went through after all, though you'd asked me not to." (Without
    it the question came out of nowhere.) Empty unless a waiting take-back's lookup or put
    back is among `results`."""
    if not any(LOOK_AGAIN_ID in r.call.call_id or LAST_ID in r.call.call_id for r in results):
        return ""
    waiting = [w for w in state.failed if w.get("taken_back")]
    reads = [r for r in results if r.call.tool_name in _LOOKUP_TOOLS]
    items = _items(reads) if reads else None
    if not waiting or items is None:
        return ""
    landed = [w for w in waiting if went_through(w, items)]
    if not landed:
        return ""
    named = _named_writes(landed, now)
    return f"{named[0].upper()}{named[1:]} went through after all, though you'd asked me not to."


def without_looks(request: PlanRequest) -> PlanRequest:
    """`request` without the results of the lookups `beside_another` added."""
    results = request.turn_results
    if not any(LOOK_AGAIN_ID in r.call.call_id for r in results):
        return request
    kept = tuple(r for r in results if LOOK_AGAIN_ID not in r.call.call_id)
    if not kept:
        # only the lookups, beside small talk (`beside_another`): its first round again
        return dataclasses.replace(request, turn_results=kept, round=1)
    return dataclasses.replace(request, turn_results=kept)


def after_the_last(request: PlanRequest) -> FinalDecision | ToolCallsDecision | None:
    """The round after the calls the planner said were its last, asked only to make a
    change waiting to land the other way (`beside_another`): that change, or the results
    narrated. None when this is not that round."""
    results = request.turn_results
    if not any(r.call.call_id.endswith(LAST_ID) for r in results):
        return None
    waiting = _waiting(request)
    if not waiting or any(PUT_BACK_ID in r.call.call_id for r in results):
        return FinalDecision(text="")
    calls = _put_backs(request, waiting)
    if not calls:
        return FinalDecision(text="")
    return ToolCallsDecision(calls=tuple(calls), last_round=True)


def _put_backs(request: PlanRequest, waiting: Sequence[Item]) -> list[ToolCall]:
    """The calls that make the waiting changes the lookups show landed the other way."""
    reads = [r for r in request.turn_results if r.call.tool_name in _LOOKUP_TOOLS]
    looked = {r.call.tool_name for r in reads}
    if not reads or any(
        (LOOKUP_OF.get(str(w.get("tool"))) or ("", {}))[0] not in looked for w in waiting
    ):
        return []
    items = _items(reads)
    if items is None:
        return []
    # (a list read twice, once as asked and once to look: each item once)
    items = list({str(i.get("id", n)): i for n, i in enumerate(items)}.values())
    available = {tool.name for tool in request.tools}
    return [
        call
        for n, write in enumerate(waiting, start=1)
        if went_through(write, items)
        and (call := _put_back(write, items, f"c_{request.round}{PUT_BACK_ID}{n}")) is not None
        and call.tool_name in available
    ]


def _told_as_what(text: str) -> str:
    """A verdict said to "what happened?": without the "Yes"/"No" a question of yes or no
    is answered with ("That went through: your haircut is cancelled.")."""
    for opening, instead in (
        ("Yes, that went through: ", "That went through: "),
        ("Yes: I've checked, and ", "I've checked: "),
        ("No, ", ""),
    ):
        if text.startswith(opening):
            rest = text.removeprefix(opening)
            return instead + rest if instead else rest[:1].upper() + rest[1:]
    return text


# The call ids of the reads made again ("try again" after a read the CRM failed).
READ_AGAIN_ID = "_again"


def _reads_failed_last(request: PlanRequest) -> list[ToolCall]:
    """The reads of the customer's turn before this one that failed, when all of that
    turn's calls were reads (none when one of them went through)."""
    users = 0
    calls: list[ToolCall] = []
    for message in reversed(request.conversation):
        if isinstance(message, UserTurn):
            users += 1
            if users == 2:
                break
        elif users == 1 and isinstance(message, ToolExchange):
            for result in message.results:
                if result.call.tool_name in WRITE_TOOLS:
                    return []
                if not result.ok:
                    calls.append(result.call)
    return calls


def _read_again(request: PlanRequest) -> FinalDecision | ToolCallsDecision | None:
    """ "try again", "can you check again?" after a read the CRM failed (was: "There's
    nothing to try again: I haven't tried a change in this conversation yet."): the reads
    made again, then told by the narrator."""
    if request.turn_results:
        if all(READ_AGAIN_ID in r.call.call_id for r in request.turn_results):
            return FinalDecision(text="")
        return None
    available = {tool.name for tool in request.tools}
    calls = tuple(
        ToolCall(
            call_id=f"c_{request.round}_{n}{READ_AGAIN_ID}",
            tool_name=call.tool_name,
            arguments=dict(call.arguments),
        )
        for n, call in enumerate(_reads_failed_last(request), start=1)
        if call.tool_name in available
    )
    return ToolCallsDecision(calls=calls) if calls else None


def reading_again(request: PlanRequest) -> bool:
    """This turn's results are the reads made again for "try again"."""
    return bool(request.turn_results) and all(
        READ_AGAIN_ID in r.call.call_id for r in request.turn_results
    )


def decide(request: PlanRequest) -> FinalDecision | ToolCallsDecision | None:
    """The decision for a message about the writes that failed last, or None."""
    state = request.dialogue
    if _unconfirmed_taken_back(request):
        return _take_back(request)
    mode = asked(request.user_message) or _named_overtaken(state, request.user_message)
    if mode is None and again_of_failed(state, request.user_message):
        mode = "retry"
    if mode is None:
        return None
    failed = _asked_about(state, request.user_message)
    if not failed:
        text = normalize(request.user_message).text
        if (
            not state.held
            and len(state.done) > 1
            and _ALL_OF_IT.search(text)
            and not any(words.search(text) for words, _ in _NAMES_WRITE)
        ):
            # "did all of that go through?" after several changes: each of them, said
            # (was: only the last one, as though the rest had not been made).
            zone = request.customer.timezone if request.customer else None
            now = local_now(request.now, zone)
            # (a to-do's new day is told of the last change asked after, not of each)
            said = [
                _outcome({k: v for k, v in write.items() if k != "set"}, now)
                for write in state.done[-_ALL_TOLD:]
            ]
            if all(told.startswith(_WENT) for told in said):
                each = [told.removeprefix(_WENT).rstrip(".") for told in said]
                joined = ", ".join(each[:-1]) + " and " + each[-1]
                return FinalDecision(text=f"Yes, all of it went through: {joined}.")
        if not state.held and (write := _asked_of(state.done, text, state)):
            # Asked after a write the CRM confirmed: it did, and is not sent again.
            zone = request.customer.timezone if request.customer else None
            told = _outcome(write, local_now(request.now, zone))
            if mode == "retry":
                told = "There's nothing to try again; " + told.removeprefix("Yes, ")
            elif _ASKS_WHAT_HAPPENED.search(text):
                told = _told_as_what(told)
            return FinalDecision(text=told)
        if not state.held and not state.done and _ABOUT_THAT.search(text):
            # "try again", "can you check again?" after a read that failed: read again ("did
            # that go through?" asks of a change, and none was made: said so, below)
            if (mode == "retry" or "again" in text.lower()) and (reread := _read_again(request)):
                return reread
            # Nothing was changed in this conversation (a request cut off before its write,
            # a socket dropped mid-turn): said so, never "I can't help with that".
            return FinalDecision(text=NOTHING_TO_RETRY if mode == "retry" else NOTHING_DONE)
        return None
    available = {tool.name for tool in request.tools}
    results = request.turn_results
    if not results:
        reads = [(t, a) for t, a in lookups(failed) if t in available]
        if not reads:
            return None
        calls = tuple(
            ToolCall(call_id=f"c_{request.round}_{n}", tool_name=tool, arguments=arguments)
            for n, (tool, arguments) in enumerate(reads, start=1)
        )
        return ToolCallsDecision(calls=calls)
    if any(r.call.tool_name not in _LOOKUP_TOOLS for r in results):
        return FinalDecision(text="")  # sent again: the narrator tells how it went
    pending, text = verdict(failed, results)
    if _NOTHING_CHANGED in text and _made_beside(request):
        # "move my haircut … and my dentist …" with the dentist's refused: the haircut was
        # moved, and "so nothing was changed" said it was not
        text = text.replace(_NOTHING_CHANGED, _THAT_NOT_CHANGED)
    if mode == "check" or not pending or _items(results) is None:
        if mode == "retry" or _ASKS_WHAT_HAPPENED.search(normalize(request.user_message).text):
            text = _told_as_what(text)  # (no yes or no to "try again" either)
        return FinalDecision(text=text)
    calls = tuple(
        ToolCall(
            call_id=f"c_{request.round}_{n}",
            tool_name=str(write["tool"]),
            arguments=dict(write.get("arguments") or {}),
        )
        for n, write in enumerate(pending, start=1)
        if str(write["tool"]) in available
    )
    return ToolCallsDecision(calls=calls) if calls else FinalDecision(text=text)


_LOOKUP_TOOLS = frozenset(tool for tool, _ in LOOKUP_OF.values())


__all__ = [
    "LOOKUP_OF",
    "LOOK_AGAIN_ID",
    "NOTHING_DONE",
    "NOTHING_TO_RETRY",
    "PUT_BACK_ID",
    "READ_AGAIN_ID",
    "about_that",
    "after_the_last",
    "again_of_failed",
    "asked",
    "beside_another",
    "decide",
    "decided_here",
    "landed_after_all",
    "lookups",
    "nothing_held",
    "reading_again",
    "verdict",
    "went_through",
    "without_looks",
]
