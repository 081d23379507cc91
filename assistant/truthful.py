"""What a model's sentence is replaced with when it would tell the customer the opposite
of what happened, with what did go through named.

`claims.py` catches a claim of a change no write made. Three more ways a model's words
tell the opposite, each caught here, before the sentence is spoken:

- a claim replaced while writes of the turn did go through ("Your haircut has been
  cancelled." when it was moved): the line said instead names what went through, so
  the customer does not ask for the move again;
- a denial of a write that went through ("Sorry, I couldn't add that task. Please try
  again." when it was added): they would add it twice;
- a tool call written as text ('<tool_call>{"name": …}</tool_call>', a bare JSON call,
  as some local models do): never read out; nothing was run from it.

Most sentences hold none of these: a few substring tests decide that first.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from assistant import as_said, claims
from assistant.schema import ToolResult
from assistant.speech import join_and
from assistant.untold import untold_writes

# A call written out as text: tags of the common chat templates, or JSON naming one.
_MARKUP = re.compile(
    r"<\s*/?\s*(?:tool_call|tool_calls|function_call|function|tool)\b"
    r"|\[/?TOOL_CALLS\]|<\|[a-z_]+\|>"
    r"|\"(?:name|arguments|function|tool_calls?|parameters)\"\s*:",
    re.IGNORECASE,
)
NOT_RUN = "Sorry, I didn't get that done just now. Could you ask me once more?"

# "couldn't add", "wasn't able to book", "couldn't be added", "wasn't moved", "failed to".
_NOT = (
    r"(?:couldn't|could not|can't|cannot|wasn't able to|was not able to|weren't able to"
    r"|unable to|failed to|didn't manage to|did not manage to|wasn't|was not|weren't"
    r"|hasn't been|has not been|haven't been|couldn't be|could not be)"
)
# A verb of a change (base form or participle) → the writes that make it. Not "change"
# or "update": "I couldn't update your email" beside a task added is about another write.
_VERBS: dict[str, frozenset[str]] = {
    r"add(?:ed)?|creat(?:e|ed)": frozenset({"crm.addTask", "crm.bookAppointment"}),
    r"book(?:ed)?|schedul(?:e|ed)|reserv(?:e|ed)": frozenset(
        {"crm.bookAppointment", "crm.rescheduleAppointment"}
    ),
    r"mov(?:e|ed)|reschedul(?:e|ed)": frozenset({"crm.rescheduleAppointment", "crm.updateTask"}),
    r"cancel(?:l?ed)?": frozenset({"crm.cancelAppointment"}),
    r"delet(?:e|ed)|remov(?:e|ed)": frozenset({"crm.deleteTask", "crm.cancelAppointment"}),
    r"complet(?:e|ed)|mark(?:ed)?": frozenset({"crm.completeTask", "crm.updateTask"}),
    r"open(?:ed)?|log(?:ged)?|fil(?:e|ed)": frozenset({"crm.createTicket"}),
}
_DENIAL = re.compile(
    rf"\b{_NOT}\s+(?:\w+\s+)?(?P<verb>{'|'.join(_VERBS)})\b"
    r"|\b(?:didn't|did not|hasn't|has not) go through\b",
    re.IGNORECASE,
)
_VERB_OF = tuple(
    (re.compile(rf"(?:{verb})$", re.IGNORECASE), made) for verb, made in _VERBS.items()
)
_DENIAL_HINTS = ("n't", "not", "unable", "failed")


# A word any of the three holds (a claim's, a promise's or a denial's), or a call's markup.
_WORTH_A_LOOK = re.compile(
    "|".join(re.escape(hint) for hint in (*claims.HINTS, *_DENIAL_HINTS, "<", '"', "["))
)


def may_mislead(text: str) -> bool:
    """Whether `text` holds a word any way of telling the opposite needs: most sentences
    hold none, and every sentence of every answer is judged (one search, under 1 µs)."""
    return _WORTH_A_LOOK.search(text.lower()) is not None


def went_through(results: Iterable[ToolResult], timezone: str) -> str | None:
    """ "your haircut is moved to Wednesday, November 25 at 3 PM" for the writes of
    `results` that went through; None when none did."""
    clauses = untold_writes(results, set(), timezone)
    return join_and(list(clauses)) if clauses else None


def said_instead(
    text: str,
    results: list[ToolResult],
    writes: Collection[str],
    *,
    timezone: str,
    held: bool = False,
    earlier: Collection[str] = (),
    pending: Collection[str] = (),
) -> str | None:
    """The line to say in place of `text` when it would tell the customer the opposite
    of what happened (see the module's docstring), or None to say it as it is."""
    if ("<" in text or '"' in text or "[" in text) and _MARKUP.search(text):
        done = went_through(results, timezone)
        return f"Here's what went through: {done}." if done else NOT_RUN
    instead = claims.unbacked_claim(
        text, results, writes, held=held, earlier=earlier, pending=pending
    )
    if instead == claims.NOT_DONE and as_said.refused_as_said_not_to(results):
        # "add a task to call the bank. actually no, don't", and the model's add refused:
        # left as said, not "could you tell me once more what you'd like me to do?"
        return as_said.LEFT_AS_SAID
    if instead == claims.NOT_ALL_DONE and (done := went_through(results, timezone)):
        return (
            f"Sorry, I said that wrong. Here's what went through: {done}. "
            "Could you tell me once more what else you'd like me to do?"
        )
    if instead is None and _denies_a_done_write(text, results, writes):
        done = went_through(results, timezone)
        if done:
            return f"Sorry, I said that wrong: that did go through. {done[0].upper()}{done[1:]}."
    return instead


def _denies_a_done_write(text: str, results: list[ToolResult], writes: Collection[str]) -> bool:
    """Whether `text` says a change was not made when every write of this turn that
    makes it went through (one failed beside it may be the one meant)."""
    lowered = text.lower()
    if not any(hint in lowered for hint in _DENIAL_HINTS):
        return False
    made = {r.call.tool_name for r in results if r.ok and r.call.tool_name in writes}
    if not made:
        return False
    unmade = {r.call.tool_name for r in results if not r.ok and r.call.tool_name in writes}
    for denial in _DENIAL.finditer(text):
        verb = denial.group("verb")
        tools = frozenset(writes)  # "that didn't go through": any write
        if verb is not None:
            tools = next((by for pattern, by in _VERB_OF if pattern.match(verb)), frozenset())
        if tools & made and not tools & unmade:
            return True
    return False
