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

_CHANGED = (
    r"(?:booked|cancell?ed|deleted|removed|moved|rescheduled|added|updated|changed|completed"
    r"|created|opened|marked|scheduled|ticked off|crossed off)"
)
_CLAIM = re.compile(
    rf"\b(?:i|we)(?:'ve| have)?\s+(?:just\s+|now\s+|successfully\s+|already\s+|gone ahead and\s+)*"
    rf"{_CHANGED}\b"
    rf"|\b(?:has|have|is|are|was|were)\s+(?:now\s+|been\s+|successfully\s+|all\s+)+{_CHANGED}\b"
    rf"|^\W*(?:all\s+)?(?:done|{_CHANGED})\b"
    r"|\byou(?:'re| are)\s+(?:now\s+|all\s+)*(?:set|booked)\b"
    r"|\b(?:it's|that's|it is|that is)\s+(?:all\s+)?done\b"
    # How models say it without a verb of the list: "I've taken care of that", "I've put
    # you down for Friday", "you're all sorted", "that's locked in".
    r"|\b(?:taken care of|put you down|got you (?:down|booked)|all sorted|locked in)\b",
    re.IGNORECASE,
)
_VERB = re.compile(rf"\b{_CHANGED}\b", re.IGNORECASE)
# "haven't booked", "couldn't be added", "was not moved": a verb said as not done.
_NEGATED = re.compile(r"(?:n't|\bnot|\bnever)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)
# Titles and names in quotes may hold any word ("'Get car fixed'"): not claims.
_QUOTED = re.compile(r"'[^']*'(?!\w)|\"[^\"]*\"|‘[^’]*’|“[^”]*”")

_APPOINTMENT = frozenset({"crm.bookAppointment", "crm.rescheduleAppointment"})
_TASK_DONE = frozenset({"crm.completeTask", "crm.updateTask"})
# Which writes make the change a verb says; a verb not named here (changed, updated,
# done, set) is backed by any write.
_MADE_BY: dict[str, frozenset[str]] = {
    "booked": frozenset({*_APPOINTMENT}),
    "scheduled": frozenset({*_APPOINTMENT}),
    "cancelled": frozenset({"crm.cancelAppointment"}),
    "canceled": frozenset({"crm.cancelAppointment"}),
    "deleted": frozenset({"crm.deleteTask", "crm.cancelAppointment"}),
    "removed": frozenset({"crm.deleteTask", "crm.cancelAppointment"}),
    "moved": frozenset({"crm.rescheduleAppointment"}),
    "rescheduled": frozenset({"crm.rescheduleAppointment"}),
    "added": frozenset({"crm.addTask", "crm.bookAppointment", "crm.createTicket"}),
    "created": frozenset({"crm.addTask", "crm.bookAppointment", "crm.createTicket"}),
    "opened": frozenset({"crm.createTicket"}),
    "completed": _TASK_DONE,
    "marked": _TASK_DONE,
    "ticked off": _TASK_DONE,
    "crossed off": _TASK_DONE,
}
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
    if described is not None and described[0].search(said[verb.end() :]):
        if word == "marked" or _SET_OFF.search(said[: verb.start()]):
            return described[1]
    return _MADE_BY.get(word)


NOT_DONE = (
    "Sorry, I haven't actually made that change yet. Could you tell me once more what you'd "
    "like me to do?"
)
NOT_ALL_DONE = (
    "Sorry, I haven't made every change I mentioned: only what I've confirmed went through. "
    "Could you tell me once more what else you'd like me to do?"
)


NOT_YET = "I haven't made that change yet."


def unbacked_claim(
    text: str, results: Iterable[ToolResult], writes: Collection[str], *, held: bool = False
) -> str | None:
    """The truthful line to say instead of `text` when it claims a change no successful
    write of this turn made, or None when it claims nothing unmade. `held`: calls wait
    for the customer's yes (the question follows)."""
    # Every claim holds "ed" (its verb), "done", "set", "cancel", "care of" or "you
    # down"; most sentences hold none, and looking is some thirty times cheaper than
    # the pattern (0.3 µs, not 10).
    lowered = text.lower()
    hinted = (
        "ed" in lowered
        or "done" in lowered
        or "set" in lowered
        or "cancel" in lowered
        or "care of" in lowered
        or "you down" in lowered
    )
    if not hinted or not _CLAIM.search(text):
        return None
    made = {r.call.tool_name for r in results if r.ok and r.call.tool_name in writes}
    if not made:
        return NOT_YET if held else NOT_DONE
    said = _QUOTED.sub("''", text)
    for verb in _VERB.finditer(said):
        if _NEGATED.search(said[: verb.start()]):
            continue
        tools = _made_by(verb, said)
        if tools is not None and not tools & made:
            return NOT_YET if held else NOT_ALL_DONE
    return None


def claims_unmade_change(text: str, results: Iterable[ToolResult], writes: Collection[str]) -> bool:
    """A model's answer that says something changed when no write of this turn made it."""
    return unbacked_claim(text, results, writes) is not None
