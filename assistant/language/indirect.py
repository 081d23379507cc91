"""A request said indirectly, put as the plain request it is.

Customers wrap an ask in politeness, tell it as a story, or say what must not happen:

- "I was wondering if it'd be possible to book a massage…", "would you mind (terribly)
  moving my haircut…", "how about moving my cleaning…": the ask inside ("book a
  massage…", "move my haircut…"). Refused or only listed before.
- "it'd be great if the eye exam task could be high priority": "make the eye exam task
  high priority" (asked "would you like me to go ahead?" with nothing named).
- "it's the cleaning I need to move, to friday at 9": a thing put first for emphasis is
  the thing changed ("move the cleaning to friday at 9"); its "it" is no word for the
  visit named before (the haircut said to be fine was moved).
- "I don't want the cleaning cancelled, just moved to thursday at 10": the change wanted
  ("move the cleaning to thursday at 10"), not a holding back of everything.
- "I'm not going to make it to my haircut", "I won't be needing the friday appointment
  anymore", "the cleaning on monday just isn't going to happen": a visit the customer will
  not come to is cancelled, held for a yes as every
  cancellation is (only listed before); said with a day or hour to go to instead, the
  visit is named and the rest of the message says where it goes.
- "I don't want the groceries on my list anymore", "no need to keep the groceries on
  there": the to-do is deleted, held for a yes (refused or only listed before).
- "make my haircut saturday same time", "make the cleaning 2pm": a visit "made" another
  day or hour is moved (only listed before).
- "I don't want to miss my haircut, can you put a reminder in for thursday": the reminder
  is about the haircut (it asked what the task should say).
- "I've been meaning to call the plumber…, can you stick it on my list for tuesday": the
  errand told is the to-do added (the tasks were only listed).
- "…, could you raise this with your tech team?", "please pass this on to your support
  team": as "report this" (not understood, or the cases listed).
- "I don't use maria@example.com anymore": as "I don't use that email anymore", the new
  one asked for (refused before).
- "the groceries don't need doing until wednesday": the to-do can wait until then (its
  due day moved; refused before).

Each rewrite is gated by a word it needs, so a message without one pays a substring test.
"""

from __future__ import annotations

import re

from assistant.language.intent import Intent
from assistant.language.lexicon import SERVICES
from assistant.language.patterns import rx

# A gerund of a request verb, and the verb ("moving" → "move").
_GERUNDS = {
    "moving": "move",
    "booking": "book",
    "cancelling": "cancel",
    "canceling": "cancel",
    "changing": "change",
    "adding": "add",
    "marking": "mark",
    "putting": "put",
    "pushing": "push",
    "setting": "set",
    "making": "make",
    "deleting": "delete",
    "removing": "remove",
    "updating": "update",
    "opening": "open",
    "rescheduling": "reschedule",
    "scheduling": "schedule",
    "ticking": "tick",
    "crossing": "cross",
    "checking": "check",
    "telling": "tell",
    "showing": "show",
    "raising": "raise",
    "logging": "log",
    "shifting": "shift",
    "bumping": "bump",
    "giving": "give",
    "looking": "look",
    "sending": "send",
    "taking": "take",
}
_GERUND = "|".join(_GERUNDS)

# "I was wondering if it'd be possible to …", "I wonder if you could …", "would it be
# possible to …": the ask after the wrapper.
_WONDERING = rx(
    r"^(?:(?:hi|hello|hey)[,!.]? )?(?:i was (?:just )?wondering|i wonder|i'm wondering"
    r"|just wondering|wondering) (?:if|whether) (?:(?:it'd|it would|it might|it'll|it will)"
    r" be (?:at all )?possible (?:for you )?to|you (?:could|can|would|might)(?: possibly)?"
    r"(?: be able to)?|i (?:could|can|might) (?:get you to|ask you to))\s+"
)
# "would you mind (terribly) moving …", "how about moving …", "any chance of moving …"
_GERUND_ASK = rx(
    r"^(?:(?:hi|hello|hey|so|ok|okay)[,!.]? )?(?:would you mind|do you mind|would it be ok"
    r" to mind|how about|what about|any chance(?: of)?(?: you)?)"
    r"(?: (?:terribly|awfully|very much|too much|at all))? (?:you )?"
    rf"(?P<verb>{_GERUND})\b"
)
# "it'd be great if the eye exam task could be high priority"
_WOULD_BE_GOOD = rx(
    r"^(?:it'd|it would|that'd|that would)(?: really| honestly| just)? (?:be (?:so |really )?"
    r"(?:great|good|nice|lovely|ideal|helpful|perfect|brilliant|amazing|wonderful|a (?:big |huge"
    r" |great )?help)|help(?: me)?(?: out)?(?: a lot)?) if (?:you could |you can |you'd"
    r" |you would )?"
)
# "would it be possible perhaps that my haircut could be moved…", "I was wondering if
# maybe the groceries could go to low priority": the thing and its change, wrapped.
_POSSIBLE_THAT = rx(
    r"^(?:(?:hi|hello|hey)[,!.]? )?(?:(?:would|will|is|could) it be (?:at all )?possible"
    r"|(?:i was (?:just )?wondering|i wonder|i'm wondering|just wondering|wondering)"
    r")(?: perhaps| maybe)? (?:that|if|whether) (?:perhaps |maybe |possibly )?(?=(?:the|my) )"
)
# "…could go to low priority", "…could be moved": a change said with "go to".
_GO_TO = rx(r"^go (?:to|up to|down to) (?P<value>.+)$")
# "…if it's ok", "…if possible": politeness said last, no condition.
_POLITE_END = rx(
    r"(?:,? (?:if (?:it's|its|it is|that's|that is) (?:ok|okay|alright|fine|possible)"
    r"|if possible|if you can|please|thanks|thank you))+[.!?]*$"
)
_COULD_BE = rx(
    r"^(?P<what>(?:the|my) (?:[a-z']+ ){0,4}?[a-z']+?) (?:could|can|would) be (?P<value>.+)$"
)
_MOVED = rx(r"^(?:moved|pushed|shifted|changed|put|rescheduled|brought forward) (?P<rest>.+)$")
# "it's the cleaning I need to move, to friday at 9", "it's the cleaning that needs
# moving to …": the thing put first is what the verb changes.
_CLEFT = rx(
    r"\b(?:it's|it is|its) (?P<what>(?:the|my) [a-z' ]+?) (?:that |which )?"
    r"(?:i (?:need|want|have|would like|'d like|really need|actually need) to (?P<verb>move"
    r"|cancel|change|reschedule|push|shift|book|delete|complete)"
    r"|(?:needs|has) to be (?P<done>moved|cancelled|canceled|changed|rescheduled|pushed)"
    r"|needs (?P<ing>moving|cancelling|canceling|changing|rescheduling|pushing))\b,?"
)
_CLEFT_VERB = {"moved": "move", "cancelled": "cancel", "canceled": "cancel", "pushed": "push"}
# "I don't want the cleaning cancelled, just moved to thursday at 10"
_NOT_THAT_BUT = rx(
    r"\b(?:i )?(?:don't|do not|dont) want (?P<what>(?:the|my) [a-z' ]+?) (?:cancelled|canceled"
    r"|deleted|removed)[,;]? (?:i )?(?:just|only|simply)? ?(?:want (?:it )?)?(?P<verb>moved"
    r"|pushed|shifted|rescheduled|changed) (?P<rest>.+)$"
)
# "I'm not going to make it to my haircut", "I can't make my cleaning on monday", "I won't
# be needing the friday appointment anymore": a visit the customer will not come to.
_WONT_COME = rx(
    r"\b(?:i'm|i am|im) not (?:going to|gonna) (?:be able to )?make(?: it to)?"
    r"|\b(?:i )?(?:can't|cannot|can not|cant|won't|will not|wont|couldn't)"
    r" (?:be able to )?make(?: it to)?"
    r"|\b(?:i )?(?:won't|will not|wont) be needing"
    r"|\b(?:i )?(?:don't|do not|dont) need"
)
_VISIT_AFTER = rx(
    r"^ (?P<visit>(?:my|the|that|this) (?:[a-z0-9':]+ ){0,4}?(?:appointment|appt|booking"
    r"|cleaning|haircut|massage|facial|consultation|check-?up|exam|session|visit))"
    r"(?P<rest>(?: (?:on|at|this|next) [a-z0-9:]+(?: (?:at|morning|afternoon) [a-z0-9:]+)?)?)"
    r"(?P<tail> (?:any ?more|any longer|after all))?(?P<end>[.!]?$|[,.;] )"
)
_DAY_AFTER = rx(
    r"^ (?:it )?(?:on )?(?P<day>(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow)"
    r"(?: (?:any ?more|any longer|after all))?[.!]?$"
)
_DAY_OR_HOUR = rx(
    r"\b(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\b|\btomorrow\b"
    r"|\b\d{1,2}(?:st|nd|rd|th)\b|\b\d{1,2}(?::\d\d)? ?(?:am|pm)\b|\bat \d|\bsame time\b"
    r"|\binstead\b|\bmove|\bresched|\bpush|\bchange"
)
# "the cleaning on monday just isn't going to happen": the same, said of the visit.
_WONT_HAPPEN = rx(
    r"^(?:(?:honestly|so|well|look|sorry|unfortunately)[, ]+)*(?P<visit>(?:my|the|that|this)"
    r" (?:[a-z0-9':]+ ){0,3}?(?:appointment|appt|booking|cleaning|haircut|massage|facial"
    r"|consultation|check-?up|exam|session|visit)(?: (?:on|at|this|next) [a-z0-9:]+)?)"
    r" (?:just |really |definitely |probably )?(?:isn't|is not|won't|will not|isnt|wont)"
    r" (?:going to |gonna )?(?:happen|work(?: out)?)(?: for me)?(?: any ?more| after all)?"
    r"(?P<end>[.!]?$|[,.;] )"
)
# "I don't want the groceries on my list anymore"
_OFF_MY_LIST = rx(
    r"\b(?:(?:i )?(?:don't|do not|dont) (?:want|need)|no need to keep|(?:you )?(?:don't|do not"
    r"|dont) need to keep) (?P<what>(?:the|my|that|this) [a-z' ]+?)"
    r" on (?:my|the) (?:list|to-?do list|tasks?)(?: any ?more| any longer)?\b"
    # "no need to keep the groceries on there"
    r"|\bno need to keep (?P<there>(?:the|my|that|this) [a-z' ]+?) on there\b"
)

# "the groceries don't need doing until wednesday now": the to-do can wait until then.
_NOT_UNTIL = rx(
    r" (?:don't|doesn't|do not|does not|dont|doesnt|won't|will not) need (?:doing|to be done"
    r"|done|sorting|to happen)(?: now| anymore)? (?:until|till|til|before) "
)

# "I don't use maria@example.com anymore": the address on file is no longer theirs, so
# the new one is asked for (as "I don't use that email anymore" is); refused before.
_NOT_USED = rx(
    r"\b(?:don't|do not|dont|no longer) use (?:(?P<email>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)"
    r"|(?P<phone>\+?[\d(][\d ()-]{6,}\d))"
)

_VISIT_NOUNS = "|".join(
    sorted(
        {*SERVICES, "appointment", "appt", "booking", "visit", "session", "check-up", "checkup"},
        key=len,
        reverse=True,
    )
)
_WEEKDAY = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?"
# "make my haircut saturday same time", "make the cleaning 2pm": a visit made another day
# or hour is moved there (only listed before; "make it saturday" already moved the one in
# focus). "make an appointment" books, and is not this; nor "make my appointment for
# saturday", which may ask for a new one.
_MAKE_VISIT = rx(
    # (not "I won't be able to make my haircut on friday": a visit not come to)
    r"(?<!to )(?<!n't )(?<!not )(?<!cant )(?<!wont )(?<!cannot )"
    rf"\bmake (?P<visit>(?:my|the|that|this) (?:[a-z0-9':]+ ){{0,3}}?(?:{_VISIT_NOUNS})"
    rf"(?: appointment| appt| booking)?(?: on {_WEEKDAY})?) (?:on |at )?"
    rf"(?=(?:this |next )?{_WEEKDAY}\b|tomorrow\b|the \d{{1,2}}(?:st|nd|rd|th)\b"
    r"|\d{1,2}(?::\d\d)? ?(?:am|pm|o'clock)\b|noon\b|midday\b)"
)


def made_a_move(text: str) -> str:
    """`text` with "make <visit> <day or hour>" said as "move <visit> to <day or hour>"."""
    if "make " not in text.lower() or (m := _MAKE_VISIT.search(text.lower())) is None:
        return text
    return f"{text[: m.start()]}move {m.group('visit')} to {text[m.end() :]}"


# "I don't want to miss my haircut, can you put a reminder in for thursday": the reminder
# is of the thing not to be missed (it asked what the task should say).
_NOT_TO_MISS = rx(
    r"^(?:(?:oh|so|well|um)[, ]+)?(?:i )?(?:don't|do not|dont) want to (?:miss|forget(?: about)?)"
    r" (?P<what>[a-z0-9' ]+?)[,.;]+ (?P<rest>.*)$"
)
_UNTITLED_REMINDER = rx(
    r"\b(?P<r>(?:a |an )?(?:reminder|note|task))(?: in)?\b(?! (?:to|about|of|that|for (?:my|the)"
    r"|saying|called)\b)"
)

# "I've been meaning to call the plumber for ages…, can you stick it on my list for
# tuesday": the errand told is the to-do "it" is (the tasks were only listed).
_ERRAND_TOLD = rx(
    r"\b(?:i've been meaning to|i have been meaning to|i keep meaning to|i keep forgetting to"
    r"|i always forget to|i need to|i have to|i've got to|i have got to|i must|i should"
    # ("I'll pay the bill friday, remind me": the payment was refused)
    r"|(?P<plan>i'll|i will|i'm going to|i am going to|i'm gonna|i plan to))"
    r" (?P<errand>[a-z0-9' ]+?)(?= for (?:ages|weeks|days|months|a while|a bit)\b| and | but "
    r"|[,.;]|$)"
)
# A plan said with its day ("I'll pay the bill friday, remind me") is a to-do; one with
# "it" ("I'll pay it friday") names nothing to do, and one with no day may be only told.
_A_PRONOUN = rx(r"\b(?:it|that|this|them|those)\b")
_A_DAY_SAID = rx(
    r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|today|tonight|weekend"
    r"|next (?:week|month)|the \d{1,2}(?:st|nd|rd|th)|(?:jan|feb|mar|apr|may|jun|jul|aug|sep"
    r"|oct|nov|dec)[a-z]* \d{1,2})\b"
)
_REMARK = rx(
    r"^[, ]*(?:it's|its|it is|this is|that's) (?:really |very |quite |super )?(?:important"
    r"|urgent|a priority|high priority|not urgent|low priority)[, ]*(?:so |please |can you"
    r" |could you )*$"
)
_IT_ON_THE_LIST = rx(
    r"\b(?:put|stick|pop|add|get|jot|write|throw) (?:it|that|this)(?: down)? (?:on|to|in|onto)"
    r" (?:my|the) (?:list|to-?do list|to-?dos|tasks|task list)\b"
    # "…, remind me", "…, can you remind me about it": a reminder of what was told
    r"|(?<=[,.;] )(?:(?:so|and|please|can you|could you|just) )*remind me(?: (?:about|of)"
    r" (?:it|that|this)| then| on the day)?(?= *(?:please)? *[.!?]* *$)"
)

# "…. Could you raise this with your tech team?", "please pass this on to your support
# team": the team it goes to is where a case goes; asked as "report this" (not understood,
# or read as a look at the cases, before).
_TO_THE_TEAM = rx(
    r"\b(?:pass|send|forward|take|bring|raise|escalate|flag|report) (?:this|it|that)"
    r"(?: up| on)? (?:to|with) (?:your|the) (?:[a-z]+ ){0,2}?(?:team|support(?: team)?"
    r"|people|department|developers|engineers|folks|guys|staff|manager)\b"
)


def as_asked(text: str) -> str:
    """`text` with an indirect ask put plainly (see the module docstring); unchanged when
    none is said."""
    for step in _STEPS:
        text = step(text)
    return text


def _reminder_of(text: str) -> str:
    low = text.lower()
    if ("miss" in low or "forget" in low) and (m := _NOT_TO_MISS.match(low)) is not None:
        rest = m.group("rest")
        if (r := _UNTITLED_REMINDER.search(rest)) is not None:
            return f"{rest[: r.start()]}{r.group('r')} about {m.group('what')}{rest[r.end() :]}"
    return text


# "i wouldn't mind if you cancelled my cleaning", "I'd appreciate it if you moved…": the
# ask, its verb said in the past (the visits were read out, nothing asked).
_IF_YOU_DID = rx(
    r"^(?:(?:hi|hello|hey|so|ok|okay)[,!.]? )?(?:i (?:wouldn't|would not|don't|do not) mind"
    r"|i'd appreciate it|i would appreciate it|i'd be grateful|i would be grateful) if you"
    r"(?: could| would| just)? (?P<verb>cancelled|canceled|moved|booked|deleted|removed|added"
    r"|marked|changed|rescheduled|pushed|cancel|move|book|delete|remove|add|mark|change"
    r"|reschedule|push)\b"
)
_DID = {
    "cancelled": "cancel",
    "canceled": "cancel",
    "moved": "move",
    "booked": "book",
    "deleted": "delete",
    "removed": "remove",
    "added": "add",
    "marked": "mark",
    "changed": "change",
    "rescheduled": "reschedule",
    "pushed": "push",
}


def _unwrapped(text: str) -> str:
    low = text.lower()
    if "wonder" in low and (m := _WONDERING.match(low)) is not None:
        text, low = text[m.end() :], low[m.end() :]
    if " if you " in low and (m := _IF_YOU_DID.match(low)) is not None:
        verb = m.group("verb")
        text, low = f"{_DID.get(verb, verb)}{text[m.end() :]}", low[m.end() :]
    if ("mind" in low or "about" in low or "chance" in low) and (
        m := _GERUND_ASK.match(low)
    ) is not None:
        text = f"{_GERUNDS[m.group('verb')]}{text[m.end() :]}"
    return text


def _wished(text: str) -> str:
    low = text.lower()
    if " could " in low and ("possible" in low or "wonder" in low):
        if (m := _POSSIBLE_THAT.match(low)) is not None:
            rest = _POLITE_END.sub("", low[m.end() :])
            said = rest.replace(" could go ", " could be go ", 1)
            if (could := _COULD_BE.match(said)) is not None:
                return _could_be(could)
        return text
    if " be " not in low or " if " not in low or (m := _WOULD_BE_GOOD.match(low)) is None:
        return text
    if (could := _COULD_BE.match(low[m.end() :])) is None:
        return text[m.end() :]
    return _could_be(could)


def _could_be(could: re.Match[str]) -> str:
    """ "<thing> could be <value>" said as the change it asks."""
    value = could.group("value")
    if (went := _GO_TO.match(value)) is not None:
        value = went.group("value")
    if (moved := _MOVED.match(value)) is not None:
        return f"move {could.group('what')} {moved.group('rest')}"
    return f"make {could.group('what')} {value}"


def _put_first(text: str) -> str:
    low = text.lower()
    if not ("it's" in low or "it is" in low or "its " in low) or not (m := _CLEFT.search(low)):
        return text
    verb = m.group("verb") or _CLEFT_VERB.get(m.group("done") or "", "")
    if not verb:
        ing = m.group("ing") or m.group("done") or ""
        verb = _GERUNDS.get(ing, ing.removesuffix("d"))
    return f"{text[: m.start()]}{verb} {m.group('what')}{text[m.end() :]}"


def _not_that_but(text: str) -> str:
    low = text.lower()
    if "want" not in low or (m := _NOT_THAT_BUT.search(low)) is None:
        return text
    said = m.group("verb")
    verb = {"moved": "move", "pushed": "push", "shifted": "shift"}.get(said, said[:-1])
    return f"{text[: m.start()]}{verb} {m.group('what')} {text[m.start('rest') :]}"


# "I can't do wednesday anymore", "wednesday doesn't work for me anymore": a day that no
# longer suits, said of no visit (as "I can't make friday anymore" is: `_DAY_AFTER`)
# ("turns out I can't do wednesday", "wednesday is out for me now": the same)
_DAY_NO_GOOD = rx(
    r"^(?:(?:sorry|so|well|actually|unfortunately|hmm|oh|(?:it )?turns out|looks like)[, ]+)*"
    r"(?:(?:i|we) (?:can't|cannot|can not|cant|won't|wont|couldn't) do (?:it )?(?:on )?"
    r"(?P<day>(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow)"
    r"|(?P<day2>(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow)"
    r" (?:(?:doesn't|does not|won't|will not|isn't going to|no longer) work(?:s)?"
    r"|is (?:out|no good|off)(?= for| now| any|[.!]?$))(?: for (?:me|us))?)"
    r"(?: (?:any ?more|any longer|after all|now))?[.!]?$"
)


def day_let_go(text: str) -> str | None:
    """ "I can't make friday anymore", "wednesday doesn't work for me": the day that no
    longer suits ("friday"), said of no visit; else None."""
    low = text.lower().strip()
    if ("do " in low or "work" in low or "is " in low) and (
        no_good := _DAY_NO_GOOD.match(low)
    ) is not None:
        return no_good.group("day") or no_good.group("day2")
    if (
        "make" in low
        and (m := _WONT_COME.search(low)) is not None
        and (day := _DAY_AFTER.match(low[m.end() :])) is not None
    ):
        return day.group("day")
    return None


def _not_coming(text: str) -> str:
    low = text.lower()
    if ("do " in low or "work" in low or "is " in low) and (
        no_good := _DAY_NO_GOOD.match(low)
    ) is not None:
        return f"my {no_good.group('day') or no_good.group('day2')} appointment"
    if ("happen" in low or "work" in low) and (m := _WONT_HAPPEN.match(low)) is not None:
        said = text[m.start("visit") : m.end("visit")]
        if _DAY_OR_HOUR.search(low[m.end() :]):
            return f"{said}{text[m.start('end') :]}"
        return f"cancel {said}{text[m.start('end') :]}"
    if not ("make" in low or "need" in low) or (m := _WONT_COME.search(low)) is None:
        return text
    if (visit := _VISIT_AFTER.match(low[m.end() :])) is None:
        if (day := _DAY_AFTER.match(low[m.end() :])) is not None:
            # "I can't make friday anymore": that day's visit, read out (whether to cancel
            # or move it is not said; it was booked as a service "friday anymore")
            return f"{text[: m.start()]}my {day.group('day')} appointment"
        return text
    said = text[m.end() : m.end() + visit.end("rest")].strip()
    rest = text[m.end() + visit.start("end") :]
    if _DAY_OR_HOUR.search(low[m.end() + visit.end() :]):
        # "I can't make my haircut on friday, could it be saturday at 3": the visit is
        # named, and the words after it say where it goes.
        return f"{text[: m.start()]}{said}{rest}"
    return f"{text[: m.start()]}cancel {said}{rest}"


_ONCE_MORE = rx(r" (?:again|once more)$")


def _on_the_list(text: str) -> str:
    low = text.lower()
    if " it " not in low and " that " not in low and " this " not in low and "remind" not in low:
        return text
    if (put := _IT_ON_THE_LIST.search(low)) is None:
        return text
    if (told := _ERRAND_TOLD.search(low[: put.start()])) is None:
        return text
    errand = text[told.start("errand") : told.end("errand")]
    if told.group("plan") and (_A_PRONOUN.search(errand) or not _A_DAY_SAID.search(errand)):
        return text  # "i'll be late, remind me", "I'll pay it friday, remind me": no to-do
    # "i need to call the pharmacy again, can you put it back on my tasks": once more is no
    # word of what to do
    errand = _ONCE_MORE.sub("", errand)
    between = text[told.end("errand") : put.start()]
    if _REMARK.match(between):
        # "i need to send my tax forms by thursday, it's important, put it on my list": the
        # to-do as said, its remark kept with it (it makes it high priority)
        return f"{text[: told.start()]}add a task to {errand}{between.rstrip(' ,')}"
    return f"{text[: put.start()]}add a task to {errand}{text[put.end() :]}"


def _told_plainly(text: str) -> str:
    low = text.lower()
    if (" to " in low or " with " in low) and (m := _TO_THE_TEAM.search(low)) is not None:
        text = f"{text[: m.start()]}report this{text[m.end() :]}"
        low = text.lower()
    if " use " in low and (m := _NOT_USED.search(low)) is not None:
        said = "that email" if m.group("email") else "that number"
        text = f"{text[: m.start()]}don't use {said}{text[m.end() :]}"
        low = text.lower()
    if "need" in low and (m := _NOT_UNTIL.search(low)) is not None:
        text = f"{text[: m.start()]} can wait until {text[m.end() :]}"
        low = text.lower()
    if " on " in low and (m := _OFF_MY_LIST.search(low)) is not None:
        what = m.group("what") or m.group("there")
        text = f"{text[: m.start()]}delete {what} from my list{text[m.end() :]}"
    return text


# "can one of my appointments go to the day after that?", "one of my visits needs to move
# to friday": a move of one not yet named (which is asked), not the visits read out.
_ONE_OF_MINE_GOES = rx(
    r"^(?:(?:so|ok|okay|and|um|uh),? )*(?:(?:can|could|may|should|would) )?one of (?:my|the)"
    r" (?:appointments|visits|bookings)(?: (?:needs|has) to| will have to)?"
    r" (?:go|be moved|move|shift|be pushed) (?P<rest>(?:to|on|for|until|till) .+)$"
)


# "give the eye exam task a due date of the 25th": its due day set.
_GIVE_A_DUE_DATE = rx(
    r"\b(?:give|assign) (?P<np>(?:the |my )[a-z][a-z' -]{1,40}?(?:task|to-?do|reminder|one))"
    r" a (?:due )?(?:date|deadline)(?: of| for| on)? (?P<day>.+)$"
)


def _due_date_given(text: str) -> str:
    low = text.lower()
    if "date" not in low or (said := _GIVE_A_DUE_DATE.search(low)) is None:
        return text
    return f"{text[: said.start()]}make {said.group('np')} due {text[said.start('day') :]}"


def _one_of_mine_goes(text: str) -> str:
    low = text.lower()
    if "one of" not in low or (said := _ONE_OF_MINE_GOES.match(low)) is None:
        return text
    return f"move an appointment {text[said.start('rest') :]}"


# "I do want the eye exam task deleted", "I need the groceries marked done": the thing
# and the change wanted of it, said as a state (only the tasks were listed).
_WANTED_DONE = rx(
    r"\bi(?:(?: (?:do|really|just|still|actually|definitely))* (?:want|need)|(?:'d| would)"
    r"(?: really)? like) (?P<what>(?:the|my) [a-z' ]+?) (?P<done>deleted|removed|cancelled"
    r"|canceled|completed|ticked off|marked (?:as )?(?:done|complete|completed))"
    r"(?= ?$|[\s,.!?;])"
)
_WANTED_VERB = {
    "deleted": "delete",
    "removed": "delete",
    "cancelled": "cancel",
    "canceled": "cancel",
}


def _wanted_done(text: str) -> str:
    low = text.lower()
    if not ("want" in low or "need" in low or "like" in low) or not (
        "ed" in low or "ticked" in low
    ):
        return text
    if (said := _WANTED_DONE.search(low)) is None:
        return text
    what, done = text[said.start("what") : said.end("what")], said.group("done")
    verb = _WANTED_VERB.get(done)
    plain = f"{verb} {what}" if verb else f"mark {what} done"
    return f"{text[: said.start()]}{plain}{text[said.end() :]}"


_STEPS = (
    _one_of_mine_goes,
    _due_date_given,
    _reminder_of,
    _unwrapped,
    _wished,
    _put_first,
    _not_that_but,
    _wanted_done,
    _not_coming,
    _on_the_list,
    _told_plainly,
    made_a_move,
)


# "…, but only if there's nothing else that day", "if I'm free on thursday…": a change
# wanted only if the calendar allows it. Asked about (a yes makes it), as every change on
# a condition is; the visits are read with the question so that the answer shows whether
# the day is free (it asked to book on a day already taken, without looking).
_CALENDAR_CONDITION = rx(
    r"\b(?:if|unless|provided|as long as) (?:there's|there is|i've got|i have got|i have|i've"
    r"|i (?:already|still) have|i've (?:already|still) got"
    # ("unless I already have something that day": the visits were not read)
    r"|i'm|i am|you've got|you have)(?: got)?(?: still| really| definitely| already)? (?:nothing"
    r"|anything|something|no other|free|not got anything|not busy|busy)\b"
)
_VISITS_READ = frozenset({"appointments", "next_appointment"})


# "if the groceries are already overdue just delete them", "if the insurance is due before
# the 10th, make it high priority": a change of a to-do on a condition of its due day or
# level. Asked about, as above; the to-dos are read with the question so that the answer
# shows whether it holds (it asked "Would you like me to delete it?" without looking).
_TASK_CONDITION = rx(
    r"\b(?:if|unless|provided|as long as) (?:the |my )?[a-z' -]{2,40}?"
    r" (?:is|are|isn't|aren't|is not|are not) (?:already |still |now )?(?:overdue|late|past due"
    r"|due\b|(?:a |an )?(?:high|low|normal|top|urgent)(?:[- ]priority)?\b)"
    r"|\b(?:if|unless) (?:the |my )?[a-z' -]{2,40}? (?:has|have|doesn't have|does not have"
    r"|don't have|do not have) (?:no |a |any )?(?:due date|deadline)\b"
)
_TASK_CHANGES = frozenset({"complete_task", "update_task", "delete_task"})


def with_the_tasks_read(found: list[Intent], text: str) -> list[Intent]:
    """`found` with the to-dos read first, when a change of one asked on a condition of
    its due day or level is weighed (see above)."""
    if not any(i.kind in _TASK_CHANGES and "consent" in i.missing for i in found):
        return found
    if any(i.kind == "tasks" for i in found) or not _TASK_CONDITION.search(text):
        return found
    return [Intent("tasks", clause=text), *found]


def with_the_day_read(found: list[Intent], text: str) -> list[Intent]:
    """`found` with the visits read first, when a change asked on a condition is weighed
    against what else is booked (see above)."""
    if not any(i.writes and "consent" in i.missing for i in found):
        return found
    if any(i.kind in _VISITS_READ for i in found) or not _CALENDAR_CONDITION.search(text):
        return found
    return [Intent("appointments", clause=text), *found]


# "if I owe more than 100 open a case about the bill", "if my balance is over $200…": a
# change on a condition of what is owed. Asked about, as above; the bill is read with
# the question so that the answer shows whether it holds (it asked without looking).
_BILL_CONDITION = rx(
    r"\b(?:if|unless|provided|as long as) (?:i|we) (?:still )?(?:owe|have to pay|need to pay)"
    r"|\b(?:if|unless|provided|as long as) (?:my|the) (?:balance|bill|total|amount owed)"
    r" (?:is|comes to|'s)\b"
    r"|\b(?:if|unless) (?:it's|it is|that's|that is) (?:more|less|over|under|above|below)\b"
    r"(?=.*\b(?:owe|balance|bill)\b)"
)
_BILL_READ = frozenset({"billing", "invoices"})


def with_the_bill_read(found: list[Intent], text: str) -> list[Intent]:
    """`found` with the open bill read first, when a change asked on a condition of what
    is owed is weighed (see above)."""
    if not any(i.writes and "consent" in i.missing for i in found):
        return found
    if any(i.kind in _BILL_READ for i in found) or not _BILL_CONDITION.search(text):
        return found
    return [Intent("billing", clause=text), *found]
