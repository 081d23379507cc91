"""A change told as already made elsewhere, not asked for here.

"i already cancelled my haircut online", "the dentist called and moved my cleaning to
friday at 2", "my husband booked me in for a haircut on friday at 10", "i was told my
number got changed to 415 555 0100": the customer says what someone did (they, on an app,
a receptionist, a relative), and the question under it is whether the CRM has it. Read as
asks, these BOOKED a second haircut, and held the phone number and the email to be
overwritten for a yes. What is told is looked up and said as the CRM has it; nothing is
written until it is asked for here ("ok then cancel it").

Only changes made in the CRM count: "I finished the groceries" is a to-do done in life,
and marking it done is what is asked (as before); "I marked the eye exam done in the app"
is a report of the list. A clause that also asks ("I was told to cancel it", "can you…",
"I'd like it moved") is an ask, as before.
"""

from __future__ import annotations

from typing import Literal

from assistant.language.intent import Intent, IntentKind
from assistant.language.patterns import rx

Told = Literal["cancel", "move", "book", "done", "delete", "add", "contact"]

# The verbs of a change made in the CRM, in the past, and what each tells.
_VERBS = (
    r"(?P<verb>cancell?ed|called off|moved|rescheduled|re-?booked|booked|pushed|switched"
    r"|changed|updated|deleted|removed|marked|ticked|checked off|added|put in|set up)"
)
# Who did it, when not the customer: a person or place named, or "someone", "they".
_SOMEONE = (
    r"(?:some(?:one|body)|they|she|he|the (?:dentist|doctor|office|clinic|salon|spa|front desk"
    r"|receptionist|desk|practice|hygienist|stylist|barber|team|staff|system|app|website)"
    r"|(?:your|the) (?:office|team|staff|people|receptionist|front desk|system|app|website"
    r"|company)|my (?:wife|husband|partner|sister|brother|mom|mum|mother|dad|father|son"
    r"|daughter|kid|assistant|friend|boss|secretary|carer|caregiver))"
)
_DONE_BY_SOMEONE = rx(
    rf"\b{_SOMEONE}(?: \w+){{0,3}}? (?:already |just |must have |has |had |have |also )?"
    rf"{_VERBS}\b"
)
# "I already cancelled it", "we moved it on the app", "i think i already added a task":
# the customer's own change, made elsewhere (said with where or when, or "already").
_DONE_BY_ME = rx(
    rf"\b(?:i|we)(?: (?:think|thought|believe|guess) (?:i|we))? (?:already |just |also )?{_VERBS}\b"
)
# Where or when it was done, which makes "I moved my haircut" a report, not an ask.
_ELSEWHERE = rx(
    r"\b(?:online|on (?:the|my|your) (?:app|website|site|phone|portal|computer|laptop)"
    r"|(?:by|over the) (?:phone|email)|yesterday|last (?:night|week|month)|this morning"
    r"|earlier|before|already|ago)\b"
)
# "my number got changed to…", "was my haircut moved", "my email changed to X last week",
# "i was told", "they said": a change told by what happened to it.
_HAPPENED = rx(
    # (not "what i've got booked", "everything i got booked": the visits held)
    r"\b(?<!'ve )(?<!have )(?<!\bi )(?<!you )(?<!we )"
    r"(?:got|was|were|has been|have been|had been|been) (?:already |just )?"
    rf"{_VERBS}\b(?! (?:to|for) (?:me|you)\b)"
)
_CONTACT_CHANGED = rx(
    rf"\b(?:number|phone|email|e-mail|address|name) (?:has |had )?{_VERBS} to\b"
    r"(?=.*\b(?:last|ago|yesterday|earlier|already|is that|do you have|did you get)\b)"
)
_TOLD = rx(
    r"\b(?:i was told|(?:was|were|got) told|told me|said (?:she|he|they|that|it|my|i)"
    r"|(?:she|he|they) said|called (?:me )?and (?:said|told))\b"
)
# An ask beside it: the clause is a request, whatever it tells ("I was told to cancel it,
# can you do that", "my husband wants it moved").
_ASKS = rx(
    r"\b(?:can|could|would|will) (?:you|u|i|we)\b|\bplease\b|\bpls\b|\b(?:i|we)(?:'d| would)"
    r" (?:like|love|prefer)\b|\b(?:i|we) (?:want|need)\b|\bwants?\b|\bneeds? (?:it|to)\b"
    r"|\btold (?:me |us )?to\b|\bsaid to\b|\bshould (?:i|you|we)\b|\bgo ahead\b"
    r"|\b(?:did|have|has|had) you\b"
)


# "the task I added before should be due tuesday", "make the one I booked earlier 11": an
# item named by the change that made it, with something asked of it.
_NAMED_BY_IT = rx(
    r"\b(?:the|that|this)(?: \w+){0,2} (?:i|we) (?:just |already |also )?"
    r"(?:added|booked|moved|rescheduled|changed|made|put in|set up)\b"
    r"(?=.*\b(?:should|make|set|change|move|put|push|due|to be|needs?)\b)"
)


_TOLD_OF_VERB: dict[str, Told] = {
    "cancelled": "cancel",
    "canceled": "cancel",
    "called off": "cancel",
    "moved": "move",
    "rescheduled": "move",
    "pushed": "move",
    "switched": "move",
    "rebooked": "move",
    "re-booked": "move",
    "booked": "book",
    "put in": "book",
    "set up": "book",
    "changed": "move",
    "updated": "move",
    "deleted": "delete",
    "removed": "delete",
    "marked": "done",
    "ticked": "done",
    "checked off": "done",
    "added": "add",
}
_CONTACT_WORDS = ("number", "phone", "email", "e-mail", "address", "@")
_TASK_WORDS = ("task", "to-do", "todo", "list", "reminder")


def told_elsewhere(clause: str) -> Told | None:
    """The kind of change `clause` tells was already made elsewhere, or None (an ask, a question
    to the assistant, or a change made in life such as "I finished the groceries")."""
    said = clause.lower()
    if not any(verb in said for verb in _GATE) and "told" not in said and "said" not in said:
        return None
    if _ASKS.search(said) or _NAMED_BY_IT.search(said):
        return None
    found = (
        _DONE_BY_SOMEONE.search(said)
        or _HAPPENED.search(said)
        or _CONTACT_CHANGED.search(said)
        or (_ELSEWHERE.search(said) and _DONE_BY_ME.search(said))
        or (_TOLD.search(said) and (_ANY_VERB.search(said) or _NOW_AT.search(said)))
    )
    if found is None:
        return None
    verb = found.groupdict().get("verb") or "moved"
    told = _TOLD_OF_VERB.get(verb, "move")
    if told in ("move", "add") and any(word in said for word in _CONTACT_WORDS):
        told = "contact"
    if told == "book" and any(word in said for word in _TASK_WORDS):
        told = "add"
    return told


# Every verb above holds one of these: a text with none is passed over at once.
_GATE = (
    "cancel",
    "called off",
    "moved",
    "schedul",
    "booked",
    "pushed",
    "switched",
    "changed",
    "updated",
    "deleted",
    "removed",
    "marked",
    "ticked",
    "checked off",
    "added",
    "put in",
    "set up",
)
_ANY_VERB = rx(rf"\b{_VERBS}\b")
# "the receptionist told me my cleaning is at 11 now": a time told, as a move.
_NOW_AT = rx(r"\b(?:is|was|'s) (?:now |actually |really )?(?:at|on|for)\b")


def looked_up_in(told: Told, said: str) -> IntentKind:
    """The listing that shows whether what was told was done."""
    if told == "contact":
        return "profile"
    if told in ("done", "delete", "add") or any(word in said for word in _TASK_WORDS):
        return "tasks"
    return "appointments"


def as_looked_up(found: list[Intent], told: Told, said: str) -> list[Intent]:
    """The asks read from a report, as the look-up that shows it: every write, and every
    other listing ("the eye exam" read as a visit too), becomes the one read of the
    listing that shows it; a read of something else beside it (the bill) is kept."""
    kind = looked_up_in(told, said)
    clause = next((intent.clause for intent in found if intent.writes), found[0].clause)
    # "i already booked a facial for friday, so cancel the haircut": the ask said after
    # what was told is asked here, and kept.
    asked = [i for i in found if i.writes and _ASKED_HERE.match(i.clause)]
    kept = [i for i in found if not i.writes and i.kind not in _LISTINGS_OF_CHANGES]
    if asked and told_elsewhere(asked[0].clause) is None:
        return [*asked, *kept]
    return [Intent(kind, clause=clause), *kept]


# A clause that asks for a change in so many words: its verb first, after a joining word.
_ASKED_HERE = rx(
    r"^(?:(?:so|and|then|also|but|please|now|just|can you|could you|pls)\W+)*"
    r"(?:cancel|move|book|add|delete|remove|mark|change|update|reschedule|complete|put|push"
    r"|set|make|switch|take)\b"
)


# The listings a change told of is shown by (one is read, the one of what was told).
_LISTINGS_OF_CHANGES = frozenset(
    {"appointments", "next_appointment", "tasks", "task_summary", "profile"}
)
