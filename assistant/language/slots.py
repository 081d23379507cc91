"""Slot values inside one clause: emails, phones, priorities, services, titles, tickets.

Every extractor reads the normalized clause (lower case) and, where the customer's own
words end up in the CRM (a task title, a ticket body), gives them back as typed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import lru_cache

from assistant.language.dates import When, find_when
from assistant.language.lexicon import MONTHS, SERVICES, WEEKDAYS
from assistant.language.patterns import GatedPattern, rx
from assistant.language.shifts import relative_day
from assistant.language.spelling import words
from assistant.language.text import EMAIL_TOKEN, PHONE_TOKEN, Normalized, restore_case
from assistant.language.verbs import base_form

Priority = str  # "low" | "normal" | "high"

_EMAIL_REF = rx(rf"\b{EMAIL_TOKEN}(\d+)\b")
_PHONE_REF = rx(rf"\b{PHONE_TOKEN}(\d+)\b")
_PRIORITY_WORDS = {
    "high": "high",
    "top": "high",
    "urgent": "high",
    "important": "high",
    "highest": "high",
    "critical": "high",
    "low": "low",
    "lowest": "low",
    "normal": "normal",
    "medium": "normal",
    "regular": "normal",
    "standard": "normal",
}
_PRIORITY = rx(
    r"(?:,\s*|\s)?\b(?:(?:with |at |as |a |an )*)"
    r"(high|top|urgent|important|highest|critical|low|lowest|normal|medium|regular|standard)"
    r"[- ]priority\b|\b(urgent|urgently|important|not (?:that |so |very |really |too |super )?"
    r"(?:urgent|important)|less (?:urgent|important)"
    r"|no rush(?: (?:on|with|for) (?:that|this|it|them)(?: one)?)?|whenever"
    # "it's not a big deal", "no big deal": said of how much it matters, low
    r"|(?:not|no) (?:a |that |that much of a |such a |really a |too )?big (?:of )?(?:a )?deal"
    # "…, it can wait": low (not "it can wait till friday", a day)
    r"|(?:it|that|this|they) can wait(?! (?:till|until|til|to|for|a|an|\d))"
    r")\b"
)
# "pick up the dry cleaning", "the house cleaning": a chore, not the dental cleaning.
NOT_DENTAL = r"(?<!dry )(?<!house )(?<!window )(?<!carpet )(?<!spring )(?<!office )"
_SERVICE = rx(
    rf"\b{NOT_DENTAL}("
    + "|".join(re.escape(k) for k in sorted(SERVICES, key=len, reverse=True))
    + r")\b"
)
_GENERIC_SERVICE = rx(
    r"\b(?:book|schedule|reserve|arrange|set up|make|get)(?: me)?(?: in)?(?: for)?"
    r" (?:a |an |another |my |one )?"
    # "book one for friday": a service never begins with the words that lead to a time.
    # Nor with the one it is for: "book me in at 11" books no service called "Me". Nor with
    # "the" or "same": "book me the usual", "the same as before" point back at a visit,
    # they name no service (which one is asked, never "a the usual" refused).
    r"(?!(?:for|on|at|next|this|tomorrow|today|in|with|please|it|that|them|me|us|him|her"
    r"|myself|someone|somebody|something|there|here|home|back|going|started|ready|to"
    r"|the|same|usual)\b)"
    r"(?P<svc>[a-z][a-z' -]*?)"
    r"(?: appointment| session| visit| slot| booking)?"
    r"(?= (?:for|on|at|next|this|tomorrow|today|in|with|please)\b|[,.?!]|$)"
)
# "get" with no article before a word: becoming something ("get annoyed", "get worried").
_BECOME = rx(r"^get (?!me |a |an |another |my |one )")
_NOT_A_SERVICE = frozenset(
    {
        "appointment",
        "appointments",
        "time",
        "slot",
        "visit",
        "session",
        "booking",
        "one",
        "",
        "next",
        "next appointment",
        "upcoming",
        "new",
        "another",
    }
)
# "could I get my balance": the words name something else the assistant looks up ("I want
# to make a change", "some changes to my booking": an edit asked of something, no visit).
_OTHER_DOMAIN = rx(
    r"\b(?:changes?|corrections?|edits?|amendments?"
    r"|balance|bills?|invoices?|statement|tasks?|to-dos?|reminders?|tickets?|cases?"
    r"|account|profile|details|email|phone|number|list|info|information|summary)\b"
)
# Words linking a date to what came before it ("renew my insurance by Friday", "… by the
# end of the month").
_DATE_LEAD = rx(
    r"(?:(?:^|[,\s]+)(?:by|on|before|for|due|due on|due by|until|till|at|this|next|in|from"
    r"|starting)(?: the)?)*"
    r"[,\s]*$"
)
_POLITE_TAIL = rx(
    r"[\s,.!]*(?:please|thanks(?: so much| a lot| very much)?|thank you(?: so much| very much)?"
    r"|thx|cheers|much appreciated|for me|ok|okay|if you can|if possible"
    # A laugh typed after it ("floss lol"): said of the to-do, no part of it.
    r"|lol|haha+|hehe|lmao)?[\s,.!?]*$"
)
_POLITE_HEAD = rx(r"^(?:to|that|about|i need to|i have to|i should|i must|please)\s+")


@dataclass(frozen=True, slots=True)
class Contact:
    email: str | None
    phone: str | None
    # A number was said but cannot be made into E.164: "short" (too few digits for any
    # number: the area code left out), "long" (+1 and more than ten digits) or "country"
    # (no country known: "0612 345 678").
    bad_phone: str | None = None
    # A detail was said only as the one being replaced ("my old number was…", "change it
    # from…"), no new one: "email" or "phone", the new one still to be asked.
    only_old: str | None = None


_UK_NATIONAL = rx(r"0[1237]\d{9}")


# "+44 (0) 20 7946 0958": the 0 in brackets is dialled only from inside the country.
_TRUNK_ZERO = rx(r"\(\s*0\s*\)")
# Dialled from abroad: "00 44 20 7946 0958" (most of the world), "011 44 …" (from North
# America), with nine digits or more after: the number's country code and the number.
_EXIT_CODE = rx(r"(?:00|011)(?=[1-9]\d{8,})")


def e164(raw: str) -> str | None:
    """ "+1 415 555 0199", "415-555-0199" (10 digits: +1 assumed) → "+14155550199"."""
    if raw.strip().startswith("+"):
        raw = _TRUNK_ZERO.sub("", raw)
    digits = re.sub(r"\D", "", raw)
    if not raw.strip().startswith("+") and (exit_code := _EXIT_CODE.match(digits)):
        raw, digits = "+" + digits[exit_code.end() :], digits[exit_code.end() :]
    if raw.strip().startswith("+"):
        if digits.startswith("1") and (len(digits) != 11 or digits[1] in "01"):
            # +1 is followed by ten digits, whose area code never begins with 0 or 1:
            # "+1 415 555 01 43 22" is no number (it was asked as +1415555014322).
            return None
        number = "+" + digits
    elif len(digits) == 10 and digits[0] not in "01":
        # A North American number: its area code never begins with 0 or 1.
        number = "+1" + digits
    elif len(digits) == 11 and digits.startswith("1") and digits[1] not in "01":
        number = "+" + digits
    elif _UK_NATIONAL.fullmatch(digits):
        # "07700 900123", "020 7946 0958": a UK number said the UK way. The change is
        # confirmed with the country named (assistant.confirmation), never silently.
        number = "+44" + digits[1:]
    else:
        return None  # no country known ("0612 345 678"): the number is asked again
    return number if re.fullmatch(r"\+[1-9]\d{6,14}", number) else None


def _why_not_a_number(raw: str) -> str:
    digits = re.sub(r"\D", "", raw)
    if not raw.strip().startswith(("+", "0")) and len(digits) < 10:
        return "short"  # "555 0199": no number anywhere is dialled that short
    if raw.strip().startswith("+") and digits.startswith("1"):
        # "+1 …": a US or Canadian number, of more or fewer digits than its ten
        return "long" if len(digits) > 11 else "short"
    return "country"


# The words just before a detail that make it the one being replaced, not the new one:
# "change my number from X to Y", "replace X with Y", "my old email was X", "Y, not X".
# ("that's an old one use X", said without a pause: the word asking for X ends the old one.)
_SAID_AS_OLD = rx(
    r"(?:\bfrom|\breplace|\binstead of|\brather than|\bnot|\bused to be|\bwas"
    r"|\b(?:old|previous|former) (?:(?!(?:use|using|try|put|make|take|go|switch|change|its"
    r"|now|should|please)\b)\w+ ){0,2}(?:is|of)?)[\s,:]*$"
)

# A detail followed by "to" and another of its kind is the one changed from: "change X to
# Y", "swap X for Y" (the customer names the old one first, even a value no longer on file).
_TO_ANOTHER = {
    token: re.compile(rf"[\s,]*(?:to|for|with|into)\s+{token}\d+\b")
    for token in (EMAIL_TOKEN, PHONE_TOKEN)
}


# The words just after a detail that make it the one being replaced: "my number isn't
# X anymore", "X no longer works", "X is out of date" (it was asked as the new one).
_SAID_AS_OLD_AFTER = rx(
    r"^\W*(?:any ?more|no longer|is (?:old|wrong|out of date|no longer|not (?:mine|right|"
    r"current|in use|working))|(?:is|has been) (?:disconnected|cancell?ed|closed|dead)"
    r"|doesn't work|does not work|isn't (?:mine|right|current|in use|working))\b"
)
# "…isn't X", "…no longer X": said before it, as "not" is.
_NOT_BEFORE = rx(r"(?:n't|\bno longer)[\s,:]*$")


def _new_one(reference: GatedPattern, clause: str, count: int) -> tuple[int | None, bool]:
    """Which of the details said is the new one (its index), and whether one said was an
    old one: the first not said as being replaced."""
    old = False
    for match in reference.finditer(clause):
        index = int(match.group(1))
        if index >= count:
            continue  # a clause read again on its own has lost its addresses
        before = clause[max(0, match.start() - 40) : match.start()]
        if (
            _SAID_AS_OLD.search(before)
            or _NOT_BEFORE.search(before)
            or _SAID_AS_OLD_AFTER.search(clause[match.end() : match.end() + 40])
        ):
            old = True
            continue
        token = EMAIL_TOKEN if match.group(0).startswith(EMAIL_TOKEN) else PHONE_TOKEN
        if _TO_ANOTHER[token].match(clause, match.end()):
            old = True  # "change X to Y": X is the one being replaced
            continue
        return index, old
    return None, old


# "415 555 0177 ext 3", "… extension 12", "… x3": an extension said after a number.
_EXTENSION = rx(
    r"\d[\s).-]*(?:,\s*)?(?:\b(?:ext|extn|extension)\b\.?|\bx)\s*(?P<n>\d{1,6})\b|\dx(?P<m>\d{1,6})\b"
)


def extension_said(text: str) -> str | None:
    """The extension said after a phone number, if any (a cheap test first: "x" and
    "ext" are in few messages as words)."""
    said = text.lower()
    if "x" not in said:
        return None
    found = _EXTENSION.search(said)
    return None if found is None else found.group("n") or found.group("m")


def contact(clause: str, norm: Normalized) -> Contact:
    """The new email address and phone number this clause holds, if any."""
    email = phone = bad = None
    email_at, old_email = _new_one(_EMAIL_REF, clause, len(norm.emails))
    if email_at is not None:
        email = norm.emails[email_at].lower()
    phone_at, old_phone = _new_one(_PHONE_REF, clause, len(norm.phones))
    if phone_at is not None:
        raw = norm.phones[phone_at]
        phone = e164(raw)
        bad = None if phone is not None else _why_not_a_number(raw)
    only_old = None
    if not (email or phone or bad) and (old_email or old_phone):
        only_old = "phone" if old_phone else "email"
    return Contact(email=email, phone=phone, bad_phone=bad, only_old=only_old)


# Said of a to-do's priority, low: "whenever", "it can wait".
_LOW_SAID = frozenset(
    {"whenever", "it can wait", "that can wait", "this can wait", "they can wait"}
)


def priority(clause: str) -> tuple[Priority | None, tuple[int, int] | None]:
    """The priority said in a clause ("high priority", "urgent") and where it was said."""
    match = _PRIORITY.search(clause)
    if not match:
        return None, None
    word = match.group(1) or match.group(2)
    if word.startswith(("not ", "no rush", "no big", "less ")) or word in _LOW_SAID:
        # "not urgent", "it's not that urgent", "make it less urgent" (read as urgent:
        # high, as it was): said against a high priority
        return "low", match.span()
    if word == "urgently":
        return "high", match.span()
    return _PRIORITY_WORDS[word], match.span()


@lru_cache(maxsize=1024)
def service(clause: str, original: str) -> str | None:
    """What an appointment is for: a known service, or the words after "book a…".

    Kept per text: the planner's rounds and the narrator ask it of the same clauses."""
    if match := _SERVICE.search(clause):
        if _AFTER_A_VISIT_OF_HERS.search(clause, 0, match.start()):
            # "book whatever slot is free after my cleaning for a massage": the visit named
            # after "after my" is when, the other one named is what is booked (the
            # cleaning's own hour was asked)
            other = next(
                (
                    later
                    for later in _SERVICE.finditer(clause, match.end())
                    if not _AFTER_A_VISIT_OF_HERS.search(clause, 0, later.start())
                ),
                None,
            )
            match = other or match
        return SERVICES[match.group(1)]
    if match := _GENERIC_SERVICE.search(clause):
        words = match.group("svc").strip(" -'")
        if words.endswith("ed") and _BECOME.match(match.group(0)):
            return None  # "I'm starting to get annoyed": a state, no service to book
        if (
            words not in _NOT_A_SERVICE
            and len(words.split()) <= 4
            and not _OTHER_DOMAIN.search(words)
        ):
            return _sentence_case(restore_case(words, original))
    return None


_AFTER_A_VISIT_OF_HERS = rx(r"\b(?:after|before) (?:my|the) (?:[a-z]+ )?$")


#: The services offered: what the lexicon's words name. A service outside them is not booked.
OFFERED = frozenset(SERVICES.values())
# A word of a service that also starts a longer name of it ("dental" of "dental cleaning"):
# said before another noun, it is that noun's kind, not the service ("dental surgery").
_MODIFIERS = tuple(
    key
    for key, name in SERVICES.items()
    if " " not in key and any(k.startswith(f"{key} ") and n == name for k, n in SERVICES.items())
)
_MODIFIER_THEN = rx(rf"\b{NOT_DENTAL}({'|'.join(_MODIFIERS)})[ -](?P<next>[a-z]+(?:-[a-z]+)?)\b")
# What may follow such a word without naming another service: the visit itself, its bill,
# its place, a day or a linking word ("the dental one", "dental bill", "dental on friday").
_STILL_THE_SERVICE = (
    words(
        """
    appointment appointments apointment visit visits session sessions booking bookings slot
    one ones thing things stuff bill bills invoice invoices charge charges office clinic
    place practice people team work forms form again too also and but for from the that
    this then with was were will would can could should please thanks not now next
    tomorrow today tonight morning afternoon evening week weekend month
    """
    )
    | frozenset(WEEKDAYS)
    | frozenset(MONTHS)
    | frozenset(  # words of its own names ("dental cleaning"); another's ("dental x-ray") are apart
        word
        for key in SERVICES
        if SERVICES[key] in {SERVICES[m] for m in _MODIFIERS}
        for word in key.replace("-", " ").split()
    )
)


def service_said_apart(clause: str) -> tuple[str, str] | None:
    """A service named with a word of one on offer before a noun of its own: ("dental
    surgery", "Dental cleaning"), or a one-word service after a word of its own kind
    ("deep cleaning", "beard trim"). It names neither that service nor another offered
    one, so what was meant is asked, never the near one picked."""
    if _MODIFIERS and (match := _MODIFIER_THEN.search(clause)) is not None:
        following = match.group("next")
        if following not in _STILL_THE_SERVICE and (len(following) >= 3 or following in SERVICES):
            return f"{match.group(1)} {match.group('next')}", SERVICES[match.group(1)]
    return _kind_before_service(clause)


# A one-word service ("cleaning", "trim") is the head of a name: said after a word that is
# neither a word of its own longer names ("teeth cleaning") nor an ordinary one around a
# visit ("my usual cleaning", "friday's trim", "book a cleaning"), that word makes it
# another service ("deep cleaning", "beard trim"), not the one on offer.
_HEADS = tuple(key for key in SERVICES if key.isalpha() and key not in _MODIFIERS)
_HEAD = rx(rf"\b{NOT_DENTAL}({'|'.join(_HEADS)})\b")
_WORD_BEFORE = rx(r"([a-z][a-z'-]*)\s+$")
_AROUND_A_VISIT = (
    _STILL_THE_SERVICE
    | words(
        """
    a an my our your his her their its these those another other same any some no each
    every both either one first second third last next usual regular routine normal
    standard quick little short small basic full yearly annual monthly upcoming scheduled
    booked planned old new current earlier later original real actual proper whole entire
    just only even still also then so is are was be been get got want need needs have has
    had book schedule cancel move reschedule push shift change bring set arrange reserve
    make makes keep confirm check when what which where about of to at on in by before
    after as or if is i me you we it usual quickie nice good simple professional proper
    early late do did does go going come coming due like love fancy wanted needed getting
    booking having doing would could should can will may might must i'd i'll i'm i've id
    im ive we'd we'll let's lets please thanks also with from for two three four both
    several many more sooner standing recurring weekly
    """
    )
    | frozenset(WEEKDAYS)
    | frozenset(MONTHS)
    | frozenset(word for key in SERVICES for word in key.replace("-", " ").split())
)


def _kind_before_service(clause: str) -> tuple[str, str] | None:
    for match in _HEAD.finditer(clause):
        before = _WORD_BEFORE.search(clause, 0, match.start())
        if before is None:
            continue
        word = before.group(1)
        if word in _AROUND_A_VISIT or word.endswith("'s") or len(word) < 3:
            continue
        return f"{word} {match.group(1)}", SERVICES[match.group(1)]
    return None


# A task keeps a day, not a time ("call the bank at quarter to nine on thursday"): the time
# said goes in its note, in these words, and the answer says so.
_TIME_NOTE = "Time said: "


def time_note(when: When) -> str:
    """ "Time said: 8:45 AM", "5 PM" ("7" when the half of the day was not said; "the
    morning" when only that was)."""
    assert when.clock is not None
    hour = when.clock.hour
    if when.vague_time:
        part = "morning" if hour < 12 else "afternoon" if hour < 17 else "evening"
        return f"{_TIME_NOTE}the {part}"
    clock = when.clock.strftime("%-I:%M").removesuffix(":00")
    return _TIME_NOTE + (clock if when.hour_unsure else f"{clock} {'AM' if hour < 12 else 'PM'}")


_REMINDER_NOTE = "Remind me on: "


def reminder_note(day: str) -> str:
    """A task's note keeping the day the customer asked to be reminded (ISO `day`), when
    it is due another day."""
    return f"{_REMINDER_NOTE}{day}"


def noted_reminder(description: object) -> date | None:
    """The day a task's note says to remind the customer, or None."""
    if isinstance(description, str) and description.startswith(_REMINDER_NOTE):
        try:
            return date.fromisoformat(description.removeprefix(_REMINDER_NOTE)[:10])
        except ValueError:
            return None
    return None


def noted_time(description: object) -> str | None:
    """The time a task's note keeps (see `time_note`, its last line), or None."""
    if isinstance(description, str):
        last = description.rpartition("\n")[2]
        if last.startswith(_TIME_NOTE):
            return last.removeprefix(_TIME_NOTE)
    return None


def note_kept_with(earlier: object, note: str) -> str:
    """The note of a task moved to a day and an hour: its earlier words kept, a time said
    before replaced by the one said now (`note`, from `time_note`)."""
    if not isinstance(earlier, str) or not earlier.strip():
        return note
    kept = [line for line in earlier.split("\n") if not line.startswith(_TIME_NOTE)]
    return "\n".join([*kept, note])[-2000:]


def services_named(clause: str) -> frozenset[str]:
    """Every known service the clause names ("my dental cleaning and my haircut")."""
    return frozenset(SERVICES[match.group(1)] for match in _SERVICE.finditer(clause))


def _imperative(title: str) -> str:
    """ "sending the tax documents" → "send the tax documents" (a task reads as a to-do),
    but "wrapping paper", "running shoes" as said: a word in -ing before a bare noun and
    nothing more names a thing, not a thing to do."""
    first, _, rest = title.partition(" ")
    if len(first) > 5 and first.lower().endswith("ing") and rest:
        if " " not in rest and rest.lower() not in _AFTER_A_VERB and rest.islower():
            return title
        return f"{base_form(first)} {rest}"
    return title


# What follows a verb, not a noun it qualifies: "calling mom", "picking it up".
_AFTER_A_VERB = frozenset(
    [
        "it",
        "them",
        "him",
        "her",
        "me",
        "us",
        "up",
        "out",
        "off",
        "in",
        "back",
        "down",
        "over",
        "around",
        "mom",
        "dad",
        "home",
        "everything",
        "something",
        "anything",
    ]
)


def _sentence_case(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] if text else text


def cut_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` without the given spans, dropping the little words that led into a date.

    Spans that overlap ("tomorrow" within "tomorrow morning", read as the day and as the
    part of the day) are cut once, as one: cut apart, the second cut words after them
    ("to take the bins out" lost "to take")."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and (
            start < merged[-1][1] or re.fullmatch(r"\s+of\s+", text[merged[-1][1] : start])
        ):
            # ("the morning of march 6": one when, the "of" between cut with it; it was
            # left in the title, "Buy shampoo of")
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    for start, end in reversed(merged):
        head = _DATE_LEAD.sub("", text[:start])
        if re.match(r"(?:morning|afternoon|evening|night)\b", text[start:end]):
            head = re.sub(r"\s+the\s*$", "", head)  # "…the morning of march 6"
        text = head + " " + text[end:].lstrip(" ,")
    return re.sub(r"\s+", " ", text).strip(" ,")


def clean_free_text(text: str) -> str:
    """A title or body without "please", "thanks" or a leading "to"."""
    text = text.strip()
    previous = None
    while previous != text:
        previous = text
        text = _POLITE_HEAD.sub("", text)
        text = _POLITE_TAIL.sub("", text).strip()
    return text.strip(" ,:;-\"'")


# "send the consent form, could you note that down (for the 3rd)": the ask to write it
# down, said after the to-do, is no part of its title.
_ASKED_TO_NOTE = rx(
    r"(?:[,;]\s*|\s+(?=(?:can|could|would|will) you\b))(?:so |and )?"
    r"(?:(?:can|could|would|will) you |please )?(?:please |just )?"
    r"(?:note|write|jot|put|add|save|pop|stick|log|keep|set)"
    r" (?:that|it|this|them)(?: down| in| up)?"
    r"(?: (?:on|to|in|onto) (?:my|the) (?:list|to-?do list|tasks|reminders|calendar))?"
    r"(?: for me)?(?: please)?$"
)


_SOMETIME_BEFORE = rx(r"\b(?:sometime|some time|at some point|anytime|any time)\s+$")
_ABOUT_A_DAY = rx(r"\b(?:about|regarding|re|concerning)\s+$")
# A date said as a thing's name: after "the", "my"… and before a noun ("the jan 20 report",
# "my 3/15 results"); a word that goes with a day or an hour after it is no noun.
_BEFORE_A_NAMING_DAY = rx(r"\b(?:the|my|our|his|her|their|your|that|this)\s+$")
_NOUN_AFTER_A_DAY = rx(
    r"^\s+(?!(?:at|by|on|in|and|or|for|to|please|before|after|from|until|till|around|about"
    r"|noon|midnight|morning|afternoon|evening|night|tonight|am|pm|a\.m|p\.m|o'?clock|is|it|so"
    r"|then|too|as|if|when|because|with|but|next|this|week|weekend|month|year|latest|lunch|of"
    r"|lunchtime|dinner|first|thing|sometime|due|that|which|high|low|normal|urgent|priority"
    r"|important)\b)[a-z][a-z'-]*"
)
# A date of the calendar (a number, a month, an ordinal), not "tomorrow" or "the day after".
_CALENDAR_DAY = rx(
    r"\d|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|\b(?:first|second|third|fourth"
    r"|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|[a-z]+teenth|twentieth"
    r"|thirtieth)\b"
)


def _days_naming_a_thing(text: str, when: When) -> list[tuple[int, int]]:
    """The spans of `when` said as the name of a thing ("the march 3 invoice")."""
    if " " not in text:
        return []
    return [
        (start, end)
        for start, end in when.spans
        if _CALENDAR_DAY.search(text[start:end])
        and (
            _BEFORE_A_NAMING_DAY.search(text[:start])
            # ("a gift for the 20th party": the day read with its "for the")
            or _NAMING_DAY_LEAD.match(text, start)
        )
        and _NOUN_AFTER_A_DAY.match(text[end:])
    ]


_NAMING_DAY_LEAD = rx(r"(?:(?:for|on|from) )?(?:the|my) ")
# "add a task to move my haircut to friday", "remind me to push the meeting to the 3rd":
# the day is where the to-do's own verb puts something, part of its title; no due date
# (cut out, it left "Move my haircut to", due Friday).
_MOVED_TO_A_DAY = rx(
    r"\b(?:move|push|reschedule|shift|bump|switch|postpone|delay|bring|pull|change)\b"
    r"[^,;]*\s(?:to|into|till|until)\s+$"
)
# "buy dog food, no date", "…, no deadline", "…, whenever": said of the due date, which
# stays unset; no part of the title.
_NO_DAY = rx(
    r"(?:[,;]\s*(?:(?:with|and|but) )?|\s+(?:with|and|but) )"
    r"(?:no|without(?: a)?|there's no|not a) (?:due |particular |set )?"
    r"(?:date|day|deadline|due date)(?: (?:needed|for it|on it|yet|required))?$"
    r"|[,;]\s*(?:whenever|any ?time|no rush)$"
)


@dataclass(frozen=True, slots=True)
class TaskDraft:
    title: str
    priority: Priority | None
    due_on: str | None
    when: When | None


# Words in quotes: an opening quote after a space, a closing one before a space or a
# stop (the apostrophe of "it's" is neither).
_QUOTED = rx(r"(?:^|(?<=\s))['\"‘“].+?['\"’”](?=\s|$|[,.!?;:])")


def _inside(spans: Iterable[tuple[int, int]], regions: Sequence[tuple[int, int]]) -> bool:
    """Whether any of `spans` lies within one of `regions`."""
    return any(a <= start and end <= b for start, end in spans for a, b in regions)


def task_draft(
    title_words: str,
    clause_priority: Priority | None,
    original: str,
    now: datetime,
    *,
    dated: bool = True,
) -> TaskDraft:
    """A task title with its due date and priority words taken out of it; words quoted in
    it ("read the 'it's urgent' memo") are the title's, whatever they say (`dated` False:
    the days said stay in the title, "every tuesday", and no due date is read)."""
    spans: list[tuple[int, int]] = []
    quoted = [m.span() for m in _QUOTED.finditer(title_words)]
    when = find_when(title_words, now) if dated else None
    if when is not None and (not when.spans or _inside(when.spans, quoted)):
        # (nothing read where an hour was said, "move the car before 8": the words stay the
        # title's; taken as read, the turn failed on the spans it does not have)
        when = None
    if when is not None and _ABOUT_A_DAY.search(title_words[: when.spans[0][0]]):
        when = None  # "email Sarah about the 3rd": what the to-do is about, not its day
    if when is not None and _MOVED_TO_A_DAY.search(title_words[: when.spans[0][0]]):
        when = None  # "move my haircut to friday": the day is the to-do's, not its due day
    if when is not None and (named := _days_naming_a_thing(title_words, when)):
        # "send the march 3 invoice to Bob", "print the jan 20 report by friday": a date
        # between "the" and a noun names the thing; it stays in the title and is no due
        # date (was: due March 3, titled "Send the invoice to bob"; due Jan 20, not Friday).
        # The due date is what the rest of the words say, if they say one.
        masked = title_words
        for start, end in named:
            masked = masked[:start] + "x" * (end - start) + masked[end:]
        when = find_when(masked, now)
        if when is not None and (not when.spans or _days_naming_a_thing(masked, when)):
            when = None
    due_on = None
    if when is not None and when.day is not None:
        due_on = when.day.isoformat()
        # "clean the garage sometime next month": "sometime" goes with the day, no word of
        # the title (was titled "Clean the garage sometime")
        spans.extend(
            (vague.start(), end)
            if (vague := _SOMETIME_BEFORE.search(title_words[:start])) is not None
            else (start, end)
            for start, end in when.spans
        )
    elif when is not None and when.no_such_date is not None:
        spans.extend(when.spans)  # "on june 31st" is asked about, not kept in the title
    elif dated and (relative := relative_day(title_words, now.date())) is not None:
        # "due in a fortnight", "in three days"
        due_on = relative[0].isoformat()
        spans.append(relative[1])
    found_priority, priority_span = priority(title_words)
    if priority_span is not None and _inside((priority_span,), quoted):
        found_priority, priority_span = None, None
    if priority_span is not None:
        spans.append(priority_span)
    text = cut_spans(title_words, spans) if spans else title_words
    text = clean_free_text(_NO_DAY.sub("", _ASKED_TO_NOTE.sub("", text)))
    title = _sentence_case(_imperative(restore_case(text, original)))
    return TaskDraft(
        title=title,
        priority=clause_priority or found_priority,
        due_on=due_on,
        when=when,
    )


_SUBJECT_LEAD = rx(
    r"^(?:i think |it seems |it looks like |i believe )(?:that )?"
    # "yeah i'm calling because the app won't let me log in": why the call, not the case
    r"|^(?:(?:yeah|yes|so|well|hi|hello|ok|okay|um|uh)[, ]+)*(?:i'm|i am|im) (?:calling"
    r"|ringing|phoning|writing|reaching out|getting in touch) (?:because|about|since|as|cause"
    r"|'cause|to say(?: that)?) "
)


# Words that point at something said before rather than say what a case is about.
_POINTS_BACK = frozenset(
    {
        "that",
        "this",
        "it",
        "them",
        "those",
        "these",
        "that one",
        "this one",
        "the same",
        "that too",
        "all that",
        "that as well",
        "this too",
        "that issue",
        "this issue",
        "that problem",
        "this problem",
    }
)


_PLEASE_BETWEEN = re.compile(
    r",? please\b(?=[,.;!?]|$| (?:i|i'm|i've|we|because|as|since)\b)", re.IGNORECASE
)


_IT_THEN_TOLD = rx(r"^(?:it|that|this|them)\s*:\s*")


# (with a subject cut off after it: "…after my checkup and i", "…and we")
_DANGLING = rx(
    r"(?:\s+(?:and|but|or|so|then|the|a|an|to|for|of|with|in|on|at|my|your|i|we|they"
    r"|he|she))+$"
)


def ticket_text(body_words: str, original: str) -> tuple[str, str] | None:
    """(subject, body) of a support case from the words describing the problem."""
    if ":" in body_words:
        # "…, can you open a case about it" read as "about it: i was overcharged…": the
        # words said first are what "it" is.
        body_words = _IT_THEN_TOLD.sub("", body_words, count=1)
    body = clean_free_text(body_words)
    if len(body) < 3 or body.lower().strip(" .!?") in _POINTS_BACK:
        return None  # "open a ticket for that": what it is about was said before, or not
    body = _sentence_case(restore_case(body, original))
    subject = _SUBJECT_LEAD.sub("", body.lower()).strip()
    subject = restore_case(subject, original) if subject else body
    if "please" in body:
        # "about my bill please, I think …": the politeness is no part of what it is about
        body, subject = _PLEASE_BETWEEN.sub("", body), _PLEASE_BETWEEN.sub("", subject)
    subject = re.split(r"[.;!?]\s|, (?:and|but|because) ", subject)[0]
    if len(subject) > 60:
        subject = subject[:60].rsplit(" ", 1)[0]
        # (cut short, a subject ends on a word of its own: not "…for two days and")
        subject = _DANGLING.sub("", subject)
    if not body.endswith((".", "!", "?")):
        body += "."
    return _sentence_case(subject.rstrip(" ,.")), body
