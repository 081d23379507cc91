"""Asks said the long way round on the phone, said as they would be typed.

"whats the date on the insurance one" and "which day was the cat food one" ask when a
task is due ("when is the insurance one due"); "say the number back to me" asks for the
phone number on file; "add a note to myself to check my statement" adds a to-do, not a
note to a case, and so does "add one more to get the car washed". Each is rewritten only
where nothing else can be meant, and each rule is tried only on a message holding its
words.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from assistant.language.added_back import as_added
from assistant.language.lexicon import SERVICES
from assistant.language.patterns import GatedPattern, rx

_LEAD = r"^(?P<lead>(?:(?:and|so|ok|okay|oh|wait|um|uh|sorry|also|hmm|right|well|yeah)[ ,]+)*)"
# "what's the date on the insurance one", "which day was the cat food one": a task named by
# its words and "one", "task" or "reminder" (a visit is asked about with "appointment").
_DUE_ASKED = rx(
    _LEAD + r"(?:(?:what's|what is|whats) the (?:date|due date|day) (?:on|for|of)"
    r"|(?:which|what) (?:day|date) (?:was|is|'s)) (?P<what>(?:the|my) [a-z][a-z ]*? (?:one|task"
    r"|reminder|to-?do))(?: due)?(?: again)?[?.!]*$",
    re.IGNORECASE,
)
# "say the number back to me", "read my email back": the detail on file, asked for.
_READ_BACK = rx(
    _LEAD + r"(?:can you |could you )?(?:say|read|repeat|give) (?:the|my) (?P<what>phone number"
    r"|number|email(?: address)?) back(?: to me)?(?: please)?[?.!]*$",
    re.IGNORECASE,
)
# "a note to myself to check…": a to-do ("a note to the case" is not one of these).
_NOTE_TO_SELF = rx(r"\b(?:a )?note (?:to|for) (?:myself|me|self) to\b", re.IGNORECASE)


# "…by friday. and add one more to get the car washed": another to-do, said as one.
_ONE_MORE_ADDED = rx(
    r"\b(?:add|put in|put down) (?:one more|another one|another)(?: task| reminder)? to\b",
    re.IGNORECASE,
)

# "add a task to call the bank friday and another to pay rent on the 1st", "…, and also
# one for picking up the dry cleaning": a second to-do, said as one more of the first
# (only after a to-do was asked for in the message: `_TODO_ASKED`).
_ANOTHER_TODO = rx(
    r"(?:(?<=[:,] )|(?<=\band ))(?:also )?(?:another|one more|a second|a third|one)(?: one)?"
    r"(?: (?:task|reminder|to-?do))? (?P<p>to|for|about)\b",
    re.IGNORECASE,
)
_TODO_ASKED = rx(r"\b(?:tasks?|remind|reminders?|to-?dos?|list)\b", re.IGNORECASE)
# "make two tasks: one to book flights, and one to pack": each one a to-do of its own
_COUNTED_TODOS = rx(
    r"\b(?:make|add|create|set up|put down|write down|i need) (?:me )?(?:two|three|2|3)"
    r" (?:tasks|reminders|to-?dos)[:,]? (?:one )?(?P<p>to|for|about)\b",
    re.IGNORECASE,
)
_ANOTHER_WORDS = ("another", "one ", "second", "third")

# "clear my wednesday", "free up my sunday", "clear my schedule for wednesday", "can you
# wipe my calendar on the 16th": every visit that day cancelled (asked first, as every
# cancel is). Only a day said after it: "clear my balance" still pays, "clear out my
# task list" still lists.
_DAY_SAID = (
    r"(?P<day>today|tonight|tomorrow|(?:this |next )?(?:mon|tues|wednes|thurs|fri|satur|sun)day"
    r"|the \d{1,2}(?:st|nd|rd|th)|(?:this|next) week(?:end)?)"
)
_DAY_CLEARED = rx(
    r"\b(?:clear|free up|wipe|empty)(?: out)? (?:my|the) (?:(?:schedule|calendar|diary|day"
    r"|appointments) (?:(?:for|on) )?)?" + _DAY_SAID + r"(?: for me)?\b",
    re.IGNORECASE,
)

_NAMED_DAY = re.compile(r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|the \d.*")


# "remind me about my cleaning the night before", "a reminder for my haircut the day
# before it": the day counted from the visit the reminder is about, said as such ("…the
# day before my cleaning"), so that the day is counted from it (it was asked).
_VISIT_REMINDED = rx(
    r"\b(?P<head>remind me|reminder(?: in)?) (?:about|for|of) (?P<visit>(?:my|the) (?:[a-z-]+ )"
    r"{0,2}?(?:cleaning|haircut|massage|facial|appointment|appt|visit|consultation|check-?up"
    r"|exam|session|booking))(?P<when> (?:on|at) [a-z0-9: ]+?)?"
    r" (?P<rel>the (?:day|night|evening|morning) (?:before|after)|(?:a|one|two|three|\d) days?"
    r" (?:before|after))(?: (?:it|that))?(?=$|[ ,.!?])",
    re.IGNORECASE,
)
_PART_OF_THE_DAY = rx(r"\b(?:night|evening|morning)\b", re.IGNORECASE)


# A cancel said another way: "call off the haircut", "call it off", "calling off my
# cleaning", "scrap my massage", "drop the groceries task". Said as "cancel" (which the
# planner reads for a visit and, of a to-do, as its delete), so that every rule that
# reads a cancel (what is not to be done, advice asked, a change weighed, a condition)
# reads these too: "don't call off the haircut, what do I owe" held the cancel for a
# yes, as did "should I call off my haircut?" and "don't drop the groceries task".
_CALLED_OFF = rx(
    r"\bcall(?P<ing>ing)? (?:off\b|(?P<what>it|that|this|them|those|both"
    r"|(?:my|the|that|this) (?:[a-z'-]+ ){0,3}?[a-z'-]+) off\b)",
    re.IGNORECASE,
)
# "scrap" and "drop" cancel only a visit or a to-do named ("scrap that" is a never mind,
# "drop off the dry cleaning" an errand, "remind me to drop my car at the garage" a title).
_VISIT_OR_TODO = "|".join(
    sorted(
        {
            *(re.escape(name) for name in SERVICES),
            r"appointments?|appt|bookings?|visits?|tasks?|to-?dos?|reminders?|one",
        },
        key=len,
        reverse=True,
    )
)
_SCRAPPED = rx(
    r"\b(?:scrap|drop|kill|axe|nix)(?P<what> (?:my|the|that|this) (?:[a-z'-]+ ){0,3}?(?:"
    + _VISIT_OR_TODO
    + r"))\b(?! off\b)",
    re.IGNORECASE,
)
# "knock the insurance task off my list", "knock my haircut off the calendar": a cancel
# (of a to-do, its delete), said with the list it comes off.
_KNOCKED_OFF = rx(
    r"\bknock(?P<what> (?:my|the|that|this) (?:[a-z'-]+ ){0,3}?(?:"
    + _VISIT_OR_TODO
    + r")) off(?: (?:of )?(?:my|the) (?:to-?do |task )?(?:list|calendar|schedule|diary))?\b",
    re.IGNORECASE,
)
# A move said another way: "nudge my haircut an hour later", "slide the insurance task to
# the 15th", "shunt the cleaning to wednesday", "roll the haircut over to next week",
# "swap my haircut to thursday", "flip my cleaning to the afternoon". Said as "move" (of a
# to-do, a change of its due day), before the rules that read a move: each guard that reads
# one (not to be done, advice asked, a change weighed) reads these too. Only of a visit or
# a to-do named ("swap my haircut for a facial", "roll over" alone are not these); "swap"
# and "flip" only before "to" ("swap the haircut and the cleaning" trades their times).
_MOVED_OTHERWISE = rx(
    r"\b(?:(?P<verb>nudge|shunt|slide|scoot|budge|roll)|(?P<to_only>swap|flip))(?P<what>"
    r" (?:my|the|that|this) (?:[a-z'-]+ ){0,3}?(?:"
    + _VISIT_OR_TODO
    + r"))(?: (?:over|along|across))?(?(to_only)(?= to\b)|(?=$|[ ,.!?]))",
    re.IGNORECASE,
)
# "make my haircut 5 o'clock", "make the cleaning 2pm": a visit named, given a new hour.
_MADE_AT = rx(
    r"\bmake(?P<what> (?:my|the|that|this) (?:[a-z'-]+ ){0,2}?(?:"
    + _VISIT_OR_TODO
    + r")) (?P<when>(?:at )?\d{1,2}(?::\d\d)?(?: ?o'?clock| ?[ap]\.?m\b\.?))",
    re.IGNORECASE,
)
# "stick 'water plants' on my list", "pop renew passport on my to-dos", "throw pick up dry
# cleaning on the list for friday": a to-do put on the list, said as "put".
_STUCK_ON = rx(
    r"\b(?:stick|pop|throw|chuck|bung|slap|whack)(?P<what> .+? (?:on|onto) (?:my|the)"
    r" (?:to-?do |task )?(?:list|to-?dos|tasks)\b)",
    re.IGNORECASE,
)
# "you can get me on 650 555 0123 going forward": the number (or email) to reach the
# customer at, said as "reach me at" is (read as a booking: "get me" books).
_GET_ME_ON = rx(r"\bget (?:hold of )?me (?:on|at)(?= \+?\(?\d| [\w.+-]+@)", re.IGNORECASE)
# "I can't do the cleaning anymore, drop it", "I won't make it to the cleaning, take it
# off": a visit named, then let go of by "it" (read as a to-do's delete as well, and "I
# couldn't find a task matching 'cleaning'" said). Only where no to-do is named.
_LET_GO_OF_IT = rx(
    r"\b(?:(?:drop|scrap|kill|axe|nix) (?P<it>it|that)(?! off\b)|take (?P<it2>it|that) off\b)",
    re.IGNORECASE,
)
_VISIT_NAMED = rx(
    r"\b(?:"
    + "|".join(sorted((re.escape(name) for name in SERVICES), key=len, reverse=True))
    + r"|appointments?|appt|bookings?|visits?)\b",
    re.IGNORECASE,
)
_TODO_NAMED = rx(r"\b(?:tasks?|to-?dos?|reminders?|list)\b", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
# "dial the insurance task down to low": a level set.
_DIALLED = rx(r"\bdial(?P<what> (?:my|the|that|this) .+?) (?:down|up) to\b", re.IGNORECASE)


def change_said_plainly(text: str) -> str:
    """`text` with a change said in other words said plainly ("move", "cancel", "put",
    "set"), as `cancel_said_plainly` does for a cancel. Each rule is tried only on a
    message holding its word, and only before any to-do's words (a title keeps its own:
    "remind me to nudge Sam about the rent")."""
    text = cancel_said_plainly(text)
    lower = text.lower()
    # (each word tried by `in`, in line: a loop over a tuple costs each message more)
    moved = (
        "nudge" in lower
        or "shunt" in lower
        or "slide" in lower
        or "scoot" in lower
        or "budge" in lower
        or "roll" in lower
        or "swap" in lower
        or "flip" in lower
    )
    knocked = "knock" in lower and " off" in lower
    made = (
        "make my " in lower
        or "make the " in lower
        or "make that " in lower
        or "make this " in lower
    ) and _DIGIT.search(lower) is not None
    stuck = " on" in lower and (
        "stick" in lower
        or "pop" in lower
        or "throw" in lower
        or "chuck" in lower
        or "bung" in lower
        or "slap" in lower
        or "whack" in lower
    )
    dialled = "dial" in lower
    got = "get me on" in lower or "get me at" in lower or "get hold of me" in lower
    let_go = (" it" in lower or " that" in lower) and (
        "drop it" in lower
        or "drop that" in lower
        or "scrap it" in lower
        or "kill it" in lower
        or "axe it" in lower
        or "nix it" in lower
        or "take it off" in lower
        or "take that off" in lower
    )
    if not (moved or knocked or made or stuck or dialled or got or let_go):
        return text  # most messages
    lead = _TITLE_LEAD.search(text)
    end = lead.start() if lead is not None else len(text)

    def said(pattern: GatedPattern, plain: Callable[[re.Match[str]], str], text: str) -> str:
        # (a match starting in a to-do's words is its title: "slide the insurance task
        # to …" starts before "task to", which may lead a title, and is rewritten)
        return pattern.sub(lambda m: plain(m) if m.start() < end else m.group(0), text)

    if moved:
        text = said(_MOVED_OTHERWISE, lambda m: "move" + m.group("what"), text)
    if knocked:
        text = said(_KNOCKED_OFF, lambda m: "cancel" + m.group("what"), text)
    if made:
        text = said(
            _MADE_AT,
            lambda m: f"move{m.group('what')} to {m.group('when').removeprefix('at ')}",
            text,
        )
    if stuck:
        text = said(_STUCK_ON, lambda m: "put" + m.group("what"), text)
    if dialled:
        text = said(_DIALLED, lambda m: "set" + m.group("what") + " to", text)
    if got:
        text = _GET_ME_ON.sub("reach me at", text)
    if (
        let_go
        and (gone := _LET_GO_OF_IT.search(text)) is not None
        and _VISIT_NAMED.search(text, 0, gone.start())
        and not _TODO_NAMED.search(text)
    ):
        it = gone.group("it") or gone.group("it2")
        text = f"{text[: gone.start()]}cancel {it}{text[gone.end() :]}"
    return text


# Where a to-do's words start: what follows is its title, kept as said.
_TITLE_LEAD = rx(
    r"\b(?:remind(?:er)? (?:me )?to|(?:task|to-?do|reminder|note)s?(?: for me)? to"
    r"|to-?do:|list:|task:|note to self:?|(?:forget|remember) to|jot down|put ['\"]"
    r"|add (?=.* to (?:my|the) (?:to-?do |task )?list\b))\s?",
    re.IGNORECASE,
)


def cancel_said_plainly(text: str) -> str:
    """`text` with a cancel said another way said as "cancel" (read before any rule that
    reads where a cancel is: as_meant.py does so first). "call off" means nothing
    else, wherever it is said ("add a task to buy ink and call off my haircut" is read as
    with "cancel": the to-do and the cancel); "scrap" and "drop" only before any to-do's
    words (a title keeps its own)."""
    lower = text.lower()
    if not (
        ("call" in lower and " off" in lower)
        or "scrap" in lower
        or "drop" in lower
        or "kill" in lower
        or "axe" in lower
        or "nix" in lower
    ):
        return text  # most messages
    lead = _TITLE_LEAD.search(text)
    end = lead.start() if lead is not None else len(text)
    head = _SCRAPPED.sub(
        lambda said: "cancel" + said.group("what"), _CALLED_OFF.sub(_cancelled, text[:end])
    )
    # In a to-do's words, "call off" is the title's own ("remind me to call off the party
    # planner"), but for a visit named after it ("…and call off my haircut": a cancel)
    tail = text[end:]

    def of_a_visit(said: re.Match[str]) -> str:
        named = said.group(0) if said.group("what") else tail[said.end() : said.end() + 40]
        return _cancelled(said) if _VISIT_NAMED.search(named) else said.group(0)

    return head + _CALLED_OFF.sub(of_a_visit, tail)


def _cancelled(said: re.Match[str]) -> str:
    verb = "cancelling" if said.group("ing") else "cancel"
    return f"{verb} {said.group('what')}" if said.group("what") else verb


def _visit_reminded(text: str) -> str:
    said = _VISIT_REMINDED.search(text)
    if said is None:
        return text
    rel = _PART_OF_THE_DAY.sub("day", said.group("rel"))
    visit = said.group("visit")
    return (
        f"{text[: said.start()]}{said.group('head').removesuffix(' in')} about {visit}"
        f"{said.group('when') or ''}"
        f" {rel} {visit}{text[said.end() :]}"
    )


def said_plainly(text: str) -> str:
    """`text` (as the recogniser's habits were taken out) as typed."""
    lower = text.lower()
    if ("before" in lower or "after" in lower) and "remind" in lower:
        text = _visit_reminded(text)
        lower = text.lower()
    if "again" in lower or "back" in lower or "restore" in lower or "add" in lower:
        text = as_added(text)  # "put call the pharmacy back on my list": its add
        lower = text.lower()
    named = " one" in lower or " task" in lower or " reminder" in lower
    if named and ("date" in lower or "day" in lower) and (due := _DUE_ASKED.match(text)):
        return f"{due.group('lead')}when is {due.group('what')} due"
    if " back" in lower and (back := _READ_BACK.match(text)) is not None:
        what = "phone number" if "number" in back.group("what") else "email"
        return f"{back.group('lead')}what's my {what}"
    if "note " in lower and _NOTE_TO_SELF.search(text) is not None:
        return _NOTE_TO_SELF.sub("a reminder to", text)
    if ("one more" in lower or "another" in lower) and _ONE_MORE_ADDED.search(text) is not None:
        return _ONE_MORE_ADDED.sub("add a task to", text)
    if any(word in lower for word in _ANOTHER_WORDS) and (todo := _TODO_ASKED.search(text)):
        text = _another_todo(_counted_todos(text), todo.end())
    if ("clear" in lower or "free up" in lower or "wipe" in lower or "empty" in lower) and (
        cleared := _DAY_CLEARED.search(text)
    ):
        day = cleared.group("day")
        on = "on " if _NAMED_DAY.fullmatch(day.lower()) else ""  # "on sunday", "tomorrow"
        return text[: cleared.start()] + f"cancel everything {on}{day}" + text[cleared.end() :]
    return text


def _another_todo(text: str, asked_at: int) -> str:
    """Each "another to …" after the to-do asked at `asked_at`, asked as one of its own."""
    return _ANOTHER_TODO.sub(
        lambda m: f"add a task {m.group('p')}" if m.start() > asked_at else m.group(0), text
    )


def _counted_todos(text: str) -> str:
    return _COUNTED_TODOS.sub(lambda m: f"add a task {m.group('p')}", text)


__all__ = ["cancel_said_plainly", "change_said_plainly", "said_plainly"]
