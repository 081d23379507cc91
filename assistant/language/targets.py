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
from datetime import date, datetime, time

from assistant.language.dates import find_when
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
}
_POSITION = rx(r"\b(next|first|soonest|earliest|second|third|fourth|last|final)\b")
# Words that say what kind of thing is meant, or nothing at all: not matched to titles.
FILLER = words(
    """
    the my a an that this those these one ones it its task tasks to-do to-dos item items
    reminder reminders thing things called named titled which says say saying list from
    off on of please as for me entry appointment appointments booking bookings visit visits
    session reservation upcoming scheduled with about all in at i have is are was be
    one's up out to and done complete completed finished mark priority due date
    day time next first second third fourth last final soonest earliest can you could
    would will just also now again instead our your whatever anything everything something
    stuff
    please thanks thank kindly cheers pls so um uh okay ok like really right well
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
        )


def target_ref(phrase: str, original: str, now: datetime | None = None) -> TargetRef:
    """Read a target description; `now` (aware, customer's zone) enables day matching."""
    phrase = phrase.strip(" ,.?!")
    day = None
    weekday = None
    clock = None
    either_half = False
    rest = phrase
    if now is not None and (when := find_when(phrase, now)) is not None:
        if when.day is not None and not when.day_implied:
            day, weekday = when.day, when.weekday
        if when.clock is not None and not when.vague_time:
            # "my 2:30": the visit that starts then (the day read into a bare time is not).
            clock = when.clock
            said = " ".join(phrase[start:end] for start, end in when.spans)
            either_half = _HALF_OF_DAY.search(said) is None
        if day is not None or clock is not None:
            for start, end in sorted(when.spans, reverse=True):
                rest = rest[:start] + " " + rest[end:]
    rest = _CLOSED_UP.sub(lambda m: m.group(0).replace(" ", ""), rest)
    position = None
    if match := _POSITION.search(rest):
        position = _POSITIONS[match.group(1)]
    words = tuple(
        word.removesuffix("'s")
        for word in _WORD.findall(rest)
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
    )


# "whichever one is due tomorrow", "the task that's due friday": a task by its due day.
_DUE_SAID = rx(r"\b(?:(?:that|which) (?:is |'s )?|that's |is )?due (?:on |by )?(?P<d>[a-z0-9 ]+)$")
_WHICHEVER = rx(r"\bwhichever(?: one| task)?\b")


def task_target(phrase: str, original: str, now: datetime) -> TargetRef:
    """A task's description, with a due day said ("the one due tomorrow") read as that
    day (other days stay words of the title: "the call mom friday task")."""
    phrase = _WHICHEVER.sub("the one", phrase.strip(" ,.?!"))
    due = _DUE_SAID.search(phrase)
    when = find_when(due.group("d"), now) if due else None
    if due is None or when is None or when.day is None or when.day_implied:
        return target_ref(phrase, original)
    target = target_ref(phrase[: due.start()], original)
    return dataclasses.replace(target, phrase=restore_case(phrase, original), day=when.day)
