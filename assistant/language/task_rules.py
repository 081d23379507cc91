"""The rules for tasks: add one, complete, change (title, priority, due date, note), delete."""

from __future__ import annotations

import dataclasses
import re
from datetime import date, timedelta
from typing import Any

from assistant.language import slots
from assistant.language.clause import (
    APPT_NOUN,
    LIST_TAIL,
    QUESTION_START,
    TASK_NOUN,
    Clause,
)
from assistant.language.dates import find_when, without_unread_day
from assistant.language.intent import TARGETS_JOINER, Intent
from assistant.language.lexicon import SERVICES, TITLE_VERBS
from assistant.language.others import PERSON
from assistant.language.patterns import Tried, rx
from assistant.language.relative_days import (
    RELATIVE_DAY,
    RELATIVE_DAY_FIRST,
    RELATIVE_DAY_THEN_TIME,
    SAME_DAY,
    relative_days,
)
from assistant.language.shifts import find_shift, relative_day, whole_days
from assistant.language.targets import TargetRef, target_ref
from assistant.language.text import restore_case
from assistant.language.verbs import base_form

_ADD_TASK = (
    rx(
        r"\b(?:add|create|make|put|set up|set|start|write|log|jot down|note down|save|enter"
        # "would you mind adding a reminder to…": the -ing form after a polite lead
        r"|pop|stick|adding|creating|making|putting|setting up|popping|sticking)(?: me)?(?: in)?"
        r" (?:a |an |another |new |one more |one )*"
        r"(?:(?P<p>high|low|normal|medium|top|urgent|important)(?:[- ]priority)? )?(?:new )?"
        # "a weekly task to water the plants": said in the title, no task repeats
        r"(?:(?P<rep>daily|weekly|monthly|yearly|nightly|fortnightly) )?"
        # British "pop a reminder in to ring the garage"
        r"(?:task|to-do|to do|reminder|item|action item)s?(?: item)?(?: in(?= (?:to|for|on)\b))?"
        r"(?: for me)?"
        r"(?P<rest>.*)$"
    ),
    rx(r"^(?:new |a )?(?:task|reminder|to-do)(?P<rest>\b[^:]{0,30}:.+)$"),
    # "…and another task to call mom", "…and a new one to…" (intents._name_the_one)
    rx(r"^(?:another|a new|one more|new) (?:task|reminder|to-do)(?: item)?(?P<rest>.+)$"),
    # "…. And a to-do to chase that up": the verb of the ask before, unsaid
    rx(r"^(?:a|an) (?:task|reminder|to-do)(?: item)?(?P<rest> to .+)$"),
    rx(
        r"\b(?:i need|i want|i'd like|i would like|can i have|can i get|give me)(?: to add)?"
        r" (?:a |an |another |new )+(?:task|reminder|to-do)(?P<rest>.*)$"
    ),
    # ("can you remind me the address", "remind me of the time again": asked, not a to-do;
    # "remind me the day before to…" is one)
    rx(
        r"\bremind me (?!what|when|where|which|how|who|if|whether"
        r"|(?:again )?(?:of )?(?:the|my|your) (?:address|location|place|time|hours?|date|day"
        r"|number|name|amount|balance|price|details?|email|phone)\b(?! before| after))(?P<rest>.*)$"
    ),
    rx(
        r"\b(?:don't let me forget|do not let me forget|help me remember|remember|make sure i"
        r" remember|i need to remember) to (?P<rest>.*)$"
    ),
    rx(r"\bnote to self:? (?P<rest>.*)$"),
    # "put down renew passport, high priority": British for writing a to-do down ("put
    # me down for a haircut" is a booking).
    rx(
        # ("hang on, first put down a task to…": an order of asks; it read the tasks out)
        r"^(?:(?:can|could|would) you |please |i'?d like to |i would like to |i want to "
        r"|i wanna |i need to |let'?s |first,? |just )*put down (?!for\b|me\b)(?:a |an )?"
        r"(?:task |reminder |to-?do )?(?:to )?(?P<rest>.+)$"
    ),
    rx(
        r"\b(?:add|put|save|create|set up|enter) (?P<rest>.+?) as (?:a |an |another )?(?:new )?"
        r"(?:task|to-do|reminder|todo)\b"
    ),
    rx(r"\b(?:note down|jot down|write down|make a note)(?: that| to)? (?P<rest>.+)$"),
    rx(
        r"\b(?:add|put|stick|pop)(?: this| that)? (?:to|on|onto) (?:my |the )?(?:(?:to-do |to do"
        r" |task |todo )?list|tasks|to-dos|reminders)\b[\s:,-]*(?P<rest>.+)$"
    ),
    # "add milk to my shopping list": a thing to buy, kept as a task ("Buy milk")
    rx(
        r"\b(?:add|put|stick|pop|write) (?P<rest>.+?) (?:to|on|onto) (?:my |the |our )?"
        r"(?P<shop>shopping|grocery|groceries) list\b"
    ),
    # "pop a reminder on my list to ring the bank on Friday"
    rx(
        r"\b(?:add|put|stick|pop|set|stick)(?: me)? (?:a |an )?(?:quick )?(?:reminder|task|note"
        r"|to-do)(?: for me)? (?:on|to|onto|in) (?:my |the )?(?:(?:to-do |to do |task |todo )?list"
        r"|tasks|to-dos|reminders)\b[\s:,-]*(?P<rest>.+)$"
    ),
    rx(
        r"\b(?:add|put) (?P<rest>.+?) (?:to|on|onto) (?:my |the )?"
        r"(?:(?:to-do |to do |task |todo |tasks |reminder )?list|tasks|to-dos|reminders)\b"
    ),
    # "add buy stamps", "also add call the vet": a to-do said in the imperative after "add".
    rx(
        r"\badd (?P<rest>(?:buy|call|ring|pick up|pay|send|return|renew|clean"
        r"|fix|order|collect|write|finish|check|take|bring|visit|wash|sort out|find|print|post"
        r"|mail|drop off|ask|tell|get|cook|feed|walk|water|pack|submit|file|sign|read)\b.+)$"
    ),
    # "add 'call the pharmacy'", "add 'call the pharmacy' as high priority": a title quoted
    rx(r"\badd (?P<rest>'[^']+'|\"[^\"]+\")"),
)
_REPEAT_FIRST = rx(
    r"^(?P<rep>(?:every|each) (?:other |single )?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day"
    r"|day|week|weekday|weekend|morning|evening|night|month|year)|daily|weekly|monthly|yearly"
    r"|nightly)(?: to| that i (?:need|have) to| i (?:need|have) to)? (?=[a-z])"
)
_EVERY = rx(
    r"\b(?:every|each) (?:other |single )?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|day|week"
    r"|weekday|weekend|morning|evening|night|month|year)\b|\b(?:daily|weekly|monthly|yearly)\b"
)
_PRONOUN_TITLE = rx(r"it|that|this|them")
# "on the 1st to pay rent, and every month after": a first day, then what to do
_DAY_THEN_TODO = rx(
    r"^(?:(?:on|for) )?(?P<day>(?:the )?\d{1,2}(?:st|nd|rd|th)|(?:this |next )?(?:mon|tues|wednes"
    r"|thurs|fri|satur|sun)day|tomorrow|today)[, ]+to (?P<todo>.+)$"
)
# "…, and every month after", "… and then monthly", "…, daily": a repeat said after it
_REPEAT_AFTER = rx(
    r"[, ]+(?:and )?(?:then )?(?:(?:every|each) (?:other )?(?:day|week|month|year|morning"
    r"|evening|night)(?: after(?: that)?| from then on| thereafter)?|daily|weekly|monthly|yearly"
    r"|nightly)$"
)
_REPEAT_WORDS = rx(r"^[, ]*(?:and )?(?:then )?|(?: after(?: that)?| from then on| thereafter)$")
_ONCE_MORE = rx(r" (?:again|once more)(?=\W*(?:(?:can|could|would|will) you)?\W*$)")
_TO_BUY = rx(r"(?:buy|get|pick up|order|grab)\b")
# "could you remind me about something": a title that names nothing is asked for.
_PLACEHOLDER_TITLE = rx(
    r"(?:about )?(?:something|anything|stuff|a thing|some things|things|something for me"
    r"|a few things|one thing)"
)
# A title that only points at something said elsewhere: "it", "about that", "the task".
POINTER = r"(?:(?:about|of) )?(?:it|that|this|them|those|the (?:task|to-do|todo|reminder|thing))"
_ONLY_A_POINTER = rx(POINTER)
# "add a reminder for that day": a day, and no words of what to do (was titled "Day")
_ONLY_A_DAY = rx(r"(?:(?:for|on) )?(?:(?:that|the|this|same|the same) )?day")
# ", it's important," said between the task and "put it on my list": its priority only.
_IT_MATTERS = rx(
    r",?\s*(?:it's|it is|that's|that is|this is|this one's) (?:really |very |quite |super "
    r"|pretty |extremely |kind of )?(?:important|urgent)\b,?"
)
# The same said last, of the task being added, and its opposite ("it's not urgent").
_REMARK_ON_PRIORITY = rx(
    r",?\s*(?:it's|it is|that's|that is|this is|this one's) (?:(?:not )?(?:really |very |quite "
    r"|super |pretty |extremely |kind of |that |so |too )?(?:important|urgent)"
    r"|not (?:a |that |that much of a |such a |really a |too )?big (?:of )?(?:a )?deal)\W*$"
    # "…, it can wait": its priority, low, no words of the title
    r"|,?\s*(?:it|that|this) can wait\W*$"
)
# Who the to-do is for, told after it: "…, it's for my mum", "…it's for the party".
_FOR_WHOM = rx(
    r",?\s+(?:it's|it is|that's|that is|this is|they're|they are) (?:for|from) (?:my|our|the|a"
    r"|his|her|their) [a-z' -]{2,30}$"
)
_A_DAY = (
    r"(?:(?:this |next |on |by |for )?(?:monday|tuesday|wednesday|thursday|friday|saturday"
    r"|sunday)|(?:on |by |for )?the \d{1,2}(?:st|nd|rd|th)|tomorrow|today|tonight)"
)
# A remark said after the day a to-do is due, with no pause: a sentence of its own ("my
# tooth has been hurting", "my account is acting up", "i'm out of it").
_REMARK_AFTER_A_DAY = rx(
    rf"\b{_A_DAY} (?P<remark>(?:(?:my|our|his|her|their) [a-z]+(?: [a-z]+)? (?:is|are|has|have"
    r"|was|were|keeps|won't|doesn't|isn't|hasn't|needs|broke)\b"
    r"|(?:i'm|i am|i've|i have|we're|we are|we've|it's|it is|they're|they are)\b).*)$"
)
# A remark said after the to-do itself, with no pause and no day between them: a sentence
# of its own, its subject a thing or a person of the customer's and a state said of it
# ("book a plumber the kitchen sink is leaking", "call the vet my dog has been sneezing").
# Gated on the verbs such a sentence has; not after a verb whose object is a sentence
# ("make sure the door is locked", "tell the landlord the heating is broken"), nor after a
# word that joins one to the to-do ("…because the sink is leaking": the to-do's words).
# (A clause that tells which thing, said with no "that", reads the same and is cut too:
# "buy the book my son is reading" is titled "Buy the book", shorter, never another to-do.)
_REMARK_VERBS = rx(
    r"\b(?:is|are|was|were|keeps|kept|has been|have been|won't|doesn't|don't|isn't|aren't"
    r"|hasn't|needs|broke|stopped)\b"
)
_REMARK_AFTER_THE_TODO = rx(
    r"(?<=[a-z]) (?P<remark>(?:(?:the|my|our|his|her|their|your) [a-z]+(?: [a-z]+)?"
    r" (?:is|are|was|were|keeps|kept|has been|have been|won't|doesn't|don't|isn't|aren't"
    r"|hasn't|needs|broke|stopped)"
    r"|(?:it's|it is|i'm|i am|we're|we are|they're|they are) (?!for\b|about\b|due\b)"
    r")\b.*)$"
)
_JOINS_A_SENTENCE = rx(
    r"\b(?:that|if|whether|because|cause|since|as|so|when|why|how|what|where|and|but|or|once"
    r"|until|till|after|before|while|unless|though|although|which|who)$"
)
_SENTENCE_AS_OBJECT = rx(
    r"^(?:tell|ask|email|e-mail|text|message|remind|let|inform|warn|notify|write|say|show"
    r"|explain|mention|check|make sure|ensure|see|confirm|verify|find out|remember|know"
    r"|double check|figure out|decide|note|hope|promise|agree|learn|hear)\b"
)
_A_DAY_SAID = rx(rf"\b{_A_DAY}\b|\bdue\b")
# Two days offered for one to-do: "thursday or friday", "on the 22nd or the 23rd".
_TWO_DAYS = rx(rf"\b{_A_DAY} or {_A_DAY}\b")
# "before friday", "before the 19th": the day it must be done before.
_BEFORE_A_DAY = rx(
    r"\bbefore (?:the \d{1,2}(?:st|nd|rd|th)|(?:this |next )?(?:monday|tuesday|wednesday"
    r"|thursday|friday|saturday|sunday)|tomorrow)\b"
)
_NEED_TO = rx(
    r"^(?:so |ok |okay |um |uh )*(?:i need to|i have to|i must|i've got to|i gotta|need to"
    r"|i should|i want to)\s+"
)
_ADDS = Tried((pattern, pattern) for pattern in _ADD_TASK)
_TITLE_LEAD = rx(
    r"^[\s,:;-]*(?:(?:on|to|onto) (?:my |the )?(?:to-?do |to do |task )?list\s*)?"
    # whole words only: "remind me tomorrow at noon…" keeps its "to" ("morrow at noon")
    r"(?:(?:to|that says|saying|called|named|titled|about|for|that)\b|:|-)?\s*"
)


# "…the groceries task add one to pay rent": "one" is a task, named before in the message.
_ADD_ONE = rx(r"^(?:(?:and|then|also|please)\s+)*add (?:one|another(?: one)?) (?=to |for )")


# A to-do said as a need, not as an ask to add one: "I need to remember the car rego",
# "I need to sort the gutters out by the end of the month" (an errand of the customer's own
# with the day it is due), "add picking up the dry cleaning" (its verb said as a gerund).
_NEED_REMEMBERED = rx(
    r"^(?:(?:so|ok|okay|um|uh|oh|and|also|right)[ ,]+)*(?:i(?:'ve got| (?:really |still )?(?:need"
    r"|have|must|gotta|got|have got)) (?:to )?|help me |don't let me |do not let me )"
    r"(?:remember|forget)"
    r" (?:about )?(?!(?:to|what|when|where|which|how|who|if|whether|that|it|this|them|you"
    r"|my (?:\w+ )?(?:appointment|booking|visit|password|email|number))\b)(?P<rest>\w.*)$"
)
_ERRAND = (
    r"(?:buy|pick up|sort out|sort|fix|clean|renew|return|post|drop off|collect|order|finish"
    r"|file|submit|send|ring|call|wash|tidy|mow|paint|repair|replace|service|water|feed|walk"
    r"|pack|print|sign|register|organi[sz]e|clear out|book in)"
)
_NEED_BY_A_DAY = rx(
    r"^(?:(?:so|ok|okay|um|uh|oh|and|also|right)[ ,]+)*i(?:'ve got| (?:really |still |also )?"
    rf"(?:need|have|must|gotta|got|have got)) (?:to )?(?P<rest>{_ERRAND}\b.+)$"
)
_GERUND_ERRAND = rx(
    # ("hey can you add picking up…": asked politely, it was "I didn't catch what you meant")
    r"^(?:(?:and|then|also|please|pls|hey|hi|ok|okay|so|um"
    r"|(?:can|could|would|will) (?:you|u)(?: please)?)[\s,]+)*add"
    r" (?P<rest>(?:picking up|buying|calling|ringing|sending"
    r"|returning|renewing|fixing|ordering|collecting|writing|taking|bringing|washing"
    r"|sorting out|sorting|finding|printing|posting|dropping off|getting|paying|booking"
    r"|emailing|checking|cleaning out|tidying|mowing|watering|feeding|walking|packing)\b.+)$"
)
# Words of what another rule does: a visit, a bill, a case or a detail on file.
_NOT_AN_ERRAND = rx(
    r"\b(?:appointments?|bookings?|visits?|bills?|invoices?|balance|payments?|tickets?"
    r"|support|cases?|complaints?|email|e-mail|phone|number|address|tasks?|to-?dos?|list)\b"
)


_NEED_LEADS = ("i ", "i'", "so ", "ok", "um ", "uh ", "oh ", "and ", "also ", "right")


def said_as_a_need(c: Clause) -> Intent | None:
    """ "I need to remember the car rego", "i need to sort the gutters out by friday", "add
    picking up the dry cleaning": a to-do, added as if asked to add it (an errand said as
    a need only with the day it is due: without one it may be no more than told)."""
    if "remember" in c.text or "forget" in c.text:
        found, dated = _NEED_REMEMBERED.search(c.text), False
    elif c.text.startswith(_NEED_LEADS):
        found, dated = _NEED_BY_A_DAY.search(c.text), True
    elif "add " in c.text and "ing " in c.text:
        found, dated = _GERUND_ERRAND.search(c.text), False
    else:
        return None
    if found is None or _NOT_AN_ERRAND.search(found.group("rest")):
        return None
    rest = found.group("rest")
    if slots.service(rest, c.original) or (dated and not find_when(rest, c.now)):
        return None
    first, _, after = rest.partition(" ")
    if first.endswith("ing"):
        rest = f"{base_form(first)} {after}"
    elif not dated and "remember" not in rest and first in ("the", "my", "a", "an", "about"):
        rest = f"remember {rest}"  # "I need to remember the car rego": "Remember the car rego"
    intent = add_task(dataclasses.replace(c, text=f"add a task to {rest}"))
    if intent is None or (dated and "due_on" not in intent.arguments):
        return None
    # An errand told with its day is offered as a to-do, not added unasked (as a problem
    # told is offered as a case); "remember" and "add" ask for it.
    missing = (*intent.missing, "consent") if dated else intent.missing
    return dataclasses.replace(intent, clause=c.text, missing=missing)


# "re-add the pharmacy task" (language/added_back.py: "bring back the pharmacy one", "put the
# pharmacy task back on my list"): a to-do named by some of its words, added again
_READDED = rx(
    r"\bre-add (?P<what>(?:the|my|that) (?:[a-z'-]+ ){1,4}?(?:task|to-?do|reminder|one))\b"
    r"(?P<rest>.*)$"
)


def added_again(c: Clause) -> Intent | None:
    """The to-do named, looked up and added again under its title, with the level and the
    due day said after it ("re-add the pharmacy task for friday")."""
    if "re-add" not in c.text or (named := _READDED.search(c.text)) is None:
        return None
    rest = named.group("rest")
    arguments: dict[str, Any] = {}
    if priority := slots.priority(rest)[0]:
        arguments["priority"] = priority
    if (when := find_when(rest, c.now)) is not None and when.day is not None:
        arguments["due_on"] = when.day.isoformat()
    return Intent("add_task", arguments, target=task_ref(named.group("what"), c), clause=c.text)


def add_task(c: Clause) -> Intent | None:
    if c.text.startswith(("add ", "and ", "then ", "also ", "please ")) and (
        one := _ADD_ONE.match(c.text)
    ):
        whole = c.norm.text
        if TASK_NOUN.search(whole[: max(whole.find(c.text), 0)]):
            c = dataclasses.replace(c, text=f"add a task {c.text[one.end() :]}")
    for _, match in _ADDS.found(c.text):
        said_priority = match.groupdict().get("p")
        if said_priority:
            priority = slots.priority(f"{said_priority} priority")[0]
        else:
            # "…as a task with low priority": said after the title.
            priority = slots.priority(c.text[match.end("rest") :])[0]
        rest = _TITLE_LEAD.sub("", match.group("rest"), count=1)
        if (said_first := _REPEAT_FIRST.match(rest)) is not None:
            # "remind me every monday to take out the bins": what to do, then how often
            rest = f"{rest[said_first.end() :]} {said_first.group('rep')}"
        elif rep := match.groupdict().get("rep"):
            rest = f"{rest} {rep}"
        repeat = None
        if (
            "to " in rest
            and _EVERY.search(rest)
            and (first_day := _DAY_THEN_TODO.match(rest)) is not None
            and (said_repeat := _REPEAT_AFTER.search(first_day.group("todo"))) is not None
        ):
            # "remind me on the 1st to pay rent, and every month after": due the day said
            # first, what to do its title, and the repeat said in it, as a to-do said to
            # repeat keeps it (no to-do repeats); was titled "On the 1st to pay rent, …"
            todo = first_day.group("todo")
            repeat = _REPEAT_WORDS.sub("", said_repeat.group(0)).strip(" ,")
            rest = f"{todo[: said_repeat.start()]} {first_day.group('day')}"
        if rest.startswith("remind me to "):
            # "add a task to call mum and remind me to buy flowers": the second to-do is to
            # buy flowers (it was titled "Remind me to buy flowers")
            rest = rest[len("remind me to ") :]
        # "remind me the day before to find my glasses": the day first, then the to-do.
        first = RELATIVE_DAY_FIRST.match(rest)
        if first is not None:
            rest = rest[first.end() :]
        elif (first := RELATIVE_DAY_THEN_TIME.search(rest)) is not None:
            rest = rest[: first.start()] + rest[first.end() :]
        if match.groupdict().get("shop") and not _TO_BUY.match(rest):
            rest = f"buy {rest}"  # "add milk to my shopping list": the task is to buy it
        if _PRONOUN_TITLE.fullmatch(rest.strip(" ,.")):
            # "I need to send my tax forms by Thursday, it's important, put it on my list":
            # "it" is what was said before, in this clause or the ones before it.
            said_before = c.text[: match.start()]
            if not said_before.strip(" ,."):
                whole = c.norm.text
                said_before = whole[: whole.find(c.text)] if c.text in whole else ""
            said_before = _IT_MATTERS.sub("", said_before)
            # Nothing said before: "it" names nothing, and the title is asked for.
            rest = _NEED_TO.sub("", said_before.strip(" ,.")).strip(" ,.")
            # "I need to call the pharmacy again, put it back on my list": once more is no
            # word of what to do
            rest = _ONCE_MORE.sub("", rest)
            if rest:
                priority = priority or slots.priority(c.norm.text)[0]
        if (whom := _FOR_WHOM.search(rest)) is not None and whom.start() > 0:
            # "buy shampoo it's for my mum", said with no pause: who it is for is told, no
            # words of the title.
            rest = rest[: whom.start()]
        if (
            " " in rest
            and (remark_after := _REMARK_AFTER_A_DAY.search(rest)) is not None
            and remark_after.start() > 0  # ("on friday my passport expires": the to-do)
        ):
            # "call the dentist on friday my tooth has been hurting", no pause: a remark
            # after the day it is due, no words of the title.
            rest = rest[: remark_after.start("remark")].rstrip(" ,")
        elif (
            _REMARK_VERBS.search(rest) is not None
            and (remark_after := _REMARK_AFTER_THE_TODO.search(rest)) is not None
            and " " in rest[: remark_after.start()].strip()  # a verb and what it acts on
            and _JOINS_A_SENTENCE.search(rest[: remark_after.start()]) is None
            # (a day in it is the to-do's: "pay the bill it is due friday")
            and _A_DAY_SAID.search(remark_after.group("remark")) is None
            and not _SENTENCE_AS_OBJECT.match(rest)
        ):
            # "book a plumber the kitchen sink is leaking", no pause: a remark after the
            # to-do, no words of the title.
            rest = rest[: remark_after.start()].rstrip(" ,")
        two_days = _TWO_DAYS.search(rest) if " or " in rest else None
        if two_days is not None:
            # "ring the plumber thursday or friday": which day is asked (no one guessed), and
            # neither is a word of the title.
            rest = (rest[: two_days.start()] + rest[two_days.end() :]).strip(" ,")
        if remark := _REMARK_ON_PRIORITY.search(rest):
            # "call the plumber on monday, it's urgent": its priority, not title words.
            priority = priority or slots.priority(remark.group(0))[0]
            rest = rest[: remark.start()]
        tail = c.text[match.end("rest") :]
        # "take the bins out every tuesday": no task repeats; the words stay as said, and
        # no one day of them is made its due date.
        draft = slots.task_draft(rest, priority, c.original, c.now, dated=not _EVERY.search(rest))
        if repeat and draft.title:
            draft = dataclasses.replace(draft, title=f"{draft.title} {repeat}")
        if draft.due_on is None and (later := find_when(tail, c.now)) and later.day:
            # "put send the forms on my to-do list for Wednesday": the day after the list.
            draft = dataclasses.replace(draft, due_on=later.day.isoformat(), when=later)
        if (
            draft.due_on is not None
            and " before " in rest
            and (before_day := _BEFORE_A_DAY.search(rest)) is not None
            # (the day said after "before" is the one read: "on monday …before the 20th" not)
            and (said := find_when(before_day.group(0)[len("before ") :], c.now)) is not None
            and said.day is not None
            and said.day.isoformat() == draft.due_on
            and (eve := date.fromisoformat(draft.due_on) - timedelta(days=1)) >= c.now.date()
        ):
            # "send the invoice before friday", "before the 19th": due the day before it.
            draft = dataclasses.replace(draft, due_on=eve.isoformat())
        arguments: dict[str, Any] = {}
        if draft.title:
            arguments["title"] = draft.title
        if draft.priority:
            arguments["priority"] = draft.priority
        if draft.due_on:
            arguments["due_on"] = draft.due_on
            if draft.when is not None and draft.when.clock is not None:
                # A task keeps a day, not a time: the time said is kept in its note.
                arguments["description"] = slots.time_note(draft.when)
        names_nothing = _PLACEHOLDER_TITLE.fullmatch(rest.strip(" ,.?!")) or (
            # "remind me about it on friday": "it" named nothing here (it was added as "It")
            draft.title is not None
            and (
                _ONLY_A_POINTER.fullmatch(draft.title.lower().strip(" ,.?!"))
                or _ONLY_A_DAY.fullmatch(draft.title.lower().strip(" ,.?!"))
            )
        )
        if names_nothing:
            arguments.pop("title", None)
        missing: tuple[str, ...] = () if draft.title and not names_nothing else ("title",)
        relative_shift: timedelta | None = None
        # "call the bank at 3pm the day before": the day is the one before something said
        # before, not the one the hour alone would fall on (today's 3pm).
        undated = draft.due_on is None or (draft.when is not None and draft.when.day_implied)
        if undated and first is not None:
            arguments.pop("due_on", None)
            missing = ("when", *missing)  # before what, on which day, is asked
            relative_shift = relative_days(first.group(0))
        elif undated and (relative := RELATIVE_DAY.search(arguments.get("title", ""))):
            arguments.pop("due_on", None)
            # "remind me to pay it the day before": before what, on which day, is asked; the
            # words are not the title, and no day is guessed.
            arguments["title"] = arguments["title"][: relative.start()].rstrip(" ,")
            missing = ("when", *missing)
            # Kept as a shift: the bill or visit just talked about may anchor it.
            relative_shift = relative_days(relative.group(0))
        if same_day := SAME_DAY.search(arguments.get("title", "")):
            # "celebrate that day": the day of what was said before (the conversation may
            # anchor it), asked when nothing does; never words of the title.
            arguments["title"] = arguments["title"][: same_day.start()].rstrip(" ,")
            if draft.due_on is None:
                missing = ("when", *missing)
                relative_shift = timedelta(0)
            if not arguments["title"]:
                del arguments["title"]
                missing = (*missing, "title") if "title" not in missing else missing
        if draft.when is not None and draft.when.day_unread and not draft.when.day_implied:
            # "remind me to call my mum on easter monday": not next Monday; asked. (With
            # no day read at all, "the day before", "on my birthday" are read above.)
            arguments.pop("due_on", None)
            arguments.pop("description", None)
            if title := arguments.get("title"):
                arguments["title"] = without_unread_day(title) or title
            missing = ("when", *missing) if "when" not in missing else missing
        if two_days is not None:
            arguments.pop("due_on", None)
            arguments.pop("description", None)
            missing = ("when", *missing) if "when" not in missing else missing
        if draft.when is not None and draft.when.no_such_date is not None:
            missing = ("no_such_date", *missing)  # "pay rent on june 31st": which day?
        elif draft.when is not None and draft.when.weekday_conflict:
            missing = ("weekday_conflict", *missing)  # "on friday the 20th", a Saturday
        elif draft.due_on is not None and draft.due_on < c.now.date().isoformat():
            # "remind me yesterday to…": a day gone is asked about, not set.
            del arguments["due_on"]
            missing = ("future", *missing)
        return Intent(
            "add_task",
            arguments,
            when=draft.when,
            missing=missing,
            clause=c.text,
            shift=relative_shift,
        )
    return None


# "mark the high priority one done": a level said of the item meant, not a new one.
_LEVEL = (
    # ("make the insurance one less urgent": lowered, never "urgent", high)
    r"(?<!\bless )(?P<p>high|top|urgent|important|low|normal|medium|critical)"
    r"(?!(?:[- ]priority)? (?:one|task|to-?do|item|reminder)s?\b)"
)
_PRIORITY_CHANGE = (
    # (a level said bare, with no "to", "as" nor "priority", only after "make", "set",
    # "mark", "put", "flag", and not of a new visit: "move my haircut to saturday asap",
    # "make a massage appointment on saturday asap" say how soon, no level)
    rx(
        r"\b(?:(?P<bare>make|set(?! up\b)|mark|put(?! down)|flag)|change|bump|raise|lower|update"
        r"|switch|move)(?: up| down)? (?(bare)(?!an? [^,]*\b(?:appointment|booking|visit)\b))"
        r"(?P<t>.+?)(?:'s priority)? "
        r"(?(bare)(?:as |to |at |up to |down to |a |an )*"
        r"|(?:(?:as |to |at |up to |down to |a |an )+|(?=\S+[- ]priority\b)))"
        rf"{_LEVEL}(?:[- ]priority)?\b"
    ),
    # "drop it to normal", "knock the insurance one down to low": a level said after "to".
    # ("pop the car insurance down to normal", "pop it up to high": the same, put casually)
    rx(
        r"\b(?:drop|knock|bring|turn|take|pop|shove|kick)(?: down| back| up)? (?P<t>.+?)"
        r"(?: down| back| up)? to (?:a |an )?"
        rf"{_LEVEL}(?:[- ]priority)?\b"
    ),
    rx(
        r"\b(?P<dir>set|change|raise|lower|bump|increase|decrease|update|make|reduce)"
        r"(?: up| down)? the priority (?:of|on|for) (?P<t>.+?)(?: to (?P<p>\w+))?$"
    ),
    rx(r"\b(?P<dir>prioriti[sz]e|deprioriti[sz]e) (?P<t>.+)$"),
    rx(
        r"^(?P<t>.+?) (?:should be|is now|needs to be|must be|has to be|can be|could be"
        r"|ought to be) (?:a |an )?"
        rf"{_LEVEL}(?:[- ]priority)?\b"
    ),
    # "the groceries task is low priority now": what it is now, said as a state
    rx(
        r"^(?P<t>.+?) is (?:a |an )?(?P<p>high|top|urgent|important|low|normal|medium|critical)"
        r"[- ]priority now\b"
    ),
    # "insurance task make low", "the eye exam one, set it high": the task first, then the
    # verb and the level (said in a hurry, or by one whose English puts the object first)
    rx(
        r"^(?P<t>.+?\b(?:task|to-?do|reminder|one))[,:]? (?:make|set|change|mark|put|switch)"
        r"(?: it| that)? (?:to |as |at )?(?:a |an )?"
        rf"{_LEVEL}(?:[- ]priority)?"
        r"(?: please)?$"
    ),
    rx(
        r"^(?:i'd like |i want |can you |could you |please )?(?:have |get )?(?P<t>.+?)"
        r" (?:moved|changed|set|bumped|raised|lowered|made|marked|switched) (?:up |down )?"
        r"(?:to |as )?(?:a |an )?(?P<p>high|top|urgent|important|low|normal|medium|critical)"
        r"(?:[- ]priority)?\b"
    ),
)
_RENAME = (
    rx(r"\brename (?P<t>.+?) (?:to|as) (?P<new>.+)$"),
    rx(r"\bchange (?:the )?(?:name|title|wording) of (?P<t>.+?) to (?P<new>.+)$"),
    rx(r"\bchange (?P<t>.+?)(?:'s)? (?:name|title) to (?P<new>.+)$"),
    rx(
        r"\b(?:change|update|edit|switch) (?P<t>.+?\b(?:task|to-do|reminder|one))"
        r" to (?:say |read )?(?P<new>.+)$"
    ),
    # "change the eye exam task so it says book eye exam for june"
    rx(
        r"\b(?:change|update|edit|fix|reword|word) (?P<t>.+?\b(?:task|to-do|reminder|one))"
        r",? so (?:that )?(?:it|the title|its title) (?:says|reads|is) (?P<new>.+)$"
    ),
    # "call the groceries task weekly shop instead", "the insurance one should be called …"
    rx(
        r"\b(?:call|name|(?P<re>retitle)) (?P<t>(?:the|my|that|this) [a-z' -]+?\b(?:task|to-do"
        # ("retitle the insurance to-do as renew car…": the title after "as", not with it)
        r"|reminder|one)) (?:(?(re)(?:as|to)|as) )?"
        r"(?!(?:today|tonight|tomorrow|on|at|by|for|next|this|done|monday"
        r"|tuesday|wednesday|thursday|friday|saturday|sunday)\b)(?P<new>[a-z].*?)"
        r"(?:,? (?:instead|from now on|please))*$"
    ),
    rx(
        r"^(?P<t>(?:the|my|that|this) [a-z' -]+?\b(?:task|to-do|reminder|one))"
        r" should (?:be called|be named|say|read) (?P<new>.+)$"
    ),
)
# "and buy a birthday card" after a to-do: another errand, its verb first (TITLE_VERBS).
AND_ERRAND = rx(
    r"^(?:and|also|plus|oh and|and also)\s+(?P<t>(?:"
    + "|".join(sorted(TITLE_VERBS))
    + r")\b[a-z' -]+)[.!]*$"
)
# "…. And buy a birthday card": a sentence that opens with "and" and an errand's verb.
SENTENCE_ERRAND = rx(
    r"[.!?]\s+(?:and|also|plus|oh and)(?=\s+(?:"
    + "|".join(sorted(TITLE_VERBS))
    # ("…. And get me my balance" asks for something: no errand)
    + r")\b(?! (?:me|us)\b))",
    re.IGNORECASE,
)
# A visit's words ("the haircut one should be thursday" is the visit's day, not a task's).
_VISIT_WORDS = "|".join(
    re.escape(name) for name in sorted({*SERVICES, "appointment", "booking", "visit"}, key=len)
)
_DUE_CHANGE = (
    rx(
        r"\b(?:change|set|move|update|push|make) (?:the )?due date (?:of|on|for) (?P<t>.+?)"
        r" to (?P<w>.+)$"
    ),
    rx(r"\b(?:change|set|move|update|push) (?P<t>.+?)(?:'s)? due date to (?P<w>.+)$"),
    # ("make the one with no due date due on the 3rd": the "due date" is of the one meant)
    rx(r"\bmake (?P<t>.+?) due (?!dates? due\b)(?:on |by )?(?P<w>.+)$"),
    # "set the groceries to be due next tuesday", "change the groceries for be due on
    # monday": the thing, then the day it is due
    rx(
        r"\b(?:set|change|update) (?!(?:a|an|up|me|another|new|one)\b)(?P<t>.+?) (?:to be |to )?due"
        r" (?!dates? due\b)(?:on |by |for )?(?P<w>.+)$"
    ),
    # "give it one for the 25th", "give the eye exam task a due date of friday"
    rx(
        r"\bgive (?P<t>it|that|this|that one|this one|(?:the|my) .+?\b(?:task|to-?do|reminder|one))"
        r" (?:a |an |one )?(?:due date |deadline |due day |date )?"
        r"(?:for|of|on|by) (?P<w>.+)$"
    ),
    # "give it the 25th", "give the eye exam one friday": a day said outright, no "for".
    rx(
        r"\bgive (?P<t>it|that|this|that one|this one|(?:the|my) .+?\b(?:task|to-?do|reminder|one))"
        r" (?P<w>(?:the )?\d{1,2}(?:st|nd|rd|th)\b.*|tomorrow\b.*"
        r"|(?:next |this )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b.*)$"
    ),
    rx(
        r"^(?P<t>.+?\b(?:task|to-do|reminder|one)) (?:should be|is now|is) due"
        r" (?:on |by )?(?P<w>.+)$"
    ),
    # "the bank one should be thursday, not tomorrow": the day said outright, "due" unsaid.
    rx(
        r"^(?P<t>(?:the|my|that) (?!(?:[a-z' -]+ )?(?:" + _VISIT_WORDS + r")\b)"
        r"[a-z' -]+?\b(?:task|to-do|reminder|one))"
        r" (?:should be|needs to be|has to be) (?:on |for |by )?"
        r"(?P<w>(?:the )?\d{1,2}(?:st|nd|rd|th)\b.*|tomorrow\b.*|today\b.*"
        r"|(?:next |this )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b.*)$"
    ),
    # "can the car insurance task be moved to monday": said in the passive.
    rx(
        r"^(?:(?:can|could|would|will|please)\s+)?(?:you\s+)?(?:have |get )?"
        r"(?P<t>.+?\b(?:task|to-do|reminder)) (?:be|get) (?:moved|pushed|postponed|shifted"
        r"|changed|rescheduled|set|put off)(?: back| forward| out)?"
        r" (?:to|till|until|for) (?P<w>.+)$"
    ),
    rx(
        r"\b(?:move|push|postpone|shift|reschedule|change|bring|put off|delay|set|bump)"
        r" (?P<t>.+?\b(?:task|to-do|reminder))"
        r" (?:back |forward |ahead |out |up )?(?:to|till|until|for) (?P<w>.+)$"
    ),
    # "set it for friday" (after the task named first: "the one without a due date, …")
    rx(
        r"\bset (?P<t>it|that|this|that one|this one) (?:as )?(?:due )?(?:for|to|on|by)"
        r" (?P<w>(?:the )?\d{1,2}(?:st|nd|rd|th)\b.*|tomorrow\b.*"
        r"|(?:next |this )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b.*)$"
    ),
    # "change the groceries task so it's due on the seventh": the change, then what it is
    rx(
        r"\b(?:change|update|set|move|fix|edit|adjust) (?P<t>.+?\b(?:task|to-do|reminder|one))"
        r" so (?:that )?(?:it's|it is|its|it'll be|it will be) due (?:on |by |for )?(?P<w>.+)$"
    ),
    # "put the car insurance task on that day": a task named, put on a day
    rx(
        r"\bput (?P<t>(?:the|my|that|this) [a-z' -]+?\b(?:task|to-do|reminder))"
        r" (?:on|for|to) (?P<w>(?!(?:my|the|your|a) )[^,]+)$"
    ),
)
_DUE_SHIFT = rx(
    r"\b(?P<v>move|push|postpone|shift|bring|put off|delay|bump)"
    # ("…the task that's high priority back three days": what it is said to be, its own)
    # ("push all my tasks back a week": every one, as "every task" is; was: read out only)
    r" (?P<t>.+?\b(?:tasks?|to-dos?|reminders?)(?: (?:that's|that is|which is|with)"
    r" (?:a )?(?:high|low|normal)[- ]priority)?)(?P<s> .+)$"
)
# "the groceries can wait until saturday": a to-do put off to a day, said of the thing
# (a visit said so is not a task: "my haircut can wait till friday" is left to ask).
# So is "groceries can be pushed to the 30th": put off, said in the passive of the thing.
_WAITS_UNTIL = rx(
    r"^(?P<t>(?:(?:the|my|that|this) )?(?!(?:i|we|you|they|he|she|it|that|this|everything|all"
    r"|stuff|things|nothing)\b)[a-z' -]+?) (?:can|could|will have to|has to|can just)"
    r" (?:wait (?:until|till|til|for)|be (?:pushed|moved|put off|postponed|bumped|shifted"
    r"|pushed back|moved back)(?: to| till| until| til)) (?P<w>.+)$"
    # "leave the groceries for the weekend (they can wait)": left to be done that day
    r"|^(?:(?:just|please|ok|okay|so) )*leave (?P<t2>(?:the|my|that|this) [a-z' -]+?)"
    r" (?:for|till|until|til) (?P<w2>.+)$"
)
# "the eye exam one", "the eye exam thing": one of those she has, of no kind said.
_ONE_OF_THEM = rx(r"\b(?:one|thing)$")
# Who or what waits that is no to-do: "i can wait until friday", "it can wait".
_NO_TODO = rx(r"(?:i|we|you|they|he|she|it|that|this|everything|all|nothing|which|who)")
_DESCRIBE = rx(
    r"\b(?:add|put|leave|stick|attach|write|pop) (?:a )?(?:quick |short )?(?:note|description"
    r"|details?) (?:to|on|for|in|onto) (?P<t>.+?)"
    r"(?::| saying| that says| -) (?P<d>.+)$"
)
# "…and give it a note saying ask about the bundle discount": the note, given (it was read
# as a title for a to-do "give it a note saying…").
_GIVE_NOTE = rx(
    r"\bgive (?P<t>it|that|this|that one|this one|(?:the|my) [a-z' -]+?\b(?:task|to-?do"
    r"|reminder|one)) (?:a |the )?(?:quick |short )?(?:note|description)"
    r"(?::| saying| that says| reading| -) (?P<d>.+)$"
)


# Each list tried in one loop (patterns.Tried): most clauses hold none of their words.
_PRIORITY_CHANGES = Tried((pattern, pattern) for pattern in _PRIORITY_CHANGE)
_DUE_CHANGES = Tried((pattern, pattern) for pattern in _DUE_CHANGE)
_RENAMES = Tried((pattern, pattern) for pattern in _RENAME)


# "delete whichever one is due tomorrow": another action, whose target says a due day.
_OTHER_ACTION = rx(
    r"^(?:(?:please|just|and|then|now|also|can you|could you|go ahead and)\b\W*)*"
    r"(?:delete|remove|get rid of|cancel|complete|finish)\b"
)


# "the insurance task is no longer urgent", "the insurance one doesn't need to be high
# priority any more": its priority said to be ordinary again.
_NO_LONGER_URGENT = rx(
    r"^(?:(?:ok|okay|so|well|actually|oh|and|but)[ ,]+)*(?P<t>(?:the|my|that|this) [a-z' -]+?"
    # "…, and it's not urgent anymore": of the one just named
    r"|it|that|this|that one|this one)"
    r"(?:(?: is|'s) (?:not|no longer)| (?:isn't|is not)| (?:doesn't|does not) need to be)"
    r" (?:urgent|(?:a )?high[- ]priority|a priority|important)(?: any ?more| any longer| now)?$"
)


# "make the groceries one less urgent": lowered, as "not urgent" is (it was read as
# "urgent", high: the car insurance, high already, "set" to high).
_LESS_URGENT = rx(r"\b(?:make|set|mark) (?P<t>.+?) less (?:urgent|important)\b")


def update_task(c: Clause) -> Intent | None:
    if _OTHER_ACTION.search(c.text):
        return None
    match: re.Match[str] | None
    if "less " in c.text and (match := _LESS_URGENT.search(c.text)) is not None:
        return _task_change(c, match.group("t"), {"priority": "low"})
    for _, match in _PRIORITY_CHANGES.found(c.text):
        if (t := match.groupdict().get("t")) and _MARKED_DONE.search(t):
            # "mark all my tasks done that are high priority": which to complete (was:
            # a finished task set to high priority)
            continue
        groups = match.groupdict()
        said = groups.get("p")
        direction = groups.get("dir") or ""
        lowering = direction.startswith(("lower", "decrease", "reduce", "de"))
        if said:
            level = slots.priority(f"{said} priority")[0] or "high"
        elif direction.startswith(("set", "change", "update", "make")):
            # "change the priority of my insurance task": to what is asked, not guessed.
            change = _task_change(c, match.group("t"), {})
            return dataclasses.replace(change, missing=("level",))
        else:
            level = "low" if lowering else "high"
        return _task_change(c, match.group("t"), {"priority": level})
    if (
        ("urgent" in c.text or "priority" in c.text or "important" in c.text)
        and (calmed := _NO_LONGER_URGENT.search(c.text))
        and (
            # (a visit named is no to-do: "my haircut is not urgent")
            not APPT_NOUN.search(calmed.group("t"))
            and (TASK_NOUN.search(calmed.group("t")) or not slots.services_named(calmed.group("t")))
        )
    ):
        # "the insurance task is not urgent anymore": back to normal (it read the list)
        return _task_change(c, calmed.group("t"), {"priority": "normal"})
    for _, match in _DUE_CHANGES.found(c.text):
        said = find_when(match.group("w"), c.now) if "/" in match.group("w") else None
        if said is not None and said.day_unread:
            # "due 1/4": January 4 (next year) or April 1; which is asked
            change = _task_change(c, match.group("t"), {})
            return dataclasses.replace(change, missing=("when",))
        if due := _date_of(match.group("w"), c):
            due_change: dict[str, Any] = {"due_on": due}
            when = find_when(match.group("w"), c.now)
            if when is not None and when.clock is not None and not when.time_unread:
                # "move the groceries task to friday at 5pm": a task keeps a day, not a
                # time; the time said goes in its note, as a new task's does.
                due_change["description"] = slots.time_note(when)
            if when is not None and when.weekday_conflict:
                # "due friday the 20th" when the 20th is a Saturday: which one is asked, as
                # for a visit; neither is written.
                return Intent(
                    "update_task",
                    due_change,
                    target=task_ref(match.group("t"), c),
                    clause=c.text,
                    when=when,
                    missing=("weekday_conflict",),
                )
            return _task_change(c, match.group("t"), due_change)
        if ("later" in match.group("w") or "earlier" in match.group("w")) and whole_days(
            shift := find_shift(match.group("w"))
        ):
            # "make the insurance task due a week later (than it is)": from its due date
            target = task_ref(match.group("t"), c)
            return Intent("update_task", target=target, clause=c.text, shift=shift)
    if ("wait" in c.text or "leave" in c.text or " be " in c.text) and (
        match := _WAITS_UNTIL.search(c.text)
    ) is not None:
        waits = match.group("t") or match.group("t2")
        if (
            not _NO_TODO.fullmatch(waits)
            and not APPT_NOUN.search(waits)
            # (a service named is a visit, unless the words say a to-do: "the eye exam
            # reminder can wait till next month")
            and (TASK_NOUN.search(waits) or not slots.services_named(waits))
            and (due := _date_of(match.group("w") or match.group("w2"), c))
        ):
            return _task_change(c, waits, {"due_on": due})
        if (
            not _NO_TODO.fullmatch(waits)
            and not APPT_NOUN.search(waits)
            and not TASK_NOUN.search(waits)
            and _ONE_OF_THEM.search(waits)
            and slots.services_named(waits)
        ):
            # "the eye exam one can wait till the end of the month": a visit put off, or a
            # to-do named after one; read as a move, which is a to-do's due day when no
            # such visit is booked (models/embedded/references.may_be_a_task)
            from assistant.language.appointment_rules import move_to

            return move_to(c, waits, match.group("w") or match.group("w2") or "")
    if (match := _DUE_SHIFT.search(c.text)) and whole_days(
        # the verb with what follows it: "postpone … by two days" says the way in the verb
        shift := find_shift(f"{match.group('v')}{match.group('s')}")
    ):
        # "push the insurance task back two days": from the due date it has (resolve.py).
        target = task_ref(match.group("t"), c)
        return Intent("update_task", target=target, clause=c.text, shift=shift)
    if match := _DESCRIBE.search(c.text) or _GIVE_NOTE.search(c.text):
        description = restore_case(slots.clean_free_text(match.group("d")), c.original)
        return _task_change(c, match.group("t"), {"description": description})
    for _, match in _RENAMES.found(c.text):
        if not _DONE_WORD.fullmatch(match.group("new")):
            new = match.group("new")
            if due := _date_of(new, c, whole=True):
                return _task_change(c, match.group("t"), {"due_on": due})
            title = restore_case(slots.clean_free_text(new), c.original)
            return _task_change(c, match.group("t"), {"title": title[:1].upper() + title[1:]})
    return None


_DONE_WORD = rx(r"(?:done|complete|completed|finished)")


def _date_of(words: str, c: Clause, *, whole: bool = False) -> str | None:
    when = find_when(words, c.now)
    if when is None and not whole and (relative := relative_day(words, c.now.date())):
        return relative[0].isoformat()  # "due in a fortnight": as a new task's due date reads it
    if when is None or when.day is None or when.day_implied or when.day_unread:
        return None
    if whole:
        leftover = slots.cut_spans(words, list(when.spans))
        if leftover.strip(" ,.") not in ("", "instead", "please"):
            return None
    return when.day.isoformat()


def _task_change(c: Clause, target_words: str, change: dict[str, Any]) -> Intent:
    return Intent("update_task", change, target=task_ref(target_words, c), clause=c.text)


_DUE_SAID = rx(r"\bdue\b")


def task_ref(words: str, c: Clause) -> TargetRef:
    """A task described; by its due day only when "due" is said ("whatever is due
    tomorrow"), since a title may hold a day ("Call mom on Friday")."""
    return target_ref(
        LIST_TAIL.sub("", words), c.original, c.now if _DUE_SAID.search(words) else None
    )


# Asked for: "mark groceries done", "tick it off".
_COMPLETE_ASKED = (
    rx(
        r"\b(?:set|change|update|switch|move|put) (?P<t>.+?) (?:to|as) (?:done|complete|completed"
        r"|finished)\b"
    ),
    rx(r"\bmark (?:off )?(?P<t>.+?) (?:as )?(?:done|complete|completed|finished|checked off)\b"),
    rx(r"\b(?:check|tick|cross) (?P<t>.+?) off\b"),
    rx(r"\b(?:check|tick|cross) off (?P<t>.+)$"),
    # "tick the insurance one": "off" left unsaid (a tick is never a look, as "check" is)
    rx(r"\btick (?P<t>(?:the|my|that|this) .+?)(?: as done| done)?$"),
    rx(r"\b(?:complete|finish|close out|finalize|finalise) (?P<t>.+)$"),
    # "…, you can mark it": the target is in the clause before (intents._refer).
    rx(r"\b(?:mark|check|tick|cross)(?: off)? (?P<t>it|that|this|that one|this one)(?: off)?$"),
)
# Told: "I've finished the groceries", "done with the eye exam". Said with a question
# mark ("I've finished the groceries?") they ask, and change nothing.
_COMPLETE_TOLD = (
    # ("the groceries, i did them already": when is said after it, not which)
    rx(
        r"\bi(?:'ve| have)? (?:done|finished|completed|did) (?P<t>.+?)(?: (?:already|now"
        r"|yesterday|today|earlier|this morning|last night|too|as well))*$"
    ),
    rx(r"\b(?:i'm |i am )?(?:done|finished) with (?P<t>.+)$"),
    rx(r"^(?:just |already |finally )?(?:finished|completed) (?P<t>.+)$"),
)
# "the grocery task is done", "groceries - done", "groceries done".
_DONE_STATEMENT = rx(
    r"^(?P<t>.+?)(?: (?:is|are)(?: all| now| finally| already)?| ?[-:])? (?:done|complete"
    r"|completed|finished|sorted|taken care of|dealt with)"
    # "groceries done thx", "insurance sorted, thank you": thanks said after it
    r"(?:[ ,.!]+(?:please|thanks|thank you|thx|ta|cheers)(?: so much| a lot| very much)?)*$"
)
# "I'm done", "almost done": about the customer or the conversation, not a task.
_NOT_A_DONE_THING = rx(
    r"^(?:i|i'm|i am|im|we|we're|we are|you|you're|it|it's|that|that's|this|all|okay|ok|so"
    r"|well|almost|nearly|half|not|just|are you|is it|are we)$"
)
# "the groceries are almost sorted", "insurance nearly done": not done yet (it was
# completed).
_NEARLY = rx(
    r"\b(?:almost|nearly|not quite|not yet|not|half|partly|partially|mostly|just about"
    r"|kind of|sort of|kinda|sorta|never|isn't|aren't|isnt|arent|wasn't|weren't|hasn't"
    r"|haven't)(?: (?:yet|quite|all|really))?$"
)
# "I kind of regret that I completed the groceries task", "I'm sorry I finished it so
# early", "it was a mistake that I…": a to-do done told with regret, which asks nothing
# (a to-do told done is ticked off; these words before it say how the customer feels).
_REGRETTED = rx(
    r"\b(?:regret\w*|wish(?:ed)?|mistake\w*|accident\w*|shouldn't|should not|should never"
    r"|feel (?:bad|terrible|awful|guilty)|(?:i'm|i am|im|i was|so|really|kind of|kinda) sorry)\b"
)
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
    "sorted": "",
    "dealt with": "",
    "done": "",
    "finished": "",
}
_PAST_DONE = rx(
    r"^(?:(?:oh|well|so|actually|um|uh|yeah|and)[ ,]+)*"
    # "renewed the car insurance", typed as a note is, with no one said to have done it
    r"(?:(?:i|i've|i have|we|we've)(?: already| just| finally| actually)? )?(?P<verb>"
    + "|".join(sorted(_PAST_VERBS, key=len, reverse=True))
    # "I bought the groceries already": the word after the thing says when, not what.
    + r") (?P<t>.+?)(?: already| now| too| as well| earlier| today| yesterday| this morning"
    r"| last night| last week| actually| then)*$"
)


def told_done(text: str) -> bool:
    """ "I bought the groceries": a to-do told done with its own verb in the past."""
    return bool(_PAST_DONE.search(text))


# "I paid my bill": about the account, not a to-do (a lookup reads it).
_ACCOUNT_THING = rx(
    r"^(?:my |the |that |this |your |off )*(?:bills?|invoices?|balance|account|charges?"
    r"|ticket|support|appointment|booking)\b"
    # "I sent a query about my bill, has it been answered": a question put to the team,
    # asked after (it was read as a to-do done)
    r"|^(?:a |an |my |the |that |this )?(?:quer(?:y|ies)|questions?|complaints?|support"
    r" requests?)\b"
    # "I called last week about the invoice": a call to the office about the account told,
    # no one named to call (it looked for a to-do "call week invoice")
    r"|^(?:(?:you|you guys|your \w+|in|up|last \w+|yesterday|earlier|this morning|before"
    r"|already|twice|again) )*about (?:my |the |your |an? |that )?(?:\w+ )?(?:bills?|invoices?"
    r"|balance|account|charges?|payments?|appointments?|bookings?)\b"
)
# "I already paid that last week", "I paid the dental bill": a payment told, about the
# account; what "that" was is for the conversation to say, not a to-do to guess at.
_PAID_ACCOUNT = rx(
    r"^(?:(?:it|that|this|that one|this one|them|those)\b|(?:my |the |that |this |your )*"
    # ("the dental cleaning invoice": what the bill was for may take a word or three)
    r"(?:\w+ ){0,3}?(?:bills?|invoices?|balance|charges?|amount)\b)(?! (?:task|to-do|reminder))"
)
# "the car insurance is renewed": the same, said of the thing.
_PASSIVE_DONE = rx(
    r"^(?P<t>.+?) (?:is|are|has been|have been|was|were|got)(?: now| all| finally| already)?"
    r" (?P<verb>" + "|".join(sorted(_PAST_VERBS, key=len, reverse=True)) + r")"
    # "the car insurance got renewed yesterday": when it was done is no part of the ask
    r"(?: now| already| today| yesterday| this morning| last night| last week| earlier)*"
    # "car insurance is renewed tick it off please": said aloud, without the comma
    r"(?:,? (?:so |you can |please |can you )*(?:tick|check|cross|mark) (?:it|that)"
    r"(?: off| done| as done| complete)?(?: please)?)?$"
)


# "car insurance renewed", "groceries bought": the same typed as a note, without "is": a
# thing of a few words and a verb of its own in the past (never a person, "i renewed",
# "she paid", nor a request, "mark the groceries … done", which the asks read).
# Only verbs that cannot say what the thing did itself: "mom called", "the dentist
# emailed", "the clinic confirmed" are someone's news, never "call mom" done.
_NOTED_VERBS = ("bought", "paid", "renewed", "picked up", "submitted", "uploaded", "cleaned")
_NOTED_DONE = rx(
    r"^(?!(?:i|we|you|he|she|they|someone|somebody|nobody|no one|mark|tick|check|cross"
    r"|complete|set|make|move|add|put|change|update|cancel|book|delete|remove|please|can"
    r"|could|would|will|did|do|does|has|have|is|are|was|were)\b)"
    rf"(?!(?:the |my |our )?{PERSON}\b)"
    r"(?P<t>(?:the |my )?[a-z'-]+(?: [a-z'-]+){0,3}) (?P<verb>"
    + "|".join(_NOTED_VERBS)
    + r")(?: now| already| today| yesterday| this morning| last night| earlier)*[.!]*$"
)


# "mark groceries as not done", "untick the eye exam": the opposite of completing it,
# which no tool does (limits.py says so); it must never complete the task.
_NOT_DONE = rx(
    r"\b(?:not|no longer|isn't|is not|wasn't|hasn't been|never) (?:\w+ )?(?:done|complete"
    r"|completed|finished|ticked|checked)\b|\b(?:undone|incomplete|uncomplete|unfinished"
    r"|un-?tick|un-?check|un-?mark|reopen|re-open)\w*\b"
)


# "tell me if the bill is paid", "check whether the groceries one is done": asked (not
# "I don't know if you could mark it done": a change asked for, politely)
_ASKS_WHETHER = rx(
    r"\b(?:tell me|let me know|check|see|know|wondering|find out|confirm|ask)(?: for me)?"
    r" (?:if|whether)\b(?! (?:you|u) (?:could|can|would|will|might)\b)"
)


_COMPLETES_ASKED = Tried((pattern, pattern) for pattern in _COMPLETE_ASKED)
_COMPLETES_ASKED_OR_TOLD = Tried((p, p) for p in _COMPLETE_ASKED + _COMPLETE_TOLD)


def complete(c: Clause) -> list[Intent] | None:
    if QUESTION_START.search(c.text):
        return None  # "what have I finished?" asks to see, "did I complete…?" too
    if _NOT_DONE.search(c.text):
        return None
    told = not c.asked  # "the groceries task is done?" asks whether it is
    if told and (" if " in c.text or "whether" in c.text) and _ASKS_WHETHER.search(c.text):
        # "just tell me if the cleaning bill is paid", "check whether the groceries are
        # done": asked, not told (a question of its own reads whether it is done)
        return None
    past = told and (
        _PAST_DONE.search(c.text) or _PASSIVE_DONE.search(c.text) or _NOTED_DONE.search(c.text)
    )
    if past and past.group("verb") == "paid" and _PAID_ACCOUNT.search(past.group("t")):
        return None
    if past and not (APPT_NOUN.search(c.text) or _ACCOUNT_THING.search(past.group("t"))):
        verb = _PAST_VERBS[past.group("verb")]
        target = target_ref(f"{verb} {LIST_TAIL.sub('', past.group('t'))}", c.original)
        return [Intent("complete_task", target=target, clause=c.text)]
    found = (_COMPLETES_ASKED_OR_TOLD if told else _COMPLETES_ASKED).first(c.text)
    match = None if found is None else found[1]
    if (
        match is not None
        and found is not None
        and found[0] in _COMPLETE_TOLD
        and _NEARLY.search(c.text[: match.start()].rstrip())
    ):
        return None  # "i'm almost finished with the groceries": not done yet
    if (
        match is not None
        and found is not None
        and found[0] in _COMPLETE_TOLD
        and _REGRETTED.search(c.text[: match.start()])
    ):
        return None  # "I kind of regret that I completed the groceries task"
    if match is None and told:
        match = _DONE_STATEMENT.search(c.text)
        if match and (
            _NOT_A_DONE_THING.match(match.group("t"))
            or _NEARLY.search(match.group("t"))
            or _REGRETTED.search(match.group("t"))
        ):
            return None
    if match is None:
        return None
    if found is not None and found[0] is _COMPLETE_TOLD[0] and match.group("t") == "them":
        # "the groceries, i did them": the one to-do named before (a plural's "them")
        return [Intent("complete_task", target=task_ref("it", c), clause=c.text)]
    said = match.group("t")
    if "they" in said and _THEY.fullmatch(said):
        # "ok, now they're done" after the groceries were told: the to-do told of
        return [Intent("complete_task", target=task_ref("it", c), clause=c.text)]
    if (every := _FILTER_AFTER.match(c.text[match.end() :])) and _EVERY_ONE.search(said):
        # "mark everything done that's due this week": which ones, said after "done"
        # (every task was completed)
        said = f"{said} {every.group('which')}"
    return [
        Intent("complete_task", target=task_ref(part, c), clause=c.text)
        for part in said.split(TARGETS_JOINER.strip())
        if part.strip()
    ]


_EVERY_ONE = rx(r"\b(?:everything|every|all|each)\b")
# "now they're", "ok they are": a pronoun for what was told of (not "they're all")
_THEY = rx(r"(?:(?:ok|okay|so|now|and|well|yeah|right)[ ,]+)*(?:they're|they are|theyre)")
_MARKED_DONE = rx(r" (?:as )?(?:done|complete|completed|finished)(?: (?:that|which)\b|$)")
# What narrows "every one", said after the verb's last word.
_FILTER_AFTER = rx(
    r"^,?\s*(?P<which>(?:that's|that is|that are|which are|which is|that were|i've got)?\s*"
    r"(?:due\b.+|(?:a |an )?(?:high|low|normal)[- ]priority\b.*"
    r"|(?:that|which) (?:don't|doesn't|do not|does not) have (?:a |any )?due date.*"
    r"|without (?:a |any )?due date.*|with no due date.*))$"
)


_DELETE = rx(
    r"\b(?:delete|remove|get rid of|erase|trash|drop|take|bin|ditch|axe|nuke|wipe|toss|dump)\b"
    r"(?P<rest>.*)$"
)


# "remove the due date from groceries": a detail of the task, not the task.
_A_DETAIL = rx(
    r"^\s*(?:the |its |my |that )?(?:due dates?|deadlines?|due days?|dates?|priority|priorities"
    r"|descriptions?|notes?|reminder times?)\b"
)


def delete(c: Clause) -> Intent | None:
    match = _DELETE.search(c.text)
    if match is None or not match.group("rest").strip():
        return None
    rest = match.group("rest")
    if _A_DETAIL.search(rest):
        return None
    if match.group(0).startswith("take") and " off" not in rest:
        return None
    if match.group(0).startswith("drop") and rest.startswith((" off ", " by ", " in ")):
        return None  # "I've got to drop off the dry cleaning": an errand, not a delete
    if APPT_NOUN.search(rest) and not TASK_NOUN.search(rest):
        return Intent(
            "cancel_appointment", target=target_ref(rest, c.original, c.now), clause=c.text
        )
    return Intent("delete_task", target=task_ref(rest, c), clause=c.text)
