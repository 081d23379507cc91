"""The rules for appointments: book one, move one, cancel one."""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC, datetime
from typing import Any

from assistant.language import slots
from assistant.language.clause import (
    APPT_NOUN,
    CONTACT_NOUN,
    LIST_TAIL,
    QUESTION_START,
    TASK_NOUN,
    Clause,
    appointment_context,
)
from assistant.language.dates import When, find_when
from assistant.language.intent import Intent
from assistant.language.patterns import rx
from assistant.language.shifts import find_shift
from assistant.language.targets import target_ref

_RESCHEDULE = rx(
    r"\b(?P<verb>reschedule|rebook|move|push(?: back)?|postpone|shift|bring forward|bring"
    r"|change|switch|bump|slide|put off|delay"
    # "put my haircut back an hour", "put the cleaning forward a day": a shift, as pushed
    # (the shift itself is read apart, and is no longer in the clause's words)
    r"|put(?= (?:[a-z']+ ){1,4}(?:back|forward)\b(?! (?:on|onto|in|into|to)\b))"
    # "could you put my haircut on thursday at 11": a visit put at a time said (it was read
    # as a question about the day, the move lost untold)
    # ("put my checkup in for the 1st", "put my haircut down for friday": a booking)
    r"|put(?= (?:my|the|our) (?:(?!in\b|down\b)[a-z']+ ){1,3}(?:on|at|to|into|in(?= "
    r"(?:the |next )?week\b)) ))\b"
    r"(?P<rest>.*)$"
)
_NEW_TIME = rx(
    r"^(?P<t>.*?)\s*\b(?:to|for|until|till|into|over to|back to|forward to)\b\s*(?P<w>.*)$"
)
# "reschedule my cleaning, maybe thursday at noon": a new time offered, not said with "to".
_OFFERED_TIME = rx(
    r"^(?P<t>.*?)\s*(?:,\s*|\b)(?:maybe|perhaps|how about|what about|ideally|preferably"
    r"|possibly|if possible|say)\b\s*(?P<w>.+)$"
)
# "…, would the 23rd at 2 work?", "…, does thursday at 9 suit?": offered as a question.
_OFFERED_AS_QUESTION = rx(
    r"^(?P<t>.*?),\s*(?P<w>(?:would|could|does|will|is) (?:the |this |next |on |at )?(?:\d|mon"
    r"|tue|wed|thu|fri|sat|sun|tomorrow|noon|midday|half|quarter).*)$"
)
# "…the haircut, can we do next sunday instead?": offered as what could be done instead.
_OFFERED_AS_ASK = rx(
    r"^(?P<t>.*?),\s*(?:can|could) (?:we|i|you) (?:do|make it|try|have it|go with|go for)"
    r"\s+(?P<w>(?:the |this |next |on |at )?(?:\d|mon|tue|wed|thu|fri|sat|sun|tomorrow|noon"
    r"|midday|half|quarter).*)$"
)
_CANCEL = rx(r"\b(?:cancel|call off|scrap)\b(?P<rest>.*)$")
# "…moved up by a day", "…pushed back an hour": the shift is read by assistant.shifts.
_BY_A_SHIFT = r"(?:up|back|forward|out|ahead|earlier|later|by) [a-z0-9 ]+"
_PASSIVE_MOVE = rx(
    r"^(?:can|could|would|will|should|please|i'd like|i want)?\s*(?:you )?(?:have |get )?"
    r"(?P<t>.+?) (?:be|get|got) (?:moved|rescheduled|pushed(?: back)?|shifted|changed|postponed"
    r"|bumped)\b\s*(?:(?:to|for|until|till|into) (?P<w>.+)|" + _BY_A_SHIFT + ")?$"
)


# "can the 10 o'clock on wednesday go to thursday, same time": the visit itself goes.
_GO_TO = rx(
    r"^(?:can|could|would|will|should)\s+(?P<t>(?:my|the|this|that|our|[a-z]+day's)\b.+?)"
    r" (?:go|move|shift|slide) (?:to|over to|till|until|on) (?P<w>.+)$"
)


# "I need my haircut moved to the 10th", "get my next appointment cancelled": the
# customer wants something done to one of their appointments, said in the passive.
_HAVE_DONE = (
    r"\b(?:need|want|like|get|have|please|could|can|would)(?: you)?(?: to)?(?: get| have)?"
    r" (?P<t>(?:my|the|this|that|our|both|[a-z]+day's)\b.+?) (?:to be |be )?"
)
_HAVE_MOVED = rx(
    _HAVE_DONE + r"(?:moved|rescheduled|pushed(?: back)?|shifted|changed|postponed|bumped"
    r"|brought forward)\b\s*(?:(?:to|for|until|till|into) (?P<w>.+)|" + _BY_A_SHIFT + ")?$"
)
_HAVE_CANCELLED = rx(
    _HAVE_DONE + r"(?:cancell?ed|called off|scrapped|taken off)\b"
    r"|\bcancell?ations? (?:for|of|on) (?P<c>.+)$"
)


# "can my haircut be half an hour earlier", "could the cleaning start a day later": a move
# by a shift said without a verb of moving (the shift itself is read by assistant.shifts).
_BE_SHIFTED = rx(
    r"^(?:can|could|would|will)\s+(?P<t>(?:my|the|this|that)\b.+?) (?:be|start)"
    r" (?:(?:moved|pushed|made|put) )?(?:[a-z0-9]+ ){0,4}(?:earlier|later|sooner)\b"
)


# "make my haircut an hour later", "can I get the cleaning half an hour earlier", "I'd like
# my haircut a bit earlier": the same, said with the verb of having it so (it was listed).
_MADE_SHIFTED = rx(
    r"^(?:(?:(?:can|could|would|will) (?:you |i |we )?|please )*(?:make|get|have)"
    r"|(?:i'd|i would|we'd) (?:like|prefer)(?: to (?:have|get))?"
    r"|(?:i|we) (?:want|need)(?: to (?:have|get))?)"
    r" (?P<t>(?:my|the|this|that)\b.+?) (?:[a-z0-9]+ ){1,4}(?:earlier|later|sooner)\b"
)


# "is there any chance I could come in for my cleaning a bit earlier that day, say 8:30?":
# a move asked as coming in at another time, the time offered after it.
_COME_IN_AT = rx(
    r"\b(?:(?:could|can|may|might) (?:i|we)|(?:i|we) (?:could|can|might))"
    r" (?:come in|come|get in|be seen|pop in|go in)"
    r"(?P<t> for (?:my|the|our) [a-z ]+?)?"
    r" (?:a (?:bit|little|little bit) |an hour |half an hour |slightly )?(?:earlier|later)\b"
    # "can I come in earlier for the cleaning, like 9?": the visit said after
    r"(?P<t2> for (?:my|the|our) [a-z]+(?: [a-z]+)?(?=[,.?!]| (?:like|say|maybe|perhaps|at)\b))?"
    r"(?P<w>.*)$"
)


# "can I come in an hour earlier for the cleaning", "(and) an hour later for the haircut":
# a shift said first, then the visit it is for (the shift is read by assistant.shifts).
_SHIFTED_FOR = rx(
    r"^(?:(?:and|then|also|but)\s+)?(?:(?:could|can|may|might) (?:i|we) |(?:i|we) (?:could|can"
    r"|might|want to|need to|'d like to) )?(?:(?:come in|come|get in|be seen|pop in|go in) )?"
    r"(?:(?:a|an|one|two|three|half an?|\d{1,2}|a couple of) (?:minutes?|mins?|hours?|days?)"
    r"|a (?:bit|little|little bit)) (?:earlier|later|sooner)"
    r" for (?P<t>(?:my|the|our) [a-z ]+?)(?: please| instead)?$"
)


# "push it up to a supervisor", "move my case up to a manager": handed up to a person, which
# is no new time (escalating is no tool's; language/limits says so).
TO_SOMEONE_SENIOR = rx(
    r"\b(?:up )?to (?:a |the |your |my |an? )?(?:supervisor|manager|boss|senior|someone senior"
    r"|someone higher(?: up)?|higher[- ]ups?|the next level|management)s?\b"
)


def reschedule(c: Clause) -> Intent | None:
    text = c.text
    if " to " in text and TO_SOMEONE_SENIOR.search(text):
        return None
    come_in = _COME_IN_AT.search(text) if "earlier" in text or "later" in text else None
    visit = come_in and (come_in.group("t") or come_in.group("t2"))
    if come_in and visit and find_when(come_in.group("w"), c.now) is not None:
        return _move(c, visit, _hour_offered(come_in.group("w")))
    if (
        " for " in text
        and (shifted_for := _SHIFTED_FOR.search(text)) is not None
        and appointment_context(c)
    ):
        return _move(c, shifted_for.group("t"), "")
    shifted = _BE_SHIFTED.search(c.text) or (
        _MADE_SHIFTED.search(c.text)
        if "earlier" in text or "later" in text or "sooner" in text
        else None
    )
    if shifted and appointment_context(c) and not TASK_NOUN.search(c.text):
        # "could the haircut be a bit later, say 4?": the hour offered after it, if one is
        offered = _OFFERED_AFTER.match(text[shifted.end() :])
        return _move(c, shifted.group("t"), _hour_offered(offered.group("w")) if offered else "")
    passive = _PASSIVE_MOVE.search(c.text) or _HAVE_MOVED.search(c.text) or _GO_TO.search(c.text)
    if passive and appointment_context(c) and not TASK_NOUN.search(c.text):
        return _move(c, passive.group("t"), passive.group("w") or "")
    match = _RESCHEDULE.search(c.text)
    if match is None or TASK_NOUN.search(c.text) or CONTACT_NOUN.search(c.text):
        return None
    verb = match.group("verb")
    rest = match.group("rest")
    if verb == "put" and not _BACK_OR_FORWARD.search(rest):
        put_at = find_when(rest, c.now)
        if put_at is None or put_at.day_implied or put_at.day is None:
            return None  # "put my haircut on hold": no time said, no move
        if (put := _PUT_AT.match(rest)) is not None:
            return _move(c, put.group("t"), put.group("w"))
    split = (
        _NEW_TIME.match(rest)
        or _OFFERED_TIME.match(rest)
        or _OFFERED_AS_QUESTION.match(rest)
        or _OFFERED_AS_ASK.match(rest)
    )
    if verb in (
        "change",
        "switch",
        "bring",
        "move",
        "shift",
        "bump",
        "slide",
        "delay",
        "put",
    ) and not (
        appointment_context(c)
        or _THE_NEXT_ONE.search(text)
        or (verb in ("move", "bump", "shift", "slide") and split and _a_day_named(split, c))
    ):
        # ("move groceries to thursday", "bump groceries to friday": moved to a day, as a
        # task's due day may be)
        return None
    if split:
        said = split.group("t")
        if _PRONOUN_ONLY.fullmatch(said) and (named := _named_before(c, match.start())):
            # "the wednesday appointment, move it to thursday": "it" is the visit named first
            said = named
        return _move(c, said, split.group("w"))
    if (bare := _time_after_the_visit(rest, c)) is not None:
        return _move(c, *bare)
    if (
        " it " in rest
        and (shift := _SHIFT_TAIL.search(rest)) is not None
        and _PRONOUN_ONLY.fullmatch(rest[: shift.start()])
    ):
        # "whatever I have on the 7th, push it an hour later": "it" is the visit named first
        # or before (the shift, read apart, is no words of it: "it an hour later" named
        # nothing, and it was asked which)
        return _move(c, _named_before(c, match.start()) or rest[: shift.start()], "")
    return _move(c, match.group("rest"), "")


# "…it an hour later", "…it back by two days": a shift said after the thing moved.
_SHIFT_TAIL = rx(
    r"\s(?:(?:back|forward|out|up|later|earlier)(?: by)? )?(?:a|an|one|two|three|half an?"
    r"|\d{1,2}|a couple of|a few) (?:minutes?|mins?|hours?|hrs?|days?|weeks?)"
    r"(?: (?:and a half|later|earlier|back|forward|sooner))*"
    # ("…2 days later at the same time": the hour it has, as a shift of days keeps it)
    r"(?:,? (?:at )?(?:the )?same (?:time|hour))?(?: please)?$"
)


# What may follow a new time said without "to" ("move cleaning tues 9am please").
_AFTER_THE_TIME = rx(r"^(?:[\s,.!]|please|thanks|thank you|instead|if you can|for me)*$")


def _time_after_the_visit(rest: str, c: Clause) -> tuple[str, str] | None:
    """ "move cleaning tues 9am pls", "shift my haircut saturday at 11": a day and an hour
    said right after the visit, without "to" (the visit's words, the time's words), or
    None. It was asked when, though the time was said."""
    if not any(ch.isdigit() for ch in rest) and "noon" not in rest and "o'clock" not in rest:
        return None  # nearly every move: no hour said, or said after "to"
    when = find_when(rest, c.now)
    if when is None or when.day is None or when.clock is None or not when.spans:
        return None
    start = min(span[0] for span in when.spans)
    end = max(span[1] for span in when.spans)
    visit, time_words = rest[:start].strip(" ,"), rest[start:]
    if not _AFTER_THE_TIME.match(rest[end:]) or not (
        slots.service(visit, c.original) or APPT_NOUN.search(visit)
    ):
        return None  # "move my friday haircut…": the day names the visit, no new one said
    return visit, time_words


_PRONOUN_ONLY = rx(r"\s*(?:it|that|this|that one|this one)\s*")
_BACK_OR_FORWARD = rx(r"\b(?:back|forward)\b")
# "put my haircut on thursday at 11": the visit, then where it goes.
_PUT_AT = rx(r"^\s*(?P<t>.+?)\s+(?:on|at|to|into|in(?= (?:the |next )?week\b))\s+(?P<w>.+)$")
# "move the next one to noon": the next visit (a to-do is not "the next one" moved; it was
# read as a question about the next visit, and the move was lost untold).
_THE_NEXT_ONE = rx(r"\b(?:the|my) (?:very )?(?:next|soonest) one\b")


# How a visit named before its verb opens: "the wednesday appointment, …", "whatever I
# have on the 7th, …" (named by its day, not its name).
_NAMING_STARTS = ("the ", "my ", "that ", "your ", "whatever ", "what i have ", "whichever ")


def _named_before(c: Clause, at: int) -> str | None:
    """The visit named before the verb at `at` (by its day or hour, or its service), or None."""
    before = c.text[:at].strip(" ,")
    if not before or not before.startswith(_NAMING_STARTS):
        return None
    when = find_when(before, c.now)
    if (when is not None and (when.day is not None or when.clock is not None)) or slots.service(
        before, c.original
    ):
        return before
    return None


# "…to the week after next, same day same time": the visit's own weekday in that week.
_SAME_WEEKDAY = rx(r"\bsame (?:day|weekday)\b")


def same_day_of_a_week(when: When, text: str) -> bool:
    """A week said (its Monday, `when.day`) and "same day": the visit's weekday in it."""
    return (
        when.vague_day
        and when.day is not None
        and when.day.weekday() == 0
        and "week" in text
        and _SAME_WEEKDAY.search(text) is not None
    )


def time_problem(when: When | None, c: Clause) -> str | None:
    """Why the time said cannot be booked as it stands, or None.

    A date not on the calendar, a weekday that disagrees with the date, or a moment
    already gone is asked about; it is never replaced by another day.
    """
    if when is None:
        return None
    if (when.vague_day and not same_day_of_a_week(when, c.text)) or when.day_unread:
        return "when"  # "sometime next week", "on thanksgiving": the customer's to say
    if when.no_such_date is not None:
        return "no_such_date"
    if when.weekday_conflict:
        return "weekday_conflict"
    if when.in_past(c.now, c.timezone):
        return "future"
    if when.time_unread:
        return "time"  # "at ate", "at nine fifty two": the hour said is asked again
    if when.hour_unsure:
        return "meridiem"  # "friday at 7": the morning or the evening is asked
    return None


def _part_of_day_only(when: When | None) -> str | None:
    """ "to Thursday afternoon", "a cleaning tomorrow morning": an appointment is booked
    or moved to an hour the customer says, never to one read into "afternoon" (the
    usual hour of a part of the day is a guess, and a wrong hour reaches the business)."""
    if when is not None and when.vague_time and when.day is not None:
        return "time"
    return None


def _a_day_named(split: re.Match[str], c: Clause) -> bool:
    """The new time said names a day ("…to thursday"), after words that name something."""
    when = find_when(split.group("w"), c.now)
    named = split.group("t").strip()
    return bool(
        when
        and when.day
        and not when.day_implied
        and named
        and named not in _NOTHING
        and not named.endswith(" one")  # "the car insurance one": the task rules read it
    )


def named_one_moved(c: Clause) -> Intent | None:
    """ "move the insurance one to friday", read by no rule and by nothing said before: the
    one named moved to the day said (a visit, or a to-do's due day; it was "I didn't
    catch…"). Not "the first one", "the other one": which one is the conversation's."""
    match = _RESCHEDULE.search(c.text)
    if match is None or match.group("verb") != "move":
        return None
    split = _NEW_TIME.match(match.group("rest"))
    if split is None or _ONE_NAMED.fullmatch(split.group("t").strip()) is None:
        return None
    when = find_when(split.group("w"), c.now)
    if when is None or when.day is None or when.day_implied:
        return None
    return _move(c, split.group("t"), split.group("w"))


# "the insurance one", "the car insurance one": words of a thing before "one" (not "the
# first one", "the next one", "the other one", "that one").
_ONE_NAMED = rx(
    r"(?:the|my) (?!(?:first|second|third|last|next|other|earlier|later|new|old|same|right"
    r"|wrong|previous|following|upcoming)\b)[a-z'-]+(?: [a-z'-]+)? one"
)


_NOTHING = frozenset({"it", "that", "this", "them", "things", "everything", "stuff"})


# "push the barber to 4 same day": the hour on the visit's own day, said without "the".
_SAME_DAY_BARE = rx(r"(?<!the )(?<!that )(?<!on )\bsame day\b")


def _move(c: Clause, target_words: str, time_words: str) -> Intent:
    when = find_when(time_words, c.now) if time_words else None
    if when is None and "same day" in time_words:
        time_words = _SAME_DAY_BARE.sub("on the same day", time_words)
        when = find_when(time_words, c.now)
    arguments: dict[str, Any] = {}
    problem = time_problem(when, c) or _part_of_day_only(when)
    if when is not None and when.day and when.clock and not when.day_implied and not problem:
        arguments["starts_at"] = when.iso(c.timezone)
    if when is None and _VAGUE_TIME.search(time_words or target_words):
        problem = "when"  # "to later that week", "to some other day": ask which
    missing: tuple[str, ...] = ("when",) if when is None else ((problem,) if problem else ())
    target = target_ref(target_words, c.original, c.now)
    return Intent(
        "reschedule_appointment",
        arguments,
        target=target,
        when=when,
        missing=missing,
        clause=c.text,
    )


def move_to(c: Clause, target_words: str, time_words: str) -> Intent:
    """The move of what `target_words` name to the time `time_words` say."""
    return _move(c, target_words, time_words)


_OFFER_LEAD = rx(r"^[\s,]*(?:(?:on )?(?:that|the same) day[\s,]*)?(?:say|maybe|perhaps|like)?\s*")
# ", say 4?", " like 9", ", maybe around 3": an hour offered after a visit asked earlier/later
_OFFERED_AFTER = rx(r"^[\s,]+(?P<w>(?:say|like|maybe|perhaps|ideally|around|at) .+)$")
# "9", "8:30", "4pm": an hour said bare, read as "at 9" (on the visit's own day)
_BARE_HOUR = rx(r"(?:1[0-2]|0?[1-9])(?::[0-5]\d)?(?: ?[ap]\.?m\.?)?")


def _hour_offered(words: str) -> str:
    """The time words offered ("like 9?" → "at 9"), as `_move` reads them."""
    said = _OFFER_LEAD.sub("", words.lstrip(" ,"))
    bare = said.strip(" ?.!")
    return f"at {bare}" if _BARE_HOUR.fullmatch(bare) else said


# A time that names no day: the customer must be asked, never guessed for.
_VAGUE_TIME = rx(
    r"\b(?:some ?time|sometime|some other (?:day|time)|another (?:day|time)|later (?:that|this|"
    r"in the|next) week|earlier (?:that|this|in the|next) week|(?:early|late) next week"
    r"|whenever|any ?time)\b"
)


def says_vague_time(text: str) -> bool:
    """ "later that week", "sometime next week": a time that names no day."""
    return bool(_VAGUE_TIME.search(text)) or (
        (when := find_when(text, _EPOCH)) is not None and when.vague_day
    )


_EPOCH = datetime(2000, 1, 3, 12, tzinfo=UTC)  # any moment: only the words are read


# "but the cleaning can go", "the friday one can be scrapped": a visit let go, said of it.
_CAN_GO = rx(
    r"^(?:(?:but|and|so|oh|also|well|then)[ ,]+)*(?P<t>(?:my|the|that|this|our|[a-z]+day's)\b.+?)"
    r" can (?:go|be (?:cancell?ed|scrapped|dropped|binned))(?: now| too| as well| then)?$"
)


# "I don't want the cleaning anymore", "we no longer need my haircut": a visit let go, said
# as no longer wanted (read as a "don't", it asked nothing). A yes is asked as for every
# cancel; "I don't want the cleaning moved" is no such thing (nothing may follow the visit
# but "anymore", "after all"…).
NO_LONGER_WANTED = rx(
    r"^(?:(?:so|well|actually|and|oh|um|uh|yeah|but|i think|honestly)[ ,]+)*(?:i|we)"
    r" (?:(?:really|actually|just|probably) )?(?:(?:don't|do not|won't|will not) (?:want|need)"
    r"(?P<t>(?: (?:my|the|that|this|our) [a-z0-9' -]+?)) (?:anymore|any more|any longer|after all)"
    r"|no longer (?:want|need)(?P<t2>(?: (?:my|the|that|this|our) [a-z0-9' -]+?)))"
    r"(?: (?:anymore|any more|any longer|after all|thanks|thank you|please))*[.!]?$"
    # "the eye exam is no longer needed", "my cleaning isn't needed anymore"
    r"|^(?:(?:so|well|actually|and|oh|um|uh|yeah|but|i think|honestly)[ ,]+)*"
    r"(?P<t3>(?:my|the|that|this|our) [a-z0-9' -]+?) (?:is no longer|isn't|is not) (?:needed"
    r"|wanted|necessary)(?: (?:anymore|any more|any longer|after all|thanks|please))*[.!]?$"
)


def cancel(c: Clause) -> Intent | None:
    if (passive := _HAVE_CANCELLED.search(c.text)) and not QUESTION_START.search(c.text):
        rest = passive.group("t") or passive.group("c")
        if not TASK_NOUN.search(rest):
            return Intent(
                "cancel_appointment", target=target_ref(rest, c.original, c.now), clause=c.text
            )
    if (
        (let_go := _CAN_GO.search(c.text))
        and appointment_context(c)
        and not TASK_NOUN.search(c.text)
    ):
        rest = let_go.group("t")
        return Intent(
            "cancel_appointment", target=target_ref(rest, c.original, c.now), clause=c.text
        )
    if (
        ("longer" in c.text or "more" in c.text or "after all" in c.text)
        and (unwanted := NO_LONGER_WANTED.search(c.text))
        and appointment_context(c)
        and not TASK_NOUN.search(c.text)
    ):
        rest = (unwanted.group("t") or unwanted.group("t2") or unwanted.group("t3")).strip()
        return Intent(
            "cancel_appointment", target=target_ref(rest, c.original, c.now), clause=c.text
        )
    match = _CANCEL.search(c.text)
    if match is None:
        return None
    rest = match.group("rest")
    if not _MEANINGFUL.sub("", rest).strip():
        return _cancel_what_was_said(c, c.text[: match.start()])
    if TASK_NOUN.search(rest):
        target = target_ref(LIST_TAIL.sub("", rest), c.original)
        return Intent("delete_task", target=target, clause=c.text)
    return Intent("cancel_appointment", target=target_ref(rest, c.original, c.now), clause=c.text)


# "…please", "…it for me": words after a bare "cancel" that name nothing.
_MEANINGFUL = rx(r"\b(?:it|that|this|them|please|for me|thanks|thank you|then)\b|[\s,.!?]+")
_LEAD_IN = rx(r"[\s,]*(?:please|so|can you|could you|just|and)?[\s,]*$")


def _cancel_what_was_said(c: Clause, before: str) -> Intent | None:
    """ "I'll not be needing the haircut on friday, please cancel": the words before say which."""
    before = _LEAD_IN.sub("", before)
    if not before or not appointment_context(Clause(before, c.norm, c.now, c.timezone)):
        return None
    target = target_ref(before, c.original, c.now)
    # Only the service and the day describe it ("I'll not be needing" does not).
    words = tuple(w for w in target.words if slots.service(w, w))
    return Intent(
        "cancel_appointment",
        target=dataclasses.replace(target, words=words),
        clause=c.text,
    )


_BOOK = rx(
    r"\b(?:book|reserve|schedule|arrange|set up|make|sign me up|fit me in|squeeze me in"
    # ("get me in", "get me a haircut"; "get me my balance" asks to be told)
    r"|get me(?! (?:my|the|your|our)\b)|pencil me in)\b"
    # "put me in for…", "put my annual checkup in for the 1st": a booking said the British way
    r"|\bput (?:me|us|my \w+(?: \w+)?|a \w+(?: \w+)?|an \w+(?: \w+)?) (?:in|down) for\b"
)
_SCHEDULE_NOUN = rx(r"\b(?:my|the|your|on) schedule\b")
_WEAK_BOOK_VERB = rx(r"\b(?:make|set up|arrange)\b")
# "make an appointment", not "I can't make my appointment".
_WEAK_BOOK_OBJECT = rx(r"\b(?:make|set up|arrange)(?: me)? (?:a|an|another|one|new)\b")
# "is there any chance of an eye exam on…", "is there any way to get a checkup…": asked for
# as a booking (a day and an hour said), not a question about the visits on file.
_CHANCE_OF = rx(
    r"^(?:is there|would there be|could there be) (?:any |a )?(?:chance|way|possibility)"
    r" (?:of|for|to get|i could get|i can get|of getting|you could fit in) (?:me )?(?:a|an)\b"
)
_SOFT_BOOK = rx(
    r"\b(?:can i get|could i get|can i have|could i have|i'd like|i would like|i want|i need"
    r"|get|come in|see)\b"
)


# "my haircut on Friday doesn't work": an appointment that exists, not a new booking.
_EXISTING = rx(
    r"\b(?:my|the|our) (?:\w+ )?(?:haircut|cleaning|checkup|consultation|exam|massage|therapy"
    r"|appointment|visit|session)\b(?! (?:appointment|visit|session))"
    r"|\b(?:doesn't|does not|won't|can't|cannot|couldn't|not|never|unable to)(?: \w+){0,3}"
    r" (?:work|make it|suit|attend|come in|be there)\b"
)
# "and my dentist is still wednesday at 10?": a visit on file named by who sees you (apart:
# with the words above, too many for the quick look that skips most texts).
_MY_DENTIST = rx(r"\b(?:my|the|our) (?:dentist|physio)\b(?! (?:appointment|visit|session))")
# "so I've got two haircuts on sunday now?": ones already booked, not a booking.
_HAVE_ONE = rx(
    r"(?<!can )(?<!could )(?<!may )(?<!might )(?<!would )(?<!should )(?<!to )"
    r"\b(?:i've got|i have got|i've|i have|have i got|do i have|i've now got|i now have)"
    r"(?: (?:two|2|three|3|both|a|an|any|my|the|more|another|one|now))?"
    r" (?:\w+ )?(?:haircut|cleaning|checkup|consultation|exam|massage|therapy|physio"
    r"|appointment|visit|session)s?\b"
)
_INSTEAD = rx(r"\b(?:instead|rather)\b")
# "book me a new haircut … instead", "schedule me a new one…", "set up another…": another
# booking, not a move (said with "schedule", it MOVED the haircut).
_NEW_BOOKING = rx(
    # (not "get" nor "make": "can I get a haircut on saturday instead" may be the move)
    r"\b(?:book|schedule|set up|arrange|pencil in|reserve|line up|put (?:me |us )?down for)"
    r" (?:me |us )?(?:in )?(?:for )?(?:a new|another|a second|a|an)\b"
)
_INSTEAD_OF = rx(
    r"\binstead of (?P<t>.+?)(?=,| (?:can|could|would|please|let's|make|move|do|how about"
    r"|put|book)\b|$)"
)


# "my 2:30 on sunday, can that be 4 instead", "could the 10 o'clock on wednesday be on
# thursday instead": what is said before the "be" names the visit, what follows, the time.
_VISIT_THEN_NEW = rx(
    r"^(?:(?:can|could|would|will) )?(?P<t>.+?)(?:,\s*|\s+)(?:(?:can|could|would|will|should) )?"
    r"(?:(?:it|that|this|that one|this one) )?(?:be|go|move|start)\b(?P<w>.+)$"
)

# "…can that be 4 instead": a bare number after the "be" is the hour.
_BARE_HOUR = rx(r"^\s*(\d{1,2}(?::\d\d)?)\b(?!:)(?= |$|,|\?)")


def instead(c: Clause) -> Intent | None:
    """ "Instead of Friday, can my haircut be on Saturday?", "…can we do Saturday instead?"."""
    if not _INSTEAD.search(c.text) or TASK_NOUN.search(c.text) or _NEW_BOOKING.search(c.text):
        return None
    text, target_words = c.text, ""
    if match := _INSTEAD_OF.search(text):
        target_words = match.group("t")
        text = text[: match.start()] + text[match.end() :]
    elif (said := _VISIT_THEN_NEW.search(text)) and find_when(said.group("t"), c.now):
        # "my 10am on wednesday, could it be 11 instead": the hour and day said first name
        # the visit; the time said after its "be" is the new one.
        target_words, text = said.group("t"), _BARE_HOUR.sub(r"at \1", said.group("w"), count=1)
    elif _VISIT_MADE.search(text) is not None and (made := made_it(c)) is not None:
        return made  # "my sunday 2:30 one, can you make it 4 instead": named, then "make it"
    when = find_when(text, c.now)
    if when is None:
        return None
    service = slots.service(c.text, c.original)
    if service:
        target_words = f"{target_words} {service.lower()}"
    # Words other than the service and the day ("can we do") do not describe the target.
    target = target_ref(target_words, c.original, c.now)
    arguments: dict[str, Any] = {}
    problem = time_problem(when, c) or _part_of_day_only(when)
    if when.day and when.clock and not when.day_implied and not problem:
        arguments["starts_at"] = when.iso(c.timezone)
    return Intent(
        "reschedule_appointment",
        arguments,
        target=target,
        when=when,
        missing=(problem,) if problem else (),
        clause=c.text,
    )


# "the 2:30 one on sunday, make it 4pm please": a visit named by its day and hour (or its
# service), then a new time for it, said with "make it".
_VISIT_MADE = rx(
    r"^(?P<t>(?:(?:ok|okay|so|and|um|uh|well|oh|right)[ ,]+)*(?:my|the|that|this|our"
    r"|[a-z]+day's|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b.+?),?\s+"
    r"(?:(?:can|could|would|will) you |please |just |and |so )*"
    r"(?:make|have|put|set) (?:it|that|this|that one|this one) (?:for |at |on |to )?(?P<w>.+)$"
)


# "my haircut clashes with work, could it be the 4th of next month at 5pm": a visit named,
# then a new day (and hour) asked for it with "could it be".
_COULD_IT_BE = rx(
    r"^(?:(?:so|and|but|then|well|oh)[ ,]+)*(?:can|could) (?P<t>it|that"
    r"|this|that one|this one|(?:my|the) [a-z]+(?: [a-z]+)?) (?:be|go|happen) (?!done\b)"
    r"(?:on |at |for |to |moved to |changed to )?(?P<w>.+)$"
)


def could_it_be(c: Clause) -> Intent | None:
    """ "…, could it be the 4th of next month at 5pm?": a move of the visit named, to a
    day said (an hour alone, or no day read, is no new time asked for). "It" is a visit
    named before it in the message ("would that be friday?" asks, and is not this)."""
    if not c.text.startswith(("can", "could", "so", "and", "but", "then", "well", "oh")):
        return None
    said = _COULD_IT_BE.search(c.text)
    if said is None or TASK_NOUN.search(c.text):
        return None
    target = said.group("t")
    if _PRONOUN_ONLY.fullmatch(target):
        whole = c.norm.text
        before = whole[: whole.find(c.text)] if c.text in whole else ""
        if not before.strip() or not appointment_context(Clause(before, c.norm, c.now, c.timezone)):
            return None
    elif not appointment_context(c):
        return None
    when = find_when(said.group("w"), c.now)
    if when is None or when.vague_day:
        return None
    on_its_day = when.day is None and when.clock is not None and _SAME_DAY.search(said.group("w"))
    if not on_its_day and (when.day is None or when.day_implied):
        return None
    return _move(c, target, said.group("w"))


# "…, could it be the same day at half five": the hour changes, on the visit's own day.
_SAME_DAY = rx(r"\b(?:the|that) same day\b|\bthat day\b")


def made_it(c: Clause) -> Intent | None:
    """ "my sunday 2:30, make it 4pm please": a move of the visit named before "make it"."""
    said = _VISIT_MADE.search(c.text)
    if said is None or TASK_NOUN.search(c.text):
        return None
    visit = find_when(said.group("t"), c.now)
    named = (visit is not None and visit.clock is not None) or slots.service(
        said.group("t"), c.original
    )
    wanted = said.group("w")
    if find_when(wanted, c.now) is None:
        # "…, can you make it 4 instead": a bare number is the hour
        wanted = _BARE_HOUR.sub(r"at \1", wanted, count=1)
    if not named:
        return None
    if find_when(wanted, c.now) is None and (
        # "the cleaning on monday, make it 2 days later (at the same time)": a shift
        ("later" not in wanted and "earlier" not in wanted) or find_shift(wanted) is None
    ):
        return None
    return _move(c, said.group("t"), wanted)


# "I paid the dental bill this morning": the visit's bill, not a visit to book.
_MONEY = rx(r"\b(?:bills?|invoices?|charges?|payments?|balance|receipts?|paid)\b")


# "every monday", "weekly", "a standing haircut every four weeks": a series is asked
# about (the tools book one visit), never booked as its first one unasked.
_REPEATING = rx(
    r"\b(?:every|each) (?:other |single )?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|week"
    r"|fortnight|month|morning|afternoon|evening|(?:\d{1,2}|two|three|four|five|six|eight)"
    r" (?:weeks|months))\b|\b(?:weekly|fortnightly|monthly|recurring|repeating|standing)\b"
    r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days at\b"
)


def book(c: Clause) -> Intent | None:
    text = c.text
    strong = _BOOK.search(text)
    if strong and _SCHEDULE_NOUN.search(text) and "schedule" in strong.group(0):
        strong = None
    service = slots.service(text, c.original)
    if strong is None and service is None:
        return None  # neither a booking verb nor a service: no need to read dates
    has_noun = bool(APPT_NOUN.search(text))
    if (
        strong
        and _WEAK_BOOK_VERB.fullmatch(strong.group(0))
        and not ((service or has_noun) and _WEAK_BOOK_OBJECT.search(text))
    ):
        strong = None
    question = QUESTION_START.search(text)
    if question and service and _CHANCE_OF.match(text) and find_when(text, c.now) is not None:
        question = None  # "is there any chance of an eye exam on sunday the 10th at 11"
    # Without a booking verb, only a service said as a new booking (no question, no
    # existing visit, no bill) books; the day is read once that holds.
    if strong is None and (
        question
        or service is None
        or _EXISTING.search(text)
        or _MY_DENTIST.search(text)
        or _HAVE_ONE.search(text)
        or _MONEY.search(text)
    ):
        return None
    when = find_when(text, c.now)
    if strong is None and not _SOFT_BOOK.search(text) and when is None:
        return None
    arguments: dict[str, Any] = {}
    missing: list[str] = []
    if service:
        arguments["service"] = service
        if service not in slots.OFFERED or slots.service_said_apart(text):
            # "book a knee surgery", "book a dental surgery": not on offer, and never
            # booked as the offered one it shares a word with. Asked first.
            missing.append("offered")
    else:
        missing.append("service")
    moment = when.moment(c.timezone) if when is not None else None
    problem = time_problem(when, c) or _part_of_day_only(when)
    if _REPEATING.search(text):
        missing.append("repeat")  # one booking is made at a time: which one is asked
    elif problem is not None:
        missing.append(problem)
    elif when is None or when.day is None:
        missing.append("when")
    elif moment is None:
        missing.append("time")
    elif moment <= c.now:
        missing.append("future")
    else:
        arguments["starts_at"] = moment.isoformat()
    return Intent("book_appointment", arguments, when=when, missing=tuple(missing), clause=text)
