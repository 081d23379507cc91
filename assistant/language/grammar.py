"""The rules that read one clause: writes first (strongest cues), then lookups.

Each write rule looks for its verb phrase and reads its slots; the first that fits
wins, so a clause asks for one action. A clause with no write asks to see things:
every domain it names becomes a lookup, in the order named ("appointments, invoices,
tasks and tickets").
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from assistant.language import slots
from assistant.language.dates import When, find_when
from assistant.language.intents import (
    APPOINTMENT_ACTIONS,
    TARGETS_JOINER,
    TASK_ACTIONS,
    Intent,
    IntentKind,
)
from assistant.language.targets import target_ref
from assistant.language.text import Normalized, restore_case


@dataclass(frozen=True, slots=True)
class Clause:
    text: str
    norm: Normalized
    now: datetime  # aware, in the customer's timezone
    timezone: str

    @property
    def original(self) -> str:
        return self.norm.original


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


_QUESTION_START = _re(
    r"^(?:is|are|was|were|did|has|have|what|what's|which|how|who|when|where|do you|do i"
    r"|does)\b"
)
_NEGATED = _re(
    r"^(?:not |no need\b|never ?mind\b|forget (?:it|that|about it)\b)"
    r"|\b(?:don't|do not|no need to|not) (?:need|want|care|bother|show|tell|check|worry)\b"
)
_TASK_NOUN = _re(
    r"\b(?:tasks?|to-dos?|to dos|reminders?|to-do list|to do list|my list|checklist)\b"
)
_APPT_NOUN = _re(
    r"\b(?:appointments?|bookings?|visits?|reservations?|sessions?|booked|scheduled"
    r"|calendar|coming up|my schedule)\b"
)
_CONTACT_NOUN = _re(r"\b(?:email|e-mail|phone|number|cell|mobile|contact (?:info|details))\b")

# --- add a task ----------------------------------------------------------------------

_ADD_TASK = (
    _re(
        r"\b(?:add|create|make|put|set up|set|start|write|log|jot down|note down|save|enter)"
        r"(?: me)?(?: in)? (?:a |an |another |new |one more |one )*"
        r"(?:(?P<p>high|low|normal|medium|top|urgent|important)(?:[- ]priority)? )?(?:new )?"
        r"(?:task|to-do|reminder|item|action item)(?: item)?(?: for me)?(?P<rest>.*)$"
    ),
    _re(r"^(?:new |a )?(?:task|reminder|to-do)(?P<rest>\b[^:]{0,30}:.+)$"),
    _re(
        r"\b(?:i need|i want|i'd like|i would like|can i have|can i get|give me)(?: to add)?"
        r" (?:a |an |another |new )+(?:task|reminder|to-do)(?P<rest>.*)$"
    ),
    _re(r"\bremind me (?!what|when|where|which|how|who|if|whether)(?P<rest>.*)$"),
    _re(
        r"\b(?:don't let me forget|do not let me forget|help me remember|remember|make sure i"
        r" remember|i need to remember) to (?P<rest>.*)$"
    ),
    _re(r"\bnote to self:? (?P<rest>.*)$"),
    _re(
        r"\b(?:add|put|save|create|set up|enter) (?P<rest>.+?) as (?:a |an |another )?(?:new )?"
        r"(?:task|to-do|reminder|todo)\b"
    ),
    _re(r"\b(?:note down|jot down|write down|make a note)(?: that| to)? (?P<rest>.+)$"),
    _re(
        r"\b(?:add|put) (?P<rest>.+?) (?:to|on|onto) (?:my |the )?"
        r"(?:(?:to-do |to do |task |todo |tasks |reminder )?list|tasks|to-dos|reminders)\b"
    ),
)
_TITLE_LEAD = _re(r"^[\s,:;-]*(?:to|that says|saying|called|named|titled|about|for|that|:|-)?\s*")


def _add_task(c: Clause) -> Intent | None:
    for pattern in _ADD_TASK:
        match = pattern.search(c.text)
        if match is None:
            continue
        said_priority = match.groupdict().get("p")
        if said_priority:
            priority = slots.priority(f"{said_priority} priority")[0]
        else:
            # "…as a task with low priority": said after the title.
            priority = slots.priority(c.text[match.end("rest") :])[0]
        rest = _TITLE_LEAD.sub("", match.group("rest"), count=1)
        draft = slots.task_draft(rest, priority, c.original, c.now)
        arguments: dict[str, Any] = {}
        if draft.title:
            arguments["title"] = draft.title
        if draft.priority:
            arguments["priority"] = draft.priority
        if draft.due_on:
            arguments["due_on"] = draft.due_on
        missing = () if draft.title else ("title",)
        return Intent("add_task", arguments, when=draft.when, missing=missing, clause=c.text)
    return None


# --- support cases -------------------------------------------------------------------

_CREATE_TICKET = (
    _re(
        r"\b(?:open|create|file|raise|submit|log|start|make|put in|lodge|report)(?: up)?"
        r" (?:a |an |new |another )+(?:support |help )?(?:case|ticket|request|complaint"
        r"|issue report)(?P<rest>.*)$"
    ),
    _re(
        r"\b(?:report|flag) (?:a |an |that )?(?:problem|issue|bug|error|fault|mistake)(?P<rest>.*)$"
    ),
    _re(r"\b(?:complain about|complain that|make a complaint about)(?P<rest>\s.+)$"),
    _re(r"\breport that(?P<rest>\s.+)$"),
)
_IMPLICIT_PROBLEM = _re(
    r"\b(?:i have|i've got|i got|there's|there is|i'm having|i am having) (?:a |an |some )?"
    r"(?:problem|issue|trouble)s? (?:with )?(?P<rest>.+)$"
)
_BODY_LEAD = _re(
    r"^[\s,:;-]*(?:for me)?[\s,:;-]*(?:about|for|regarding|re|because|saying|that says|on"
    r"|with|that)?[\s,:;-]*"
)


def _create_ticket(c: Clause) -> Intent | None:
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


# --- contact details -----------------------------------------------------------------

_CHANGE = _re(
    r"\b(?:update|change|set|switch|correct|replace|new|edit|use|is now|should be|fix|moved)\b"
)


def _update_contact(c: Clause) -> Intent | None:
    found = slots.contact(c.text, c.norm)
    said = found.email or found.phone or found.bad_phone
    noun = _CONTACT_NOUN.search(c.text)
    if said and (noun or _CHANGE.search(c.text)):
        arguments = {
            key: value for key, value in (("email", found.email), ("phone", found.phone)) if value
        }
        missing = ("phone",) if found.bad_phone and not arguments else ()
        return Intent("update_contact", arguments, missing=missing, clause=c.text)
    if noun and _CHANGE.search(c.text) and not _QUESTION_START.search(c.text):
        wanted = "email" if "mail" in noun.group(0) else "phone"
        return Intent("update_contact", missing=(wanted,), clause=c.text)
    return None


# --- appointments --------------------------------------------------------------------

_RESCHEDULE = _re(
    r"\b(?P<verb>reschedule|rebook|move|push(?: back)?|postpone|shift|bring forward|bring"
    r"|change|switch)\b(?P<rest>.*)$"
)
_NEW_TIME = _re(
    r"^(?P<t>.*?)\s*\b(?:to|for|until|till|into|over to|back to|forward to)\b\s*(?P<w>.*)$"
)
_CANCEL = _re(r"\b(?:cancel|call off|scrap)\b(?P<rest>.*)$")
_DELETE = _re(r"\b(?:delete|remove|get rid of|erase|trash|drop|take)\b(?P<rest>.*)$")
_LIST_TAIL = _re(r"\s*\b(?:from|off|on) (?:my |the )?(?:to-do |task |todo )?(?:list|tasks)\b.*$")


def _appointment_context(c: Clause) -> bool:
    return bool(_APPT_NOUN.search(c.text) or slots.service(c.text, c.original))


_PASSIVE_MOVE = _re(
    r"^(?:can|could|would|will|should|please|i'd like|i want)?\s*(?:you )?(?:have |get )?"
    r"(?P<t>.+?) (?:be|get|got) (?:moved|rescheduled|pushed(?: back)?|shifted|changed|postponed"
    r"|bumped)\b\s*(?:(?:to|for|until|till|into) (?P<w>.+))?$"
)


def _reschedule(c: Clause) -> Intent | None:
    passive = _PASSIVE_MOVE.search(c.text)
    if passive and _appointment_context(c) and not _TASK_NOUN.search(c.text):
        return _move(c, passive.group("t"), passive.group("w") or "")
    match = _RESCHEDULE.search(c.text)
    if match is None or _TASK_NOUN.search(c.text) or _CONTACT_NOUN.search(c.text):
        return None
    verb = match.group("verb")
    if verb in ("change", "switch", "bring", "move", "shift") and not _appointment_context(c):
        return None
    split = _NEW_TIME.match(match.group("rest"))
    if split:
        return _move(c, split.group("t"), split.group("w"))
    return _move(c, match.group("rest"), "")


def _move(c: Clause, target_words: str, time_words: str) -> Intent:
    when = find_when(time_words, c.now) if time_words else None
    arguments: dict[str, Any] = {}
    if when is not None and when.day and when.clock and not when.day_implied:
        arguments["starts_at"] = when.iso(c.timezone)
    missing = () if when is not None else ("when",)
    target = target_ref(target_words, c.original, c.now)
    return Intent(
        "reschedule_appointment",
        arguments,
        target=target,
        when=when,
        missing=missing,
        clause=c.text,
    )


def _cancel(c: Clause) -> Intent | None:
    match = _CANCEL.search(c.text)
    if match is None or not match.group("rest").strip():
        return None
    rest = match.group("rest")
    if _TASK_NOUN.search(rest):
        target = target_ref(_LIST_TAIL.sub("", rest), c.original)
        return Intent("delete_task", target=target, clause=c.text)
    return Intent("cancel_appointment", target=target_ref(rest, c.original, c.now), clause=c.text)


def _delete(c: Clause) -> Intent | None:
    match = _DELETE.search(c.text)
    if match is None or not match.group("rest").strip():
        return None
    rest = match.group("rest")
    if match.group(0).startswith("take") and " off" not in rest:
        return None
    if _APPT_NOUN.search(rest) and not _TASK_NOUN.search(rest):
        return Intent(
            "cancel_appointment", target=target_ref(rest, c.original, c.now), clause=c.text
        )
    target = target_ref(_LIST_TAIL.sub("", rest), c.original)
    return Intent("delete_task", target=target, clause=c.text)


# --- tasks ---------------------------------------------------------------------------

_PRIORITY_CHANGE = (
    _re(
        r"\b(?:make|set|mark|change|bump|raise|lower|put|flag|update|switch|move)(?: up| down)?"
        r" (?P<t>.+?)(?:'s priority)? (?:as |to |at |up to |down to |a |an )*"
        r"(?P<p>high|top|urgent|important|low|normal|medium|critical)(?:[- ]priority)?\b"
    ),
    _re(
        r"\b(?P<dir>set|change|raise|lower|bump|increase|decrease|update|make|reduce)"
        r"(?: up| down)? the priority (?:of|on|for) (?P<t>.+?)(?: to (?P<p>\w+))?$"
    ),
    _re(r"\b(?P<dir>prioriti[sz]e|deprioriti[sz]e) (?P<t>.+)$"),
    _re(
        r"^(?P<t>.+?) (?:should be|is now|needs to be|must be|has to be) (?:a |an )?"
        r"(?P<p>high|top|urgent|important|low|normal|medium|critical)(?:[- ]priority)?\b"
    ),
)
_RENAME = (
    _re(r"\brename (?P<t>.+?) (?:to|as) (?P<new>.+)$"),
    _re(r"\bchange (?:the )?(?:name|title|wording) of (?P<t>.+?) to (?P<new>.+)$"),
    _re(r"\bchange (?P<t>.+?)(?:'s)? (?:name|title) to (?P<new>.+)$"),
    _re(
        r"\b(?:change|update|edit|switch) (?P<t>.+?\b(?:task|to-do|reminder|one))"
        r" to (?:say |read )?(?P<new>.+)$"
    ),
)
_DUE_CHANGE = (
    _re(
        r"\b(?:change|set|move|update|push|make) (?:the )?due date (?:of|on|for) (?P<t>.+?)"
        r" to (?P<w>.+)$"
    ),
    _re(r"\b(?:change|set|move|update|push) (?P<t>.+?)(?:'s)? due date to (?P<w>.+)$"),
    _re(r"\bmake (?P<t>.+?) due (?:on |by )?(?P<w>.+)$"),
    _re(
        r"^(?P<t>.+?\b(?:task|to-do|reminder|one)) (?:should be|is now|is) due"
        r" (?:on |by )?(?P<w>.+)$"
    ),
    _re(
        r"\b(?:move|push|postpone|shift|reschedule|change) (?P<t>.+?\b(?:task|to-do|reminder))"
        r" (?:to|till|until|back to|for) (?P<w>.+)$"
    ),
)
_DESCRIBE = _re(
    r"\badd (?:a )?(?:note|description|details?) (?:to|on|for) (?P<t>.+?)"
    r"(?::| saying| that says| -) (?P<d>.+)$"
)


def _update_task(c: Clause) -> Intent | None:
    for pattern in _PRIORITY_CHANGE:
        if match := pattern.search(c.text):
            groups = match.groupdict()
            said = groups.get("p")
            direction = groups.get("dir") or ""
            lowering = direction.startswith(("lower", "decrease", "reduce", "de"))
            if said:
                level = slots.priority(f"{said} priority")[0] or "high"
            else:
                level = "low" if lowering else "high"
            return _task_change(c, match.group("t"), {"priority": level})
    for pattern in _DUE_CHANGE:
        if (match := pattern.search(c.text)) and (due := _date_of(match.group("w"), c)):
            return _task_change(c, match.group("t"), {"due_on": due})
    if match := _DESCRIBE.search(c.text):
        description = restore_case(slots.clean_free_text(match.group("d")), c.original)
        return _task_change(c, match.group("t"), {"description": description})
    for pattern in _RENAME:
        if (match := pattern.search(c.text)) and not _DONE_WORD.fullmatch(match.group("new")):
            new = match.group("new")
            if due := _date_of(new, c, whole=True):
                return _task_change(c, match.group("t"), {"due_on": due})
            title = restore_case(slots.clean_free_text(new), c.original)
            return _task_change(c, match.group("t"), {"title": title[:1].upper() + title[1:]})
    return None


_DONE_WORD = _re(r"(?:done|complete|completed|finished)")


def _date_of(words: str, c: Clause, *, whole: bool = False) -> str | None:
    when = find_when(words, c.now)
    if when is None or when.day is None or when.day_implied:
        return None
    if whole:
        leftover = slots.cut_spans(words, list(when.spans))
        if leftover.strip(" ,.") not in ("", "instead", "please"):
            return None
    return when.day.isoformat()


def _task_change(c: Clause, target_words: str, change: dict[str, Any]) -> Intent:
    target = target_ref(_LIST_TAIL.sub("", target_words), c.original)
    return Intent("update_task", change, target=target, clause=c.text)


_COMPLETE = (
    _re(
        r"\b(?:set|change|update|switch|move|put) (?P<t>.+?) (?:to|as) (?:done|complete|completed"
        r"|finished)\b"
    ),
    _re(r"\bmark (?:off )?(?P<t>.+?) (?:as )?(?:done|complete|completed|finished|checked off)\b"),
    _re(r"\b(?:check|tick|cross) (?P<t>.+?) off\b"),
    _re(r"\b(?:check|tick|cross) off (?P<t>.+)$"),
    _re(r"\b(?:complete|finish|close out|finalize|finalise) (?P<t>.+)$"),
    _re(r"\bi(?:'ve| have)? (?:done|finished|completed|did) (?P<t>.+)$"),
    _re(r"\b(?:i'm |i am )?(?:done|finished) with (?P<t>.+)$"),
)
_DONE_STATEMENT = _re(r"^(?P<t>.+?) (?:is|are) (?:done|complete|completed|finished)$")
# "I bought the groceries": a to-do done, said with its own verb in the past tense.
_PAST_VERBS = {
    "bought": "buy",
    "called": "call",
    "paid": "pay",
    "renewed": "renew",
    "sent": "send",
    "picked up": "pick",
    "submitted": "submit",
    "returned": "return",
    "uploaded": "upload",
    "ordered": "order",
    "reviewed": "review",
    "confirmed": "confirm",
    "cleaned": "clean",
    "fixed": "fix",
    "emailed": "email",
    "mailed": "mail",
    "took care of": "",
    "handled": "",
    "sorted out": "",
    "dealt with": "",
}
_PAST_DONE = _re(
    r"^(?:i|i've|i have|we|we've)(?: already| just| finally)? (?P<verb>"
    + "|".join(sorted(_PAST_VERBS, key=len, reverse=True))
    + r") (?P<t>.+)$"
)


def _complete(c: Clause) -> list[Intent] | None:
    if _QUESTION_START.search(c.text):
        return None  # "what have I finished?" asks to see, "did I complete…?" too
    if (past := _PAST_DONE.search(c.text)) and not _APPT_NOUN.search(c.text):
        verb = _PAST_VERBS[past.group("verb")]
        target = target_ref(f"{verb} {_LIST_TAIL.sub('', past.group('t'))}", c.original)
        return [Intent("complete_task", target=target, clause=c.text)]
    match = None
    for pattern in _COMPLETE:
        if match := pattern.search(c.text):
            break
    if match is None:
        match = _DONE_STATEMENT.search(c.text)
    if match is None:
        return None
    return [
        Intent(
            "complete_task", target=target_ref(_LIST_TAIL.sub("", part), c.original), clause=c.text
        )
        for part in match.group("t").split(TARGETS_JOINER.strip())
        if part.strip()
    ]


# --- booking -------------------------------------------------------------------------

_BOOK = _re(
    r"\b(?:book|reserve|schedule|arrange|set up|make|get me|sign me up|fit me in|squeeze me in"
    r"|pencil me in)\b"
)
_SCHEDULE_NOUN = _re(r"\b(?:my|the|your|on) schedule\b")
_WEAK_BOOK_VERB = _re(r"\b(?:make|set up|arrange)\b")
# "make an appointment", not "I can't make my appointment".
_WEAK_BOOK_OBJECT = _re(r"\b(?:make|set up|arrange)(?: me)? (?:a|an|another|one|new)\b")
_SOFT_BOOK = _re(
    r"\b(?:can i get|could i get|can i have|could i have|i'd like|i would like|i want|i need"
    r"|get|come in|see)\b"
)


def _book(c: Clause) -> Intent | None:
    text = c.text
    strong = _BOOK.search(text)
    if strong and _SCHEDULE_NOUN.search(text) and "schedule" in strong.group(0):
        strong = None
    service = slots.service(text, c.original)
    if strong is None and service is None:
        return None  # neither a booking verb nor a service: no need to read dates
    has_noun = bool(_APPT_NOUN.search(text))
    when = find_when(text, c.now)
    if (
        strong
        and _WEAK_BOOK_VERB.fullmatch(strong.group(0))
        and not ((service or has_noun) and _WEAK_BOOK_OBJECT.search(text))
    ):
        strong = None
    question = _QUESTION_START.search(text)
    soft = (
        not question and service is not None and (bool(_SOFT_BOOK.search(text)) or when is not None)
    )
    if not (strong or soft):
        return None
    if strong is None and question:
        return None
    arguments: dict[str, Any] = {}
    missing: list[str] = []
    if service:
        arguments["service"] = service
    else:
        missing.append("service")
    moment = when.moment(c.timezone) if when is not None else None
    if when is None or when.day is None:
        missing.append("when")
    elif moment is None:
        missing.append("time")
    elif moment <= c.now:
        missing.append("future")
    else:
        arguments["starts_at"] = moment.isoformat()
    return Intent("book_appointment", arguments, when=when, missing=tuple(missing), clause=text)


# --- lookups -------------------------------------------------------------------------

_NEXT = _re(
    r"\b(?:next|soonest|earliest) (?:\w+ )?(?:appointment|visit|booking|session|one|reservation"
    r"|haircut|cleaning|checkup|consultation|exam|therapy)\b"
    r"|\bwhen(?:'s| is| do i| am i| will i)\b.*\bnext\b(?! week| month| year)"
    r"|\bwhen(?:'s| is) my (?:\w+ )?(?:appointment|visit|booking|haircut|cleaning|checkup"
    r"|consultation|exam)\b|\bnext appointment\b"
)
_READS: tuple[tuple[IntentKind, re.Pattern[str]], ...] = (
    ("appointments", _APPT_NOUN),
    (
        "billing",
        _re(
            r"\b(?:invoices?|bills?|billing|balance|owe|owed|owing|payments?|outstanding|unpaid"
            r"|charges?|statements?|amount due|how much do i|how much i|pay|paid)\b"
            r"|\bwhat(?:'s| is) due\b|\bdue on my account\b"
        ),
    ),
    (
        "tasks",
        _re(
            rf"{_TASK_NOUN.pattern}|\b(?:need|have|left) to do\b(?! (?:with|about))"
            r"|\b(?:checked|ticked|crossed) off\b|\bwhat have i (?:done|completed|finished)\b"
        ),
    ),
    (
        "tickets",
        _re(
            r"\b(?:tickets?|support cases?|(?<!in )cases?|support requests?|complaints?|issues?"
            r"|support)\b"
        ),
    ),
)
_SUMMARY = _re(
    r"\b(?:summary|summari[sz]e|progress|how am i doing|how i'm doing|how i am doing"
    r"|how am i getting on|stats|statistics|completion rate|how productive|how many .*"
    r"(?:done|completed|finished))\b"
)
_PROFILE = _re(
    r"\b(?:profile|on file|account details|account info(?:rmation)?|my details"
    r"|my info(?:rmation)?|personal (?:details|info(?:rmation)?)|contact (?:details|info"
    r"(?:rmation)?)|my name|tier|membership|what email|which email|my email|email address"
    r"|e-mail|phone number|my number|my phone|my address|who am i|my account|about me"
    r"|the account|what name|which name)\b"
)
_EVERYTHING = _re(
    r"\b(?:everything|all of it|all my stuff|full picture|catch me up|rundown|overview"
    r"|the works|all my info)\b"
)
_EVERYTHING_KINDS: tuple[IntentKind, ...] = ("appointments", "billing", "tasks", "tickets")


def _reads(c: Clause) -> list[Intent]:
    text = c.text
    found: list[tuple[int, IntentKind]] = []
    for kind, pattern in _READS:
        if match := pattern.search(text):
            found.append((match.start(), kind))
    if not found and slots.service(text, c.original):
        found.append((0, "appointments"))  # "is my haircut still on?"
    if next_match := _NEXT.search(text):
        found = [(pos, kind) for pos, kind in found if kind != "appointments"]
        found.append((next_match.start(), "next_appointment"))
    if summary := _SUMMARY.search(text):
        others = [kind for _, kind in found if kind not in ("tasks",)]
        if any(kind == "tasks" for _, kind in found) or not others:
            found = [(pos, kind) for pos, kind in found if kind != "tasks"]
            found.append((summary.start(), "task_summary"))
    if not found and (profile := _PROFILE.search(text)):
        found.append((profile.start(), "profile"))
    if not found and _EVERYTHING.search(text):
        return [Intent(kind, clause=text) for kind in _EVERYTHING_KINDS]
    return [Intent(kind, clause=text) for _, kind in sorted(found)]


# --- "…and the pharmacy one": an action carried over to a new target -----------------


def _inherit(c: Clause, previous: Sequence[Intent]) -> Intent | None:
    actions = [i for i in previous if i.kind in TASK_ACTIONS | APPOINTMENT_ACTIONS]
    if len(actions) != 1 or len(previous) != 1:
        return None
    action = actions[0]
    if any(pattern.search(c.text) for kind, pattern in _READS if not _same_domain(kind, action)):
        return None
    target = target_ref(_LIST_TAIL.sub("", c.text), c.original, c.now)
    if target.vague:
        return None
    return Intent(
        action.kind,
        action.arguments,
        target=target,
        when=action.when,
        missing=action.missing,
        clause=c.text,
    )


def _same_domain(kind: IntentKind, action: Intent) -> bool:
    if action.kind in TASK_ACTIONS:
        return kind == "tasks"
    return kind == "appointments"


_NOT_A_TARGET_WORD = frozenset(
    {"can't", "cannot", "won't", "make", "see", "show", "find", "look", "got", "what", "where"}
)


def refer_back(intent: Intent, clause: str, norm: Normalized, now: datetime) -> Intent:
    """Aim `intent` ("cancel it") at what the clause before it described."""
    target = target_ref(clause, norm.original, now)
    words = tuple(w for w in target.words if w not in _NOT_A_TARGET_WORD)
    if intent.kind in APPOINTMENT_ACTIONS:
        words = tuple(w for w in words if slots.service(w, w))
    return dataclasses.replace(intent, target=dataclasses.replace(target, words=words))


_WRITE_RULES: tuple[Callable[[Clause], Intent | list[Intent] | None], ...] = (
    _add_task,
    _create_ticket,
    _update_contact,
    _update_task,
    _reschedule,
    _cancel,
    _delete,
    _complete,
    _book,
)


def read_clause(
    text: str,
    norm: Normalized,
    now: datetime,
    timezone: str,
    *,
    previous: Sequence[Intent] = (),
) -> list[Intent]:
    """The intents of one clause (normally one write, or any number of lookups)."""
    if _NEGATED.search(text):
        return []
    clause = Clause(text, norm, now, timezone)
    for rule in _WRITE_RULES:
        if found := rule(clause):
            return found if isinstance(found, list) else [found]
    if _QUESTION_START.search(text) is None and (inherited := _inherit(clause, previous)):
        return [inherited]
    return _reads(clause)


__all__ = ["When", "read_clause"]
