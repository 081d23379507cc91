"""A model's words that say something changed, judged against what the CRM replied.

The answer claims a change only when a write of this turn that makes that change
succeeded (DESIGN.md, write integrity). A model may say "I've booked your haircut"
after the booking was refused, held for a yes, or never called, or beside another
write that did work ("I've added the task and booked your haircut" when only the task
was added). Each verb of a claim is matched to the writes that make it; a claim with a
verb no successful write backs is not spoken, and a line that tells the truth is said
instead (by the planner's final text, the streamed answer and the narrator alike).

Most sentences claim nothing: one regular expression decides that, and only a claim
is looked at further.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from assistant.schema import ToolResult

_APPOINTMENT = frozenset({"crm.bookAppointment", "crm.rescheduleAppointment"})
_TASK_DONE = frozenset({"crm.completeTask", "crm.updateTask"})
_NEW = frozenset({"crm.addTask", "crm.bookAppointment", "crm.createTicket"})
_GONE = frozenset({"crm.deleteTask", "crm.cancelAppointment"})
# A day or a time changed: a visit's, or a task's due day.
_RETIMED = frozenset({"crm.rescheduleAppointment", "crm.updateTask"})
_CASE = frozenset({"crm.createTicket"})
# The verbs of a change, as models say them, and the writes that make each (None: any
# write, as for "changed", "updated", "saved", "set", "sorted"). A pattern, since some
# have the thing changed inside ("taken 'Buy milk' off", "brought your cleaning forward").
_CHANGES: dict[str, frozenset[str] | None] = {
    r"(?:re)?booked": _APPOINTMENT,
    r"reserved|pencill?ed (?:\S+ ){0,2}?in|lined up": frozenset({"crm.bookAppointment"}),
    r"scheduled": _APPOINTMENT,
    r"cancell?ed": frozenset({"crm.cancelAppointment"}),
    r"deleted|removed|erased|wiped|cleared|dropped|got rid of": _GONE,
    r"(?:taken|struck) (?:\S+ ){1,4}?off": frozenset({*_GONE, "crm.completeTask"}),
    r"moved|rescheduled|pushed|bumped|switched|shifted|postponed|moved up": _RETIMED,
    r"brought (?:\S+ ){0,3}?forward": _RETIMED,
    # "I added that note to Buy groceries": a to-do's note is its change, not a new thing
    r"added (?:\S+ ){0,2}?notes?": frozenset({"crm.updateTask"}),
    r"added|created": _NEW,
    r"opened|logged|filed|raised|lodged|submitted": _CASE,
    r"renamed": frozenset({"crm.updateTask"}),
    r"flagged": frozenset({"crm.addTask", "crm.updateTask", "crm.createTicket"}),
    r"completed|marked|ticked off|crossed off|checked off|closed(?: out)?": _TASK_DONE,
    r"updated|changed|saved|swapped|replaced|set(?: up)?|put|sorted|made the change": None,
}
_CHANGED = "(?:" + "|".join(_CHANGES) + ")"
_CHANGE_OF = tuple(
    (re.compile(rf"(?:{verb})$", re.IGNORECASE), made) for verb, made in _CHANGES.items()
)
_CLAIM = re.compile(
    rf"\b(?:i|we)(?:'ve|’ve| have)?\s+(?:just\s+|now\s+|successfully\s+|already\s+"
    # "I've also opened…", "I've quickly added…": any adverb between.
    rf"|also\s+|even\s+|\w+ly\s+|gone ahead and\s+|went ahead and\s+)*{_CHANGED}\b"
    rf"|\b(?:has|have|is|are|was|were|'s|’s)\s+(?:now\s+|been\s+|successfully\s+|all\s+)+"
    rf"{_CHANGED}\b"
    # "Done.", "All set.", "Both moved.": a bare verb, with what it covers before it.
    rf"|^\W*(?:(?:all|both|each|everything)\s+)?(?:done|{_CHANGED})\b"
    r"|\byou(?:'re|’re| are)\s+(?:now\s+|all\s+)*(?:set|booked|sorted)\b"
    r"|\b(?:it's|that's|it is|that is|consider it)\s+(?:all\s+)?done\b"
    # How models say it without a verb of the list: "I've taken care of that", "I've put
    # you down for Friday", "you're all sorted", "that's locked in".
    r"|\b(?:taken care of|put you down|got you (?:down|booked)|all sorted|locked in)\b",
    re.IGNORECASE,
)
# A state only a change leaves: "your new number is saved", "your haircut is cancelled",
# "your haircut is now on Friday at 3" ("is booked for Friday" is what a listing says,
# and is not here). True too of a change made earlier in the conversation ("what day did
# you move it to?" "Your haircut is now on Saturday."), so a write of this turn or one
# made before backs it, where a claim of doing needs a write of this turn.
_STATE = re.compile(
    r"\b(?:is|are|'s|’s)\s+(?:saved|updated|changed|cancell?ed|deleted|removed|rescheduled"
    r"|moved|renamed|postponed)\b"
    r"|\b(?:is|are|'s|’s) now (?:on|at|due|tomorrow|today|this|next)\b",
    re.IGNORECASE,
)
_VERB = re.compile(
    rf"\b{_CHANGED}\b|\b(?:is|are|'s|’s) now (?=on|at|due|tomorrow|today|this|next)",
    re.IGNORECASE,
)
# "haven't booked", "couldn't be added", "was not moved": a verb said as not done.
_NEGATED = re.compile(r"(?:n't|\bnot|\bnever|\bnothing|\bno \w+)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)
# Titles and names in quotes may hold any word ("'Get car fixed'"): not claims.
_QUOTED = re.compile(r"'[^']*'(?!\w)|\"[^\"]*\"|‘[^’]*’|“[^”]*”")

# A verb that describes what was made rather than claiming a change of its own: a task
# or a case "marked high priority" / "marked as urgent" (set when it was added, or by the
# change made), a task ", scheduled for Friday" (its due day). Without this a truthful
# "I added a task: Water the plants, marked low priority." was replaced by an apology
# saying the change was not made.
_DESCRIBED: dict[str, tuple[re.Pattern[str], frozenset[str]]] = {
    "marked": (
        re.compile(
            r"^\s+(?:(?:it|them|as|a|an|with)\s+)*(?:(?:high|low|normal|medium|top)[- ])?"
            r"(?:priority|urgent|important)\b",
            re.IGNORECASE,
        ),
        frozenset({"crm.addTask", "crm.updateTask", "crm.createTicket"}),
    ),
    "scheduled": (
        re.compile(r"^\s+for\b", re.IGNORECASE),
        frozenset({"crm.addTask", "crm.updateTask", *_APPOINTMENT}),
    ),
}
# Only a participle set off after a comma describes ("a reminder, scheduled for Friday");
# "…and scheduled your haircut" is a change of its own.
_SET_OFF = re.compile(r",\s*$")


def _made_by(verb: re.Match[str], said: str) -> frozenset[str] | None:
    """The writes that back this verb where it stands (None: any write)."""
    word = " ".join(verb.group(0).lower().split())
    described = _DESCRIBED.get(word)
    if (
        described is not None
        and described[0].search(said[verb.end() :])
        and (word == "marked" or _SET_OFF.search(said[: verb.start()]))
    ):
        return described[1]
    if word.endswith(" now"):
        return _RETIMED | _APPOINTMENT  # "is now on Friday": moved, or booked anew
    for pattern, made in _CHANGE_OF:
        if pattern.match(word):
            return made
    return None


# A word every claim holds ("ed", or the word of a verb that has none).
_HINTS = (
    "ed",
    "done",
    "set",
    "put",
    "cancel",
    "rid",
    "taken",
    "brought",
    "struck",
    "made",
    " now ",
    "you down",
)

NOT_DONE = (
    "Sorry, I haven't actually made that change yet. Could you tell me once more what you'd "
    "like me to do?"
)
NOT_ALL_DONE = (
    "Sorry, I haven't made every change I mentioned: only what I've confirmed went through. "
    "Could you tell me once more what else you'd like me to do?"
)


NOT_YET = "I haven't made that change yet."


# A change promised as about to be made, not asked about nor made to wait on something
# ("I'll cancel all your appointments now", as a task's title told the model to say).
_PROMISES: dict[str, frozenset[str] | None] = {
    r"cancel": frozenset({"crm.cancelAppointment"}),
    r"delete|remove|erase|wipe|clear": _GONE,
    r"(?:re)?book|reserve|schedule": _APPOINTMENT,
    r"move|reschedule|push|postpone|shift": _RETIMED,
    r"add|create": _NEW,
    r"open|log|file|raise": _CASE,
    r"complete|mark|tick off|close": _TASK_DONE,
    r"rename": frozenset({"crm.updateTask"}),
    r"change|update|set|replace": None,
}
_PROMISE = re.compile(
    r"\b(?:i'll|i’ll|i will|i'm going to|i’m going to|i am going to|let me|we'll|we will)"
    r"\s+(?:now\s+|just\s+|go ahead and\s+|also\s+|quickly\s+|right away\s+)*"
    rf"(?P<verb>{'|'.join(_PROMISES)})\b",
    re.IGNORECASE,
)
_PROMISE_OF = tuple(
    (re.compile(rf"(?:{verb})$", re.IGNORECASE), made) for verb, made in _PROMISES.items()
)
# What makes a promise wait on something, or an offer: not a promise of a change now.
_UPON = re.compile(
    r"\b(?:if|once|when|whenever|as soon as|after|before|until|unless|want|like|should)\b|\?",
    re.IGNORECASE,
)
# What "let me …" follows when the one speaking promises it: the start of a sentence or
# clause, or a word that opens one ("sure, let me…", "ok so let me…").
_OPENS_A_PROMISE = re.compile(
    r"(?:^|[.!?,:;—-])\s*(?:(?:ok|okay|sure|so|and|now|then|first|right|alright|great|yes"
    r"|of course|no problem)\b[\s,]*)*$",
    re.IGNORECASE,
)
_PROMISE_HINTS = ("i'll", "i’ll", "i will", "going to", "let me", "we'll", "we will")
NOTHING_CHANGED = "I haven't changed anything on your account."
NOTHING_ELSE_CHANGED = "I haven't made any other change."
# "is booked", "are all scheduled": what a listing says of a visit, or a claim of the
# booking a question is about (when the turn read no visit to describe).
_BOOKED_STATE = re.compile(
    r"\b(?:is|are|'s|’s)\s+(?:now\s+|all\s+)*(?:booked|scheduled|confirmed|reserved)\b",
    re.IGNORECASE,
)


# Either kind of hint, looked for at once (a third of the time of looking for each).
HINTS = (*_HINTS, *_PROMISE_HINTS)
_ANY_HINT = re.compile("|".join(re.escape(hint) for hint in HINTS))


def _unmade_promise(text: str, made: Collection[str]) -> bool:
    """Whether `text` promises a change now that no write of `made` makes."""
    lowered = text.lower()
    if not any(hint in lowered for hint in _PROMISE_HINTS):
        return False
    for promise in _PROMISE.finditer(text):
        if _UPON.search(text[promise.end() :]) or _UPON.search(text[: promise.start()]):
            continue
        if promise.group(0).lower().startswith("let me") and not _OPENS_A_PROMISE.search(
            text[: promise.start()]
        ):
            continue  # "the app won't let me log in" (a case's subject told): no promise
        verb = " ".join(promise.group("verb").lower().split())
        tools = next((by for pattern, by in _PROMISE_OF if pattern.match(verb)), None)
        if (tools is None and not made) or (tools is not None and not tools & set(made)):
            return True
    return False


def _read_visits(results: Iterable[ToolResult]) -> bool:
    return any(
        r.ok
        and isinstance(r.result, dict)
        and ("appointments" in r.result or "appointment" in r.result)
        for r in results
    )


def unbacked_claim(
    text: str,
    results: Iterable[ToolResult],
    writes: Collection[str],
    *,
    held: bool = False,
    earlier: Collection[str] = (),
    pending: Collection[str] = (),
) -> str | None:
    """The truthful line to say instead of `text` when it claims a change no successful
    write of this turn made, or None when it claims nothing unmade. `held`: calls wait
    for the customer's yes (the question follows); `pending`: their tools. `earlier`: the
    tools of the writes this conversation made before this turn, which back a state said
    ("is now on Friday"), never a claim of doing ("I've moved it"). A promise of a change
    now ("I'll cancel them now") that no write made or held makes is not spoken either."""
    # Every promise holds one of `_PROMISE_HINTS`, every claim one of `_HINTS` (most
    # verbs end in "ed"); most sentences hold neither, and looking is some thirty times
    # cheaper than the patterns (0.3 µs, not 10). Every sentence of every answer is judged.
    lowered = text.lower()
    if not _ANY_HINT.search(lowered):
        return None
    promises = any(hint in lowered for hint in _PROMISE_HINTS)
    results = list(results)
    if promises and _unmade_promise(text, {*pending, *_made(results, writes)}):
        if held:
            return NOT_YET
        return NOTHING_ELSE_CHANGED if _made(results, writes) else NOTHING_CHANGED
    if not any(hint in lowered for hint in _HINTS):
        return None
    if (
        _APPOINTMENT & set(pending)
        and not _APPOINTMENT & _made(results, writes)
        and _BOOKED_STATE.search(_QUOTED.sub(_masked, text))
        and not _read_visits(results)
    ):
        return NOT_YET  # "Your eye exam is booked …" beside "Shall I book an eye exam …?"
    said = _QUOTED.sub(_masked, text)
    # "nothing has been changed yet", "it wasn't moved": claims nothing.
    acts = [m for m in _CLAIM.finditer(said) if not _NEGATED.search(said[: m.start()])]
    states = [m.span() for m in _STATE.finditer(said) if not _NEGATED.search(said[: m.start()])]
    if not acts and not states:
        return None
    made = {r.call.tool_name for r in results if r.ok and r.call.tool_name in writes}
    before = made | set(earlier)
    if (acts and not made) or not before:
        return NOT_YET if held else NOT_DONE
    for verb in _VERB.finditer(said):
        if _NEGATED.search(said[: verb.start()]):
            continue
        tools = _made_by(verb, said)
        backing = before if any(a <= verb.start() < b for a, b in states) else made
        if tools is not None and not tools & backing:
            return NOT_YET if held else NOT_ALL_DONE
    return None


def claims_a_change(text: str) -> bool:
    """Whether `text` says something changed, or is so since a change (not negated)."""
    lowered = text.lower()
    if not any(hint in lowered for hint in _HINTS):
        return False
    said = _QUOTED.sub(_masked, text)
    return any(
        not _NEGATED.search(said[: m.start()])
        for pattern in (_CLAIM, _STATE)
        for m in pattern.finditer(said)
    )


def _made(results: Iterable[ToolResult], writes: Collection[str]) -> set[str]:
    return {r.call.tool_name for r in results if r.ok and r.call.tool_name in writes}


def _masked(quoted: re.Match[str]) -> str:
    """A title in quotes, its words blanked: the same length, so spans still line up."""
    return quoted.group(0)[0] + "_" * (len(quoted.group(0)) - 2) + quoted.group(0)[-1]


def claims_unmade_change(text: str, results: Iterable[ToolResult], writes: Collection[str]) -> bool:
    """A model's answer that says something changed when no write of this turn made it."""
    return unbacked_claim(text, results, writes) is not None
