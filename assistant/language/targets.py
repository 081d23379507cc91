"""Which existing thing a request is about: "the grocery task", "my Tuesday appointment".

A `TargetRef` keeps the words that can be matched against a listing (titles,
services), an ordinal position ("my next appointment", "the second one") and a day
("the one on the 15th", "my Tuesday appointment"). Resolving it against real data is
`assistant.resolve`'s job; this module only reads what the customer said.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from assistant.language.dates import When, find_when
from assistant.language.lexicon import SERVICES
from assistant.language.patterns import rx
from assistant.language.spelling import words
from assistant.language.text import restore_case

_POSITIONS = {
    "next": 1,
    "first": 1,
    "soonest": 1,
    "earliest": 1,
    "upcoming": None,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "last": -1,
    "final": -1,
    "second last": -2,
    "third last": -3,
}
_POSITION = rx(
    r"\b(second last|third last|next|first|soonest|earliest|second|third|fourth|last|final)\b"
)
# "the later one", "my earlier appointment", "whichever is later": one of two told by when.
_COMPARED = rx(
    r"\b(?:the|my|whichever|whichever one|which ever|whichever of them)(?: is|'s| comes)?"
    r" (?P<w>later|earlier)\b(?! (?:that|this|in|on|today|tomorrow|than)\b)"
)
# Words that say what kind of thing is meant, or nothing at all: not matched to titles.
FILLER = words(
    """
    the my mine a an that this those these one ones it its task tasks to-do to-dos item items
    reminder reminders thing things called named titled which says say saying list from
    off on of please as for me entry appointment appointments booking bookings visit visits
    session reservation upcoming scheduled with about all in at i have is are was be
    one's up out to and done complete completed finished mark priority due date
    day time next first second third fourth last final soonest earliest can you could
    would will just also now again instead our your whatever whichever anything everything something
    stuff later earlier every each
    please thanks thank kindly cheers pls so um uh okay ok like really right well
    yeah yep yup
    """
)
_WORD = rx(r"[a-z0-9][a-z0-9'-]*")
# A time said with its half of the day ("2:30pm", "10 in the morning", "noon").
_HALF_OF_DAY = rx(
    r"(?:\d|\b)(?:am|pm|a\.m|p\.m)\b|\b(?:noon|midday|midnight|morning|afternoon|evening|tonight)\b"
)
# "hair cut", "check up": said apart, listed as one word ("Haircut").
_CLOSED_UP = rx(
    r"\b(?:"
    + "|".join(re.escape(k) for k in SERVICES if " " in k and k.replace(" ", "") in SERVICES)
    + r")\b"
)


@dataclass(frozen=True, slots=True)
class TargetRef:
    """The customer's description of an existing task or appointment."""

    phrase: str
    words: tuple[str, ...] = ()
    position: int | None = None
    day: date | None = None
    weekday: int | None = None
    # Words of an earlier description ("the bill one" before "the first one"): used only
    # to narrow several equally good candidates down.
    context: tuple[str, ...] = ()
    # The very item meant, known from the conversation ("it", "the second one").
    item_id: str | None = None
    # The time it starts ("cancel my 2:30", "move the 10am to Friday"); said without am
    # or pm (`either_half`), 2:30 in the morning or the afternoon fits.
    clock: time | None = None
    either_half: bool = False
    # A span of days said ("all my appointments next week"): first and last day.
    within: tuple[date, date] | None = None
    # "my morning appointment": the hours of the part of the day said, [from, to).
    hours: tuple[int, int] | None = None
    # "the high priority task": the priority said.
    priority: str | None = None
    # "the one with no date": a task with no due date.
    undated: bool = False
    # What is left out ("all my appointments except the dentist"): never one of these.
    excluded: TargetRef | None = None
    # Several left out ("…except the groceries and the eye exam"): each one, in `excluded`.
    parts: tuple[TargetRef, ...] = ()
    # "the appointment after the dentist": the one next to `anchor` in the order they
    # come, +1 after it, -1 before it.
    anchor: TargetRef | None = None
    beside: int = 0
    # An undo's move: the start our change gave the visit. Found at another time now, or
    # gone (moved or cancelled since, on another device or by the office), it is not
    # moved back over that later change (models/embedded/undo.py `changed_since`).
    at: str | None = None

    @property
    def vague(self) -> bool:
        """Nothing to go on ("cancel it"): only a single candidate can be meant."""
        return not (
            self.words
            or self.position
            or self.day
            or self.weekday is not None
            or self.item_id
            or self.clock
            or self.within
            or self.hours
            or self.priority
            or self.undated
            or self.excluded
            or self.parts
            or self.anchor
        )


# "…except the groceries and the eye exam": the "and" of what is left out, which must not
# split the sentence into a second ask ("the eye exam" alone was marked done).
EXCEPT_JOINER = " && "
# "…except the dentist", "every task but groceries": what follows is left out.
EXCEPT = rx(
    r"\b(?:except(?: for)?|but not|other than|apart from|aside from|besides|excluding"
    r"|save for|(?<=\ball )but|(?<=\beverything )but|(?<=\bevery one )but|(?<=\bany )but"
    # "cancel my appointment, not the dental one", "the one that isn't the haircut": the
    # one named is left out (it was read as the one meant, and its cancel was held)
    r"|(?<=, )not(?= (?:the|my|that|this)\b)|(?:that|which) (?:isn't|is not)(?= (?:the|my)\b))\b"
)
# "the appointment after the dentist", "the task before groceries": next to another one.
_BESIDE = rx(r"\b(?P<side>after|before|following|preceding)\b")
_SIDES = {"after": 1, "following": 1, "before": -1, "preceding": -1}
_WEEK = rx(r"\bweek\b")
_FIRST_FEW = rx(r"\b(first|last) (?:two|three)\b")
_OF_HOW_MANY = rx(r"\b(of (?:my|the|these|those|them|our)) (?:two|three|four|2|3|4)\b")
_PART_OF_DAY = rx(r"\b(?:morning|afternoon|evening)\b")
_HOURS_OF = {"morning": (0, 12), "afternoon": (12, 17), "evening": (17, 24)}
_PRIORITY_SAID = rx(
    r"\b(?P<level>high|low|normal)[- ]priority\b|\burgent\b"
    # "my top priority task", "the lowest priority one": of that level (was: a task looked
    # for by the name "top")
    r"|\b(?P<top>top|highest|lowest)[- ]priority\b"
)
# "delete the groceries task asap" ("asap" is read "urgent"): how soon, said last after the
# thing's name, not which one ("the task that's urgent", "my urgent one" are which).
_HOW_SOON = rx(r"\b(?:task|to-?do|reminder|one|item)s? urgent\W*$")
# "…the groceries task that'd be great", "…the haircut if that's ok", "… when you get a
# sec": thanks said last, after the thing's name, no word of it.
_THANKS_LAST = rx(
    r"\s(?:that(?:'d| would) be|that's|would be|it'd be) (?:really |so |very )?(?:great|lovely"
    r"|brilliant|amazing|perfect|ideal|fab|fantastic|wonderful|super|awesome|ace|appreciated"
    r"|much appreciated|a great help|a big help|a help|helpful)\W*$"
    r"|\sif (?:that's|that is|it's|it is) (?:ok|okay|alright|all right|possible|fine)\W*$"
    r"|\sif (?:at all )?possible\W*$|\sif you (?:can|could|don't mind|wouldn't mind)\W*$"
    # "…the groceries task for me when you get a sec"
    r"|\s(?:for me )?when(?:ever)? (?:you|u) (?:can|get|have)(?: (?:a )?(?:sec|second|moment"
    r"|minute|min|chance))?\W*$"
)
_UNDATED = rx(
    r"\b(?:(?:with|that has|that have|which has|which have|that's got|that've got|having)"
    r" no (?:due )?(?:dates?|deadlines?)"
    # "all tasks that don't have a due date" (its "don't" was read as a word of a title)
    r"|(?:that|which) (?:don't|doesn't|do not|does not) have (?:a |any )?(?:due )?"
    r"(?:dates?|deadlines?)"
    r"|without (?:a |any )?(?:due )?(?:dates?|deadlines?)|(?:that's |that is |that are )?undated)\b"
)
_WEEKEND = rx(r"\bweekend\b")
# "…after ", "…before ": what a day said next is the edge of (the days on from it, or until it).
DAY_EDGE = rx(r"\b(?P<edge>after|before)\s+$")


def _edge_span(edge: str, day: date, today: date) -> tuple[date, date]:
    """The days after `day` (a year of them), or from `today` until the day before it."""
    if edge == "after":
        return day + timedelta(days=1), day + timedelta(days=366)
    return today, max(today, day - timedelta(days=1))


_BEFORE_A_SPAN = rx(r"\bbefore (?:the |this |next |the next )?(?:weekend|week)\b")


# A reason said after the thing named, which is no words of it.
_REASON = rx(
    r"\s*,?\s*\b(?:because|'cause|cause|cos|coz|since i|since we|as i'm|as i am"
    # said with no pause: "…the haircut i've decided to grow my hair out", "…my cleaning
    # i'm moving out of town next week" (not "the one i booked", "the one i have on friday")
    r"|(?:i've|i'm|im|we're|we've) (?!(?:got|booked|scheduled|down|in|on|having|seeing"
    r"|due|meant|supposed)\b)[a-z]+|i (?:found|decided|no longer|don't|can't"
    r"|won't|just found|need to move|am moving))\b"
)


def left_out_ref(phrase: str, original: str, now: datetime | None = None) -> TargetRef:
    """What "except …" names: one description, or several joined by EXCEPT_JOINER (each
    in `parts`, none of them vague)."""
    if EXCEPT_JOINER.strip() not in phrase:
        return target_ref(phrase, original, now)
    parts = tuple(
        target_ref(part, original, now)
        for part in phrase.split(EXCEPT_JOINER.strip())
        if part.strip()
    )
    if not parts or any(part.vague for part in parts):
        return TargetRef(phrase=phrase.replace(EXCEPT_JOINER.strip(), "and"))
    return TargetRef(phrase=" and ".join(part.phrase for part in parts), parts=parts)


def target_ref(phrase: str, original: str, now: datetime | None = None) -> TargetRef:
    """Read a target description; `now` (aware, customer's zone) enables day matching."""
    phrase = phrase.strip(" ,.?!")
    if (reason := _REASON.search(phrase)) is not None and reason.start() > 0:
        # "cancel my dentist appointment because I'm sick": why, not which one.
        phrase = phrase[: reason.start()].rstrip(" ,")
    if (cut := EXCEPT.search(phrase)) is not None and phrase[cut.end() :].strip():
        left_out = left_out_ref(phrase[cut.end() :], original, now)
        if not left_out.vague:
            kept = target_ref(phrase[: cut.start()], original, now)
            return dataclasses.replace(
                kept, phrase=restore_case(phrase, original), excluded=left_out
            )
    if (side := _BESIDE.search(phrase)) is not None:
        anchor = target_ref(phrase[side.end() :], original, now)
        # "…before friday" is a day, not another appointment: only a named one anchors.
        if anchor.words and anchor.day is None and anchor.clock is None:
            kept = target_ref(phrase[: side.start()], original, now)
            return dataclasses.replace(
                kept,
                phrase=restore_case(phrase, original),
                anchor=anchor,
                beside=_SIDES[side.group("side")],
            )
    return _plain_ref(phrase, original, now)


def _span(when: When, phrase: str) -> tuple[date, date] | None:
    """ "next week", "this weekend": the days a vague day stands for."""
    if when.day is None or not when.vague_day:
        return None
    if _WEEKEND.search(phrase):
        saturday = when.day + timedelta(days=(5 - when.day.weekday()) % 7)
        return saturday, saturday + timedelta(days=1)
    if _WEEK.search(phrase):
        monday = when.day - timedelta(days=when.day.weekday())
        return monday, monday + timedelta(days=6)
    return None


def _plain_ref(phrase: str, original: str, now: datetime | None) -> TargetRef:
    day = None
    weekday = None
    clock = None
    either_half = False
    rest = phrase
    if (" be " in rest or " if " in rest or " when" in rest) and (
        thanks := _THANKS_LAST.search(rest)
    ) is not None:
        rest = rest[: thanks.start()]
    within = None
    hours = None
    if now is not None and (when := find_when(phrase, now)) is not None:
        within = _span(when, phrase)
        if within is not None and _BEFORE_A_SPAN.search(phrase):
            # "all my appointments before the weekend": the days from today until it
            # (was: the weekend's own, and "you don't have any appointments then")
            last = within[0] - timedelta(days=1)
            within = (now.date(), last) if last >= now.date() else None
            rest = _BEFORE_A_SPAN.sub(" ", rest)
        if within is not None:
            for start, end in sorted(when.spans, reverse=True):
                rest = rest[:start] + " " + rest[end:]
        elif when.day is not None and not when.day_implied:
            edge = None if when.clock else DAY_EDGE.search(phrase[: min(when.spans)[0]])
            if edge is not None:
                # "every appointment after wednesday", "all tasks due before friday": the
                # days on from it, or from today until it (was: that day's own, and "you
                # don't have any appointments on Wednesday" said beside the Wednesday one)
                within = _edge_span(edge.group("edge"), when.day, now.date())
                rest = rest[: edge.start()] + " " * (edge.end() - edge.start()) + rest[edge.end() :]
                for start, end in sorted(when.spans, reverse=True):
                    rest = rest[:start] + " " + rest[end:]
            else:
                day, weekday = when.day, when.weekday
        if when.clock is not None and when.vague_time and _PART_OF_DAY.search(phrase):
            # "my morning appointment": one that starts in that part of the day.
            hours = _HOURS_OF[_PART_OF_DAY.search(phrase).group(0)]  # type: ignore[union-attr]
            for start, end in sorted(when.spans, reverse=True):
                rest = rest[:start] + " " + rest[end:]
        if when.clock is not None and not when.vague_time:
            # "my 2:30": the visit that starts then (the day read into a bare time is not).
            clock = when.clock
            said = " ".join(phrase[start:end] for start, end in when.spans)
            either_half = _HALF_OF_DAY.search(said) is None
        if day is not None or clock is not None:
            for start, end in sorted(when.spans, reverse=True):
                rest = rest[:start] + " " + rest[end:]
    priority = None
    if (level := _PRIORITY_SAID.search(rest)) is not None:
        if level.group(0) != "urgent" or _HOW_SOON.search(rest) is None:
            priority = (
                "high"
                if level.group(0) == "urgent" or level.group("top") in ("top", "highest")
                else "low"
                if level.group("top") == "lowest"
                else level.group("level")
            )
        rest = rest[: level.start()] + " " + rest[level.end() :]
    undated = False
    no_date = _UNDATED.search(rest) if "date" in rest or "deadline" in rest else None
    if no_date is not None:
        undated = True
        rest = rest[: no_date.start()] + " " + rest[no_date.end() :]
    rest = _CLOSED_UP.sub(lambda m: m.group(0).replace(" ", ""), rest)
    if " of " in rest:
        # "the earlier of my two appointments": how many there are, not words of one
        rest = _OF_HOW_MANY.sub(r"\1", rest)
    if "two" in rest or "three" in rest:
        # "the last two tasks": how many from that end, not a word of a name
        rest = _FIRST_FEW.sub(r"\1", rest)
    position = None
    if match := _POSITION.search(rest):
        position = _POSITIONS[match.group(1)]
    elif ("later" in rest or "earlier" in rest) and (compared := _COMPARED.search(rest)):
        # "my later appointment", "whichever is later": the last of them (the first, said
        # "earlier"); it was asked which, as if nothing told them apart
        position = 1 if compared.group("w") == "earlier" else -1
    # ("the insurance task's done": "task's" is the word "task", filler as it is)
    words = tuple(
        word
        for word in (said.removesuffix("'s") for said in _WORD.findall(rest))
        if word not in FILLER and not word.isdigit() and len(word.strip("'")) > 1
    )
    shown = restore_case(phrase, original)
    return TargetRef(
        phrase=shown,
        words=words,
        position=position,
        day=day,
        weekday=weekday,
        clock=clock,
        either_half=either_half,
        within=within,
        hours=hours,
        priority=priority,
        undated=undated,
    )
