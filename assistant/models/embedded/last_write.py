"""'What time did you put it at?', 'what did you call it?': the change just made in this
conversation, told again from what the CRM answered. It is never made again: the booking
words in such a question ask for no booking (assistant.language.scope). Said as how
things stand ("your massage is booked for…"), not as a change made now: this turn made
none (assistant/claims.py holds every answer to that)."""

from __future__ import annotations

import re
from datetime import datetime

from assistant.dialogue_state import Action, Dialogue, Item
from assistant.language.scope import asks_what_was_done
from assistant.language.text import normalize
from assistant.models.embedded.retries import not_made_told, outcome, outcome_at
from assistant.speech import (
    due_day,
    join_and,
    parse_day,
    parse_moment,
    phone,
    spoken_datetime,
)
from assistant.write_memory import standing

NOTHING_YET = "I haven't changed anything in this conversation yet."


def asked(message: str) -> bool:
    """The message asks what the change just made was."""
    return asks_what_was_done(normalize(message).text)


# "what have you changed so far?", "what did you do in this call?": every change made.
_EVERY = re.compile(
    r"\b(?:so far|all|everything|today|until now|up to now|this (?:call|conversation|chat))\b"
)


# "what did I just move?", "did I ask you to cancel anything?", "what did I book today?":
# the changes of the kind named, not the last change of any kind.
_KINDS = (
    (re.compile(r"\bcancel"), "crm.cancelAppointment", "cancelled"),
    (re.compile(r"\bbook"), "crm.bookAppointment", "booked"),
    (
        re.compile(r"\b(?:move|moved|reschedul\w*|push|pushed)\b"),
        "crm.rescheduleAppointment",
        "moved",
    ),
    (re.compile(r"\b(?:add|added)\b"), "crm.addTask", "added"),
    (re.compile(r"\b(?:delete|deleted|remove|removed)\b"), "crm.deleteTask", "deleted"),
    (
        re.compile(r"\b(?:complete|completed|mark|marked|tick|ticked)\b"),
        "crm.completeTask",
        "marked done",
    ),
)
_ANY = re.compile(r"\b(?:anything|something)\b")
_ASKED_IF = re.compile(r"^(?:\W*(?:so|and|ok|okay|wait|sorry)\b)*\W*(?:did|have)\b")
# A visit moved or booked: the time it went to, said after what became of it.
_TO_WHEN = {"crm.rescheduleAppointment": " to {}", "crm.bookAppointment": " for {}"}


def _of_kind(state: Dialogue, now: datetime, lowered: str) -> str | None:
    """The changes made in the conversation of the kind the question names; None when it
    names no kind."""
    named = [(tool, said) for words, tool, said in _KINDS if words.search(lowered)]
    if len(named) != 1:
        return None
    tool, said = named[0]
    writes = [write for write in state.done if write.get("tool") == tool]
    if not writes:
        return f"No, I haven't {said} anything in this conversation."
    if not (_EVERY.search(lowered) or _ANY.search(lowered)):
        # the last one, or the last turn's of that kind ("what did you just add?" after two
        # to-dos added in one turn: both, was the second only)
        writes = writes[-max(1, sum(a.tool == tool for a in state.last_turn_actions)) :]
    clauses = [clause for write in writes if (clause := _told_of(state, write, now))]
    if not clauses:
        return None
    told = join_and(clauses)
    if _ASKED_IF.match(lowered):
        return f"Yes: {told}."
    return f"{told[:1].upper()}{told[1:]}."


def _told_of(state: Dialogue, write: Item, now: datetime) -> str | None:
    """ "your massage is booked for Thursday, January 17 at 5:00 PM": one change, with the
    time the visit is at now (moved since it was booked: where it went)."""
    said = outcome(write)
    if said is None:
        return None
    tool = str(write.get("tool"))
    made = write.get("made")
    item_id = made.get("id") if isinstance(made, dict) else write.get("id")
    starts = write.get("starts_at")
    for later in state.done[state.done.index(write) + 1 :]:
        if item_id and later.get("id") == item_id and later.get("starts_at"):
            starts = later.get("starts_at")  # moved since
    moment = parse_moment(starts)
    if moment is not None and tool in _TO_WHEN:
        said += _TO_WHEN[tool].format(spoken_datetime(moment, now))
    return said


# A time or a day said back: "11", "2:30 pm", "wednesday", "the 17th".
_WHEN_SAID = (
    r"(?:\d{1,2}(?::\d\d)?(?: ?(?:am|pm|a\.m\.|p\.m\.))?|noon|today|tomorrow"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day|the \d{1,2}(?:st|nd|rd|th)?"
    r"|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?: thirty)?)"
)
# "wait, so it's at 11 now, not 10?", "and it's still at 2?", "same time as before,
# right?", "and that's on thursday?": the time or day of what was just changed, checked.
_CHECKED = re.compile(
    r"^(?:(?:so|and|ok|okay|wait|sorry|hang on|great|right|oh)\W+)*(?:so\W+)?"
    r"(?:(?:(?:it's|it is|is it|that's|that is|is that)(?: still| now)?|still)"
    rf" (?:at|on|for) {_WHEN_SAID}(?: (?:at|on) {_WHEN_SAID})?(?:\W+(?:now|then))?"
    rf"(?:\W+not {_WHEN_SAID})?"
    r"|(?:at )?(?:the )?same (?:time|day) as (?:before|it was))"
    r"(?:\W+(?:right|yeah|yes|correct|isn't it|is it))?\W*$"
)


def checked(state: Dialogue, message: str) -> bool:
    """The message checks the time or day of the visit just booked or moved (within two
    turns of it), asked back, not a change."""
    action = state.last_action
    return (
        action is not None
        and action.kind == "appointment"
        and action.tool in _NEW_TOOLS
        and state.since_change <= 2
        and _CHECKED.search(message.lower().strip()) is not None
    )


def told(state: Dialogue, now: datetime, message: str = "") -> str:
    """The last change, said again ("I booked your massage for tomorrow at 3 PM."); every
    change this conversation made, when asked for all of them; the ones of a kind, when
    the question names it ("what did I just move?"). The writes of the last turn that did
    not go through are said after it ("what did you just do?" after an add that went
    through and a completion that did not: both)."""
    said = _told(state, now, message)
    failed = [write for write in standing(state.failed) if not write.get("later")]
    if not failed or said.startswith("No, "):
        return said
    told_not = not_made_told(failed, now)
    return told_not if said == NOTHING_YET else f"{said} {told_not}"


def _told(state: Dialogue, now: datetime, message: str = "") -> str:
    if (of_kind := _of_kind(state, now, message.lower())) is not None:
        return of_kind
    if len(state.done) > 1 and _EVERY.search(message.lower()):
        # (each with where it went: "moved … and moved …" told nothing of where)
        said = [clause for write in state.done if (clause := outcome_at(write, now))]
        if len(said) > 1:
            return f"In this conversation: {join_and(said)}."
    action = state.last_action
    if action is None:
        return _from_done(state) or NOTHING_YET
    if len(state.last_turn_actions) > 1:
        # "what did you just add?" after two to-dos added in one turn, "did you cancel them
        # or not?" after two cancels: each change of that turn (was: the last one only, as
        # though the other had not been made)
        each = [
            one
            for made in state.last_turn_actions
            if (one := _appointment(made, now) or _task(made, now, alone=False))
        ]
        if len(each) > 1:
            clauses = [one.rstrip(".") for one in each]
            clauses = [c[:1].lower() + c[1:] if c.startswith("Your ") else c for c in clauses]
            told = join_and(clauses)
            return f"{told[:1].upper()}{told[1:]}."
    return _appointment(action, now) or _task(action, now) or _from_done(state) or NOTHING_YET


# "what time is the new haircut again?", "when's the new one?": the visit just booked or
# moved, not the other of its service on file.
_NEW_ONE = re.compile(
    r"^(?:(?:and|so|ok|okay|sorry|remind me|oh)\W+)*(?:what time|when|what day)(?:'s| is| was)"
    r" (?:the|my) new (?P<what>[a-z]+(?: (?!again|then|now\b)[a-z]+)?)(?: (?:again|then|now))*\W*$"
)


def new_one(state: Dialogue, now: datetime, message: str) -> str | None:
    """When the visit just booked (or moved) is, asked of it as "the new <service>"."""
    if "new" not in message.lower():
        return None
    match = _NEW_ONE.search(normalize(message).text)
    action = state.last_appointment_action
    if match is None or action is None or action.tool not in _NEW_TOOLS:
        return None
    item = action.after or {}
    what = match.group("what")
    if what != "one" and str(item.get("service") or "").lower() not in (what, what + "s"):
        return None
    return _appointment(action, now)


_NEW_TOOLS = frozenset({"crm.bookAppointment", "crm.rescheduleAppointment"})


def _appointment(action: Action, now: datetime) -> str | None:
    item = action.after or action.before
    if action.kind != "appointment" or item is None:
        return None
    service = str(item.get("service") or "appointment").lower()
    start = parse_moment(item.get("starts_at"))
    when = spoken_datetime(start, now) if start is not None else ""
    if action.tool == "crm.bookAppointment":
        return f"Your {service} is booked" + (f" for {when}." if when else ".")
    if action.tool == "crm.rescheduleAppointment":
        return f"Your {service} is now" + (f" on {when}." if when else " at its new time.")
    if action.tool == "crm.cancelAppointment":
        return f"Your {service}" + (f" on {when}" if when else "") + " is cancelled."
    return None


def _task(action: Action, now: datetime, *, alone: bool = True) -> str | None:
    """The to-do as the change left it; `alone`: said by itself ("It's on your list as…"),
    else as one of several ("Call the plumber is on your list")."""
    item = action.after or action.before
    if action.kind != "task" or item is None:
        return None
    title = str(item.get("title") or "that task")
    due = parse_day(item.get("due_on"))
    due_said = f", due {due_day(due, now.date())}" if due is not None else ""
    if item.get("priority") in ("high", "low"):
        # "add a task to renew my passport and make it high priority": the level it was
        # given, said with it (the one the CRM holds)
        due_said += f", {item.get('priority')} priority"
    if action.tool == "crm.addTask":
        if not alone:
            return f"{title} is on your list{due_said}."
        return f"It's on your list as {title}{due_said}."
    if action.tool == "crm.completeTask":
        return f"{title} is marked done."
    if action.tool == "crm.deleteTask":
        return f"{title} is off your list."
    if action.tool == "crm.updateTask":
        priority = str(item.get("priority") or "")
        details = [f"due {due_day(due, now.date())}"] if due is not None else []
        details += [f"{priority} priority"] if priority else []
        return f"{title} is " + (" and ".join(details) if details else "up to date") + "."
    return None


def _from_done(state: Dialogue) -> str | None:
    """A change with no item kept (a support case, contact details), by what it was about."""
    last: Item | None = state.done[-1] if state.done else None
    if last is None:
        return None
    label = str(last.get("label") or "").strip()
    tool = last.get("tool")
    if tool == "crm.createTicket":
        return "Your support case is open" + (f": {label}." if label else ".")
    if tool == "crm.updateContactInfo":
        contact = last.get("contact")
        said = [
            f"your {name} is now {contact[key]}"
            for key, name in (("email", "email"), ("phone", "phone number"))
            if isinstance(contact, dict) and contact.get(key)
        ]
        if said:
            return f"{join_and(said)[:1].upper()}{join_and(said)[1:]}."
        return "Your contact details are up to date with what you gave me."
    return None


__all__ = ["NOTHING_YET", "asked", "told"]


# "what's its number?", "can I have the reference for that", "what's the case number":
# the number of the support case just opened.
_NUMBER = re.compile(r"\b(?:number|reference|ref|id)\b")
_NUMBER_ASKED = re.compile(
    r"^(?:(?:and|so|ok|okay|great|thanks|sorry|um+|uh+|oh|hmm+|right|well|yeah|alright"
    r"|cool|perfect|lovely|sure)\W+)*(?:what(?:'s| is| was)|give me"
    r"|tell me|can i (?:get|have)|could i (?:get|have)|do you have|is there)"
    r" (?:its|the|that|a|my|the case's|the ticket's)(?: case| ticket| support case| reference)?"
    r" (?:number|reference|ref|id)(?: number)?(?: (?:for|on|of) (?:it|that|that one|this one"
    r"|the case|the ticket))?"
    r"(?: please)?\W*$"
)
_NAMES_CASE = re.compile(r"\b(?:case|ticket|reference|ref)\b")


def case_number(state: Dialogue, message: str) -> str | None:
    """The number of the support case opened in this conversation, when asked for it."""
    if not _NUMBER.search(message.lower()):
        return None  # most messages ask no number
    text = normalize(message).text
    if not _NUMBER_ASKED.search(text):
        return None
    opened = [w for w in state.done if w.get("tool") == "crm.createTicket" and w.get("case")]
    named = _NAMES_CASE.search(text) is not None
    if not opened or not (named or state.done[-1] is opened[-1]) or (" my " in text and not named):
        return None  # "what's its number" after a phone change, "what's my number": the phone's
    case = opened[-1]
    label = str(case.get("label") or "").strip()
    about = f" ({label})" if label else ""
    return f"That support case{about} is number {case['case']}."


# "what did you change it from?", "what was it before?", "what was my old number?", "when
# was it due before?": what the last change replaced.
_WAS_BEFORE = re.compile(
    r"\bwhat did you change (?:it|that|them|my \w+(?: \w+)?) from\b"
    r"|\b(?:what|when|where|what time|what day)(?: \w+)?(?:'s| was| were| did)"
    r"(?: (?:it|that|they|my \w+(?: \w+)?|you have|i have))?(?: due| on| at| set)?"
    r" (?:before|originally|previously|beforehand)\b"
    r"|\bwhat (?:was|were) (?:my|the) (?:old|previous|original|last) (?P<what>phone number|number"
    r"|phone|email address|email|e-mail|time|day|date|due date|priority|title|name)\b"
)
_FIELD_SAID = {
    "phone": "phone number",
    "email": "email",
}


def before_told(state: Dialogue, now: datetime, message: str) -> str | None:
    """What the last change in this conversation replaced, as read before it; None when
    the message asks no such thing."""
    lowered = normalize(message).text
    if (
        "before" not in lowered
        and "old" not in lowered
        and "origin" not in lowered
        and ("previous" not in lowered and "from" not in lowered)
    ):
        return None
    if _WAS_BEFORE.search(lowered) is None:
        return None
    last = state.done[-1] if state.done else None
    if last is None:
        return NOTHING_YET
    if (was := last.get("was")) and isinstance(was, dict):
        said = [
            f"your {_FIELD_SAID.get(key, key)} was {phone(str(value)) if key == 'phone' else value}"
            for key, value in was.items()
            if value
        ]
        if said:
            return f"Before the change, {join_and(said)}."
    before = last.get("before")
    if not isinstance(before, dict):
        return None  # told as the change itself (last_write.told)
    name = str(before.get("service") or before.get("title") or "it")
    if last.get("tool") == "crm.rescheduleAppointment" and (
        start := parse_moment(before.get("starts_at"))
    ):
        when = spoken_datetime(start, now)
        on = "" if when.startswith(("today", "tomorrow", "tonight")) else "on "
        return f"Your {name.lower()} was {on}{when} before."
    parts = []
    changed = last.get("changed") or []
    if "due_on" in changed:
        due = parse_day(before.get("due_on"))
        parts.append(f"due {due_day(due, now.date())}" if due else "without a due date")
    if "priority" in changed and before.get("priority"):
        parts.append(f"{before['priority']} priority")
    if "title" in changed and before.get("title"):
        parts.append(f"called {before['title']}")
    if parts:
        return f"Before the change, {name} was {join_and(parts)}."
    return None
