"""What no tool can do, said plainly, with a support case offered where the team can help:
a name or address change, a broken document, a copy sent, a case chased up.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from functools import lru_cache

from assistant.language import quoted
from assistant.language.account_rules import (
    case_asked_at,
    second_detail_kept,
    someone_elses_detail,
)
from assistant.language.intents import detect_intents
from assistant.language.others import SOMEONE_ELSES_ACCOUNT
from assistant.language.patterns import GatedPattern, Tried, rx
from assistant.language.text import normalize
from assistant.models.embedded.offers import OFFER

_NOT_INVOICES = "I can't change or cancel an invoice myself, but the billing team can look into it."
# Said of oneself, not asked: beside an ask ("move my haircut to friday at 3pm, I'm
# running late today") it is the ask's reason, and the ask is what is answered.
RUNNING_LATE = (
    "I can't pass on a message that you're running late, but if you'd like the visit "
    "moved, tell me the new time and I'll move it."
)

NOTES = "I can't add notes to a booking or pass a message on from here, but the team can."
# "add a note to it" just after a case was opened: the case is what "it" is.
NOTES_ON_A_CASE = (
    "I can't add a note to a support case once it's open, but the team will be in touch "
    "about it, and you can tell them then."
)
# What no tool can do, said plainly, with a support case offered where the team can help.
SERVICE_NOT_CHANGED = (
    "I can't change which service a booking is for. I can cancel this one and book the "
    "other in its place, if you ask me for both."
)
# "unsubscribe me from your emails", "stop sending me texts": which messages are sent is no
# contact detail ("your email" there is the business's: it was told "I can only change your
# own phone number…").
_MESSAGES_SENT = rx(
    r"\bunsubscribe\b|\bopt (?:me )?out\b|\bstop (?:sending|texting|emailing) me\b"
    r"|\b(?:no|don't send|do not send) (?:me )?(?:more |any more |marketing |promotional )"
    r"(?:email|text|message|newsletter)s?\b"
)
_CANNOT: tuple[tuple[GatedPattern, str], ...] = (
    (
        # "remove my phone number", "delete my email from your system": a detail on file
        # is changed, never removed, here (it was read as a to-do's name to delete, and
        # "which task did you mean?" asked)
        rx(
            r"\b(?:remove|delete|erase|wipe|clear|take off|get rid of)(?: all)? (?:of )?"
            r"(?:my |the )?(?:phone(?: number)?|mobile(?: number)?|cell(?: number)?"
            r"|e-?mail(?: address)?|home address|contact (?:details|info|information)"
            r"|personal (?:details|data|information)|data|account|profile)\b"
            r"(?! (?:task|to-?do|reminder|one)s?\b)"
            # "remove my phone number and put 415 555 0199": replaced, a change it makes
            r"(?![^.?!]*\b(?:and|then|,) *(?:just )?(?:put|use|set|replace it with|change it to"
            r"|make it|swap it for)(?: in| it as| it to| this| the new one| my new one)?"
            r"(?: one)?:? *(?:[+(]?\d|\S+@|phonenumber\d|emailaddress\d))"
        ),
        "I can't remove a contact detail or an account from here; I can change your phone "
        "number or email, or the team can remove them.",
    ),
    (
        rx(
            r"\b(?:change|update|correct|fix) my (?:name|surname|last name|first name)\b"
            r"|\bthe name on my account\b"
            r"|\bmy name to\b|\bname is (?:spelt|spelled) wrong\b"
        ),
        "I can't change the name on your account myself, but the team can.",
    ),
    (_MESSAGES_SENT, "I can't change which messages you get from here, but the team can."),
    (
        rx(
            r"\b(?:change|update|correct|fix) (?:my|the) (?:home |postal |billing )?address\b"
            r"|\bmy address to\b"
            # ("my number is +44 20 7946 0958 now that I've moved to London": the move is
            # the number's reason, and the number is changed)
            r"|^(?!.*\b(?:phonenumber|emailaddress)\d).*?\bi(?:'ve| have) moved\b"
            # "I moved, my new address is 12 Oak Street" ("I moved, and my new number is…" is
            # the phone's); "new address: 22 Oak Lane" (not "new address maria@…": an email)
            r"|\b(?:my )?new (?:home |postal |mailing |street )?address\b"
            r"(?!\W*(?:is )?emailaddress\d)"
        ),
        "I can't change your postal address here, but the team can.",
    ),
    (
        rx(
            r"\b(?:pdf|document|statement|receipt|letter)s?\b.*\b(?:blank|empty|missing pages"
            r"|broken|won't open|doesn't open|corrupt|unreadable)\b"
        ),
        "I'm sorry about that. I can't fix documents from here, but the team can send you a "
        "correct one.",
    ),
    (
        rx(
            r"\bchase (?:it |that |this |them )?up\b|\bescalate\b|\bspeed (?:it|this|that) up\b"
            # "push it up to a supervisor", "pass my case to a manager"
            r"|\b(?:push|pass|take|kick|bump|send|move|hand)(?: it| this| that| (?:the|my) case"
            r"| (?:the|my) ticket)?(?: up| over| on)? to (?:a |the |your |my )?(?:supervisor"
            r"|manager|boss|someone senior|someone higher(?: up)?|higher[- ]ups?|management)\b"
        ),
        "I can't chase or escalate a case from here; it stays open with the team until they "
        "answer. If something new has come up, I can open another one.",
    ),
    (
        rx(r"\bmark (?:it|that|this|(?:the|my) (?:\w+ )?(?:bill|invoice|balance)) (?:as )?paid\b"),
        "I can't change whether an invoice is paid myself, but the billing team can check "
        "your payment.",
    ),
    (
        rx(
            r"\breopen\b|\badd (?:to|onto|on to) (?:my|the|that|this) (?:case|ticket)\b"
            # "can you add to it that I'd like a call back", of a case just read out
            r"|\badd (?:to|onto) (?:it|that one|this one) that\b"
            r"|\b(?:add|put|say) (?:that|this|a note|a comment)\b.*\b(?:case|ticket|reply|heard"
            r"|still)\b"
        ),
        "I can't reopen a support case or add to one from here, but I can open a new one "
        "with that.",
    ),
    (
        rx(
            r"\b(?:close|withdraw|resolve|shut)(?: down)? (?:it|that|this|(?:the|my|that|this)"
            r"(?: new| old| other| \w+)? (?:one|case|ticket|complaint|request))\b"
            # "cancel my ticket", "delete that complaint": a case, not a visit (it was
            # looked for among the appointments, and which one to cancel was asked)
            r"|\b(?:cancel|delete|remove|drop) (?:(?:the|my|that|this)(?: new| old| other"
            r"| support)? )?(?:case|ticket|complaint)s?\b"
        ),
        "I can't close a support case from here; the team closes it once it's resolved, "
        "and they can close it sooner if you tell them it's sorted.",
    ),
    (
        rx(
            # (a case asked for in the same breath is opened by the grammar)
            r"^(?!.*\b(?:complain|complaint|case|ticket|report)).*"
            r"\b(?:was|were|is|are|being|so) (?:really |very |quite |incredibly |so |super )?"
            r"(?:rude"
            r"|unhelpful|unprofessional|disrespectful|dismissive"
            # "ugh, the haircut place was so loud last time": how a visit went, told
            r"|loud|noisy|dirty|filthy|messy|crowded|chaotic|freezing)\b"
        ),
        "I'm sorry to hear that; the team will want to know.",
    ),
    (
        # "the dentist was really late last time", "they kept me waiting an hour": a visit
        # that ran late (not "I was late" nor "my payment was late": the customer's own).
        rx(
            # (the first look finds the few messages that can match, in one pass)
            r"^(?=.*\b(?:late|behind|waiting|waited|wait|hold)\b)"
            r"(?!.*\b(?:complain|complaint|case|ticket|report)).*"
            r"(?:(?<!\bi )(?<!\bwe )(?<!payment )(?<!bill )(?<!invoice )(?<!payments )"
            r"\b(?:was|were|ran|running) (?:really |very |quite |so |super )?"
            r"(?:late|behind)\b(?! (?:for|with|on|paying)\b)"
            r"|\bkept (?:me|us) waiting\b|\bmade (?:me|us) wait\b"
            r"|\b(?:waited|waiting|on hold) (?:for )?(?:over |almost |nearly |about |more than )?"
            r"(?:an hour|half an hour|ages|forever|(?:\d+|\w+(?:[ -]\w+)?) (?:minutes|hours)))"
        ),
        "I'm sorry to hear that; the team will want to know.",
    ),
    (
        # "please stop texting me reminders", "don't call me again": how the business
        # contacts the customer is not a detail on file, and no tool changes it.
        rx(
            r"\b(?:stop|quit|no more|don't|dont|do not|never) (?:\w+ )?(?:texting|calling"
            r"|emailing|messaging|contacting|ringing|sending me)\b"
            r"|\b(?:don't|dont|do not|never|stop) (?:text|call|email|message|contact|ring) me\b"
            r"|\bunsubscribe\b|\bopt (?:me )?out\b|\bno more (?:texts|calls|emails|reminders)\b"
        ),
        "I can't change how or whether the team contacts you from here, but they can.",
    ),
    (
        rx(
            r"\b(?:email|send|mail|post) me (?:a |the )?(?:copy|receipt|statement|pdf|invoice)"
            r"|\bcopy of my (?:invoice|bill|statement)\b"
        ),
        "I can't send copies of documents from here, but I can tell you what's on your bill, "
        "or the team can send you a copy.",
    ),
    (
        # "cancel the dental cleaning invoice", "take the cleaning off my bill", "waive the
        # late fee": an invoice is the billing team's; the visit it names is not touched.
        # Not across a question begun after the ask ("cancel my haircut whats my balance":
        # the cancel was refused as an invoice's).
        rx(
            r"\b(?:cancel|remove|delete|waive|void|drop|wipe|erase|forgive|reduce|lower"
            r"|discount|scrap)\b(?: (?!and\b|then\b|also\b|but\b|so\b|what'?s?\b|how\b"
            r"|when'?s?\b|where'?s?\b)[\w']+){0,4}"
            r" (?:invoice|bill|charge|fee|balance|debt)s?\b"
        ),
        _NOT_INVOICES,
    ),
    (
        # (apart from the verbs above: one pattern with both has no words to test first)
        rx(r"\b(?:off|from) (?:my|the) (?:bill|invoice|balance|statement)\b"),
        _NOT_INVOICES,
    ),
    (
        # "add a note to my dentist appointment", "tell the salon I'll bring my own dye":
        # nothing on a booking holds a message, and nothing here sends one.
        rx(
            r"\b(?:add|put|leave|write|attach|include) (?:a |the |this |that |my )?"
            r"(?:note|comment|message)s?\b(?!.*\b(?:task|to-?do|list|case|ticket|reminder)s?\b)"
            r"|\b(?:tell|let|inform|warn|message|notify) (?:the |my )?(?:dentist|salon|stylist"
            r"|hairdresser|barber|clinic|office|front desk|receptionist|therapist|doctor)\b"
            # "…and tell them I want a trim only", "…and let them know I have a bad back"
            r"|\b(?:tell|let|inform|warn|notify) (?:them|the team|the staff)(?: know)?"
            r" (?:that |i |i'm |i am |my |it's |we )"
            r"|\bpass (?:it|that|this|a message|the message) (?:on|along)\b"
        ),
        NOTES,
    ),
    (
        # "make my haircut an hour longer", "extend my massage": a visit's length is the
        # business's; a task's due date ("extend the deadline") is not read here, nor a
        # visit "no longer" needed (a cancel).
        rx(
            r"^(?!.*\b(?:due|deadline|task|to-?do)s?\b)"
            r"(?=.*\b(?:appointment|booking|visit|session|haircut|cleaning|massage|dentist"
            r"|consultation|slot)s?\b).*\b(?:(?<!\bno )(?<!\bany )longer|shorter|lengthen|shorten"
            r"|extend)\b"
        ),
        "I can't change how long a visit lasts from here, but the team can.",
    ),
    (
        rx(
            r"\b(?:close|delete|cancel|deactivate|terminate|end|remove|shut down) (?:my |the )?"
            r"(?:whole |entire )?(?:account|membership|subscription|profile)\b"
        ),
        "I can't close or cancel an account from here, but the team can.",
    ),
    (
        # "my daughter will take my haircut slot", "put it in her name": a booking is the
        # customer's own; the team can hand it to someone else.
        rx(
            r"\b(?:she|he|they|someone|somebody|my (?!appointment|booking)\w+|a friend)"
            r"(?: \w+){0,3} (?:take|takes|taking|use|uses|using|have|has) (?:over )?my (?:\w+ )?"
            r"(?:slot|spot|place|appointment|booking|turn)\b"
            r"|\b(?:transfer|give|hand) (?:over )?(?:my |the |that |this )?(?:\w+ )?"
            r"(?:slot|spot|appointment|booking)s? (?:over )?to\b"
            r"|\bin (?:her|his|their|my \w+'s) name\b"
        ),
        "I can't book or change appointments in anyone's name but yours, but the team can "
        "pass this one to someone else.",
    ),
    (
        rx(
            r"\bwait(?:ing)?[ -]?list\b|\bcancellation list\b"
            r"|\b(?:let|tell|notify|call|text|email) me (?:know )?(?:if|when|as soon as)"
            r" (?:a|an|something|anything|one|a slot|a spot) ?(?:\w+ ){0,2}(?:opens|comes|frees"
            r"|becomes|is free|gets free)"
        ),
        "I can't keep a waiting list or watch for openings from here, but the team can.",
    ),
)


# Another person's visits, bills or list asked about, or "he's my husband, just do it"
# said after being told: the account is the customer's own.
OWN_ACCOUNT_ONLY = (
    "I can only see and change your own account here, so I can't look at or change "
    "anyone else's. They're welcome to contact us themselves, and I'm happy to help with "
    "anything on yours."
)
# A case once opened is the team's: no tool changes, marks or adds to it.
CASE_UNCHANGED = (
    "I can't change a support case once it's open, but the team will be in touch about it, "
    "and I can open a new one with what you'd like to add."
)
# One email and one phone number are kept, used for everything.
ONE_OF_EACH = (
    "I can only keep one email address and one phone number on file, used for everything, "
    "so I can't add a second one for some things. I haven't changed anything; if you'd like "
    "the new one to replace the one on file, just ask."
)
# What no tool does, answered with what can be done instead: a support case offered
# after it would be a second question, for something the team cannot do either.
_INSTEAD: tuple[tuple[GatedPattern, str], ...] = (
    (SOMEONE_ELSES_ACCOUNT, OWN_ACCOUNT_ONLY),
    (
        # "can you change my open ticket to say it's urgent?", "mark the case as urgent"
        rx(
            r"\b(?:change|update|edit|amend|modify|mark|flag|rename|reword)"
            r" (?:my |the |that |this |it |an? )?(?:open |existing |old |current |other |first "
            r"|last |support |\w+ )?(?:case|ticket|complaint)s?\b"
            r"|^(?=.*\b(?:case|ticket|complaint)s?\b)"
            r".*\b(?:mark|make|flag|set) (?:it|that|this|(?:the|my) (?:\w+ )?(?:one|case|ticket))"
            r" (?:as )?(?:urgent|high priority|a priority|important)\b"
        ),
        CASE_UNCHANGED,
    ),
    (
        # "use my work email for invoices but keep my personal one": a second email or
        # number, for some things only, is not a change of the one on file.
        rx(
            r"(?=.*\b(?:e-?mail|number|phone)\b)(?:.*\bfor (?:my |the |all |any )?(?:invoices?"
            r"|bills?|billing|receipts?|statements?)\b.*\bkeep\b"
            r"|.*\bkeep (?:my |the )?(?:personal|other|current|old|existing|home|usual) "
            r"(?:one|e-?mail|address|number)\b.*\bfor\b)"
        ),
        ONE_OF_EACH,
    ),
    (
        rx(
            r"\b(?:mark|set|make|change|put|turn)\b.*\b(?:not (?:done|complete|completed"
            r"|finished)|undone|incomplete|uncomplete|unfinished|pending again|open again)\b"
            r"|\b(?:un-?tick|un-?check|un-?mark|un-?complete|reopen|re-open)\b.*\b(?:task|to-?do"
            r"|reminder|groceries|it)\b"
            r"|\bundo\b.*\b(?:task|to-?do|reminder)\b.*\b(?:done|complete|completed|finished)\b"
        ),
        "I can't mark a task as not done from here. If you still need it, just ask me to add "
        "it to your list again.",
    ),
    (
        # "give my assistant jenna a task to send the forms", "assign it to my husband": a
        # task is on the customer's own list; no one else's is kept here.
        rx(
            r"\b(?:give|assign) (?!(?:me|myself|us|a|an|the|it|this|that|its)\b)(?:my |our )?"
            r"(?:[a-z']+ ){0,2}[a-z']+ (?:a |an |another )(?:task|to-?do|reminder)s?\b"
            r"|\bassign (?:it|this|that|them|(?:the |my |a |that |this )?(?:[a-z']+ ){0,3}"
            r"(?:task|to-?do|reminder)s?) to (?!me\b|myself\b)"
        ),
        "I can only keep your own task list, so I can't give someone else a task. If you'd "
        "like it on your own list, just ask me to add it.",
    ),
    (
        rx(
            r"\b(?:remove|delete|clear|drop|take (?:off|away)|get rid of|erase)"
            r" (?:the |its |my |that )?(?:due dates?|deadlines?|due days?)\b"
            # "the groceries don't need a due date", "no deadline for the eye exam one"
            r"|(?<!that )(?<!which )\b(?:don't|doesn't|do not|does not|won't|no longer)"
            r" (?:need|have|want)s?"
            r" (?:a |any )?(?:due dates?|deadlines?|due days?)\b"
            # ("if groceries doesn't have a due date yet, make it due friday": a condition
            # of the change after it, if_named.py)
            r"(?!(?: yet| set)?,? (?:then )?(?:please )?(?:can you |could you |just )?"
            r"(?:set|make|put|move|give|change) (?:it|that)\b)"
            r"|\bno (?:due dates?|deadlines?) (?:for|on)\b"
        ),
        # (worded with its condition first: "…say which, and I'll change it" read as a
        # promise of a change now, and was replaced by "I haven't changed anything")
        "I can't take a due date off a task, only change it to another day: if you tell me "
        "which task and which day, I'll change it.",
    ),
    (
        # "I'm going to be 15 minutes late to my haircut": no message reaches the salon from
        # here, and the visit is not moved unless a time is asked for.
        rx(
            r"(?:\b(?:i|i'm|im|i'll|we|we're|we'll)(?: \w+){0,2} (?:be|am|are|running|run)"
            r"|^(?:(?:um|so|hey|hi|oh|sorry|ok|okay)\W+)*(?:running|gonna be|going to be))"
            r"(?: (?!paying\b|paid\b)\w+)? (?:a (?:bit|little) |(?:\d+|\w+) (?:minutes?"
            r"|mins?) |slightly |very |really |so |quite )?(?:late|behind)\b"
            r"(?! (?:fee|payment|charge|on (?:my )?(?:bill|payment|invoice)))"
        ),
        RUNNING_LATE,
    ),
    (
        # "change my haircut to a massage": a booking's service is not changed by a move;
        # read as one, the next time said would have moved the haircut and kept it one.
        rx(
            r"\b(?:change|switch|swap|turn|convert) (?:my |the |that |this )?(?:\w+ ){0,2}"
            r"(?:appointment |booking |visit )?(?:to|into|for) (?:a |an )"
            r"(?!(?:different |later |earlier |new |other |another |\w+ )?(?:time|day|date|slot"
            r"|hour|morning|afternoon|evening|week|weekday|weekend)s?\b)[a-z]+"
        ),
        SERVICE_NOT_CHANGED,
    ),
    (
        rx(
            r"\b(?:call|ring|phone|text|sms|email|e-mail|message) me (?:back\b|later\b"
            r"|tomorrow\b|the (?:day|night|morning) before\b|before\b|to remind\b"
            r"|(?:with |as )?a reminder\b)|\bsend me (?:a )?reminders?\b"
            r"|\b(?:reminder|remind) (?:calls?|texts?|sms|emails?)\b"
        ),
        "I can't set up calls or texts from here. If it helps, ask me to add a task with a "
        "due day and it will be on your list.",
    ),
)


# "make a task to update my address with the DMV", "remind me to chase it up": a to-do
# whose words name something no tool does; the to-do is what is asked.
# (words may describe the task before it is named: "add a high priority task to update my
# address with the bank" is a task, not an address change)
_TODO_FIRST = rx(
    r"\b(?:(?:add|make|create|put|set up|new|start)(?: me)? (?:a |an |another )?"
    r"(?:[a-z-]+ ){0,3}?(?:task|to-?do|reminder)s?|remind me|note to self"
    r"|on my (?:to-?do )?list"
    # "…. And a to-do to chase that up": the add said before, its verb unsaid
    r"|(?:^|[.!?,] )(?:and |also |plus )?(?:a|an) (?:task|to-?do|reminder) to)\b"
)


_ASKED_IF_DONE = rx(
    r"\b(?:did|has|have|had) (?:i|you|we|they|someone|anyone|anybody|somebody|the team)"
    r"(?: \w+)? $"
)


# Told someone else's number or address: nothing on file is changed, and it is said so.
OWN_DETAILS_ONLY = (
    "I can only change your own phone number and email on file, so I haven't changed anything."
)


# Told a second number or email beside the one on file, which is to stay.
ONE_OF_EACH = (
    "I can keep only one phone number and one email on file, so I haven't changed anything."
    " To replace the one on file, just tell me your new number or email."
)


_LIMITS = Tried(((pattern, reply), pattern) for pattern, reply in (*_INSTEAD, *_CANNOT))


def cannot_do(text: str, asks_a_change: Callable[[str], bool] | None = None) -> str | None:
    """A plain answer, with a support case offered, for what no tool does; else None.

    `asks_a_change` tells whether the message asks a change besides: then what is only
    said of oneself (`RUNNING_LATE`) is no limit met, but the change's reason."""
    met = _met(normalize(text).text, text, asks_a_change)
    return met[0] if met is not None else None


def _met(
    said: str, text: str, asks_a_change: Callable[[str], bool] | None
) -> tuple[str, int] | None:
    """What is said of the limit `said` meets, and where its words start (-1: none)."""
    if someone_elses_detail(said) and _MESSAGES_SENT.search(said) is None:
        return OWN_DETAILS_ONLY, -1
    if second_detail_kept(said):
        return ONE_OF_EACH, -1
    # A to-do's title ("delete the pay my bill one") asks nothing of the bill (quoted.py).
    said = quoted.masked(said)
    for (pattern, reply), found in _LIMITS.found(said):
        todo = _TODO_FIRST.search(said)
        if todo is not None and todo.start() < found.start():
            return None
        # "help me log an issue: the reminder texts never arrive": a case whose subject
        # names something no tool does; the case is what is asked, as a to-do said first is.
        if (case := case_asked_at(said)) is not None and case < found.start():
            return None
        if _ASKED_IF_DONE.search(said[: found.start()]):
            return None  # "did someone close my ticket…?" asks what became of it
        if reply is RUNNING_LATE and asks_a_change is not None and asks_a_change(text):
            return None
        return (f"{reply} {OFFER}" if (pattern, reply) in _CANNOT else reply), found.start()
    return None


# Where the words of a limit begin a clause of their own, after a change: "…an hour earlier
# and add a note…", "…0134, and stop sending me…", "mark groceries done. text me…".
_JOINED = r"(?:[,;.!?]+ *| )(?:(?:and|then|also|plus|oh|but|please|can you|could you) )*"


def change_beside(text: str, asks_a_change: Callable[[str], bool]) -> tuple[str, str] | None:
    """ "move my haircut an hour earlier and add a note that I want a trim only": the change
    asked before the clause a limit is met in, as said, and what is said of the limit (no
    case offered: the change's own answer, or its question, is what a yes would answer);
    None unless both are said. The change is made as if said alone, and the limit told
    beside it (was: the limit alone, and the move LOST)."""
    said = normalize(text).text
    met = _met(said, text, asks_a_change)
    if met is None or met[1] <= 0:
        return None
    reply, start = met
    # (the limit's words are found in the message with its titles masked, as `_met` read it)
    first_word = quoted.masked(said)[start:].split(maxsplit=1)[0]
    lowered = text.lower()
    joints = list(re.finditer(_JOINED + re.escape(first_word) + r"\b", lowered))
    if not joints or joints[-1].start() == 0:
        return None
    change = text[: joints[-1].start()].strip(" ,;")
    if len(change.split()) < 2 or not asks_a_change(change):
        return None
    return change, reply.removesuffix(f" {OFFER}")


# A word of a change, without which no change is said beside a limit: most messages of
# two clauses ask two things to be read, and are not tried against every limit.
_A_CHANGE_SAID = rx(
    r"\b(?:mov|push|bump|shift|reschedul|cancel|delet|remov|book|add|mark|complet|tick"
    r"|chang|updat|set|make|put|swap|switch|renam|call it|bring|drop|get rid)"
)


def said_beside(message: str, now: datetime, timezone: str) -> tuple[str, str] | None:
    """`change_beside`, a change being what the grammar reads as a write."""
    lowered = message.lower()
    if " and " not in lowered and "," not in lowered and ". " not in lowered:
        return None  # one clause: a limit alone, or none
    if _A_CHANGE_SAID.search(lowered) is None:
        return None
    return _said_beside(message, now, timezone)


@lru_cache(maxsize=16)
def _said_beside(message: str, now: datetime, timezone: str) -> tuple[str, str] | None:
    """Read once a turn: by each of the planner's rounds and by the narrator."""

    def asks_a_change(said: str) -> bool:
        return any(intent.writes for intent in detect_intents(said, now, timezone))

    return change_beside(message, asks_a_change)


def change_said_beside(message: str, now: datetime, timezone: str) -> str | None:
    """The change said beside a limit (`change_beside`), or None."""
    beside = said_beside(message, now, timezone)
    return beside[0] if beside is not None else None


# "any update on my case? if not, escalate it": the limit met is said on a condition of
# what a lookup asked beside it answers, or after a question of its own.
_ON_WHAT_IS_READ = rx(
    r"\b(?:if not|if nothing|if there's nothing|if there is nothing|if there's no|if there is no"
    r"|if it hasn't|if it has not|if they haven't|if no one|if nobody|otherwise|failing that"
    r"|if still not|if it's still|if its still|if it is still)\b"
)


def met_beside_a_read(text: str) -> str | None:
    """What no tool does, said plainly (no case offered), when it is asked beside a
    question a lookup answers ("my case about the invoice, any update? if not please
    escalate it"): the lookup is made and told, and this said after it. None otherwise."""
    if "?" not in text and _ON_WHAT_IS_READ.search(text.lower()) is None:
        return None  # (most reads: every limit is not tried on them, a turn each)
    said = normalize(text).text
    for (_, reply), found in _LIMITS.found(said):
        if reply is RUNNING_LATE or _TODO_FIRST.search(said[: found.start()]):
            return None
        before = said[: found.start()]
        if "?" in before or _ON_WHAT_IS_READ.search(said):
            return reply
        return None
    return None


def met_in(words: str) -> bool:
    """The words ask what no tool does ("push it up to a supervisor")."""
    return any(True for _ in _LIMITS.found(normalize(words).text))


# "and add that it was the haircut", "oh and also mention my new address": more words for
# a case, said just after it was opened (not "add that to my list": a to-do).
# ("actually also add that I want a call back", "oh, and please note on it that…", "can you
# also put down that i want a callback": more words for the case, not a to-do)
_ADDS_TO_IT = rx(
    r"^(?:(?:and|also|oh|plus|please|can you|could you|ok|okay|actually|so|just)[ ,]+)*"
    r"(?:add|mention|include|note|tell them|say|put in|put down|write down|jot down"
    r"|let them know)(?: also| too| as well)?"
    r"(?: that| to it| too| as well| on it that| on there that| in it that| to the (?:case"
    r"|ticket) that)\b(?!.*\b(?:task|to-?do|list|reminder|calendar)s?\b)"
    r"|^(?:(?:and|also|oh|plus|please|can you|could you|ok|okay|actually)[ ,]+)*"
    r"(?:mention|include)\b(?!.*\b(?:task|to-?do|list|reminder|calendar)s?\b)"
)
# What is added asks to be called back: said so, with what can be done.
_CALL_BACK = rx(
    r"\b(?:call(?:ed)? (?:me )?back|callback|call-back|(?:phone|ring|call) me(?: back)?"
    r"|(?:give|get) me a call|contact me"
    # ("…add that I want a call back" is read up to "a call": the "back" is cut before it)
    r"|(?:want|like|need|request|get|have) (?:a |someone to )?(?:call|ring|phone))\b"
)
NO_CALL_BACK_ADDED = (
    "I can't add to a support case once it's open, so I couldn't add that you'd like a "
    "call back. The team will be in touch about the case, and I can open a new case asking "
    "them to call you back if you'd like."
)
# "and the invoice one, can you mark it urgent now?": of a case in view, not a task.
_URGENT_IT = rx(
    r"\b(?:mark|make|flag|set) (?:it|that|this|that one|this one) (?:as )?(?:urgent"
    r"|high priority|a priority|important)\b"
)


def case_in_view_changed(text: str, case_in_view: bool, case_just_opened: bool) -> str | None:
    """What no tool does to a case: more words added to the one just opened, or the one
    in view marked urgent. `case_in_view`: cases were the last thing read out or opened."""
    said = normalize(text).text
    if case_just_opened and _ADDS_TO_IT.search(said):
        return NO_CALL_BACK_ADDED if _CALL_BACK.search(said) else NOTES_ON_A_CASE
    if case_in_view and _URGENT_IT.search(said):
        return CASE_UNCHANGED
    if case_in_view and _REOPEN_IT.search(said):
        return CASE_NOT_REOPENED
    if case_in_view and _CHASE_IT.search(said) and not _A_TODO.search(said):
        return CASE_NOT_CHASED
    return None


# "it's happening again, can you reopen it" with the cases in view: no tool reopens one.
_REOPEN_IT = rx(
    r"\b(?:re-?open|open (?:it|that|this|that one|the case|the ticket) (?:again|back up|up again))"
    r"\b"
)
CASE_NOT_REOPENED = (
    f"I can't reopen a support case from here, but I can open a new one about it. {OFFER}"
)
# "it's been four days, can you chase it": no tool hurries a case along ("add a task to
# chase it up" is a to-do).
_A_TODO = rx(r"\b(?:tasks?|to-?dos?|reminders?|remind|list)\b")
_CHASE_IT = rx(
    r"\b(?:chase|hurry|speed|escalate|nudge|expedite)(?: up)?"
    r" (?:it|that|this|them|(?:the|my|that) (?:\w+ )?(?:case|ticket|complaint|one))\b"
    r"|\b(?:chase|hurry|speed) (?:it|that|this|them) (?:up|along)\b"
)
CASE_NOT_CHASED = (
    "I can't chase a support case from here, but it's with the team and they'll be in touch "
    f"about it. I can open a new one saying you're still waiting. {OFFER}"
)


__all__ = ["cannot_do", "case_in_view_changed", "change_beside"]
