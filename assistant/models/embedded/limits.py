"""What no tool can do, said plainly, with a support case offered where the team can help:
a name or address change, a broken document, a copy sent, a case chased up.
"""

from __future__ import annotations

from assistant.language.account_rules import someone_elses_detail
from assistant.language.patterns import GatedPattern, Tried, rx
from assistant.language.text import normalize
from assistant.models.embedded.questions import OFFER

# What no tool can do, said plainly, with a support case offered where the team can help.
_CANNOT: tuple[tuple[GatedPattern, str], ...] = (
    (
        rx(
            r"\b(?:change|update|correct|fix) my (?:name|surname|last name|first name)\b"
            r"|\bthe name on my account\b"
            r"|\bmy name to\b|\bname is (?:spelt|spelled) wrong\b"
        ),
        "I can't change the name on your account myself, but the team can.",
    ),
    (
        rx(
            r"\b(?:change|update|correct|fix) (?:my|the) (?:home |postal |billing )?address\b"
            r"|\bmy address to\b|\bi(?:'ve| have) moved\b"
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
        rx(r"\bchase (?:it |that |this |them )?up\b|\bescalate\b|\bspeed (?:it|this|that) up\b"),
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
            r"|unhelpful|unprofessional|disrespectful|dismissive)\b"
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
)


# What no tool does, answered with what can be done instead: a support case offered
# after it would be a second question, for something the team cannot do either.
_INSTEAD: tuple[tuple[GatedPattern, str], ...] = (
    (
        rx(
            r"\b(?:mark|set|make|change|put|turn)\b.*\b(?:not (?:done|complete|completed"
            r"|finished)|undone|incomplete|uncomplete|unfinished|pending again|open again)\b"
            r"|\b(?:un-?tick|un-?check|un-?mark|un-?complete|reopen|re-open)\b.*\b(?:task|to-?do"
            r"|reminder|groceries|it)\b"
        ),
        "I can't mark a task as not done from here. If you still need it, just ask me to add "
        "it to your list again.",
    ),
    (
        rx(
            r"\b(?:remove|delete|clear|drop|take (?:off|away)|get rid of|erase)"
            r" (?:the |its |my |that )?(?:due dates?|deadlines?|due days?)\b"
        ),
        "I can't take a due date off a task, only change it to another day: say which, and "
        "the task's name, and I'll change it.",
    ),
)


# "make a task to update my address with the DMV", "remind me to chase it up": a to-do
# whose words name something no tool does; the to-do is what is asked.
_TODO_FIRST = rx(
    r"\b(?:(?:add|make|create|put|set up|new|start)(?: me)? (?:a |an |another )?(?:new )?"
    r"(?:task|to-?do|reminder)s?|remind me|note to self|on my (?:to-?do )?list)\b"
)


_ASKED_IF_DONE = rx(
    r"\b(?:did|has|have|had) (?:i|you|we|they|someone|anyone|anybody|somebody|the team)"
    r"(?: \w+)? $"
)


# Told someone else's number or address: nothing on file is changed, and it is said so.
OWN_DETAILS_ONLY = (
    "I can only change your own phone number and email on file, so I haven't changed anything."
)


_LIMITS = Tried(((pattern, reply), pattern) for pattern, reply in (*_INSTEAD, *_CANNOT))


def cannot_do(text: str) -> str | None:
    """A plain answer, with a support case offered, for what no tool does; else None."""
    said = normalize(text).text
    if someone_elses_detail(said):
        return OWN_DETAILS_ONLY
    for (pattern, reply), found in _LIMITS.found(said):
        todo = _TODO_FIRST.search(said)
        if todo is not None and todo.start() < found.start():
            return None
        if _ASKED_IF_DONE.search(said[: found.start()]):
            return None  # "did someone close my ticket…?" asks what became of it
        return f"{reply} {OFFER}" if (pattern, reply) in _CANNOT else reply
    return None


__all__ = ["cannot_do"]
